"""Data of «Захват клеток»: geometry helpers, options, actions, state and the public view.

Cells are stored as integers `r * size + c` (0-based, row 0 at the top), so sorting the
integers is the spec's row-major order. Players see cell names: column letter + row
number, `A1` top-left (spec §3).

>>> cell_name(3 * 7 + 2, 7)
'C4'
>>> parse_cell("C4", 7)
23
>>> Action.decode("S,U") == Action(type=ActionType.STEP, dir=Direction.UP)
True
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

MIN_PLAYERS = 3  # R1 (revised 2026-12): two players always end 12 : 12
MAX_PLAYERS = 6  # R1
TWO_PLAYERS = 2  # Option `allow_two_players`; also the fewest a game goes on with (R15)
LETTERS = "ABCDEFGHIJKLM"  # columns of the largest (13×13) grid
FREE = -1
CENTRE = -2
COLOURS: tuple[str, ...] = ("red", "blue", "green", "orange", "purple", "teal")  # R3
COLOUR_NAMES_RU: tuple[str, ...] = (
    "красный",
    "синий",
    "зелёный",
    "оранжевый",
    "фиолетовый",
    "бирюзовый",
)

_CELL_RE = re.compile(r"^([A-M])(1[0-3]|[1-9])$")


def side(n_players: int) -> int:
    """Grid side S = 2·N + 1 (R2)."""
    return 2 * n_players + 1


def cell_name(cell: int, size: int) -> str:
    """`cell` index -> display name, e.g. `E2`."""
    r, c = divmod(cell, size)
    return f"{LETTERS[c]}{r + 1}"


def parse_cell(name: str, size: int) -> int | None:
    """Display name -> index; None when it is not a cell of a `size`×`size` grid."""
    m = _CELL_RE.match(name)
    if m is None:
        return None
    c = LETTERS.index(m.group(1))
    r = int(m.group(2)) - 1
    if r >= size or c >= size:
        return None
    return r * size + c


class Direction(StrEnum):
    UP = "U"
    RIGHT = "R"
    DOWN = "D"
    LEFT = "L"


DIR_ORDER: tuple[Direction, ...] = (Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT)
DELTAS: dict[Direction, tuple[int, int]] = {
    Direction.UP: (-1, 0),
    Direction.RIGHT: (0, 1),
    Direction.DOWN: (1, 0),
    Direction.LEFT: (0, -1),
}


class Options(BaseModel):
    """Validated options (R1); unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    allow_two_players: bool = False  # R1: a house rule; two players always end 12 : 12


class ActionType(StrEnum):
    CHOOSE_K = "K"  # choose how many cells to capture
    CHOOSE_ANCHOR = "A"  # choose the anchor the path starts next to
    BACK = "B"  # from the anchor choice back to the number choice
    STEP = "S"  # extend the draft path by one cell
    UNDO = "U"  # remove the last drafted cell (or leave the anchor)
    CANCEL = "X"  # throw the draft away, back to the number choice
    CONFIRM = "C"  # capture the drafted path


class Action(BaseModel):
    """One atomic decision (spec §5).

    Encoded as `K,3` · `A,E2` · `S,U` (directions U R D L) · `B` · `U` · `X` · `C`.
    `by` is optional: the player id who sends the action. When set, `apply` refuses it
    with `not_your_turn` unless that player is to act. It is not part of the encoding.
    """

    model_config = ConfigDict(frozen=True)

    type: ActionType
    k: int | None = None
    cell: str | None = None
    dir: Direction | None = None
    by: int | None = None

    @model_validator(mode="after")
    def _fields(self) -> Action:
        need_k = self.type is ActionType.CHOOSE_K
        need_cell = self.type is ActionType.CHOOSE_ANCHOR
        need_dir = self.type is ActionType.STEP
        if (self.k is not None) != need_k:
            raise ValueError("k goes with CHOOSE_K only")
        if (self.cell is not None) != need_cell:
            raise ValueError("cell goes with CHOOSE_ANCHOR only")
        if (self.dir is not None) != need_dir:
            raise ValueError("dir goes with STEP only")
        if self.cell is not None and _CELL_RE.match(self.cell) is None:
            raise ValueError("bad cell name")
        if self.k is not None and not 1 <= self.k <= 9:
            raise ValueError("bad number")
        return self

    def encode(self) -> str:
        """Compact text for callback data (at most 4 characters)."""
        if self.k is not None:
            return f"{self.type.value},{self.k}"
        if self.cell is not None:
            return f"{self.type.value},{self.cell}"
        if self.dir is not None:
            return f"{self.type.value},{self.dir.value}"
        return self.type.value

    @classmethod
    def decode(cls, text: str) -> Action:
        """Inverse of `encode`; ValueError on anything malformed."""
        if len(text) > 8:
            raise ValueError("too long")
        head, _, arg = text.partition(",")
        kind = ActionType(head)
        if kind is ActionType.CHOOSE_K:
            if len(arg) != 1 or not arg.isdigit():
                raise ValueError("bad number")
            return cls(type=kind, k=int(arg))
        if kind is ActionType.CHOOSE_ANCHOR:
            return cls(type=kind, cell=arg)
        if kind is ActionType.STEP:
            return cls(type=kind, dir=Direction(arg))
        if arg or "," in text:
            raise ValueError("unexpected argument")
        return cls(type=kind)


