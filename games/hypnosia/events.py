"""What happens in «Гипнозия», in data: one `Fact` per kind of event (`Event.data`).

The event's `seat` is the player it is about; seats, not player ids, stand in the facts
too (`victim`, `winners`). Places are the engine's: a ring cell `k.j`, `S` a start
position, `C` the centre (`games.hypnosia.model`).

>>> from games.hypnosia import GAME
>>> s = GAME.new([1, 2], seed=1)
>>> _, events = GAME.apply(s, GAME.decode_action("R"))
>>> events[0].data
Rolled(dice=[1, 3])
"""

from __future__ import annotations

from pydantic import Field

from games.hypnosia.model import EndReason, Route
from games.protocol import Fact


class Rolled(Fact):
    """R5: the player to act rolled both dice."""

    kind = "rolled"
    dice: list[int]


class Moved(Fact):
    """R8–R15: `tokens` (two for a pair) went by `die` along `route` from `src` to `to`;
    into the centre (`to` = `C`) they took the centre `fields`."""

    kind = "moved"
    tokens: list[int]
    die: int
    route: Route
    pair: bool
    src: str
    to: str
    fields: list[int] = Field(default_factory=list)


class EnteredCentre(Fact):
    """R11: token `token` took the centre's field `field` (5 … 1)."""

    kind = "entered_centre"
    token: int
    field: int


class Captured(Fact):
    """R14: the mover took the `victim` seat's `tokens` at the cell `at`."""

    kind = "captured"
    victim: int
    tokens: list[int]
    at: str


class OutOfTokens(Fact):
    """R18: the player has no token left in play while the game goes on: nobody can
    capture from him and he never moves again (R14), so his `score` is final (R16)."""

    kind = "out_of_tokens"
    score: int


class DiceLapsed(Fact):
    """R6, R17a: the `dice` left of the roll have no legal use."""

    kind = "dice_lapsed"
    dice: list[int]


class TurnEnded(Fact):
    """END_TURN (§5)."""

    kind = "turn_ended"


class TurnStarted(Fact):
    """R18: the next seat with tokens in play begins the `turn`-th turn, in `round`."""

    kind = "turn_started"
    round: int
    turn: int


class GameOver(Fact):
    """R17, R19, R20: why it ended, the winning seats and every seat's score."""

    kind = "game_over"
    reason: EndReason
    winners: list[int]
    scores: list[int]


class PlayerLeft(Fact):
    """R20: the player left; `tokens_removed` of his tokens left the board."""

    kind = "player_left"
    tokens_removed: int
