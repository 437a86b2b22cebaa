"""What happens in «Захват клеток», in data: one `Fact` per kind of event (`Event.data`).

Cells are named as players see them (`D3`); `player` is the id of the seat the event is
about, `k` a number (a path's length, R9).

>>> from games.cell_capture import GAME
>>> s = GAME.new(players=[1, 2, 3], seed=5)
>>> _, events = GAME.apply(s, GAME.decode_action("K,1"))
>>> events[0].data
NumberChosen(player=2, k=1)
"""

from __future__ import annotations

from games.cell_capture.model import Direction, EndReason
from games.protocol import Fact, Standing


class NumberChosen(Fact):
    """The player to act chose the number `k` (§5)."""

    kind = "number_chosen"
    player: int
    k: int


class NumberUnchosen(Fact):
    """«↩ Другое число»: back to choosing the number."""

    kind = "number_unchosen"
    player: int


class AnchorChosen(Fact):
    """The path will start next to `cell` (R7, R8)."""

    kind = "anchor_chosen"
    player: int
    cell: str


class Stepped(Fact):
    """The draft grew by one cell in direction `dir`: `length` of `k` cells drawn."""

    kind = "stepped"
    player: int
    dir: Direction
    cell: str
    length: int
    k: int


class Undone(Fact):
    """↩ while drawing: the last `cell` left the draft, or (no cell drawn yet) the
    `anchor` was given up."""

    kind = "undone"
    player: int
    cell: str | None = None
    anchor: str | None = None


class DraftCancelled(Fact):
    """✖: the draft was dropped; the player chooses his number again."""

    kind = "draft_cancelled"
    player: int


class Captured(Fact):
    """✅: `cells` (from the anchor's neighbour on) are the player's; `total` his cells now."""

    kind = "captured"
    player: int
    k: int
    cells: list[str]
    anchor: str
    round: int
    total: int


class Stuck(Fact):
    """R12: no allowed number; `unused` were the numbers left in the round."""

    kind = "stuck"
    player: int
    round: int
    unused: list[int]


class RoundEnded(Fact):
    """R13, R14: the round is over; the players (ids) in the next round's order."""

    kind = "round_end"
    round: int
    next_order: list[int]
    stuck: list[int]


class RoundStarted(Fact):
    """A new round begins, the players (ids) in their order."""

    kind = "round_start"
    round: int
    order: list[int]


class GameOver(Fact):
    """R16, R17: why the game ended, the winners (ids) and the standings."""

    kind = "game_over"
    reason: EndReason
    winners: list[int]
    standings: list[Standing]


class PlayerLeft(Fact):
    """R15: the player left; his cells stay."""

    kind = "player_left"
    player: int
