"""«Мастер» of «Семидорожник»: determinized Monte Carlo at each turn's start (games.search).

At PRE_MOVE — one die or two, a priority tile instead of the move, an exchange, the
fifth-tile swap, cancelling a restriction — each candidate is tried on samples of the
hidden tiles (`games.seven_tracks.determinize`: the other hands, the pile out and the
bank's order dealt at random in the sizes the view shows, fresh dice) and played on by
«опытный» for every seat for about two circles; the position is scored by hand values
(what a round's end would add to each score) and hand sizes, against the best opponent.
Inside a turn the view lacks part of the turn record, so the steps are not searched:
`Steps` plays them as «опытный» does, but takes a white back whenever it can.

Example:
    >>> import random
    >>> from games.seven_tracks import GAME
    >>> s = GAME.new([1, 2], seed=7, options={"single_round": True})
    >>> while s.phase.value != "pre_move":
    ...     s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    >>> quick = MASTER.with_budget(0.05, iterations=2)
    >>> quick.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s), random.Random(0)) \\
    ...     in GAME.legal_actions(s)
    True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.search import Master, place_value
from games.seven_tracks.determinize import sample, sampleable
from games.seven_tracks.engine import GAME
from games.seven_tracks.model import (
    DEFAULT_TILE_VALUES,
    Action,
    ActionType,
    State,
    Status,
    View,
    kind_of,
)
from games.seven_tracks.policies import EXPERIENCED


def _hand_value(hand: list[str]) -> int:
    return sum(DEFAULT_TILE_VALUES.get(kind_of(t), 0) for t in hand)


def evaluate(state: State, seat: int) -> float:
    """`seat`'s standing in [0, 1]: score plus hand value plus 4 a tile, against the best."""
    if GAME.is_over(state):
        return place_value(GAME, state, seat)

    def cost(x: int) -> int:
        return state.scores[x] + _hand_value(state.hands[x]) + 4 * len(state.hands[x])

    mine = cost(seat)
    best = min(
        (
            cost(x)
            for x in range(len(state.players))
            if x != seat and state.status[x] is not Status.ELIMINATED
        ),
        default=mine,
    )
    return min(1.0, max(0.0, 0.5 + (best - mine) / 200.0))


def _trivial(view: View, legal: Sequence[Action]) -> bool:
    return not sampleable(view)


class Steps:
    """The steps «мастер» does not search (inside a turn): «опытный»'s, except that it
    takes a white back (RECLAIM) whenever it can. A reclaim puts a colour from the hand
    on the board and brings back a white or universal, which fits almost anywhere: the
    hand keeps its size but loses a tile that fits one slot in 42 for one that fits any,
    and a turn that had nothing to place can place the white and draw nothing (E6).
    «Опытный» never takes a tile back; this alone wins 61.6 % of 600 one-round games
    against it (docs/players.md)."""

    name = "master"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        for a in legal:
            if a.type is ActionType.RECLAIM:
                return a
        return EXPERIENCED.choose(view, legal, rng)


STEPS = Steps()


MASTER = Master(
    game=GAME,
    sample=sample,
    evaluate=evaluate,
    rollout=EXPERIENCED,
    fallback=STEPS,
    horizon=40,
    iterations=12,
    rollouts=16,  # issue 30: a fixed work, the guard does not fire (about 12 ms a rollout)
    margin=0.01,
    trivial=_trivial,
)

__all__ = ["MASTER", "STEPS", "Steps", "evaluate"]
