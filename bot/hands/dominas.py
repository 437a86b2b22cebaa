"""«ДОМИНА*С»: the private hand replaces the table's «1…10» tile numbers.

His hand is drawn as the board draws tiles (render/hands.py), the tiles that fit now
rimmed; on his turn there is one button per legal placement — the tile and the nest,
`🟢12 0-3-6 ▲` — so a usual turn is one tap. Its code is the presenter's compound `Put`
(«q.7.T.0»): the tile by its hand number (public: the table knows which numbers a seat
holds) and the nest (public), nothing else. With very many placements (over
`MAX_BUTTONS`) there is one button per fitting tile (`Number`, «h.7», the presenter's
two-step choice) and, once one is chosen, its nests.

A nest pressed first on the table where several of his tiles fit (`Ui.at`) opens his
hand with just those tiles at that nest. In words (`HandView.text`, for the fallback's
private chat) the tiles are listed once, in the order of their numbers.

The table keeps its public choices — the nests, «🀄 Мои фишки», «⏹ Хватит»; the tile
numbers and their pages (`Number`, `ToPage`) come back on it only for a player whose
ephemeral hand could not be sent (`Shown.FALLBACK`), so that he can still play from the
table.
"""

from __future__ import annotations

import html

from bot.hands import HandView, Shown, digest, without
from bot.presenters.base import Btn, TableCtx, ToPage
from bot.presenters.buttons import Unknown
from bot.presenters.dominas import DominasBase, named_title, tile_name, tile_text
from bot.presenters.dominas.common import Number, Put, Ui
from games.dominas import Action, Phase, State
from games.dominas.engine import placements
from games.dominas.model import View
from games.dominas.tiles import NAMED, sort_key
from locales import Translator
from render.hands import dominas_hand

MAX_BUTTONS = 30
PER_ROW = 2


class DominasHand:
    def __init__(self, presenter: DominasBase) -> None:
        self.p = presenter

    def view(self, state: State, user: int, c: TableCtx[Ui]) -> HandView | None:
        s, t = state, c.t
        if user not in s.players:
            return None
        seat = s.players.index(user)
        v = self.p.game.view(s, user)
        hand = v.hand or []
        numbers = v.hand_slots or list(range(1, len(hand) + 1))
        mine = s.phase is not Phase.OVER and s.current == seat
        options = {x: placements(s, x, s.bonus) if mine else [] for x in hand}
        shown = sorted(zip(hand, numbers, strict=True), key=lambda x: sort_key(x[0]))
        lines = [t("hand.dom.title", n=len(hand))]
        if v.remembered:
            lines.append(t("dom.pm.remembered", tiles=" ".join(map(tile_name, v.remembered))))
        buttons: list[list[Btn]] = []
        turn = ""
        if mine:
            spot = DominasBase._spot(c.ui, s)
            if spot is not None:  # a nest pressed first: the tiles that go there
                at = {x: [a for a in options[x] if (a.nest, a.variant) == spot] for x in hand}
                if any(at.values()):
                    options = at
                else:
                    spot = None
            buttons = self._buttons(s, shown, options, c.ui)
            if spot is not None:
                nest = next(n for n in v.nests if n.pos is spot[0])
                label = DominasBase._nest_label(nest.pos, nest.symbol, spot[1], t)
                turn = t("hand.dom.at_nest", nest=label)
            else:
                turn = t("hand.dom.your_turn" if buttons else "hand.dom.nothing_fits")
            lines.append(turn)
        else:
            lines.append(t("hand.only_you"))
        tiles = [(x, bool(options[x])) for x, _ in shown]  # rimmed: those with a button
        return HandView(
            caption="\n".join(html.escape(x, quote=False) for x in lines),
            buttons=buttons,
            picture_key=digest(tiles),
            picture=lambda: dominas_hand(tiles),
            text=self._text(s, v, shown, options, turn, t),
        )

    def _text(
        self,
        s: State,
        v: View,
        shown: list[tuple[str, int]],
        options: dict[str, list[Action]],
        turn: str,
        t: Translator,
    ) -> str:
        """The hand in words for the private chat (the fallback): a tile a line in the
        order of its number (the table's number buttons), where it fits on his turn."""
        lines = [t("hand.private_head", game=t(self.p.title_key), n=len(shown))]
        for tile, k in sorted(shown, key=lambda x: x[1]):
            where = sorted({DominasBase._place_text(a) for a in options[tile]})
            fit = t("dom.pm.fits", nests=", ".join(where)) if where else ""
            name = f" ({named_title(tile, t)})" if tile in NAMED else ""
            lines.append(f"{k} · {tile_text(tile)}{name}{fit}")
        if v.remembered:
            lines.append(t("dom.pm.remembered", tiles=" ".join(map(tile_name, v.remembered))))
        if turn:
            lines += ["", turn]
        return "\n".join(html.escape(x, quote=False) for x in lines)

    @staticmethod
    def _buttons(
        s: State,
        shown: list[tuple[str, int]],
        options: dict[str, list[Action]],
        ui: Ui,
    ) -> list[list[Btn]]:
        def place(tile: str, k: int, a: Action) -> Btn:
            assert a.nest is not None
            where = DominasBase._place_text(a)
            return Btn(f"{tile_text(tile)} {where}", Put(k, a.nest, a.variant).code())

        every = [place(x, k, a) for x, k in shown for a in options[x]]
        if len(every) <= MAX_BUTTONS:
            return [every[i : i + PER_ROW] for i in range(0, len(every), PER_ROW)]
        chosen = DominasBase._selected(ui, s)
        rows: list[list[Btn]] = []
        for x, k in shown:
            if not options[x]:
                continue
            if k == chosen:
                here = [place(x, k, a) for a in options[x]]
                rows += [here[i : i + PER_ROW] for i in range(0, len(here), PER_ROW)]
            else:
                rows.append([Btn(tile_text(x) + " …", Number(k).code())])
        return rows

    def public(self, state: State, buttons: list[list[Btn]], shown: Shown) -> list[list[Btn]]:
        if shown is Shown.FALLBACK:
            return buttons  # his tile numbers stay on the table: he plays from there
        return without(buttons, self._numbers)

    def _numbers(self, code: str) -> bool:
        """A button of the table's tile numbers or of their pages."""
        try:
            return isinstance(self.p.parse(code), Number | ToPage)
        except Unknown:
            return False
