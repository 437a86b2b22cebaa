"""«Семидорожник»'s private hand: the popup with its hint, and the keeper of his hand in
the group."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.presenters.seven_tracks.common import T, tiles_text
from bot.presenters.seven_tracks.compound import Compound
from games.seven_tracks import Phase, State
from games.seven_tracks.model import TileKind, kind_of
from locales import Translator

if TYPE_CHECKING:
    from bot.hands import HandKeeper


class Hands(Compound):
    # ---------------------------------------------------------------- hand

    def hand_keeper(self) -> HandKeeper:
        """His hand in the group (bot/hands/seven_tracks.py)."""
        from bot.hands.seven_tracks import SevenTracksHand

        return SevenTracksHand(self)

    def hand_popup(self, s: State, user: int, t: Translator) -> str:
        v = self.game.view(s, user)
        hand = [kind_of(x) for x in (v.hand or [])]
        text = t("st.hand", n=len(hand), tiles=tiles_text(hand) or "—")
        hint = self._hint(s, user, t)
        if hint and len(text) + len(hint) < 195:
            text += "\n" + hint
        return text[:200]

    def _hint(self, s: State, user: int, t: Translator, on_hand: bool = False) -> str:
        """What fits where now (only for the player to move; private). `on_hand`: for his
        hand's message, which carries the priority tiles' buttons itself (the table's
        «⭐ Приоритет…» leaves the table then)."""
        if self.game.to_act(s) != user or s.phase != Phase.PLACING:
            return ""
        fits: dict[str, list[TileKind]] = {}
        for a in self.game.legal_actions(s):
            if a.type == T.PLACE and a.track is not None and a.kind is not None:
                fits.setdefault(str(a.track), []).append(a.kind)
            elif a.type == T.PLACE_T7 and a.kind is not None:
                fits.setdefault("7", []).append(a.kind)
        if not fits:
            tiles = self._priority_tiles(s)
            if tiles:
                key = "hand.st.hint_nothing_priority" if on_hand else "st.hint_nothing_priority"
                return t(key, tiles=self._offer(tiles))
            return t("st.hint_nothing")
        parts = [f"{k}: {tiles_text(kinds)}" for k, kinds in sorted(fits.items())]
        return t("st.hint", fits="; ".join(parts))
