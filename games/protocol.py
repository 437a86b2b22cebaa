"""The game protocol every engine implements (see docs/spec/DESIGN.md).

Example:
    >>> import games
    >>> g = games.get("seven_tracks")
    >>> s = g.new(players=[101, 102], seed=7, options=None)
    >>> g.to_act(s) in (101, 102)
    True
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, SerializeAsAny


class IllegalAction(Exception):
    """An action the rules refuse; `code` is machine readable, the bot translates it."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code)
        self.code = code
        self.details = details

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.details!r})"


class Fact(BaseModel):
    """What happened, in data: one model per kind of event. Each game declares its kinds
    in `games/<id>/events.py` (`kind` is the event's type); the bot narrates them by
    matching on the class (`match e.data: case Placed(track=k): ...`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ClassVar[str]


class Event(BaseModel):
    """A fact for narration: `data`, one of the game's `Fact` models, and the seat it is
    about. `private_to` is a seat when only that player may see it.

    >>> class Rolled(Fact):
    ...     kind = "rolled"
    ...     dice: list[int]
    >>> e = Event.of(Rolled(dice=[3, 5]), seat=1)
    >>> e.type, e.data.dice
    ('rolled', [3, 5])
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int | None = None
    data: SerializeAsAny[Fact]
    private_to: int | None = None

    @property
    def type(self) -> str:
        """The kind of the fact (`Fact.kind`)."""
        return self.data.kind

    @classmethod
    def of(cls, fact: Fact, seat: int | None = None, private_to: int | None = None) -> Event:
        return cls(seat=seat, data=fact, private_to=private_to)


class Standing(BaseModel):
    player: int
    place: int
    score: int


class Result(BaseModel):
    standings: list[Standing]
    winners: list[int]


S = TypeVar("S", bound=BaseModel)
A = TypeVar("A")
S_co = TypeVar("S_co", bound=BaseModel, covariant=True)


class Game(Protocol, Generic[S, A]):
    """What the bot relies on. Engines are pure: `apply` returns a new state."""

    id: str
    min_players: int
    max_players: int
    state_type: type[S]
    # whether a lower `Standing.score` is the better one («Семидорожник»: its points are
    # the tiles left in hand); the best score a player made is then his lowest
    lower_score_wins: bool

    def new(self, players: list[int], seed: int, options: dict[str, Any] | None = None) -> S: ...

    def to_act(self, state: S) -> int | None: ...

    def legal_actions(self, state: S) -> list[A]: ...

    def deciders(self, state: S) -> list[int]:
        """Who may decide now: `[to_act]`, or everyone still to answer at a simultaneous
        decision («Семидорожник»'s first-move window)."""
        ...

    def legal_actions_for(self, state: S, player: int) -> list[A]:
        """What one decider may do now (`legal_actions` when he is the one to act)."""
        ...

    def apply(self, state: S, action: A) -> tuple[S, list[Event]]: ...

    def is_over(self, state: S) -> bool: ...

    def result(self, state: S) -> Result: ...

    def view(self, state: S, player: int | None) -> BaseModel: ...

    def remove(self, state: S, player: int) -> tuple[S, list[Event]]: ...

    def timeout(self, state: S) -> tuple[S, list[Event]]:
        """One step the bot takes for the player to act when his turn timer runs out: the
        game's system move (ДОМИНА*С's penalty draw) or its novice policy's choice from his
        view. Not in `legal_actions`: a timeout is done to a player, never chosen by one."""
        ...

    def encode_action(self, action: A) -> str: ...

    def decode_action(self, text: str) -> A: ...
