"""What every part of «Семидорожник»'s presenter shares: the tiles' emoji and texts, and
the base class (the lobby, the state's view for the table, names, the picture's key)."""

from __future__ import annotations

import hashlib
import html
from collections import Counter
from typing import Any

from pydantic import BaseModel

from bot.presenters.base import LengthChoice, Presenter, language_key
from games.seven_tracks import GAME, ActionType, Phase, SevenTracks, State, View
from games.seven_tracks.model import KINDS, OPPOSITE, PREVIOUS, RESTRICT, SKIP
from locales import DEFAULT_LANGUAGE

T = ActionType

EMOJI: dict[str, str] = {
    "R": "🟥",
    "O": "🟧",
    "Y": "🟨",
    "G": "🟩",
    "C": "🩵",
    "B": "🟦",
    "V": "🟪",
    "W": "⬜",
    "K": "⬛",
    "SK": "⏭",
    "PV": "⏮",
    "OP": "🔄",
    "RS": "⛔",
    "FM": "🥇",
    "EX": "🔀",
    "U": "✨",
}
ROLE_ORDER: tuple[str, ...] = (SKIP, PREVIOUS, OPPOSITE, RESTRICT)
MAX_STEPS = 60


def tiles_text(kinds: list[str], compact: bool = True) -> str:
    """'🟥×2 🟨 ⬜' in KINDS order."""
    counts = Counter(kinds)
    parts = []
    for k in KINDS:
        n = counts.get(k, 0)
        if n:
            parts.append(EMOJI[k] + (f"×{n}" if n > 1 else ""))
    return (" " if compact else ", ").join(parts)


def _seat_user(state: State, seat: int | None) -> int | None:
    if seat is None or not 0 <= seat < len(state.players):
        return None
    return state.players[seat]


class SevenTracksBase(Presenter[State, Any]):
    game_id = "seven_tracks"
    strings = "st"
    title_key = "game.seven_tracks.title"
    title_short_key = "game.seven_tracks.short"
    aliases = ("семидорожник", "7", "шестигранник", "seven tracks", "seventracks", "st")
    game: SevenTracks

    def __init__(self, first_move_seconds: float = 20.0) -> None:
        self.game = GAME
        self.first_move_seconds = first_move_seconds

    # ---------------------------------------------------------------- lobby

    def choices(self) -> list[LengthChoice]:
        return [
            LengthChoice("r1", "game.seven_tracks.len.one_round", {"single_round": True}),
            LengthChoice("s72", "game.seven_tracks.len.to72", {"target_score": 72}),
            LengthChoice("s144", "game.seven_tracks.len.to144", {"target_score": 144}),
        ]

    # ---------------------------------------------------------------- helpers

    def actor(self, s: State) -> int | None:
        if s.phase == Phase.FIRST_MOVE:
            return None  # the window is open to everyone at once (DESIGN)
        return self.game.to_act(s)

    def versioned(self, code: str) -> bool:
        return code not in ("fmd", "fmp")

    def seq_changes(self, old: State, new: State) -> bool:
        """Inside one first-move window nothing visible changes (its buttons carry no
        version): the table must not reveal that the window moved on past someone."""
        a, b = old, new
        if a.phase == b.phase == Phase.FIRST_MOVE and (a.round_no, a.cycle_no) == (
            b.round_no,
            b.cycle_no,
        ):
            return False
        return super().seq_changes(old, new)

    def public_view(self, s: State) -> View:
        """The table's view; in the first-move window it names nobody: whose decision is
        pending would tell who holds the FM or a universal."""
        v = self.game.view(s, None)
        if s.phase == Phase.FIRST_MOVE:
            v = v.model_copy(update={"current": None})
        return v

    def _name(self, names: dict[int, str], state: State, seat: int | None) -> str:
        user = _seat_user(state, seat)
        if user is None:
            return "?"
        return html.escape(names.get(user) or str(user))

    # ---------------------------------------------------------------- picture

    def view_key(
        self, view: BaseModel, language: str = DEFAULT_LANGUAGE, raw: str | None = None
    ) -> str:
        # the round summary is not drawn: a new round alone must not re-send the picture
        raw = view.model_dump_json(exclude={"last_round"})
        return language_key(hashlib.sha1(raw.encode()).hexdigest()[:16], language)
