"""The game protocol every engine implements (see docs/spec/DESIGN.md).

Example:
    >>> import games
    >>> g = games.get("seven_tracks")
    >>> s = g.new(players=[101, 102], seed=7, options=None)
    >>> g.to_act(s) in (101, 102)
    True
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field


class IllegalAction(Exception):
    """An action the rules refuse; `code` is machine readable, the bot translates it."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code)
        self.code = code
        self.details = details

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.details!r})"


class Event(BaseModel):
    """A fact for narration. `private_to` is a seat when only that player may see it."""

    model_config = ConfigDict(frozen=True)

    type: str
    seat: int | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    private_to: int | None = None


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
