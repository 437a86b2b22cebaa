"""A full «Морской крест» state rebuilt from a view, for the search of «мастер».

Everything on the board is public (spec §6); only the dice to come are unknown, so the
rebuilt state takes a fresh seed from the searcher's generator. Nothing but the view is
read: the real seed and the order in which players left never reach it.

Example:
    >>> import random
    >>> from games.sea_cross import GAME
    >>> s = GAME.new([1, 2, 3], seed=5)
    >>> t = sample(GAME.view(s, 1), random.Random(0))
    >>> GAME.view(t, 1) == GAME.view(s, 1)
    True
"""

from __future__ import annotations

import random

from games.sea_cross.model import BASE, Phase, State, View
from games.search import fresh_seed


def sample(view: View, rng: random.Random) -> State:
    """The state `view` shows, with a random seed for the dice to come."""
    over = view.over
    winner = None
    if over and view.winners:
        winner = next(p.seat for p in view.players if p.player == view.winners[0])
    return State(
        seed=fresh_seed(rng),
        players=[p.player for p in view.players],
        arms=[p.arm for p in view.players],
        active=[p.active for p in view.players],
        tokens=[[t.rel for t in p.tokens] for p in view.players],
        phase=view.phase,
        current=view.to_act_seat if view.to_act_seat is not None else 0,
        dice=list(view.dice),
        unused=list(view.unused),
        forced_jumps=view.forced_jumps,
        moved_this_roll=view.phase is Phase.AWAIT_MOVE and len(view.unused) < len(view.dice),
        turn_no=view.turn_no,
        roll_no=view.roll_no,
        rolloff=list(view.rolloff),
        first=view.first,
        last_move=view.last_move,
        left=[p.seat for p in view.players if not p.active],
        winner=winner,
        burnt=[list(p.burnt) for p in view.players],
    )


__all__ = ["BASE", "sample"]
