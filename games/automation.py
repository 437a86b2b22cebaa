"""What the bot does on a player's behalf: one typed extension of the game protocol.

The rules say what may be done; this says what the bot does without asking (DESIGN,
«Computer players and automation»). Every registered engine implements it (the
registry's conformance test checks), most through `Automatic`'s defaults:

- `turn_key(state)` names the decision a timer waits for: it changes exactly when a new
  decision begins (a new turn, a new roll, a new window); None when nobody is awaited.
- `is_simultaneous(state)`: everyone in `deciders` answers at once (OpenSpiel's
  simultaneous node; «Семидорожник»'s first-move window). The bot gives such a decision
  its short window timer instead of the turn timer, shows one public button to all, and
  when the window runs out `timeout` answers for everyone still to answer.
- `forced(state)`: a formality the bot plays at once — a roll, the only legal move, an
  answer that is no choice, a turn in which nothing can be done — or None when a
  decider has a real choice. `settle` applies them one after another.
- `timeout_turn(state)`: what the bot plays for the player whose turn timer ran out —
  `timeout` steps (the game's weakest policy, from his view) until his decision is over.
- `finished(state, player)`: the player can no longer act nor change his score while the
  game goes on («Гипнозия»'s player with no token in play, its R18): nothing waits for
  him (the computers left to play do not wait for him to watch either).
- `first_legal(state, options)` and `batch(state)`: what compound buttons expand into —
  the first of several candidate actions that is legal, and several actions applied
  one after another on one private copy of the state.

Example:
    >>> import games
    >>> g = games.get("sea_cross")
    >>> s = g.new([1, 2], seed=5)
    >>> g.forced(s).type.value  # the roll is a formality
    'R'
    >>> s2, events = settle(g, s)
    >>> events[0].type, g.forced(s2) is None or g.is_over(s2)
    ('forced', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from games.protocol import Event, Fact, Game, IllegalAction

S = TypeVar("S")
A = TypeVar("A")
M = TypeVar("M", bound=BaseModel)  # a state, where the protocol's Game needs its model

MAX_STEPS = 400  # a chain of formalities or a timed-out turn ends far sooner


class Forced(Fact):
    """A formality the bot played (`settle`): the action's encoding."""

    kind = "forced"
    action: str


FORCED = Forced.kind


@runtime_checkable
class Automation(Protocol[S, A]):
    """The extension every engine implements beside `games.protocol.Game`."""

    def turn_key(self, state: S) -> str | None: ...

    def is_simultaneous(self, state: S) -> bool: ...

    def forced(self, state: S) -> A | None: ...

    def timeout_turn(self, state: S) -> tuple[S, list[Event]]: ...

    def finished(self, state: S, player: int) -> bool: ...

    def first_legal(self, state: S, options: Iterable[A]) -> A | None: ...

    def batch(self, state: S) -> Batch[S, A]: ...


class Automated(Game[M, A], Automation[M, A], Protocol):
    """An engine as the bot holds it: the protocol and its automation."""


A_contra = TypeVar("A_contra", contravariant=True)


class _Applies(Protocol[S, A_contra]):
    def apply(self, state: S, action: A_contra) -> tuple[S, list[Event]]: ...


class Batch(Generic[S, A]):
    """Actions applied one after another to one private copy of a state: the states and
    events that `apply` gives for each in turn. This general form applies each on the
    last state; `games.engine.RulesEngine` has one that copies the state once."""

    def __init__(self, game: _Applies[S, A], state: S) -> None:
        self._game = game
        self.state: S = state
        self.events: list[Event] = []

    def first(self, options: Iterable[A]) -> A | None:
        """Apply the first legal one of `options` and return it; None, and nothing
        changes, when none is legal."""
        for a in options:
            try:
                self.state, events = self._game.apply(self.state, a)
            except IllegalAction:
                continue
            self.events.extend(events)
            return a
        return None


class Automatic(Generic[S, A]):
    """`Automation`'s defaults, for an engine that also implements `Game`: one player
    decides at a time, nothing is forced, a timed-out turn is `timeout` steps until his
    `turn_key` changes. An engine overrides what its rules make otherwise."""

    def turn_key(self, state: S) -> str | None:
        """By default a decision is the player to act: it lasts until another acts."""
        game: Any = self
        player = game.to_act(state)
        return None if player is None else str(player)

    def is_simultaneous(self, state: S) -> bool:
        return False

    def forced(self, state: S) -> A | None:
        return None

    def timeout_turn(self, state: S) -> tuple[S, list[Event]]:
        game: Any = self
        key = self.turn_key(state)
        player = game.to_act(state)
        s, events = state, []
        for _ in range(MAX_STEPS):
            if game.is_over(s) or self.turn_key(s) != key or game.to_act(s) != player:
                break
            s, ev = game.timeout(s)
            events.extend(ev)
        return s, events

    def finished(self, state: S, player: int) -> bool:
        """By default a player in the game has something left to do until it ends."""
        return False

    def first_legal(self, state: S, options: Iterable[A]) -> A | None:
        game: Any = self
        legal = game.legal_actions(state)
        return next((a for a in options if a in legal), None)

    def batch(self, state: S) -> Batch[S, A]:
        return Batch(self, state)  # type: ignore[arg-type]  # (with Game, as documented)


def settle(game: Automated[M, A], state: M) -> tuple[M, list[Event]]:
    """The formalities: `forced` actions applied until a decider has a real choice or
    the game is over, each announced by a `forced` event (its encoding) before its own."""
    s, events = state, []
    for _ in range(MAX_STEPS):
        if game.is_over(s):
            break
        action = game.forced(s)
        if action is None:
            break
        deciders = game.deciders(s)
        seat = _seat(s, deciders[0]) if len(deciders) == 1 else None
        events.append(Event.of(Forced(action=game.encode_action(action)), seat))
        s, ev = game.apply(s, action)
        events.extend(ev)
    return s, events


def _seat(state: BaseModel, player: int) -> int | None:
    players = getattr(state, "players", None)
    return players.index(player) if isinstance(players, list) and player in players else None
