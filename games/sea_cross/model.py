"""Data of «Морской крест»: board geometry, options, actions, state and the public view.

Two kinds of seat appear: a *seat* (as everywhere in `games`) indexes `State.players`;
an *arm* (0 top 🔵, 1 right 🟡, 2 bottom 🟢, 3 left 🟣) is the spec's "seat" — the colour
and the part of the cross a player owns (R1). With 4 players seat == arm.

A token's place is `BASE` (the reserve) or its progress `rel` 0…43 (spec §3.3):
0…39 on the loop (0 = own кон, 39 = own порог), 40…43 the home cells Д1…Д4.

>>> loop_cell(0), loop_cell(9), loop_cell(14), loop_cell(39)
((0, 6), (5, 10), (6, 6), (0, 5))
>>> home_cell(1, 0), reserve_cell(2, 0)
((5, 9), (10, 1))
>>> Action.decode("M,2,5") == Action(type=ActionType.MOVE, token=2, die=5)
True
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

MIN_PLAYERS = 2
MAX_PLAYERS = 4  # R1
ARM_LEN = 4  # L of the spec (§3.1): only 4 is specified
SIZE = 2 * ARM_LEN + 3  # 11×11 grid
CENTRE = SIZE // 2  # (5, 5) is decorative
LOOP_LEN = 8 * ARM_LEN + 8  # 40 loop cells
ARM_STEP = LOOP_LEN // 4  # 10: loop distance between two arms' start cells
HOME_LEN = 4  # Д1…Д4
TOKENS = 4  # tokens per player (R2)
BASE = -1  # a token in the reserve
HOME = LOOP_LEN  # rel 40 = Д1
LAST = HOME + HOME_LEN - 1  # rel 43 = Д4
RED_CORNERS: tuple[int, ...] = tuple(ARM_LEN + ARM_STEP * k for k in range(4))  # rel 4,14,24,34
SIX = 6

# Arms in use by player count (R1): 2 players sit opposite each other.
ARMS: dict[int, tuple[int, ...]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
COLOURS: tuple[str, ...] = ("blue", "yellow", "green", "purple")
COLOUR_NAMES_RU: tuple[str, ...] = ("синий", "жёлтый", "зелёный", "фиолетовый")
EMOJI: tuple[str, ...] = ("🔵", "🟡", "🟢", "🟣")

Cell = tuple[int, int]

_Q: tuple[Cell, ...] = (
    (0, 6),
    (1, 6),
    (2, 6),
    (3, 6),
    (4, 6),
    (4, 7),
    (4, 8),
    (4, 9),
    (4, 10),
    (5, 10),
)
_HOME0: tuple[Cell, ...] = ((1, 5), (2, 5), (3, 5), (4, 5))
_RESERVE0: tuple[Cell, ...] = ((0, 9), (0, 10), (1, 9), (1, 10))


def rot(cell: Cell, times: int = 1) -> Cell:
    """A quarter turn clockwise about the centre, `times` times: (r, c) -> (c, 10 − r)."""
    r, c = cell
    for _ in range(times % 4):
        r, c = c, SIZE - 1 - r
    return (r, c)


def loop_cell(g: int) -> Cell:
    """Grid cell of loop index `g` 0…39 (§3.2)."""
    g %= LOOP_LEN
    return rot(_Q[g % ARM_STEP], g // ARM_STEP)


def global_index(arm: int, rel: int) -> int:
    """Loop index of `rel` 0…39 for `arm`."""
    return (rel + ARM_STEP * arm) % LOOP_LEN


def home_cell(arm: int, k: int) -> Cell:
    """Grid cell of home cell Д(k+1) of `arm`, k = 0…3 (§3.3)."""
    return rot(_HOME0[k], arm)


def reserve_cell(arm: int, k: int) -> Cell:
    """Grid cell of the k-th (0…3) reserve place of `arm` (drawing only)."""
    return rot(_RESERVE0[k], arm)


def cell_of(arm: int, rel: int, token: int) -> Cell:
    """Where token `token` (0-based) of `arm` at `rel` (or BASE) is drawn."""
    if rel == BASE:
        return reserve_cell(arm, token)
    if rel >= HOME:
        return home_cell(arm, rel - HOME)
    return loop_cell(global_index(arm, rel))


def start_index(arm: int) -> int:
    """Loop index of the кон of `arm`."""
    return ARM_STEP * arm


def threshold_index(arm: int) -> int:
    """Loop index of the порог of `arm`."""
    return (ARM_STEP * arm - 1) % LOOP_LEN


RED_CELLS: tuple[Cell, ...] = tuple(loop_cell(r) for r in RED_CORNERS)


class Options(BaseModel):
    """The game has no options; unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ActionType(StrEnum):
    ROLL = "R"  # 🎲 Бросить
    ENTER = "E"  # ⚓ Вывести фишку (uses a 6)
    MOVE = "M"  # №t ▸ +d
    JUMP = "J"  # №t ⤳ прыжок (uses a 1)


