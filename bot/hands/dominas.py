"""«ДОМИНА*С»: the private hand replaces the table's «1…10» tile numbers.

His hand is drawn as the board draws tiles (render/hands.py), the tiles that fit now
rimmed; on his turn there is one button per legal placement — the tile and the nest,
`🟢12 0-3-6 ▲` — so a usual turn is one tap. Its code `q<number>.<nest><variant>` names
the tile by its hand number (public: the table knows which numbers a seat holds) and the
nest (public), nothing else. With very many placements (over `MAX_BUTTONS`) there is one
button per fitting tile (`h<number>`, the presenter's two-step choice) and, once one is
chosen, its nests.

The table keeps its public choices — the nests, «🂠 Мои фишки», «⏹ Хватит»; the tile
numbers come back on it only for a player whose ephemeral hand could not be sent
(`Shown.FALLBACK`), so that he can still play from the table.
"""

from __future__ import annotations

import html
import re
from typing import Any

from pydantic import BaseModel

from bot.hands import HandView, Shown, digest, without
from bot.presenters.base import Btn
from bot.presenters.dominas import DominasPresenter, tile_name, tile_text
from games.dominas import GAME, Action, Phase, State
from games.dominas.engine import placements
from games.dominas.tiles import sort_key
from locales import Translator
from render.hands import dominas_hand

MAX_BUTTONS = 30
PER_ROW = 2
_SLOT_CODE = re.compile(r"(h|pg)\d+")


class DominasHand:
    def view(
        self,
        state: BaseModel,
        user: int,
        ui: dict[str, Any],
        names: dict[int, str],
        t: Translator,
    ) -> HandView | None:
        assert isinstance(state, State)
        s = state
        if user not in s.players:
            return None
        seat = s.players.index(user)
        v = GAME.view(s, user)
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
            buttons = self._buttons(s, shown, options, ui)
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
        ui: dict[str, Any],
    ) -> list[list[Btn]]:
        def place(tile: str, k: int, a: Action) -> Btn:
            assert a.nest is not None
            where = DominasPresenter._place_text(a)
            return Btn(f"{tile_text(tile)} {where}", f"q{k}.{a.nest.value}{a.variant}")

        every = [place(x, k, a) for x, k in shown for a in options[x]]
        if len(every) <= MAX_BUTTONS:
            return [every[i : i + PER_ROW] for i in range(0, len(every), PER_ROW)]
        chosen = DominasPresenter._selected(ui, s)
        rows: list[list[Btn]] = []
        for x, k in shown:
            if not options[x]:
                continue
            if k == chosen:
                here = [place(x, k, a) for a in options[x]]
                rows += [here[i : i + PER_ROW] for i in range(0, len(here), PER_ROW)]
            else:
                rows.append([Btn(tile_text(x) + " …", f"h{k}")])
        return rows

    def public(self, state: BaseModel, buttons: list[list[Btn]], shown: Shown) -> list[list[Btn]]:
        if shown is Shown.FALLBACK:
            return buttons  # his tile numbers stay on the table: he plays from there
        return without(buttons, lambda code: bool(_SLOT_CODE.fullmatch(code)))
