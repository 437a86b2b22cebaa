"""Data of «ДОМИНА*С»: options, actions, the state and the public view (spec §2–§7)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from games.dominas.tiles import from_ascii, is_tile, to_ascii

HAND_SIZE = 10  # R7


class Mode(StrEnum):
    SOLO = "solo"
    TEAMS = "teams"


class Fill(StrEnum):
    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


class Tempo(StrEnum):
    FREE = "free"
    MODERATE = "moderate"
    BLITZ = "blitz"


TEMPO_SECONDS: dict[Tempo, int | None] = {Tempo.FREE: None, Tempo.MODERATE: 20, Tempo.BLITZ: 10}


class Options(BaseModel):
    """Validated options (R6, §3.1 `fill_direction`, R26 `match_games`, R27 `tempo`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Mode = Mode.SOLO
    fill_direction: Fill = Fill.CLOCKWISE
    match_games: int = 2
    tempo: Tempo = Tempo.FREE

    @field_validator("match_games")
    @classmethod
    def _games(cls, value: int) -> int:
        if value not in (1, 2):
            raise ValueError("must be 1 or 2")
        return value


class Pos(StrEnum):
    """A nest's place in its floor (§3.1); the value is the callback letter."""

    TOP = "T"  # ▲
    LEFT = "L"  # ◣ (floor 1 corner, or the entry of floor ≥ 2)
    RIGHT = "R"  # ◢
    CENTRE = "C"  # ▼


POS_MARK: dict[Pos, str] = {Pos.TOP: "▲", Pos.LEFT: "◣", Pos.RIGHT: "◢", Pos.CENTRE: "▼"}


class ActionType(StrEnum):
    PLACE = "P"  # PLACE(tile, nest, variant)
    STOP = "S"  # ⏹ Хватит: end a bonus series
    TIMEOUT = "T"  # system: the turn timer ran out (R27)


class Action(BaseModel):
    """One atomic decision. `tile` is a spec id (`В14`, `О⚙`), `variant` 0 or 1 (R5)."""

    model_config = ConfigDict(frozen=True)

    type: ActionType
    tile: str | None = None
    nest: Pos | None = None
    variant: int = 0

    @model_validator(mode="after")
    def _shape(self) -> Action:
        if self.type is ActionType.PLACE:
            if not is_tile(self.tile) or self.nest is None or self.variant not in (0, 1):
                raise ValueError("PLACE needs a tile id, a nest and variant 0/1")
        elif self.tile is not None or self.nest is not None or self.variant != 0:
            raise ValueError("STOP/TIMEOUT take no arguments")
        return self

    def encode(self) -> str:
        """Compact ASCII for callback data: `P,V14,R,1`, `S`, `T` (≤ 9 characters)."""
        if self.type is ActionType.PLACE:
            assert self.tile is not None and self.nest is not None
            return f"P,{to_ascii(self.tile)},{self.nest.value},{self.variant}"
        return self.type.value

    @classmethod
    def decode(cls, text: str) -> Action:
        """Inverse of `encode`; ValueError on anything malformed."""
        if not isinstance(text, str) or len(text) > 12:
            raise ValueError("bad text")
        parts = text.split(",")
        kind = ActionType(parts[0])
        if kind is not ActionType.PLACE:
            if len(parts) != 1:
                raise ValueError("unexpected argument")
            return cls(type=kind)
        if len(parts) != 4 or parts[3] not in ("0", "1"):
            raise ValueError("PLACE needs tile, nest, variant")
        return cls(type=kind, tile=from_ascii(parts[1]), nest=Pos(parts[2]), variant=int(parts[3]))


class Phase(StrEnum):
    PLAY = "play"  # the player to act must place a tile (R10)
    BONUS = "bonus"  # a bonus series (R20, R21): place more or STOP
    OVER = "over"  # the match is over


class BonusKind(StrEnum):
    SUM9 = "sum9"
    SUM10 = "sum10"
    KOLOBOK = "kolobok"


class Bonus(BaseModel):
    kind: BonusKind
    target: int | None = None  # pip sum each added tile must have (R20)
    left: int | None = None  # tiles still allowed (None: Колобок, unlimited)


class Placed(BaseModel):
    """A tile in the figure. `edges[k]` = symbol shown on side k (a самоход: the carried one)."""

    tile: str
    seat: int | None  # who placed it
    floor: int
    pos: Pos
    parent: int | None  # index of the parent in `figure` (None for #1)
    parent_side: int | None
    side: int | None  # own side attached to the parent (None for #1)
    edges: list[int]
    bonus: bool = False


class Nest(BaseModel):
    """An open nest: where a tile may go and what it is attached to (§3.1)."""

    pos: Pos
    parent: int | None = None
    side: int | None = None


class Run(BaseModel):
    """A run of four (R14) and the skip it caused (R15–R17)."""

    placer: int
    skipper: int
    kinds: list[str]  # "colour", "parity", "monotone"
    tiles: list[str]
    extra: bool
    reason: str | None = None  # "equal", "colour_parity", "named" (R17 a/b/c)


class GameRecord(BaseModel):
    """One finished game (партия). Lists are per side."""

    game: int
    reason: str  # "win", "fish", "abandoned"
    winner_side: int | None  # R23 winner; fish: the unique side with fewest tiles, if any
    first: int
    tiles: list[int]
    scores: list[int]


class State(BaseModel):
    """The whole match. Seats index `players`; sides are seats (solo) or seat % 2 (teams)."""

    options: Options = Field(default_factory=Options)
    seed: int
    rng_calls: int = 0
    version: int = 0
    players: list[int]
    side_of: list[int]
    present: list[bool]
    left_order: list[int] = Field(default_factory=list)
    game_no: int = 1
    hands: list[list[str]]
    bazaar: list[str] = Field(default_factory=list)  # bazaar[0] is drawn next
    figure: list[Placed] = Field(default_factory=list)
    nests: list[Nest] = Field(default_factory=lambda: [Nest(pos=Pos.CENTRE)])
    floor: int = 1
    phase: Phase = Phase.PLAY
    current: int = 0
    first: int = 0  # first seat of this game
    turn_no: int = 0
    turn_placed: int = 0
    bonus: Bonus | None = None
    draws: list[int] = Field(default_factory=list)  # tiles drawn this game, per seat (public)
    # per seat, every tile that entered the hand this game: the dealt ones in a shuffled
    # order, then each draw; a tile's number in the hand is its place here (`slot_numbers`)
    entered: list[list[str]] = Field(default_factory=list)
    # per seat and slot number − 1 (the place in `entered`): the needs (bits, see
    # `tiles.need_bits`) of the open nests at the moments that tile was seen unable to
    # meet them: when the seat had to draw or pass (R11), or a Колобок series ended with
    # nothing to place (R21). Public: the table sees who draws and passes (§7, E16).
    # A tile drawn later has a new number, unknown again; 0 = nothing known.
    lacks: list[list[int]] = Field(default_factory=list)
    last_run: Run | None = None
    initial_hands: list[list[str]] = Field(default_factory=list)  # game 1 (R7, R26)
    initial_bazaar: list[str] = Field(default_factory=list)
    game1_first: int = 0
    records: list[GameRecord] = Field(default_factory=list)
    winners: list[int] = Field(default_factory=list)  # seats, once the match is over

    @model_validator(mode="after")
    def _shape(self) -> State:
        n = len(self.players)
        if not (len(self.side_of) == len(self.present) == len(self.hands) == n):
            raise ValueError("per-seat lists must match players")
        return self

    @property
    def n_sides(self) -> int:
        return max(self.side_of) + 1


class SeatView(BaseModel):
    seat: int
    player: int
    side: int
    present: bool
    hand_count: int
    drawn: int
    # the numbers of the tiles in his hand, ascending: each tile keeps its number while it
    # is there; which tile has which number is hidden (the dealt ones are numbered at random)
    slots: list[int] = Field(default_factory=list)
    # aligned with `slots`: the needs that tile was seen unable to meet (`State.lacks`)
    lacks: list[int] = Field(default_factory=list)


class NestView(BaseModel):
    pos: Pos
    floor: int
    symbol: int | None  # required symbol; None for #1 (any regular tile)
    parent_colour: str | None  # the colour a самоход must have here
    far: bool  # an entry or the last corner: a ⟲ variant may exist (R5)


class View(BaseModel):
    """What one player (or the table, `me=None`) may see (§7)."""

    me: int | None
    hand: list[str] | None
    hand_slots: list[int] | None = None  # the number of each tile of `hand`
    remembered: list[str] | None  # game 2: own side's game-1 initial tiles (§7)
    players: list[SeatView]
    mode: Mode
    fill_direction: Fill
    tempo: Tempo
    match_games: int
    game_no: int
    figure: list[Placed]
    nests: list[NestView]
    floor: int
    bazaar_size: int
    phase: Phase
    current: int | None
    turn_no: int
    bonus: Bonus | None
    last_run: Run | None
    records: list[GameRecord]
    totals: list[int]
    winners: list[int]
