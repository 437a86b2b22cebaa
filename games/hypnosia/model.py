"""Data of «Гипнозия»: board geometry, options, actions, state and the public view.

Spec: `docs/spec/hypnosia.md` (R-numbers cited). A token's place is a short string:

- `S` — on its start position (R3, §3.2);
- `k.j` — ring k (1 outer … 3 inner), cell j (§3.1), e.g. `1.9`;
- `C5` … `C1` — the centre field of that value (R11);
- `X` — captured (R14);
- `L` — removed because its owner left the game (R20).

>>> ring_cell(2, 8)
'2.8'
>>> parse_cell("2.8")
(2, 8)
>>> is_bridge(2, 8), bridge_target(2, 8)
(True, (3, 4))
>>> entry(3)
18
>>> Action.decode("M,1,3,r,p").encode()
'M,1,3,r,p'
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

MIN_PLAYERS = 2
MAX_PLAYERS = 6  # R1
TOKENS = 4  # R1: tokens №1…№4 per player
RING_SIZES: dict[int, int] = {1: 36, 2: 24, 3: 12}  # §3.1
CENTRE_VALUES: tuple[int, ...] = (5, 4, 3, 2, 1)  # §3.3, filled in this order
START = "S"
CAPTURED = "X"
REMOVED = "L"
# R1: colours by board seat 0…5 (ids for the renderer; Russian names for the text)
COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")
COLOUR_NAMES_RU: tuple[str, ...] = (
    "красный",
    "оранжевый",
    "жёлтый",
    "зелёный",
    "синий",
    "фиолетовый",
)
# R2: board seats used for each player count (the most evenly spread)
BOARD_SEATS: dict[int, tuple[int, ...]] = {
    2: (0, 3),
    3: (0, 2, 4),
    4: (0, 1, 3, 4),
    5: (0, 1, 2, 3, 4),
    6: (0, 1, 2, 3, 4, 5),
}

_CELL_RE = re.compile(r"^([123])\.(\d{1,2})$")
_POS_RE = re.compile(r"^(S|X|L|C[1-5]|[123]\.\d{1,2})$")


def entry(board_seat: int) -> int:
    """§3.2: the outer-ring cell next to a board seat's start positions."""
    return (-6 * board_seat) % RING_SIZES[1]


def ring_cell(k: int, j: int) -> str:
    return f"{k}.{j}"


def parse_cell(pos: str) -> tuple[int, int] | None:
    """`k.j` -> (k, j); None for anything that is not a ring cell."""
    m = _CELL_RE.match(pos)
    if m is None:
        return None
    k, j = int(m.group(1)), int(m.group(2))
    if j >= RING_SIZES[k]:
        return None
    return k, j


def centre_cell(value: int) -> str:
    return f"C{value}"


def centre_value(pos: str) -> int | None:
    """`C4` -> 4; None when `pos` is not a centre field."""
    if len(pos) == 2 and pos[0] == "C" and pos[1] in "12345":
        return int(pos[1])
    return None


def is_bridge(k: int, j: int) -> bool:
    """§3.1: two-coloured cells (1.(j≡3 mod 6), 2.(j≡0 mod 8), 3.(j≡2 mod 4))."""
    if k == 1:
        return j % 6 == 3
    if k == 2:
        return j % 8 == 0
    return j % 4 == 2


def bridge_target(k: int, j: int) -> tuple[int, int] | None:
    """§3.1: the inner cell a bridge leads to; None for the centre (ring 3)."""
    if k == 1:
        return 2, 2 * j // 3
    if k == 2:
        return 3, j // 2
    return None


def in_play(pos: str) -> bool:
    """On a start position or on a ring (R17b, R18)."""
    return pos == START or parse_cell(pos) is not None


