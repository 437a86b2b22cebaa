"""Data of «Семидорожник»: tiles, options, actions, state and the public view."""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class TileKind(StrEnum):
    """A tile's kind: the code its id begins with (`R#07`), in actions, options and every
    stored state (R1, R2, R4). A member equals its code (`TileKind.RED == "R"`) and is
    written as it, so the wire format is the codes. Declared in the order of `KINDS`.

        >>> TileKind.SKIP, TileKind("K").name, f"{TileKind.UNIVERSAL}#02"
        (<TileKind.SKIP: 'SK'>, 'BLACK', 'U#02')
    """

    RED = "R"  # the seven colours, in spectrum order (R1): красный
    ORANGE = "O"  # оранжевый
    YELLOW = "Y"  # жёлтый
    GREEN = "G"  # зелёный
    CYAN = "C"  # голубой
    BLUE = "B"  # синий
    VIOLET = "V"  # фиолетовый
    WHITE = "W"  # stands for any colour (R30)
    BLACK = "K"  # a block (R33)
    SKIP = "SK"  # priority tiles (R49–R61): skip the next player
    PREVIOUS = "PV"  # the previous player moves next
    OPPOSITE = "OP"  # the opposite player moves next
    RESTRICT = "RS"  # the others' turns are restricted
    FIRST_MOVE = "FM"  # the first move of a round (R58)
    EXCHANGE = "EX"  # an exchange of tiles with the bank (R60)
    UNIVERSAL = "U"  # any of the above, or a white, or a black


COLOURS: tuple[TileKind, ...] = (
    TileKind.RED,
    TileKind.ORANGE,
    TileKind.YELLOW,
    TileKind.GREEN,
    TileKind.CYAN,
    TileKind.BLUE,
    TileKind.VIOLET,
)
ORIGINAL_PRIORITY: tuple[TileKind, ...] = (
    TileKind.SKIP,
    TileKind.PREVIOUS,
    TileKind.OPPOSITE,
    TileKind.RESTRICT,
    TileKind.FIRST_MOVE,
    TileKind.EXCHANGE,
)
PRIORITY: tuple[TileKind, ...] = (*ORIGINAL_PRIORITY, TileKind.UNIVERSAL)
# the roles of a redirect, instead of the move or after it (R52–R55)
REDIRECTS: tuple[TileKind, ...] = (
    TileKind.SKIP,
    TileKind.OPPOSITE,
    TileKind.PREVIOUS,
    TileKind.RESTRICT,
)
SHIFTS: dict[TileKind, int] = {  # R26
    TileKind.SKIP: 1,
    TileKind.OPPOSITE: 2,
    TileKind.PREVIOUS: -1,
}
KINDS: tuple[TileKind, ...] = tuple(TileKind)  # colours, W, K, then PRIORITY
MAIN_TRACKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
T7 = 7
TRACK_LEN = 7

DEFAULT_TILE_SET: dict[TileKind, int] = {
    **{c: 12 for c in COLOURS},
    TileKind.WHITE: 7,
    TileKind.BLACK: 7,
    TileKind.SKIP: 2,
    TileKind.PREVIOUS: 2,
    TileKind.OPPOSITE: 2,
    TileKind.RESTRICT: 2,
    TileKind.EXCHANGE: 2,
    TileKind.FIRST_MOVE: 1,
    TileKind.UNIVERSAL: 2,
}
DEFAULT_TILE_VALUES: dict[TileKind, int] = {
    **{c: i + 1 for i, c in enumerate(COLOURS)},
    TileKind.WHITE: 10,
    TileKind.BLACK: 10,
    **{p: 15 for p in ORIGINAL_PRIORITY},
    TileKind.UNIVERSAL: 25,
}

DiceOffRoll: TypeAlias = dict[int, int]
"""One roll of the dice-off for the first move (R16): each contender's seat and the sum
of his two dice. The contenders of the highest sum roll again."""

_BY_CODE: dict[str, TileKind] = {k.value: k for k in TileKind}


@lru_cache(maxsize=4096)  # a few hundred tile ids; asked millions of times a game
def kind_of(tile: str) -> TileKind:
    """`R#07` -> `TileKind.RED` (R4)."""
    return _BY_CODE[tile.split("#", 1)[0]]


def expected_colour(track: int, slot: int) -> TileKind:
    """Colour expected in 1-based `slot` of main `track` (R6)."""
    return COLOURS[(track - 1 + slot - 1) % 7]


def is_white_like(tile: str) -> bool:
    return kind_of(tile) in (TileKind.WHITE, TileKind.UNIVERSAL)


