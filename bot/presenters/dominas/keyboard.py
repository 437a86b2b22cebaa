"""«ДОМИНА*С»'s group keyboard, from the public view only: the nests (the one chosen
first in brackets), the numbers of the hand of the player to move (paged; the table
shows them only to a player whose private hand fell back, bot/hands/dominas.py),
«Мои фишки», «Хватит»."""

from __future__ import annotations

from bot.presenters.base import HAND, Btn, TableCtx, page_row, shown_page
from bot.presenters.dominas.common import (
    SLOTS_PER_PAGE,
    SLOTS_PER_ROW,
    AtNest,
    DominasBase,
    Number,
    T,
    Ui,
)
from games.dominas import Action, Phase, State


class Keyboard(DominasBase):
    # ---------------------------------------------------------------- keyboard

    def keyboard(self, s: State, c: TableCtx[Ui]) -> list[list[Btn]]:
        t = c.t
        v = self.game.view(s, None)
        if v.phase is Phase.OVER or v.current is None:
            return []
        rows: list[list[Btn]] = []
        nests: list[Btn] = []
        spot = self._spot(c.ui, s)
        for n in v.nests:
            for variant in (0, 1) if n.far else (0,):
                label = self._nest_label(n.pos, n.symbol, variant, t)
                if spot == (n.pos, variant):
                    label = f"[{label}]"  # chosen first: waits for its tile
                nests.append(Btn(label, AtNest(n.pos, variant).code()))
        rows += [nests[i : i + 4] for i in range(0, len(nests), 4)]
        numbers = v.players[v.current].slots
        size = len(numbers)
        pages = max(1, -(-size // SLOTS_PER_PAGE))
        page = shown_page(c.ui.page, s.version, pages)
        first = page * SLOTS_PER_PAGE
        chosen = self._selected(c.ui, s)
        slots = [
            Btn(f"[{k}]" if k == chosen else str(k), Number(k).code())
            for k in numbers[first : first + SLOTS_PER_PAGE]
        ]
        if slots:  # balanced rows of at most SLOTS_PER_ROW (10 tiles: 5 + 5)
            per = -(-len(slots) // -(-len(slots) // SLOTS_PER_ROW))
            rows += [slots[i : i + per] for i in range(0, len(slots), per)]
        if pages > 1:
            rows.append(page_row(page, pages))
        last = [Btn(t("dom.btn.hand"), HAND)]
        if v.phase is Phase.BONUS:
            last.append(Btn(t("dom.btn.stop"), self.buttons.action(Action(type=T.STOP))))
        rows.append(last)
        return rows