class Options(BaseModel):
    """Validated options (R15, R17c); unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pairs_cross_bridges: bool = False  # R15: False = the recommended variant is ON
    round_limit: int = 200  # R17c

    @field_validator("round_limit")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value < 1:
            raise ValueError("must be >= 1")
        return value


class ActionType(StrEnum):
    ROLL = "R"
    MOVE = "M"


class Route(StrEnum):
    RING = "r"  # along the ring (R9)
    BRIDGE = "b"  # across the bridge the unit stands on (R10, R11)


class Action(BaseModel):
    """One atomic decision (§5): `ROLL`, or `MOVE(token, die, route, pair)`.

    `token` is the token's number 1…4 (for a pair, the lower number), `die` the die value,
    `pair` whether the whole pair moves. Encoded as `R` · `M,2,5,r` · `M,1,4,b` · `M,1,3,r,p`.
    """

    model_config = ConfigDict(frozen=True)

    type: ActionType
    token: int | None = None
    die: int | None = None
    route: Route | None = None
    pair: bool = False

    @model_validator(mode="after")
    def _fields(self) -> Action:
        if self.type is ActionType.ROLL:
            if self.token is not None or self.die is not None or self.route is not None:
                raise ValueError("ROLL takes no fields")
            if self.pair:
                raise ValueError("ROLL takes no fields")
            return self
        if self.token is None or not 1 <= self.token <= TOKENS:
            raise ValueError("token must be 1..4")
        if self.die is None or not 1 <= self.die <= 6:
            raise ValueError("die must be 1..6")
        if self.route is None:
            raise ValueError("route is required")
        return self

    def encode(self) -> str:
        """Compact text for callback data (at most 9 characters)."""
        if self.type is ActionType.ROLL:
            return "R"
        assert self.route is not None
        text = f"M,{self.token},{self.die},{self.route.value}"
        return text + ",p" if self.pair else text

    @classmethod
    def decode(cls, text: str) -> Action:
        """Inverse of `encode`; ValueError on anything malformed."""
        if text == "R":
            return cls(type=ActionType.ROLL)
        if len(text) > 9:
            raise ValueError("too long")
        parts = text.split(",")
        if parts[0] != "M" or len(parts) not in (4, 5):
            raise ValueError("bad action")
        if len(parts) == 5 and parts[4] != "p":
            raise ValueError("bad pair flag")
        token, die, route = parts[1], parts[2], parts[3]
        if len(token) != 1 or not token.isdigit() or len(die) != 1 or not die.isdigit():
            raise ValueError("bad number")
        return cls(
            type=ActionType.MOVE,
            token=int(token),
            die=int(die),
            route=Route(route),
            pair=len(parts) == 5,
        )


class Phase(StrEnum):
    ROLL = "roll"  # AWAIT_ROLL
    MOVE = "move"  # AWAIT_MOVE
    GAME_OVER = "game_over"


class EndReason(StrEnum):
    CENTRE_FULL = "centre_full"  # R17a
    NO_TOKENS = "no_tokens"  # R17b
    ROUND_LIMIT = "round_limit"  # R17c
    PLAYERS_LEFT = "players_left"  # R20: only one player remains
    LAST_RACER = "last_racer"  # R17d: only one player has tokens in play


class State(BaseModel):
    """The whole game. Seats index `players` (ascending seat = clockwise order, R4)."""

    options: Options = Field(default_factory=Options)
    seed: int
    rng_calls: int = 0
    version: int = 0
    players: list[int]
    board_seats: list[int]  # R2: board seat 0…5 of each seat
    tokens: list[list[str]]  # [seat][token-1]: place of token №1…№4 (module docstring)
    captured: list[int]  # R14: opponent tokens captured by each seat
    lost: list[int]  # R14: own tokens lost to captures
    centre: list[int] = Field(default_factory=list)  # seats in arrival order: 5, 4, 3, 2, 1
    left: list[int] = Field(default_factory=list)  # seats that left, in order (R20)
    roll_off: list[dict[int, int]] = Field(default_factory=list)  # R4: seat -> sum, per roll
    first: int = 0  # R4: the seat that started
    current: int = 0
    phase: Phase = Phase.ROLL
    dice: list[int] = Field(default_factory=list)  # this turn's roll
    unused: list[int] = Field(default_factory=list)  # dice still to use (I6)
    round_no: int = 1
    turn_no: int = 1
    end_reason: EndReason | None = None
    winners: list[int] = Field(default_factory=list)  # player ids, when over

    @model_validator(mode="after")
    def _shape(self) -> State:
        n = len(self.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError("2..6 players")
        if not (len(self.board_seats) == len(self.tokens) == len(self.captured) == n):
            raise ValueError("per-seat lists must match players")
        if len(self.lost) != n:
            raise ValueError("per-seat lists must match players")
        for row in self.tokens:
            if len(row) != TOKENS or any(_POS_RE.match(p) is None for p in row):
                raise ValueError("bad token places")
        seats = range(n)
        if len(self.centre) > len(CENTRE_VALUES) or any(x not in seats for x in self.centre):
            raise ValueError("bad centre")
        if self.current not in seats or self.first not in seats:
            raise ValueError("bad current seat")
        if any(x not in seats for x in self.left) or len(set(self.left)) != len(self.left):
            raise ValueError("bad left seats")
        return self


class MovePreview(BaseModel):
    """What a legal MOVE would do, for the button text (§5: `Пара 1+3 +4 → 2.12 ⚔`)."""

    tokens: list[int]  # the moving tokens (two for a pair)
    src: str  # `S` or `k.j`
    dest: str  # `k.j`, or `C` for the centre
    fields: list[int]  # centre fields it would take (R11, R15)
    captures: int  # opponent tokens it would capture (R14)


def move_tag(tokens: list[int], die: int, route: Route) -> str:
    """The short mark of a move, the same on its button and on the board at its
    destination: `2+5` (№2 by 5), `2⤵3` (№2 across the bridge with the 3), `1&3+4` (the
    pair №1+№3 by 4). Language-neutral: digits and signs only."""
    unit = "&".join(map(str, tokens))
    return f"{unit}⤵{die}" if route is Route.BRIDGE else f"{unit}+{die}"


class MoveView(BaseModel):
    """A legal MOVE of the player to act (§6: all public), for the buttons and the
    marks on the board: the action's code, its mark (`move_tag`) and what it does."""

    code: str
    tag: str
    tokens: list[int]
    die: int
    dest: str  # `k.j`, or `C` for the centre
    fields: list[int]  # centre fields it would take
    captures: int


