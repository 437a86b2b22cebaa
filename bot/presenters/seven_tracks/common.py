"""What every part of «Семидорожник»'s presenter shares: the tiles' emoji and texts, and
the base class (the lobby, the house rules, the button language, names, the picture's
key)."""

from __future__ import annotations

import hashlib
from collections import Counter

from pydantic import BaseModel

from bot.presenters.base import (
    Btn,
    LengthChoice,
    Presenter,
    Rule,
    TableCtx,
    flag,
    language_key,
)
from bot.presenters.buttons import Code
from bot.presenters.seven_tracks.codes import CODES, Ui
from games.seven_tracks import GAME, Action, ActionType, SevenTracks, State
from games.seven_tracks.model import KINDS, TileKind
from locales import DEFAULT_LANGUAGE

T = ActionType

EMOJI: dict[TileKind, str] = {
    TileKind.RED: "🟥",
    TileKind.ORANGE: "🟧",
    TileKind.YELLOW: "🟨",
    TileKind.GREEN: "🟩",
    TileKind.CYAN: "🩵",
    TileKind.BLUE: "🟦",
    TileKind.VIOLET: "🟪",
    TileKind.WHITE: "⬜",
    TileKind.BLACK: "⬛",
    TileKind.SKIP: "⏭",
    TileKind.PREVIOUS: "⏮",
    TileKind.OPPOSITE: "🔄",
    TileKind.RESTRICT: "⛔",
    TileKind.FIRST_MOVE: "🥇",
    TileKind.EXCHANGE: "🔀",
    TileKind.UNIVERSAL: "✨",
}
# the redirects in the order of the priority menu's buttons
ROLE_ORDER: tuple[TileKind, ...] = (
    TileKind.SKIP,
    TileKind.PREVIOUS,
    TileKind.OPPOSITE,
    TileKind.RESTRICT,
)
MAX_STEPS = 60


def tiles_text(kinds: list[TileKind], compact: bool = True) -> str:
    """'🟥×2 🟨 ⬜' in KINDS order."""
    counts = Counter(kinds)
    parts = []
    for k in KINDS:
        n = counts.get(k, 0)
        if n:
            parts.append(EMOJI[k] + (f"×{n}" if n > 1 else ""))
    return (" " if compact else ", ").join(parts)


class SevenTracksBase(Presenter[State, Ui]):
    game_id = "seven_tracks"
    strings = "st"
    title_key = "game.seven_tracks.title"
    title_short_key = "game.seven_tracks.short"
    aliases = ("семидорожник", "7", "шестигранник", "seven tracks", "seventracks", "st")
    house_rules: tuple[Rule, ...] = (
        Rule("hand_size", (12, 10, 14)),
        Rule("max_draws", (5, 3, 7)),
        Rule("first_out_bonus", (7, 0, 14)),
        Rule("skip_after_move", ("skip_next", "no_effect")),
        flag("exchange_allows_priority", True),
        flag("black_anywhere_after_move"),
        flag("allow_same_turn_unblock"),
        flag("black_discard_on_any_double"),
        flag("double_t7_counts"),
        flag("bonus_store_persists"),
    )
    game: SevenTracks
    ui_type = Ui

    def __init__(self, first_move_seconds: float = 20.0) -> None:
        super().__init__(GAME)
        self.first_move_seconds = first_move_seconds  # the window's, told in the caption

    def codes(self) -> tuple[type[Code], ...]:
        return CODES

    def act(self, text: str, action: Action) -> Btn:
        """A button that applies `action`."""
        return Btn(text, self.buttons.action(action))

    # ---------------------------------------------------------------- lobby

    def choices(self) -> list[LengthChoice]:
        return [
            LengthChoice("r1", "game.seven_tracks.len.one_round", {"single_round": True}),
            LengthChoice("s72", "game.seven_tracks.len.to72", {"target_score": 72}),
            LengthChoice("s144", "game.seven_tracks.len.to144", {"target_score": 144}),
        ]

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def seat_name(c: TableCtx[Ui], state: State, seat: int | None) -> str:
        """The name of the player in `seat`, HTML-escaped («?» for none)."""
        if seat is None or not 0 <= seat < len(state.players):
            return "?"
        return c.name(state.players[seat])

    # ---------------------------------------------------------------- picture

    def view_key(
        self, view: BaseModel, language: str = DEFAULT_LANGUAGE, raw: str | None = None
    ) -> str:
        # the round summary is not drawn: a new round alone must not re-send the picture
        raw = view.model_dump_json(exclude={"last_round"})
        return language_key(hashlib.sha1(raw.encode()).hexdigest()[:16], language)
