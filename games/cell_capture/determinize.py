"""A full «Захват клеток» state rebuilt from a view, for the search of «мастер».

Everything in «Захват клеток» is public and nothing is left to chance after the first
order (spec §6), so the rebuilt state is the real position; the seed, which only drew
that first order, is taken from the searcher's generator.

Example:
    >>> import random
    >>> from games.cell_capture import GAME
    >>> s = GAME.new([1, 2, 3], seed=5)
    >>> t = sample(GAME.view(s, 1), random.Random(0))
    >>> GAME.view(t, 1) == GAME.view(s, 1)
    True
"""

from __future__ import annotations

import random

from games.cell_capture.model import CapturedPath, Draft, Options, State, View, parse_cell
from games.search import fresh_seed


def _cell(name: str, size: int) -> int:
    cell = parse_cell(name, size)
    assert cell is not None
    return cell


def sample(view: View, rng: random.Random) -> State:
    """The state `view` shows (a random seed: it has no further use)."""
    size = view.size
    draft = Draft()
    if view.draft is not None:
        draft = Draft(
            k=view.draft.k,
            anchor=None if view.draft.anchor is None else _cell(view.draft.anchor, size),
            path=[_cell(c, size) for c in view.draft.path],
        )
    stuck = {p.seat for p in view.players if p.stuck}
    return State(
        options=Options(allow_two_players=view.n == 2),
        seed=fresh_seed(rng),
        rng_calls=1,
        players=[p.player for p in view.players],
        size=size,
        owner=[c for row in view.grid for c in row],
        paths=[
            CapturedPath(seat=p.seat, round=p.round, cells=[_cell(c, size) for c in p.cells])
            for p in view.paths
        ],
        active=[p.active for p in view.players],
        prev=[p.previous for p in view.players],
        round_no=view.round_no,
        order=list(view.order),
        turn_idx=view.turn_idx,
        stuck=[x for x in view.next_order if x in stuck],
        left=[p.seat for p in view.players if not p.active],
        draft=draft,
        over=view.over,
        end_reason=view.end_reason,
    )


__all__ = ["sample"]
