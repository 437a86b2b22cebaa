"""A full «Гипнозия» state rebuilt from a view, for the search of «мастер».

The board of «Гипнозия» is public (spec §6): only the dice to come are unknown, so the
rebuilt state takes a fresh seed from the searcher's generator. The turn counter, which
only numbers the narration, is not in the view and restarts at the round number.

Example:
    >>> import random
    >>> from games.hypnosia import GAME
    >>> s = GAME.new([1, 2, 3], seed=5)
    >>> t = sample(GAME.view(s, 1), random.Random(0))
    >>> GAME.view(t, 1) == GAME.view(s, 1)
    True
"""

from __future__ import annotations

import random

from games.hypnosia.model import Options, State, View
from games.search import fresh_seed


def sample(view: View, rng: random.Random) -> State:
    """The state `view` shows, with a random seed for the dice to come."""
    return State(
        options=Options(pairs_cross_bridges=view.pairs_cross_bridges, round_limit=view.round_limit),
        seed=fresh_seed(rng),
        players=[p.player for p in view.players],
        board_seats=[p.board_seat for p in view.players],
        tokens=[list(p.tokens) for p in view.players],
        captured=[p.captured for p in view.players],
        lost=[p.lost for p in view.players],
        centre=[x for x in view.centre if x is not None],
        left=[p.seat for p in view.players if p.left],
        roll_off=[dict(zip(r.seats, r.sums, strict=True)) for r in view.roll_off],
        first=view.first,
        current=view.current if view.current is not None else 0,
        phase=view.phase,
        dice=list(view.dice),
        unused=list(view.unused),
        round_no=view.round_no,
        turn_no=view.round_no,
        end_reason=view.end_reason,
        winners=list(view.winners),
    )


__all__ = ["sample"]
