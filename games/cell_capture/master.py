"""«Мастер» of «Захват клеток»: rollouts of the number and the anchor (games.search).

Nothing is hidden and nothing is left to chance, so one sample is the real position and
one rollout per candidate suffices (`iterations=1`); the budget goes into depth
instead: each candidate number or anchor is played on by «опытный» for every seat to the
end of the game (a horizon of 400 actions; a 7×7 game has about 110) and scored by the
place it ends in (cells against the best opponent if the guard cuts a rollout short).
The steps of a path are left to «опытный» (`trivial`): with the anchor chosen they
matter least.

Example:
    >>> import random
    >>> from games.cell_capture import GAME
    >>> s = GAME.new([1, 2, 3], seed=2)
    >>> quick = MASTER.with_budget(0.05)
    >>> quick.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s), random.Random(0)) \\
    ...     in GAME.legal_actions(s)
    True
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cell_capture.determinize import sample
from games.cell_capture.engine import GAME, scores
from games.cell_capture.model import Action, ActionType, State, View
from games.cell_capture.policies import EXPERIENCED, anchor_key
from games.search import Master, place_value


def evaluate(state: State, seat: int) -> float:
    """`seat`'s cells against the best opponent's, in [0, 1]."""
    if state.over:
        return place_value(GAME, state, seat)
    sc = scores(state)
    best = max(v for x, v in enumerate(sc) if x != seat)
    return min(1.0, max(0.0, 0.5 + (sc[seat] - best) / (2.0 * state.n * 4)))


def _trivial(view: View, legal: Sequence[Action]) -> bool:
    return legal[0].type not in (ActionType.CHOOSE_K, ActionType.CHOOSE_ANCHOR)


def _prune(view: View, legal: Sequence[Action]) -> Sequence[Action]:
    """No BACK; of many anchors, the four tightest (as «опытный» ranks them)."""
    options = [a for a in legal if a.type is not ActionType.BACK]
    if options and options[0].type is ActionType.CHOOSE_ANCHOR:
        options = sorted(options, key=lambda a: anchor_key(view, a))[:4]
    return options


MASTER = Master(
    game=GAME,
    sample=sample,
    evaluate=evaluate,
    rollout=EXPERIENCED,
    fallback=EXPERIENCED,
    horizon=400,
    iterations=1,
    prune=_prune,
    trivial=_trivial,
)

__all__ = ["MASTER", "evaluate"]