class Phase(StrEnum):
    PICK_K = "pick_k"
    PICK_ANCHOR = "pick_anchor"
    DRAW = "draw"
    READY = "ready"
    GAME_OVER = "game_over"


class EndReason(StrEnum):
    BOARD_FULL = "board_full"  # R16a
    NO_MOVES = "no_moves"  # R16b
    PLAYERS_LEFT = "players_left"  # fewer than two players remain (decision, see docs)


class Draft(BaseModel):
    """The path being drawn by the player to act (spec §5)."""

    k: int | None = None
    anchor: int | None = None
    path: list[int] = Field(default_factory=list)


class CapturedPath(BaseModel):
    """A confirmed capture: `cells[0]` is the start, `cells[-1]` the end (R7)."""

    seat: int
    round: int
    cells: list[int]


class State(BaseModel):
    """The whole game. Seats index `players`."""

    options: Options = Field(default_factory=Options)
    seed: int
    rng_calls: int = 0
    version: int = 0
    players: list[int]
    size: int
    owner: list[int]  # per cell: FREE, CENTRE or the owner's seat
    paths: list[CapturedPath] = Field(default_factory=list)
    active: list[bool]
    prev: list[int | None]  # R6, R11: number chosen in the previous round
    round_no: int = 1
    order: list[int]  # seats, this round's order (R13)
    turn_idx: int = 0  # index into `order` of the seat to act
    stuck: list[int] = Field(default_factory=list)  # seats stuck this round, in order
    left: list[int] = Field(default_factory=list)  # seats that left, in order
    draft: Draft = Field(default_factory=Draft)
    over: bool = False
    end_reason: EndReason | None = None

    @property
    def n(self) -> int:
        """N: the number of players at the start; numbers are 1…N (R9, R15)."""
        return len(self.players)

    @property
    def centre(self) -> int:
        half = self.size // 2
        return half * self.size + half

    @model_validator(mode="after")
    def _shape(self) -> State:
        n = len(self.players)
        if self.size != side(n):
            raise ValueError("size must be 2·N + 1")
        if len(self.owner) != self.size * self.size:
            raise ValueError("owner must have size² cells")
        if len(self.active) != n or len(self.prev) != n:
            raise ValueError("per-seat lists must match players")
        return self


class PlayerInfo(BaseModel):
    seat: int
    player: int
    colour: str
    cells: int
    active: bool
    previous: int | None  # the number chosen in the previous round (None: no restriction)
    number: int | None  # the number captured this round, if any
    stuck: bool  # had no move this round
    place: int | None = None  # final place (when the game is over)


class PathInfo(BaseModel):
    seat: int
    round: int
    cells: list[str]


class DraftInfo(BaseModel):
    seat: int
    k: int | None
    anchor: str | None
    path: list[str]


class View(BaseModel):
    """Everything is public (spec §6); `me` is the viewer (None: the table)."""

    me: int | None
    size: int
    n: int
    centre: str
    grid: list[list[int]]  # [row][col]: FREE, CENTRE or seat
    numbers: list[list[int]]  # [row][col]: index 1…k in its path, 0 for none
    players: list[PlayerInfo]
    paths: list[PathInfo]
    anchors: list[str]  # all current anchors, row-major
    offered_anchors: list[str]  # anchors offered for the chosen k (PICK_ANCHOR only)
    steps: list[Direction]  # legal arrows in DRAW, canonical order ⬆️ ➡️ ⬇️ ⬅️ (else empty)
    draft: DraftInfo | None
    phase: Phase
    to_act: int | None  # player id
    to_act_seat: int | None
    round_no: int
    order: list[int]  # seats of this round, in turn order
    turn_idx: int
    used: list[int]  # numbers captured this round
    allowed: list[int]  # numbers the player to act may choose
    next_order: list[int]  # seats of the next round's order as known so far
    free_cells: int
    over: bool
    end_reason: EndReason | None
    winners: list[int]  # player ids (when over)