class Options(BaseModel):
    """Validated options (R5, §17)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # validate_default: the defaults pass `_kinds` too, so a fresh state and the same state
    # read back from JSON list the kinds in one order (KINDS) and serialise byte for byte alike
    tile_set: dict[TileKind, int] = Field(
        default_factory=lambda: dict(DEFAULT_TILE_SET), validate_default=True
    )
    tile_values: dict[TileKind, int] = Field(
        default_factory=lambda: dict(DEFAULT_TILE_VALUES), validate_default=True
    )
    hand_size: int = 12
    max_draws: int = 5
    target_score: int = 144
    first_out_bonus: int = 7
    single_round: bool = False
    black_anywhere_after_move: bool = False
    allow_same_turn_unblock: bool = False
    skip_after_move: str = "skip_next"
    exchange_allows_priority: bool = True
    black_discard_on_any_double: bool = False
    double_t7_counts: bool = False
    bonus_store_persists: bool = False

    @field_validator("tile_set", "tile_values")
    @classmethod
    def _kinds(cls, value: dict[TileKind, int]) -> dict[TileKind, int]:
        if any(not isinstance(v, int) or v < 0 for v in value.values()):
            raise ValueError("counts and values must be integers >= 0")
        return {k: value.get(k, 0) for k in KINDS}

    @field_validator("hand_size", "target_score")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value < 1:
            raise ValueError("must be >= 1")
        return value

    @field_validator("max_draws", "first_out_bonus")
    @classmethod
    def _non_negative(cls, value: int) -> int:
        if value < 0:
            raise ValueError("must be >= 0")
        return value

    @field_validator("skip_after_move")
    @classmethod
    def _skip_mode(cls, value: str) -> str:
        if value not in ("skip_next", "no_effect"):
            raise ValueError("must be 'skip_next' or 'no_effect'")
        return value

    def value(self, tile: str) -> int:
        return self.tile_values[kind_of(tile)]


class ActionType(StrEnum):
    CHOOSE_DICE = "CD"
    SHIFT = "SH"
    PLACE = "PL"
    PLACE_T7 = "P7"
    BLOCK = "BL"
    UNBLOCK = "UB"
    RECLAIM = "RC"
    TAKE_BONUS = "TB"
    DISCARD_BLACK = "DB"
    DRAW = "DR"
    END_PLACING = "EP"
    INSTEAD_OF_MOVE = "IM"
    AFTER_MOVE = "AM"
    WAIVE = "WV"
    CANCEL_RESTRICTION = "CR"
    EXCHANGE_BEGIN = "XB"
    EXCHANGE_ADD = "XA"
    EXCHANGE_CONFIRM = "XC"
    FIFTH_SWAP = "FS"
    END_TURN = "ET"
    FM_DECLARE = "FD"
    FM_PASS = "FP"


class Action(BaseModel):
    """One atomic decision (R22). `role` is the part a U plays (`as`); `die` indexes the roll;
    `seat` says who answers in the first-move window, where everyone decides at once (R58;
    None: the lowest seat still to answer, as the window's recorded actions always meant)."""

    model_config = ConfigDict(frozen=True)

    type: ActionType
    kind: TileKind | None = None
    track: int | None = None
    slot: int | None = None
    die: int | None = None
    role: TileKind | None = None
    target: int | None = None
    n: int | None = None
    seat: int | None = None

    def encode(self) -> str:
        """Compact text for callback data: `PL,R,3`."""
        fields = (self.kind, self.track, self.slot, self.die, self.role, self.target, self.n)
        parts = [self.type.value] + ["" if v is None else str(v) for v in (*fields, self.seat)]
        return ",".join(parts).rstrip(",")

    @classmethod
    def decode(cls, text: str) -> Action:
        """Inverse of `encode`; ValueError on anything malformed."""
        if len(text) > 40:
            raise ValueError("too long")
        parts = text.split(",")
        if len(parts) > 9:
            raise ValueError("too many fields")
        parts += [""] * (9 - len(parts))

        def tile(s: str, allowed: tuple[TileKind, ...], why: str) -> TileKind | None:
            if not s:
                return None
            if s not in allowed:
                raise ValueError(why)
            return TileKind(s)

        def num(s: str) -> int | None:
            if not s:
                return None
            if not s.isdigit() or len(s) > 2:
                raise ValueError("bad number")
            return int(s)

        return cls(
            type=ActionType(parts[0]),
            kind=tile(parts[1], KINDS, "bad kind"),
            track=num(parts[2]),
            slot=num(parts[3]),
            die=num(parts[4]),
            role=tile(parts[5], PRIORITY, "bad role"),
            target=num(parts[6]),
            n=num(parts[7]),
            seat=num(parts[8]),
        )


class Status(StrEnum):
    ACTIVE = "active"
    OUT = "out"
    ELIMINATED = "eliminated"


class Phase(StrEnum):
    FIRST_MOVE = "first_move"
    PRE_MOVE = "pre_move"
    PLACING = "placing"
    POST_MOVE = "post_move"
    EXCHANGE = "exchange"
    GAME_OVER = "game_over"


class Mode(StrEnum):
    SINGLE = "single"
    SEQUENCE = "sequence"


class Block(BaseModel):
    tile: str
    by: int
    turn: int


class Track(BaseModel):
    slots: list[str] = Field(default_factory=list)
    block: Block | None = None


class Exchange(BaseModel):
    """An exchange in progress (R60)."""

    tile: str
    origin: Phase
    via_waive: bool = False
    selection: list[str] = Field(default_factory=list)


class Redirect(BaseModel):
    """Who moves next after this turn (R52–R55); `seat` is fixed at use time for OP."""

    role: TileKind
    after_move: bool
    seat: int | None = None


class Turn(BaseModel):
    """The turn record (R19), reset at each PRE_MOVE."""

    n_dice: int = 0
    dice: list[int] = Field(default_factory=list)
    die_tracks: list[int] = Field(default_factory=list)
    modes: dict[int, Mode] = Field(default_factory=dict)
    is_double: bool = False
    double_six: bool = False
    shifted: bool = False
    priority_used: bool = False
    cancel_used: bool = False
    draws: int = 0
    drawn: list[str] = Field(default_factory=list)
    board_action_done: bool = False
    placements: dict[int, int] = Field(default_factory=dict)
    placed_total: int = 0
    placed_t7: int = 0
    t7_completions: int = 0
    black_discards: int = 0
    bonus_taken: list[str] = Field(default_factory=list)
    restricted: bool = False
    began_restricted: bool = False
    final: bool = False
    redirect: Redirect | None = None
    rs_used: bool = False
    blocks_placed: list[int] = Field(default_factory=list)
    tile_moved: bool = False
    went_out: bool = False
    out_by_redirect: str | None = None


class RoundSummary(BaseModel):
    round: int
    cycle: int
    first_out: int | None
    out_order: list[int]
    hands: dict[int, list[str]]
    hand_values: dict[int, int]
    scores_before: dict[int, int]
    scores_after: dict[int, int]
    eliminated: list[int]
    stalled: bool


class State(BaseModel):
    """The whole game. Seats index `players`; tile ids are `KIND#NN` (R4)."""

    options: Options
    seed: int
    rng_calls: int = 0
    version: int = 0
    players: list[int]
    status: list[Status]
    scores: list[int]
    hands: list[list[str]]
    bank: list[str] = Field(default_factory=list)
    tracks: list[Track] = Field(default_factory=lambda: [Track() for _ in MAIN_TRACKS])
    t7: list[str] = Field(default_factory=list)
    store: list[str] = Field(default_factory=list)
    out: list[str] = Field(default_factory=list)
    phase: Phase = Phase.FIRST_MOVE
    current: int = 0
    turn_no: int = 0
    round_no: int = 1
    cycle_no: int = 1
    turn: Turn = Field(default_factory=Turn)
    exchange: Exchange | None = None
    fm_declarer: int | None = None
    fm_u_declarer: int | None = None
    fm_decided: list[int] = Field(default_factory=list)  # seats that answered in the window
    dice_off: list[DiceOffRoll] = Field(default_factory=list)  # this round's rolls
    restricted_left: int = 0
    final_left: int = 0
    finals_running: bool = False
    idle_turns: int = 0
    out_order: list[int] = Field(default_factory=list)
    eliminated_order: list[list[int]] = Field(default_factory=list)
    left: list[int] = Field(default_factory=list)
    last_round: RoundSummary | None = None
    winners: list[int] = Field(default_factory=list)

    @model_validator(mode="after")
    def _shape(self) -> State:
        n = len(self.players)
        if not (len(self.status) == len(self.scores) == len(self.hands) == n):
            raise ValueError("per-seat lists must match players")
        if "fm_decided" not in self.model_fields_set and self.phase == Phase.FIRST_MOVE:
            # a state stored while the window was still sequential (before 2026-12): the
            # seats before the one to answer had answered
            self.fm_decided = [x for x in range(self.current) if self.status[x] == Status.ACTIVE]
        return self


class TurnView(BaseModel):
    """The public part of the turn record (R19, R73), in `View.turn`. Its fields keep the
    order and the names of `Turn`'s (and its JSON the shape of the dict it replaces, so a
    picture's key is what it was). Before the first turn of a round it is all defaults."""

    n_dice: int = 0
    dice: list[int] = Field(default_factory=list)
    die_tracks: list[int] = Field(default_factory=list)
    modes: dict[int, Mode] = Field(default_factory=dict)  # the tracks the dice allow
    is_double: bool = False
    double_six: bool = False
    shifted: bool = False
    priority_used: bool = False
    draws: int = 0
    restricted: bool = False
    final: bool = False
    obligation_met: bool | None = None  # None outside PLACING
    bonus_taken: list[TileKind] = Field(default_factory=list)  # from the bonus store (R41)


class PlayerView(BaseModel):
    seat: int
    player: int
    status: Status
    score: int
    hand_count: int


class View(BaseModel):
    """What one player (or the table, `me=None`) may see (R73)."""

    me: int | None
    hand: list[str] | None
    players: list[PlayerView]
    tracks: list[Track]
    t7: list[str]
    store: list[str]
    out_count: int
    bank_size: int
    phase: Phase
    # the seat to act; in a first-move window only the viewer himself while he is still
    # to answer, else None (`SevenTracks.view`); None once the game is over
    current: int | None
    turn: TurnView
    exchange_size: int | None
    restricted_left: int
    final_left: int
    round_no: int
    cycle_no: int
    target_score: int
    single_round: bool
    last_round: RoundSummary | None
    winners: list[int]
