"""What happens in «ДОМИНА*С», in data: one `Fact` per kind of event (`Event.data`).

The event's `seat` is the player it is about. Tiles are their codes (`М4`, `О15`); the
group learns only how many tiles a player draws (`Drew`), the drawer which (`DrewTiles`,
like his dealt hand, `Dealt`, an event `private_to` him, §7).

>>> from games.dominas import GAME
>>> s = GAME.new([1, 2], seed=1)
>>> s2, events = GAME.apply(s, GAME.legal_actions(s)[0])
>>> events[0].type, type(events[0].data).__name__
('placed', 'TilePlaced')
"""

from __future__ import annotations

from enum import StrEnum

from games.dominas.model import BonusKind, Pos
from games.protocol import Fact


class BonusEnd(StrEnum):
    """Why a bonus series ended (R20, R21, R27)."""

    STOP = "stop"  # the player stopped it
    TIMEOUT = "timeout"  # his time ran out
    USED_UP = "used_up"  # the sum bonus's three tiles are placed
    NOTHING_FITS = "nothing_fits"  # no bonus placement is left to him


class DrawReason(StrEnum):
    """Why tiles were drawn from the bazaar."""

    NEED = "need"  # nothing fits at the start of his turn (R11)
    EXTRA = "extra"  # the skip of a run gives one more tile (R17)
    TIMEOUT = "timeout"  # the penalty of a timed-out turn (R27)


class GameEnd(StrEnum):
    """Why a game (партия) ended (R23, R24, R28)."""

    WIN = "win"  # a player placed his last tile
    FISH = "fish"  # рыба: nobody can place
    ABANDONED = "abandoned"  # fewer than two sides are left


class GameStarted(Fact):
    """Game `game` of the match is dealt: `hands` tiles per seat, `bazaar` left over."""

    kind = "game_started"
    game: int
    hands: list[int]
    bazaar: int


class Dealt(Fact):
    """The player's dealt hand (private to him)."""

    kind = "dealt"
    tiles: list[str]


class TilePlaced(Fact):
    """`tile` became the figure's `n`-th, on `floor` in the `nest`, attached by its
    `side` (None for the first tile; `variant` of the button) to a `symbol` (R3–R9);
    `bonus` for a placement of a bonus series."""

    kind = "placed"
    tile: str
    n: int
    floor: int
    nest: Pos
    variant: int
    side: int | None
    symbol: int | None
    bonus: bool


class BonusStarted(Fact):
    """R20, R21: Колобок, or a sum bonus of tiles with `target` pips."""

    kind = "bonus_started"
    bonus: BonusKind
    target: int | None


class BonusEnded(Fact):
    """A bonus series is over."""

    kind = "bonus_ended"
    reason: BonusEnd


class Timeout(Fact):
    """R27: the player's time ran out; `penalty`: he draws a tile for it."""

    kind = "timeout"
    penalty: bool


class Drew(Fact):
    """`count` tiles drawn from the bazaar, `bazaar` tiles left there."""

    kind = "drew"
    count: int
    reason: DrawReason
    bazaar: int


class DrewTiles(Fact):
    """Which tiles the player drew (private to him)."""

    kind = "drew_tiles"
    tiles: list[str]


class TurnEnded(Fact):
    """END_TURN (§6): `placed` tiles this turn."""

    kind = "turn_ended"
    placed: int


class Skipped(Fact):
    """R14–R17: a run of four (its `run` kinds, the four `tiles`) placed by the seat `by`
    skips this player's turn; `extra`: he draws a tile too, for `reason`."""

    kind = "skipped"
    run: list[str]
    tiles: list[str]
    extra: bool
    reason: str | None
    by: int


class TurnStarted(Fact):
    """The `turn`-th turn of the game is the player's: he can place."""

    kind = "turn_started"
    turn: int


class Passed(Fact):
    """R11: nothing fits and the bazaar is empty: the turn passes."""

    kind = "passed"


class GameOver(Fact):
    """R23–R25: game `game` is over; per side: `tiles` left, `scores`, match `totals`."""

    kind = "game_over"
    game: int
    reason: GameEnd
    winner_side: int | None
    tiles: list[int]
    scores: list[int]
    totals: list[int]


class MatchOver(Fact):
    """The match is over: the winning seats and each side's total."""

    kind = "match_over"
    winners: list[int]
    totals: list[int]


class PlayerLeft(Fact):
    """R28: his `returned` tiles went back to the bazaar (now `bazaar` tiles)."""

    kind = "player_left"
    returned: int
    bazaar: int
