"""A full «Семидорожник» state sampled from one seat's view, for the search of «мастер».

The seat sees its own hand, the board (tracks, blocks, the centre track, the bonus
store), every player's hand size, the bank's size and the number of tiles out of play.
The tiles it cannot see are exactly the whole set minus its hand and the board; a sample
deals them at random into the other hands, the pile of tiles out and the bank (in a
random order), in the sizes the view shows, and takes a fresh seed for the dice to come.

Only a turn's start (PRE_MOVE) is sampled: inside a turn the engine's turn record (how
many tiles went on each track this turn, which tiles were drawn) is not all in the view,
so «мастер» leaves those steps to «опытный» (`sampleable`). Options other than the
target score and the one-round flag are not in the view; the defaults are assumed.

Example:
    >>> import random
    >>> from games.seven_tracks import GAME
    >>> s = GAME.new([1, 2], seed=7)
    >>> while s.phase.value != "pre_move":
    ...     s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    >>> me = GAME.to_act(s)
    >>> t = sample(GAME.view(s, me), random.Random(0))
    >>> GAME.view(t, me) == GAME.view(s, me), t.hands == s.hands
    (True, False)
"""

from __future__ import annotations

import random

from games.copying import deep_copy
from games.search import fresh_seed
from games.seven_tracks.model import (
    DEFAULT_TILE_SET,
    KINDS,
    Options,
    Phase,
    State,
    Status,
    Turn,
    View,
)


def all_tiles() -> list[str]:
    """Every tile id of the default set, in the engine's order (`R#01` …)."""
    return [f"{k}#{i:02d}" for k in KINDS for i in range(1, DEFAULT_TILE_SET[k] + 1)]


def sampleable(view: View) -> bool:
    """Whether `sample` can rebuild this view's state: a turn's start, own hand known."""
    return view.phase is Phase.PRE_MOVE and view.hand is not None and view.me is not None


def sample(view: View, rng: random.Random) -> State:
    """A state consistent with `view` (`sampleable` must hold): hidden tiles dealt at random."""
    assert view.hand is not None and view.me is not None and view.current is not None
    seen = set(view.hand) | set(view.t7) | set(view.store)
    for tr in view.tracks:
        seen.update(tr.slots)
        if tr.block is not None:
            seen.add(tr.block.tile)
    unseen = [t for t in all_tiles() if t not in seen]
    rng.shuffle(unseen)
    hands: list[list[str]] = []
    for p in view.players:
        if p.seat == view.me:
            hands.append(list(view.hand))
        else:
            hands.append(unseen[: p.hand_count])
            del unseen[: p.hand_count]
    out = unseen[: view.out_count]
    bank = unseen[view.out_count :]
    assert len(bank) == view.bank_size, "the view's counts do not add up"
    blocks = [tr.block.turn for tr in view.tracks if tr.block is not None]
    t = view.turn
    return State(
        options=Options(target_score=view.target_score, single_round=view.single_round),
        seed=fresh_seed(rng),
        players=[p.player for p in view.players],
        status=[p.status for p in view.players],
        scores=[p.score for p in view.players],
        hands=hands,
        bank=bank,
        tracks=[deep_copy(tr) for tr in view.tracks],
        t7=list(view.t7),
        store=list(view.store),
        out=out,
        phase=Phase.PRE_MOVE,
        current=view.current,
        turn_no=max(blocks, default=0) + 1,
        round_no=view.round_no,
        cycle_no=view.cycle_no,
        turn=Turn(
            restricted=t.restricted,
            began_restricted=t.restricted,
            final=t.final,
            priority_used=t.priority_used,
        ),
        restricted_left=view.restricted_left,
        final_left=view.final_left,
        finals_running=t.final or view.final_left > 0,
        out_order=[p.seat for p in view.players if p.status is Status.OUT],
        last_round=view.last_round,
    )


__all__ = ["all_tiles", "sample", "sampleable"]
