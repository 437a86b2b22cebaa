"""«Мастер» of «Гипнозия»: Monte Carlo rollouts over the legal moves (games.search).

The board is public, so a sample is the real position with fresh dice
(`games.hypnosia.determinize`). Each candidate is followed by a rollout of about a
round played by «опытный» and scored by `evaluate`: the score of R16 plus how far each
token has come (a deeper ring is nearer the centre), against the best opponent.

Example:
    >>> import random
    >>> from games.hypnosia import GAME
    >>> s = GAME.new([1, 2], seed=2)
    >>> s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    >>> quick = MASTER.with_budget(0.05, iterations=2)
    >>> quick.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s), random.Random(0)) \\
    ...     in GAME.legal_actions(s)
    True
"""

from __future__ import annotations

from games.hypnosia.determinize import sample
from games.hypnosia.engine import GAME, score
from games.hypnosia.model import START, State, is_bridge, parse_cell
from games.hypnosia.policies import EXPERIENCED
from games.search import Master, place_value


def _progress(pos: str) -> float:
    if pos == START:
        return 0.0
    cell = parse_cell(pos)
    if cell is None:
        return 0.0  # in the centre (scored), captured or gone
    k, j = cell
    return 0.6 * k + (0.4 * k if is_bridge(k, j) else 0.0)


def evaluate(state: State, seat: int) -> float:
    """`seat`'s position in [0, 1]: score and progress against the best opponent."""
    if GAME.is_over(state):
        return place_value(GAME, state, seat)
    values = [
        score(state, x) + sum(_progress(p) for p in state.tokens[x])
        for x in range(len(state.players))
    ]
    best = max(v for x, v in enumerate(values) if x != seat)
    return min(1.0, max(0.0, 0.5 + (values[seat] - best) / 16.0))


MASTER = Master(
    game=GAME,
    sample=sample,
    evaluate=evaluate,
    rollout=EXPERIENCED,
    fallback=EXPERIENCED,
    horizon=10,
    iterations=24,
    rollouts=60,  # issue 30: a fixed work, the guard does not fire (about 3 ms a rollout)
    margin=0.01,
)

__all__ = ["MASTER", "evaluate"]
