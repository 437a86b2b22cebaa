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

Budget: `iterations` caps the work, so with the same seed the decision is always the
same; `budget` (seconds of CPU, `time.process_time`) is a hard guard on top of it. When
the guard fires first the decision depends on how fast the machine is — it is still a
legal, sensible move (the fallback policy's, until one full iteration is done).

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
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from games.policy import Policy
from games.protocol import Event, Game

#: the default CPU budget of one decision of «мастер», seconds (issue 14: p99 ≤ 300 ms)
BUDGET = 0.25


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
    """

    game: Game[Any, Any]
    sample: Callable[[Any, random.Random], Any]
    evaluate: Callable[[Any, int], float]
    rollout: Policy[Any, Any]
    fallback: Policy[Any, Any]
    horizon: int = 40
    iterations: int = 24
    budget: float = BUDGET
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

    def with_budget(
        self, budget: float, iterations: int | None = None, horizon: int | None = None
    ) -> Master:
        """A copy with another CPU budget (and iteration cap, rollout length): tests use
        a tiny one."""
        return dataclasses.replace(
            self,
            budget=budget,
            iterations=self.iterations if iterations is None else iterations,
            horizon=self.horizon if horizon is None else horizon,
        )

    def choose(self, view: BaseModel, legal: Sequence[Any], rng: random.Random) -> Any:
        deadline = time.process_time() + self.budget
        default = self.fallback.choose(view, legal, rng)
        if len(legal) == 1 or (self.trivial is not None and self.trivial(view, legal)):
            return default
        candidates = list(self.prune(view, legal) if self.prune is not None else legal)
        if default not in candidates:
            candidates.insert(0, default)
        if len(candidates) == 1:
            return default
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        out_of_time = False
        for _ in range(self.iterations):
            base = self.sample(view, rng)
            seat = base.players.index(self.game.to_act(base))
            roll_seed = rng.getrandbits(32)
            for i, action in enumerate(candidates):
                state = self._first(base, action)
                state = self._rollout(state, random.Random(roll_seed), deadline)
                totals[i] += self.evaluate(state, seat)
                counts[i] += 1
                if time.process_time() > deadline:
                    out_of_time = True
                    break
            if out_of_time:
                break
        if min(counts) == 0:
            return default
        means = [t / c for t, c in zip(totals, counts, strict=True)]
        best = max(means)
        if means[candidates.index(default)] >= best - self.margin - 1e-9:
            return default
        return candidates[means.index(best)]

    def _first(self, base: Any, action: Any) -> Any:
        """The candidate `action` played on a copy of the sample `base`."""
        if self.perform is not None and self.clone is not None:
            state = self.clone(base)
            self.perform(state, action, [])
            return state
        state, _ = self.game.apply(base, action)
        return state

    def _rollout(self, state: Any, rng: random.Random, deadline: float) -> Any:
        game = self.game
        for _ in range(self.horizon):
            player = game.to_act(state)
            if player is None or time.process_time() > deadline:
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


__all__ = ["BUDGET", "Master", "fresh_seed", "place_value"]
