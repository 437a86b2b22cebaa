"""«ДОМИНА*С»'s private hand popup (the fallback's `show_alert`): the tiles by number, ✓
where one fits. (The hand in the group and its words for the private chat:
bot/hands/dominas.py.)"""

from __future__ import annotations

from bot.presenters.dominas.common import (
    POPUP_LIMIT,
    DominasBase,
    tile_name,
    tile_text,
    utf16_len,
)
from games.dominas import Action, State
from games.dominas.engine import placements
from locales import Translator


class Hands(DominasBase):
    # ---------------------------------------------------------------- hand

    def _fits(self, s: State, seat: int, tile: str) -> list[Action]:
        bonus = s.bonus if seat == s.current else None
        return placements(s, tile, bonus)

    def hand_popup(self, s: State, user: int, t: Translator) -> str:
        """One tile per line, in the order of its number (the table's number buttons, in
        the fallback): `7 🟢12 0-3-6 ✓` (7 is its button);
        a long hand drops the symbols of tiles that do not fit now, then puts several
        tiles on a line."""
        if user not in s.players:
            return t("dom.not_in_game")
        seat = s.players.index(user)
        v = self.game.view(s, user)
        hand = v.hand or []
        if not hand:
            return t("dom.hand_empty")
        numbers = v.hand_slots or list(range(1, len(hand) + 1))
        rows = sorted(zip(hand, numbers, strict=True), key=lambda x: x[1])
        marks = {tile: bool(self._fits(s, seat, tile)) for tile in hand}
        head = t("dom.hand", n=len(hand))

        def item(k: int, tile: str, full: bool) -> str:
            text = tile_text(tile) if full else tile_name(tile)
            return f"{k} {text}" + (" ✓" if marks[tile] else "")

        text = ""
        for mode in ("all", "fitting", "short"):
            parts = [
                item(k, tile, mode == "all" or (mode == "fitting" and marks[tile]))
                for tile, k in rows
            ]
            text = head + "\n" + "\n".join(parts)
            if utf16_len(text) <= POPUP_LIMIT:
                break
        if utf16_len(text) > POPUP_LIMIT:  # a big hand: several short tiles a line
            text = head + "\n" + " · ".join(item(k, tile, False) for tile, k in rows)
        while utf16_len(text) > POPUP_LIMIT:
            text = text[:-2] + "…"
        if v.remembered:
            extra = "\n" + t("dom.remembered_short", tiles=" ".join(map(tile_name, v.remembered)))
            if utf16_len(text + extra) <= POPUP_LIMIT:
                text += extra
        return text