class RollOffRound(BaseModel):
    """One roll of the first-player roll-off (R4): `sums[i]` (two dice) rolled by
    `seats[i]`."""

    seats: list[int]
    sums: list[int]


class CellView(BaseModel):
    """An occupied ring cell: whose tokens stand there (1 or 2, I2)."""

    seat: int
    tokens: list[int]


class PlayerView(BaseModel):
    seat: int
    player: int
    board_seat: int
    colour: str
    entry: str  # the outer-ring cell next to the start positions
    tokens: list[str]  # places of №1…№4
    in_play: int  # tokens on start positions or rings
    centre_fields: list[int]  # values held, highest first
    captured: int
    lost: int
    score: int  # R16
    left: bool
    place: int | None  # provisional while the game runs, final when over


class View(BaseModel):
    """Everything is public (§6); `me` is the viewer's seat (None: the table)."""

    me: int | None
    players: list[PlayerView]
    board: dict[str, CellView]  # ring cell `k.j` -> its tokens
    centre: list[int | None]  # [field 5, 4, 3, 2, 1] -> holder's seat
    phase: Phase
    current: int | None  # seat to act
    to_act: int | None  # player id to act
    dice: list[int]
    unused: list[int]
    round_no: int
    round_limit: int
    pairs_cross_bridges: bool
    first: int
    roll_off: list[RollOffRound]
    end_reason: EndReason | None
    winners: list[int]
    moves: list[MoveView] = Field(default_factory=list)  # legal moves, canonical order
