"""Scaffolding the rules engines share: checked `apply`, `remove`, action codecs, dice.

An engine subclasses `RulesEngine` and supplies the rules as hooks (`_candidates`,
`_why`, `_perform`, `_remove`, `_left`); the protocol methods around them live here.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar, Generic, NoReturn, Protocol, Self, TypeVar

from games import automation
from games.automation import Automatic
from games.chance import stream
from games.copying import deep_copy
from games.policy import Policy, choose_for, view_rng
from games.protocol import Event, IllegalAction


class MalformedAction(IllegalAction, ValueError):
    """Text or value that is not an action of this game (code `malformed`)."""

    def __init__(self, reason: str) -> None:
        super().__init__("malformed", reason=reason)


def malformed(exc: ValueError) -> NoReturn:
    """Refuse undecodable text with `MalformedAction`, the first line of `exc` as reason."""
    raise MalformedAction(str(exc).splitlines()[0]) from None


class Seeded(Protocol):
    """A state that draws its dice from `seed` and a counter."""

    seed: int
    rng_calls: int


def counter_rng(s: Seeded) -> random.Random:
    """A fresh generator per use, derived from the seed and a counter: small to store
    (`games.chance.stream(seed, counter)`: keyed for a new game's seed, as before for an
    old one).

    >>> class St:
    ...     seed, rng_calls = 7, 0
    >>> st = St()
    >>> counter_rng(st).random() == random.Random("7:1").random(), st.rng_calls
    (True, 1)
    """
    s.rng_calls += 1
    return stream(s.seed, s.rng_calls)


class EngineState(Protocol):
    """What the shared scaffolding reads and writes in a state."""

    version: int

    @property
    def players(self) -> Sequence[int]: ...

    @property
    def current(self) -> int: ...

    @property
    def phase(self) -> Enum: ...

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


class EngineAction(Protocol):
    """An action that has a text form."""

    def encode(self) -> str: ...


S = TypeVar("S", bound=EngineState)
A = TypeVar("A", bound=EngineAction)


class RulesEngine(Automatic[S, A], Generic[S, A]):
    """The protocol methods common to engines whose rules are candidates + `_why` + `_perform`,
    with the automation extension's defaults (games.automation)."""

    id: str
    min_players: int
    max_players: int
    state_type: type[S]
    lower_score_wins: bool = False  # games.protocol.Game
    action_type: ClassVar[type[Any]]  # the Action model: isinstance checks and `decode`
    over_phase: ClassVar[Enum]  # the phase of a finished game
    # «новичок», the weakest policy (games/<id>/policies.py): what a timed-out turn plays
    novice: ClassVar[Policy[Any, Any] | None] = None

    # ---------------------------------------------------------------- hooks

    def _candidates(self, s: S) -> list[A]:
        raise NotImplementedError

    def _why(self, s: S, a: A) -> str | None:
        raise NotImplementedError

    def _perform(self, s: S, a: A, events: list[Event]) -> None:
        raise NotImplementedError

    def _remove(self, s: S, seat: int, events: list[Event]) -> None:
        raise NotImplementedError

    def _left(self, s: S, seat: int) -> bool:
        """Whether the seat already left the game (`remove` then changes nothing)."""
        raise NotImplementedError

    def _not_an_action(self) -> IllegalAction:
        return IllegalAction("malformed")

    def _action_text(self, a: A) -> str:
        return a.encode()

    def _not_a_player(self, player: int) -> IllegalAction:
        return IllegalAction("not_a_player", player=player)

    def _undecodable(self, text: str, exc: ValueError) -> NoReturn:
        raise IllegalAction("malformed") from exc

    # ---------------------------------------------------------------- protocol

    def _check_players(self, players: list[int]) -> None:
        n = len(players)
        if not (self.min_players <= n <= self.max_players):
            raise ValueError(f"players: {self.min_players}..{self.max_players} players are needed")
        if len(set(players)) != n:
            raise ValueError("players: duplicate player")

    def to_act(self, state: S) -> int | None:
        if self.is_over(state):
            return None
        return state.players[state.current]

    def is_over(self, state: S) -> bool:
        return state.phase == self.over_phase

    def legal_actions(self, state: S) -> list[A]:
        return [a for a in self._candidates(state) if self._why(state, a) is None]

    def deciders(self, state: S) -> list[int]:
        """The players who may decide now: the one to act, or, at a simultaneous decision
        (where `to_act` names only the default answerer), everyone still to answer."""
        player = self.to_act(state)
        return [] if player is None else [player]

    def legal_actions_for(self, state: S, player: int) -> list[A]:
        """What `player` may do now: `legal_actions` for the one to act, else nothing. An
        engine with a simultaneous decision gives each decider his own actions."""
        return self.legal_actions(state) if player == self.to_act(state) else []

    def apply(self, state: S, action: A) -> tuple[S, list[Event]]:
        if not isinstance(action, self.action_type):
            raise self._not_an_action()
        code = self._why(state, action)
        if code is None and action not in self._candidates(state):
            code = "malformed"
        if code is not None:
            raise IllegalAction(code, action=self._action_text(action))
        s = deep_copy(state)
        events: list[Event] = []
        self._perform(s, action, events)
        s.version += 1
        return s, events

    def first_legal(self, state: S, options: Iterable[A]) -> A | None:
        """The first of `options` that `apply` would accept, without listing every legal
        action: `_why` for each option, the candidates only for the one that passes."""
        if self.is_over(state):
            return None
        for a in options:
            if self._why(state, a) is None and a in self._candidates(state):
                return a
        return None

    def batch(self, state: S) -> Batch[S, A]:
        """A private copy of `state` to apply several actions to, one after another."""
        return Batch(self, state)

    def remove(self, state: S, player: int) -> tuple[S, list[Event]]:
        if player not in state.players:
            raise self._not_a_player(player)
        seat = state.players.index(player)
        if self.is_over(state) or self._left(state, seat):
            return state, []
        s = deep_copy(state)
        events: list[Event] = []
        self._remove(s, seat, events)
        s.version += 1
        return s, events

    def timeout_action(self, state: S) -> A:
        """What the bot plays for the player to act whose turn timer ran out: the novice
        policy's choice from his view (games.policy), or, for a game without one, the first
        legal action in canonical order. An engine with a system move overrides this."""
        legal = self.legal_actions(state)
        if self.novice is None:
            if not legal:
                raise IllegalAction("game_over")
            return legal[0]
        player = state.players[state.current]
        view = self.view(state, player)
        action: A = choose_for(self.novice, view, legal, view_rng(view, "timeout"))
        return action

    def timeout(self, state: S) -> tuple[S, list[Event]]:
        """One step of a timed-out turn (games.protocol.Game.timeout): `timeout_action`,
        applied like `apply` but outside `legal_actions`, so a system move nobody may choose
        (not a candidate) is accepted here and only here."""
        if self.is_over(state):
            raise IllegalAction("game_over")
        action = self.timeout_action(state)
        code = self._why(state, action)
        if code is not None:
            raise IllegalAction(code, action=self._action_text(action))
        s = deep_copy(state)
        events: list[Event] = []
        self._perform(s, action, events)
        s.version += 1
        return s, events

    def view(self, state: S, player: int | None) -> Any:
        raise NotImplementedError

    def encode_action(self, action: A) -> str:
        return action.encode()

    def decode_action(self, text: str) -> A:
        try:
            action: A = self.action_type.decode(text)
        except ValueError as exc:
            self._undecodable(text, exc)
        return action


class Batch(automation.Batch[S, A]):
    """`games.automation.Batch` on one private copy of the state: one deep copy in all
    instead of one per action (the bot's «place everything» applies a dozen in one
    press). The state passed in is never changed."""

    def __init__(self, engine: RulesEngine[S, A], state: S) -> None:
        self._engine = engine
        self.state: S = deep_copy(state)
        self.events: list[Event] = []

    def first(self, options: Iterable[A]) -> A | None:
        """Apply the first legal one of `options` and return it; None, and nothing
        changes, when none is legal."""
        e = self._engine
        a = e.first_legal(self.state, options)
        if a is not None:
            e._perform(self.state, a, self.events)
            self.state.version += 1
        return a
