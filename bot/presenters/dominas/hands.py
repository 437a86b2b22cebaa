"""«ДОМИНА*С»'s private hand texts: the popup and the longer message, with where each tile fits."""

from __future__ import annotations

import html

from bot.presenters.dominas.common import (
    POPUP_LIMIT,
    DominasBase,
    named_title,
    tile_name,
    tile_text,
    utf16_len,
)
from games.dominas import Action, Phase, State
from games.dominas.engine import placements
from games.dominas.tiles import (
    NAMED,
    sort_key,
)
from locales import Translator


class Hands(DominasBase):
    # ---------------------------------------------------------------- hand

    def _fits(self, s: State, seat: int, tile: str) -> list[Action]:
        bonus = s.bonus if seat == s.current else None
        return placements(s, tile, bonus)

    def hand_popup(self, s: State, user: int, t: Translator) -> str:
        """One tile per line, by colour and number: `7 🟢12 0-3-6 ✓` (7 is its button);
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
        rows = sorted(zip(hand, numbers, strict=True), key=lambda x: sort_key(x[0]))
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

    def hand_message(self, s: State, user: int, t: Translator) -> str | None:
        if user not in s.players or s.phase is Phase.OVER:
            return None
        seat = s.players.index(user)
        v = self.game.view(s, user)
        hand = v.hand or []
        numbers = v.hand_slots or list(range(1, len(hand) + 1))
        lines = [t("dom.pm.title", n=len(hand))]
        for tile, k in sorted(zip(hand, numbers, strict=True), key=lambda x: sort_key(x[0])):
            where = sorted({self._place_text(a) for a in self._fits(s, seat, tile)})
            fit = t("dom.pm.fits", nests=", ".join(where)) if where else ""
            name = f" ({named_title(tile, t)})" if tile in NAMED else ""
            lines.append(f"<b>{k}</b> · {html.escape(tile_text(tile))}{name}{fit}")
        if v.remembered:
            lines.append("")
            lines.append(t("dom.pm.remembered", tiles=" ".join(map(tile_name, v.remembered))))
        if s.current == seat:
            lines.append("")
            lines.append(t("dom.pm.how"))
        return "\n".join(lines)