class Action(BaseModel):
    """One atomic decision (spec §5).

    Encoded as `R` · `E` · `M,<token>,<die>` · `J,<token>`; tokens are numbered 1…4.
    """

    model_config = ConfigDict(frozen=True)

    type: ActionType
    token: int | None = None
    die: int | None = None

    @model_validator(mode="after")
    def _fields(self) -> Action:
        need_token = self.type in (ActionType.MOVE, ActionType.JUMP)
        need_die = self.type is ActionType.MOVE
        if (self.token is not None) != need_token:
            raise ValueError("token goes with MOVE and JUMP only")
        if (self.die is not None) != need_die:
            raise ValueError("die goes with MOVE only")
        if self.token is not None and not 1 <= self.token <= TOKENS:
            raise ValueError("bad token")
        if self.die is not None and not 1 <= self.die <= 6:
            raise ValueError("bad die")
        return self

    def encode(self) -> str:
        """Compact text for callback data (at most 5 characters)."""
        parts = [self.type.value]
        if self.token is not None:
            parts.append(str(self.token))
        if self.die is not None:
            parts.append(str(self.die))
        return ",".join(parts)

    @classmethod
    def decode(cls, text: str) -> Action:
        """Inverse of `encode`; ValueError on anything malformed."""
        if not isinstance(text, str) or len(text) > 5:
            raise ValueError("too long")
        head, *args = text.split(",")
        kind = ActionType(head)
        if any(len(a) != 1 or not a.isdigit() for a in args):
            raise ValueError("bad number")
        nums = [int(a) for a in args]
        want = {ActionType.ROLL: 0, ActionType.ENTER: 0, ActionType.JUMP: 1, ActionType.MOVE: 2}
        if len(nums) != want[kind]:
            raise ValueError("wrong number of fields")
        return cls(
            type=kind,
            token=nums[0] if nums else None,
            die=nums[1] if len(nums) > 1 else None,
        )


class Phase(StrEnum):
    AWAIT_ROLL = "await_roll"
    AWAIT_MOVE = "await_move"
    GAME_OVER = "game_over"


class RollOffRound(BaseModel):
    """One round of the first-player roll-off (R4): `dice[i]` was rolled by `seats[i]`."""

    seats: list[int]
    dice: list[int]


class LastMove(BaseModel):
    """The last token move, for highlighting (§3.5). `kind` is `enter`, `move` or `jump`."""

    seat: int
    token: int  # 1…4
    kind: str
    from_rel: int
    to_rel: int


class State(BaseModel):
    """The whole game. Seats index `players`; `tokens[seat][i]` is token №i+1."""

    options: Options = Field(default_factory=Options)
    seed: int
    rng_calls: int = 0
    version: int = 0
    players: list[int]
    arms: list[int]
    active: list[bool]
    tokens: list[list[int]]  # BASE or rel 0…43; empty for a player who left
    phase: Phase = Phase.AWAIT_ROLL
    current: int = 0
    dice: list[int] = Field(default_factory=list)  # the current roll (empty before a roll)
    unused: list[int] = Field(default_factory=list)  # dice of the roll not used yet
    forced_jumps: int = 0  # R15
    moved_this_roll: bool = False
    turn_no: int = 1
    roll_no: int = 0
    rolloff: list[RollOffRound] = Field(default_factory=list)
    first: int = 0  # the seat that won the roll-off
    last_move: LastMove | None = None
    left: list[int] = Field(default_factory=list)  # seats that left, in order
    winner: int | None = None  # seat
    # per seat, the dice his last roll left unused (R6: they burn), until he rolls again;
    # [] (not sized yet) in a state saved before this field existed
    burnt: list[list[int]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _shape(self) -> State:
        n = len(self.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError("players: 2..4 players are needed")
        if len(self.arms) != n or len(self.active) != n or len(self.tokens) != n:
            raise ValueError("per-seat lists must match players")
        return self


class TokenInfo(BaseModel):
    number: int  # 1…4
    rel: int  # BASE (-1) or 0…43
    cell: Cell  # grid (row, col) where it is drawn
    where: str  # "reserve", "loop", "home"
    on_red_corner: bool
    in_block: bool


class PlayerInfo(BaseModel):
    seat: int
    player: int
    arm: int
    colour: str
    active: bool
    tokens: list[TokenInfo]
    home_count: int
    reserve_count: int
    progress: int  # sum of rel of tokens not in the reserve (R19 ranking)
    place: int | None = None
    burnt: list[int] = Field(default_factory=list)  # dice his last roll left unused (R6)


class ActionInfo(BaseModel):
    """A legal action with what it does, for button labels (§5: `№2 ▸ +5 ⚔ 🏠`)."""

    code: str
    type: ActionType
    token: int | None
    die: int | None
    from_rel: int | None
    to_rel: int | None
    captures: bool
    home: bool  # the token enters (or moves inside) the home


class View(BaseModel):
    """Everything is public (spec §6); `me` is the viewer (None: the table)."""

    me: int | None
    me_seat: int | None
    players: list[PlayerInfo]
    phase: Phase
    to_act: int | None
    to_act_seat: int | None
    dice: list[int]
    unused: list[int]
    double: bool
    forced_jumps: int
    actions: list[ActionInfo]  # legal actions in canonical order (empty unless it is a move)
    last_move: LastMove | None
    last_move_cells: list[Cell]  # [origin, target] grid cells of the last move, or []
    turn_no: int
    roll_no: int
    rolloff: list[RollOffRound]
    first: int
    over: bool
    winners: list[int]  # player ids
