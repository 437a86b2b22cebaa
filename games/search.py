"""Determinized Monte Carlo search for «мастер», the strongest computer player.

The searcher never sees the real state. For each iteration it asks the game's sampler for
a *determinization*: a full state built from the seat's view alone, with the hidden tiles
(other hands, the bank or bazaar order) dealt at random consistently with what the view
shows, and a fresh seed for the dice to come. On that one sample every candidate action
is tried (common random numbers: the candidates are compared on the same deal and the
same dice), followed by a short rollout in which every seat plays the rollout policy
(from its own view of the sample), and the end position is scored by the game's
evaluation from the searching seat's side. The action with the best mean wins; ties go
to the fallback policy's choice.

Budget: the work is counted — `iterations`, and with `rollouts` at most that many
rollouts in all — so with the same view, legal actions and seed the decision is always
the same, on any machine under any load. `budget` (seconds of CPU,
`time.process_time`) and `wall` (seconds, `time.monotonic`) are guards on top of it,
calibrated not to fire (docs/players.md); when one fires first the decision depends on
how fast the machine is — it is still a legal, sensible move (the fallback policy's,
until one full iteration is done) — and `Master.last.cut` says so.

Example:
    >>> import random
    >>> from games.sea_cross import GAME
    >>> from games.sea_cross.policies import MASTER
    >>> s = GAME.new([1, 2], seed=4)
    >>> legal = GAME.legal_actions(s)
    >>> MASTER.choose(GAME.view(s, GAME.to_act(s)), legal, random.Random(1)) in legal
    True
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from games.policy import Policy
from games.protocol import Event, Game, IllegalAction

#: the CPU guard of one decision of «мастер», seconds: a safety net, not the budget (the
#: iterations are: calibrated per game so that the guard does not fire, docs/players.md)
BUDGET = 1.0
#: the wall-clock cap of one decision, seconds: a table is not held up for long by a
#: machine so overloaded that the decision process gets under a twentieth of a core (a
#: searched decision takes at most about 0.25 s of CPU; a lower cap would fire under
#: ordinary load and make the master's play depend on it: docs/players.md)
WALL = 5.0


def place_value(game: Game[Any, Any], state: Any, seat: int) -> float:
    """The end-of-game reward of `seat`: 1 for first place, 0 for last, linear between (a
    shared place counts as that place: a shared first is worth a win)."""
    result = game.result(state)
    n = len(result.standings)
    player = state.players[seat]
    place = next((s.place for s in result.standings if s.player == player), n)
    if n <= 1:
        return 1.0
    return (n - place) / (n - 1)


@dataclass(frozen=True)
class Search:
    """What one search did (`Master.search`, `Master.last`): the bench and the bot read it.

    `iterations` full iterations were done of the `planned` ones, over `candidates`
    actions; `cut` says what ended it early — None (the iteration cap: the decision
    depends on the view, the legal actions and the seed alone), "cpu" (the CPU guard,
    `Master.budget`) or "wall" (the wall-clock cap, `Master.wall`); `cpu` and `wall` are
    the seconds it took. `skipped` iterations drew a sample on which a candidate was not
    legal (a determinization that missed a hidden fact the legal actions reveal): the
    sample is dropped with its iteration, so `iterations + skipped == planned` unless a
    guard fired."""

    iterations: int
    planned: int
    candidates: int
    cut: str | None
    cpu: float
    wall: float
    skipped: int = 0


class _Clock:
    """The two guards of one search: CPU time and wall-clock time."""

    __slots__ = ("cpu", "cut", "wall")

    def __init__(self, budget: float, wall: float) -> None:
        self.cpu = time.process_time() + budget
        self.wall = time.monotonic() + wall
        self.cut: str | None = None

    def over(self) -> bool:
        """Whether a guard has fired (it stays fired)."""
        if self.cut is None:
            if time.process_time() > self.cpu:
                self.cut = "cpu"
            elif time.monotonic() > self.wall:
                self.cut = "wall"
        return self.cut is not None


@dataclass
class Master:
    """«Мастер»: determinized flat Monte Carlo over the legal actions (module doc).

    `sample(view, rng)` builds a full state from a view; `evaluate(state, seat)` scores a
    position for `seat` in [0, 1]; `rollout` plays every seat in the rollouts; `fallback`
    breaks ties and answers when the budget allows no iteration; `prune(view, legal)` may
    cut the candidates to the promising ones (by default all of them are searched);
    `horizon` is the number of actions a rollout plays after the candidate (the game's
    end stops it earlier); `trivial(view, legal)` says when to answer with `fallback`
    without searching (a forced step of a compound move, say); `margin` is how much
    better than the fallback's choice another must look before the search overrides it
    (few noisy samples should not overturn a sound heuristic).

    The work is counted, not timed, so that a decision does not depend on the machine or
    its load: `iterations` samples, each rolled out once per candidate, and with
    `rollouts` at most that many rollouts in all (`rollouts // candidates` iterations, at
    least one: a rollout costs about the same whatever the position, so a decision with
    many candidates costs about what one with few does). Both are calibrated per game so
    that `budget` (CPU seconds) and `wall` (wall-clock seconds), guards kept as a safety
    net, do not fire (docs/players.md). `last` is what the latest `choose` searched (None:
    it answered without a search).
    """

    game: Game[Any, Any]
    sample: Callable[[Any, random.Random], Any]
    evaluate: Callable[[Any, int], float]
    rollout: Policy[Any, Any]
    fallback: Policy[Any, Any]
    horizon: int = 40
    iterations: int = 24
    rollouts: int | None = None
    budget: float = BUDGET
    wall: float = WALL
    prune: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = None
    trivial: Callable[[Any, Sequence[Any]], bool] | None = None
    margin: float = 0.0
    name: str = "master"
    # cheaper rollouts, for a game whose `apply` copies the whole state at every step:
    # `perform(state, action, events)` plays an action on the search's own copy in place
    # (the engine's own in-place step; the events are thrown away), after
    # `clone(sample)` made that copy for a candidate (without `clone`, the candidate's
    # own `apply` makes it); `rollout_view(state, player)` is what the rollout policy
    # reads (default `game.view`: a lighter one may leave out what it never reads)
    perform: Callable[[Any, Any, list[Event]], None] | None = None
    clone: Callable[[Any], Any] | None = None
    rollout_view: Callable[[Any, int], Any] | None = None
    last: Search | None = field(default=None, init=False, compare=False, repr=False)

    def with_budget(
        self,
        budget: float,
        iterations: int | None = None,
        horizon: int | None = None,
        wall: float | None = None,
    ) -> Master:
        """A copy with another CPU guard (and iteration count, rollout length, wall-clock
        cap): tests use a tiny one. An `iterations` given is done whatever the
        candidates (no `rollouts` limit)."""
        return dataclasses.replace(
            self,
            budget=budget,
            iterations=self.iterations if iterations is None else iterations,
            rollouts=self.rollouts if iterations is None else None,
            horizon=self.horizon if horizon is None else horizon,
            wall=self.wall if wall is None else wall,
        )

    def planned(self, candidates: int) -> int:
        """The iterations of a search over `candidates` actions (`rollouts`, class doc).

        >>> from games.sea_cross.policies import MASTER
        >>> m = dataclasses.replace(MASTER, iterations=60, rollouts=180)
        >>> m.planned(2), m.planned(4), m.planned(8), m.planned(400)
        (60, 45, 22, 1)
        """
        if self.rollouts is None:
            return self.iterations
        return max(1, min(self.iterations, self.rollouts // max(1, candidates)))

    def choose(self, view: BaseModel, legal: Sequence[Any], rng: random.Random) -> Any:
        action, self.last = self.search(view, legal, rng)
        return action

    def search(
        self, view: BaseModel, legal: Sequence[Any], rng: random.Random
    ) -> tuple[Any, Search | None]:
        """The chosen action and what the search did (None: no search was needed)."""
        clock = _Clock(self.budget, self.wall)
        started = time.process_time(), time.monotonic()
        default = self.fallback.choose(view, legal, rng)
        if len(legal) == 1 or (self.trivial is not None and self.trivial(view, legal)):
            return default, None
        candidates = list(self.prune(view, legal) if self.prune is not None else legal)
        if default not in candidates:
            candidates.insert(0, default)
        if len(candidates) == 1:
            return default, None
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        done = skipped = 0
        planned = self.planned(len(candidates))
        for _ in range(planned):
            base = self.sample(view, rng)
            seat = base.players.index(self.game.to_act(base))
            roll_seed = rng.getrandbits(32)
            try:
                firsts = [self._first(base, action) for action in candidates]
            except IllegalAction:  # a sample the view allows but a candidate does not
                skipped += 1
                continue
            for i, first in enumerate(firsts):
                state = self._rollout(first, random.Random(roll_seed), clock)
                totals[i] += self.evaluate(state, seat)
                counts[i] += 1
                if clock.over():
                    break
            if clock.cut is not None:
                break
            done += 1
        report = Search(
            iterations=done,
            planned=planned,
            candidates=len(candidates),
            cut=clock.cut,
            cpu=time.process_time() - started[0],
            wall=time.monotonic() - started[1],
            skipped=skipped,
        )
        if min(counts) == 0:
            return default, report
        means = [t / c for t, c in zip(totals, counts, strict=True)]
        best = max(means)
        if means[candidates.index(default)] >= best - self.margin - 1e-9:
            return default, report
        return candidates[means.index(best)], report

    def _first(self, base: Any, action: Any) -> Any:
        """The candidate `action` played on a copy of the sample `base`."""
        if self.perform is not None and self.clone is not None:
            state = self.clone(base)
            self.perform(state, action, [])
            return state
        state, _ = self.game.apply(base, action)
        return state

    def _rollout(self, state: Any, rng: random.Random, clock: _Clock) -> Any:
        game = self.game
        for _ in range(self.horizon):
            player = game.to_act(state)
            if player is None or clock.over():
                break
            legal = game.legal_actions(state)
            if not legal:
                break
            if len(legal) == 1:
                action = legal[0]
            else:
                seen = self.rollout_view or game.view
                action = self.rollout.choose(seen(state, player), legal, rng)
            if self.perform is not None:
                self.perform(state, action, [])  # the search's own copy (`_first`)
            else:
                state, _ = game.apply(state, action)
        return state


def fresh_seed(rng: random.Random) -> int:
    """A seed for a determinization's dice to come, from the searcher's generator."""
    return rng.getrandbits(40)


__all__ = ["BUDGET", "WALL", "Master", "Search", "fresh_seed", "place_value"]
