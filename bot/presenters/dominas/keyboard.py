"""«ДОМИНА*С»'s group keyboard, from the public view only: the nests, the numbers of the
hand of the player to move (paged), «Мои фишки», «Хватит»."""

from __future__ import annotations

from typing import Any

from bot.presenters.base import Btn, shown_page
from bot.presenters.dominas.common import SLOTS_PER_PAGE, SLOTS_PER_ROW, DominasBase
from games.dominas import Phase, State
from locales import Translator


class Keyboard(DominasBase):
    # ---------------------------------------------------------------- keyboard

    def keyboard(
        self, s: State, ui: dict[str, Any], names: dict[int, str], t: Translator
    ) -> list[list[Btn]]:
        v = self.game.view(s, None)
        if v.phase is Phase.OVER or v.current is None:
            return []
        rows: list[list[Btn]] = []
        nests: list[Btn] = []
        for n in v.nests:
            nests.append(Btn(self._nest_label(n.pos, n.symbol, 0, t), f"n{n.pos.value}0"))
            if n.far:
                nests.append(Btn(self._nest_label(n.pos, n.symbol, 1, t), f"n{n.pos.value}1"))
        rows += [nests[i : i + 4] for i in range(0, len(nests), 4)]
        numbers = v.players[v.current].slots
        size = len(numbers)
        pages = max(1, -(-size // SLOTS_PER_PAGE))
        page = shown_page(ui, s.version, pages)
        first = page * SLOTS_PER_PAGE
        chosen = self._selected(ui, s)
        slots = [
            Btn(f"[{k}]" if k == chosen else str(k), f"h{k}")
            for k in numbers[first : first + SLOTS_PER_PAGE]
        ]
        if slots:  # balanced rows of at most SLOTS_PER_ROW (10 tiles: 5 + 5)
            per = -(-len(slots) // -(-len(slots) // SLOTS_PER_ROW))
            rows += [slots[i : i + per] for i in range(0, len(slots), per)]
        if pages > 1:
            rows.append(
                [
                    Btn("◀", f"pg{(page - 1) % pages}"),
                    Btn(f"{page + 1}/{pages}", f"pg{page}"),
                    Btn("▶", f"pg{(page + 1) % pages}"),
                ]
            )
        last = [Btn(t("dom.btn.hand"), "hand")]
        if v.phase is Phase.BONUS:
            last.append(Btn(t("dom.btn.stop"), "s"))
        rows.append(last)
        return rows
