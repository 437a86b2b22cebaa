"""What happens in «Семидорожник», in data: one `Fact` per kind of event (`Event.data`).

The event's `seat` is the player it is about (None for the table's: a cycle, a round, the
dice-off, the game's end). A tile is named by its kind (`tile`, a `TileKind`), never by
its id, except in `DrewTile`, which is private to the drawer (R73): the table learns only
that he drew (`Drew`).

>>> from games import Event
>>> from games.seven_tracks import GAME, Action, ActionType
>>> s, events = GAME.timeout(GAME.new([1, 2], seed=1))  # nobody declares the first move
>>> [e.type for e in events]
['fm_passed', 'fm_passed', 'dice_off', 'turn_started']
>>> events[2].data
DiceOff(rolls={0: 4, 1: 5})
>>> s, events = GAME.apply(s, Action(type=ActionType.CHOOSE_DICE, n=2))
>>> match events[1]:
...     case Event(seat=seat, data=Rolled(dice=[a, b], double=True)):
...         print(f"seat {seat} rolled a double of {a}s")
seat 1 rolled a double of 2s
"""

from __future__ import annotations

from enum import StrEnum

from games.protocol import Fact
from games.seven_tracks.model import DiceOffRoll, RoundSummary, TileKind

# ------------------------------------------------------------ rounds, cycles


class CycleStarted(Fact):
    """R13: every tile back in the bank, hands dealt anew."""

    kind = "cycle_started"
    cycle: int


class RoundStarted(Fact):
    """R14: a round begins with the `active` seats, in its first-move window (R58)."""

    kind = "round_started"
    round: int
    cycle: int
    active: list[int]


class FmPassed(Fact):
    """The player did not declare the first move (R58)."""

    kind = "fm_passed"


class FmDeclared(Fact):
    """The player declared the first move with his FM or his universal (R58)."""

    kind = "fm_declared"
    tile: TileKind


class FirstMove(Fact):
    """The window closed: the player moves first, by his declared `tile` (R58.2)."""

    kind = "first_move"
    tile: TileKind


class DiceOff(Fact):
    """One roll of the dice-off for the first move (R16): ties roll again."""

    kind = "dice_off"
    rolls: DiceOffRoll


class TurnStarted(Fact):
    """Turn number `turn` begins (R17); `restricted` (R56) and `final` (R65) turns."""

    kind = "turn_started"
    turn: int
    restricted: bool
    final: bool


class TurnEnded(Fact):
    """R64."""

    kind = "turn_ended"


class WentOut(Fact):
    """The player's hand is empty (R63); `first`: the round's first, before the finals."""

    kind = "went_out"
    first: bool


class FinalTurns(Fact):
    """R65: `count` final turns follow the player's going out."""

    kind = "final_turns"
    count: int


class RoundEnded(Fact):
    """R67–R71: the round's scoring (also the state's `last_round`). A blocked round
    (R66, `summary.stalled`) says which case ended it: `dead` — nobody could ever place a
    tile or use a priority tile (R66.1); else the backstop, three idle circles (R66.2),
    which priority tiles still in hand do not prevent: nobody played them."""

    kind = "round_ended"
    summary: RoundSummary
    dead: bool = False


class GameOver(Fact):
    """The game is over; `winners` are seats (the state's `winners` are players)."""

    kind = "game_over"
    winners: list[int]


class PlayerLeft(Fact):
    """R74: the player left or was removed."""

    kind = "player_left"


# ----------------------------------------------------------------- the turn


class DiceChosen(Fact):
    """The player rolls `n` dice (R23)."""

    kind = "dice_chosen"
    n: int


class Rolled(Fact):
    """The roll: the main `tracks` it allows, and whether it is a `double` (R23–R25)."""

    kind = "rolled"
    dice: list[int]
    tracks: list[int]
    double: bool


class FifthSwap(Fact):
    """R61: one of five tiles of `tile`'s kind swapped for the bank's top tile."""

    kind = "fifth_swap"
    tile: TileKind


