"""«Мастер» of «ДОМИНА*С»: determinized Monte Carlo over the placements (games.search).

Each sample deals the tiles this seat cannot see into the other hands and the bazaar at
random, in the sizes the view shows and never a tile where its seat was seen unable to
hold it when it drew or passed (`games.dominas.determinize`); every candidate
placement is tried on the same deal and played on by «опытный» for every seat for six
actions (the next players' answers), and the position is scored by tiles in hand (the
fewer the better: a game is won by the first empty hand and scored by the tiles left)
and the match totals. A placement must look better by `margin` (about one tile) to
overturn «опытный»'s choice: a few samples are noisy.

Its steps are cheaper than `apply`'s (which deep-copies the whole match at every step):
`Master`'s `clone`/`perform` hooks make one copy of the sample per candidate and play
the rollout's actions on it in place, and `rollout_view` hands the rollout policies only
the part of the view they read (`_light_view`). The decisions are those of `apply`'s
steps for the same iterations; three times as many iterations fit in the budget, and
most searches now end at the iteration cap, not the CPU guard (docs/players.md).

Example:
    >>> import random
    >>> from games.dominas import GAME
    >>> s = GAME.new([1, 2], seed=2)
    >>> s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    >>> quick = MASTER.with_budget(0.05, iterations=2)
    >>> quick.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s), random.Random(0)) \\
    ...     in GAME.legal_actions(s)
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.dominas.determinize import sample
from games.dominas.engine import GAME, _perform, side_tiles, totals
from games.dominas.model import Action, ActionType, State, View
from games.dominas.policies import EXPERIENCED
from games.search import Master, place_value


def evaluate(state: State, seat: int) -> float:
    """`seat`'s side in [0, 1]: match totals and tiles in hand against the best other side."""
    if GAME.is_over(state):
        return place_value(GAME, state, seat)
    side = state.side_of[seat]
    tiles = side_tiles(state)
    points = totals(state)
    value = [points[x] - 3 * tiles[x] for x in range(len(tiles))]
    best = max((v for x, v in enumerate(value) if x != side), default=value[side])
    return min(1.0, max(0.0, 0.5 + (value[side] - best) / 60.0))


def _prune(view: View, legal: Sequence[Action]) -> Sequence[Action]:
    """One placement per tile (its first nest and variant) when there are many."""
    if len(legal) <= 8:
        return legal
    seen: set[str] = set()
    out: list[Action] = []
    for a in legal:
        key = a.tile or a.type.value
        if a.type is ActionType.PLACE and key in seen:
            continue
        seen.add(key)
        out.append(a)
    return out


def _clone(s: State) -> State:
    """A private copy of `s` for a rollout to change in place: the lists the engine
    mutates are copied, the models it only replaces or appends are shared."""
    return State.model_construct(
        **{
            **s.__dict__,
            "players": list(s.players),
            "side_of": list(s.side_of),
            "present": list(s.present),
            "left_order": list(s.left_order),
            "hands": [list(h) for h in s.hands],
            "bazaar": list(s.bazaar),
            "figure": list(s.figure),
            "nests": list(s.nests),
            "bonus": s.bonus.model_copy() if s.bonus is not None else None,
            "draws": list(s.draws),
            "entered": [list(e) for e in s.entered],
            "lacks": [list(x) for x in s.lacks],
            "initial_hands": [list(h) for h in s.initial_hands],
            "initial_bazaar": list(s.initial_bazaar),
            "records": list(s.records),
            "winners": list(s.winners),
        }
    )


def _light_view(s: State, player: int) -> View:
    """What the rollout policies read of `player`'s view (his hand, the figure, the phase
    and the bonus: `games.dominas.policies`), without the rest of `GAME.view`'s copies."""
    seat = s.players.index(player)
    fields: dict[str, Any] = {
        "me": seat,
        "hand": s.hands[seat],
        "figure": s.figure,
        "phase": s.phase,
        "bonus": s.bonus,
    }
    return View.model_construct(**fields)


MASTER = Master(
    game=GAME,
    sample=sample,
    evaluate=evaluate,
    rollout=EXPERIENCED,
    fallback=EXPERIENCED,
    horizon=6,
    iterations=40,
    rollouts=140,  # issue 30: a fixed work, the guard does not fire (about 1 ms a rollout)
    margin=0.04,
    prune=_prune,
    perform=_perform,  # one copy per candidate (`_clone`), its steps in place
    clone=_clone,
    rollout_view=_light_view,
)

__all__ = ["MASTER", "evaluate"]
