"""What happens in «Морской крест», in data: one `Fact` per kind of event (`Event.data`).

`player` is the id of the seat the event is about; a token is numbered 1…4; `rel` and
the `*_rel` fields count steps along the token's own route from its кон (0) to Д4
(`HOME` … `LAST`), `BASE` being the reserve (spec §3, `games.sea_cross.model`).

>>> from games.sea_cross import GAME
>>> s = GAME.new(players=[1, 2], seed=3)
>>> _, events = GAME.apply(s, GAME.decode_action("R"))
>>> events[0].data
Rolled(player=1, dice=[4, 3], double=False, forced_jumps=0)
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from games.protocol import Fact
from games.sea_cross.model import Cell


class RollOff(Fact):
    """R4: one round of the first player's roll-off: `dice[i]` rolled by `seats[i]`
    (`players[i]`); `round` counts from 1."""

    kind = "roll_off"
    round: int
    players: list[int]
    seats: list[int]
    dice: list[int]


class FirstPlayer(Fact):
    """R4: the roll-off's winner begins."""

    kind = "first_player"
    player: int


class Rolled(Fact):
    """R5: the player rolled `dice`; a double gives an extra roll (R7), and each 1 is a
    jump he owes from a red corner (R15)."""

    kind = "rolled"
    player: int
    dice: list[int]
    double: bool
    forced_jumps: int


class Entered(Fact):
    """R8: a six put token `token` from the reserve on the кон."""

    kind = "entered"
    player: int
    token: int
    die: int


class Jumped(Fact):
    """R15, R17: a 1 took the token across from a red corner (`past_home`: it went back
    past its home entrance)."""

    kind = "jumped"
    player: int
    token: int
    from_rel: int
    to_rel: int
    past_home: bool


class Moved(Fact):
    """R10: token `token` went `die` steps; `home`: it is in the home column now,
    `entered_home`: by this move."""

    kind = "moved"
    player: int
    token: int
    die: int
    from_rel: int
    to_rel: int
    home: bool
    entered_home: bool


class Captured(Fact):
    """R13: the mover's landing sent the victim's token `token` (at `rel` on the victim's
    route, grid `cell`) back to its reserve."""

    kind = "captured"
    player: int
    victim: int
    victim_seat: int
    token: int
    rel: int
    cell: Cell


class JumpsVoid(Fact):
    """R16: the 1s rolled owe no jump (no token can make it)."""

    kind = "jumps_void"
    player: int


class _Unplayed(Fact):
    """Dice of the roll that no move can use (`unused`, R6)."""

    player: int
    reason: Literal["no_move"] = "no_move"
    unused: list[int]


class Passed(_Unplayed):
    """R6: no die of the roll could be used at all."""

    kind = "passed"


class DiceLapsed(_Unplayed):
    """R6: after a move, the rest of the roll could not be used."""

    kind = "dice_lapsed"


class ExtraRoll(Fact):
    """R7: a double: the same player rolls again."""

    kind = "extra_roll"
    player: int


class Turn(Fact):
    """The turn passed to `player` (the `turn`-th of the game)."""

    kind = "turn"
    player: int
    turn: int


class Placing(BaseModel):
    """A line of the final standings (R19, R20): `left` for a player who left."""

    player: int
    place: int
    home_count: int
    progress: int
    left: bool


class GameOver(Fact):
    """R19 (R20 with one player left): the winner and the standings, best first."""

    kind = "game_over"
    winner: int
    winner_seat: int
    standings: list[Placing]


class PlayerLeft(Fact):
    """R20: the player left; his tokens leave the board."""

    kind = "player_left"
    player: int