class Placed(Fact):
    """`tile` became slot `slot` of main track `track` (R28–R30)."""

    kind = "placed"
    tile: TileKind
    track: int
    slot: int


class PlacedT7(Fact):
    """`tile`, a colour, placed in the centre (track 7) on a double (R37)."""

    kind = "placed_t7"
    tile: TileKind


class TrackCompleted(Fact):
    """R31: main track `track` is full and cleared."""

    kind = "track_completed"
    track: int


class T7Completed(Fact):
    """R38: the centre holds all seven colours and is cleared."""

    kind = "t7_completed"


class Blocked(Fact):
    """R33: `tile` (a black or a universal) blocks main track `track`."""

    kind = "blocked"
    tile: TileKind
    track: int


class Unblocked(Fact):
    """R35: `tile` (a white or a universal) lifts the block of main track `track`."""

    kind = "unblocked"
    tile: TileKind
    track: int


class Reclaimed(Fact):
    """R32: the `tile` (a white or a universal) in `slot` of main track `track` went back
    to the player's hand, its colour in its place."""

    kind = "reclaimed"
    tile: TileKind
    track: int
    slot: int


class BonusTaken(Fact):
    """R41: a `tile` (white or universal) from the bonus store on a double six."""

    kind = "bonus_taken"
    tile: TileKind


class BlackDiscarded(Fact):
    """R39: a black out of the hand, for a completed centre."""

    kind = "black_discarded"


class Drew(Fact):
    """The player drew from the bank (R44); `draws`: his draws this turn so far."""

    kind = "drew"
    draws: int


class DrewTile(Fact):
    """The tile that came to the player's hand (`tile_id`), private to him: by a draw,
    as an FM's replacement, in an exchange or a fifth swap."""

    kind = "drew_tile"
    tile_id: str


class FmDiscarded(Fact):
    """R59: an FM drawn after the window went out; the player draws again."""

    kind = "fm_discarded"


class PlacingEnded(Fact):
    """END_PLACING (R45); `obligation_met`: the obligation of his roll is met (R42)."""

    kind = "placing_ended"
    obligation_met: bool


class PriorityUse(StrEnum):
    """How a priority tile was used (R49–R61)."""

    SHIFT = "shift"  # moved a die's track (R26)
    EXCHANGE = "exchange"  # exchanged tiles with the bank (R60)
    CANCEL = "cancel"  # a universal cancelled a restriction (R57)
    INSTEAD = "instead"  # a redirect instead of the move (R49)
    AFTER = "after"  # a redirect after the move
    WAIVE = "waive"  # a redirect instead of drawing (R48)


class ExchangeStarted(Fact):
    """R60: the player begins an exchange with `tile` (EX or a universal)."""

    kind = "exchange_started"
    tile: TileKind


class PriorityUsed(Fact):
    """A priority `tile` spent (R51), as `use` says. `role`: the part it played (a
    redirect's or a shift's; the tile's own or a universal's); `target`: the seat an OP
    sent the move to; `track_from`, `track_to`: a shift's; `size`: the tiles exchanged."""

    kind = "priority_used"
    tile: TileKind
    use: PriorityUse
    role: TileKind | None = None
    target: int | None = None
    track_from: int | None = None
    track_to: int | None = None
    size: int | None = None


__all__ = [
    "BlackDiscarded",
    "Blocked",
    "BonusTaken",
    "CycleStarted",
    "DiceChosen",
    "DiceOff",
    "Drew",
    "DrewTile",
    "ExchangeStarted",
    "FifthSwap",
    "FinalTurns",
    "FirstMove",
    "FmDeclared",
    "FmDiscarded",
    "FmPassed",
    "GameOver",
    "Placed",
    "PlacedT7",
    "PlacingEnded",
    "PlayerLeft",
    "PriorityUse",
    "PriorityUsed",
    "Reclaimed",
    "Rolled",
    "RoundEnded",
    "RoundStarted",
    "T7Completed",
    "TrackCompleted",
    "TurnEnded",
    "TurnStarted",
    "Unblocked",
    "WentOut",
]
