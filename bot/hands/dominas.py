"""«ДОМИНА*С»: the private hand replaces the table's «1…10» tile numbers.

His hand is drawn as the board draws tiles (render/hands.py), the tiles that fit now
rimmed; on his turn there is one button per legal placement — the tile and the nest,
`🟢12 0-3-6 ▲` — so a usual turn is one tap. Its code is the presenter's compound `Put`
(«q.7.T.0»): the tile by its hand number (public: the table knows which numbers a seat
holds) and the nest (public), nothing else. With very many placements (over
`MAX_BUTTONS`) there is one button per fitting tile (`Number`, «h.7», the presenter's
two-step choice) and, once one is chosen, its nests.

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
from bot.presenters.dominas import DominasBase, tile_name, tile_text
from bot.presenters.dominas.common import Number, Put, Ui
from games.dominas import Action, Phase, State
from games.dominas.engine import placements
from games.dominas.tiles import sort_key
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
        tiles = [(x, bool(options[x])) for x, _ in shown]
        lines = [t("hand.dom.title", n=len(hand))]
        if v.remembered:
            lines.append(t("dom.pm.remembered", tiles=" ".join(map(tile_name, v.remembered))))
        buttons: list[list[Btn]] = []
        if mine:
            buttons = self._buttons(s, shown, options, c.ui)
            lines.append(t("hand.dom.your_turn" if buttons else "hand.dom.nothing_fits"))
        else:
            lines.append(t("hand.only_you"))
        return HandView(
            caption="\n".join(html.escape(x, quote=False) for x in lines),
            buttons=buttons,
            picture_key=digest(tiles),
            picture=lambda: dominas_hand(tiles),
        )

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
