"""The spec's invariants I1–I7 (§7), checked after every action in random play and examples."""

from __future__ import annotations

from itertools import pairwise

from games.cell_capture import GAME, Phase, State
from games.cell_capture.engine import (
    _extendable,
    allowed_numbers,
    anchors,
    feasible,
    next_order,
    phase,
    scores,
    used_numbers,
)
from games.cell_capture.model import CENTRE, FREE

from .builder import direction_or_none


def is_simple_orthogonal(s: State, cells: list[int]) -> bool:
    if len(set(cells)) != len(cells):
        return False
    return all(direction_or_none(s, a, b) is not None for a, b in pairwise(cells))


def check_invariants(s: State) -> None:
    """Spec §7 (I1–I7) plus the bookkeeping the engine relies on."""
    size, n = s.size, s.n
    # I1, I4: every cell is free, the centre or owned; counts add up.
    assert s.owner[s.centre] == CENTRE
    assert s.owner.count(CENTRE) == 1
    assert all(o in (FREE, CENTRE) or 0 <= o < n for o in s.owner)
    owned = sum(1 for o in s.owner if o >= 0)
    assert owned + s.owner.count(FREE) + 1 == size * size
    # I2: paths are simple orthogonal paths of length 1…N and cover exactly the owned cells.
    covered: dict[int, int] = {}
    for p in s.paths:
        assert 1 <= len(p.cells) <= n
        assert is_simple_orthogonal(s, p.cells)
        for x in p.cells:
            assert x not in covered
            covered[x] = p.seat
    assert covered == {i: o for i, o in enumerate(s.owner) if o >= 0}
    assert sum(scores(s)) == owned
    # I3: numbers of this round are distinct; each player acted at most once.
    used = used_numbers(s)
    assert len(used) == len(set(used))
    movers = [p.seat for p in s.paths if p.round == s.round_no]
    assert len(movers) == len(set(movers))
    assert not set(movers) & set(s.stuck)
    assert set(movers) | set(s.stuck) <= set(s.order[: s.turn_idx])
    # I5: the order lists active players once each; the next order is well formed.
    assert len(s.order) == len(set(s.order))
    nxt = next_order(s)
    assert len(nxt) == len(set(nxt))
    assert nxt[: len([x for x in s.stuck if s.active[x]])] == [x for x in s.stuck if s.active[x]]
    if s.over:
        assert s.end_reason is not None
        assert GAME.to_act(s) is None and GAME.legal_actions(s) == []
        assert phase(s) is Phase.GAME_OVER
        return
    seat = s.order[s.turn_idx]
    assert s.active[seat]
    assert {x for x in range(n) if s.active[x]} <= set(s.order)
    # I6: a game that is not over has a free cell and a legal 1-path.
    assert FREE in s.owner
    assert feasible(s, 1)
    assert sum(s.active) >= 2
    # The player to act has a real decision.
    allowed = allowed_numbers(s, seat)
    assert allowed
    # I7: the draft is a prefix of some legal path of length k.
    d = s.draft
    if d.k is not None:
        assert d.k in allowed
        if d.anchor is not None:
            assert d.anchor in anchors(s)
            assert 0 <= len(d.path) <= d.k
            if d.path:
                assert direction_or_none(s, d.anchor, d.path[0]) is not None
                assert is_simple_orthogonal(s, d.path)
                assert all(s.owner[x] == FREE for x in d.path)
            tip = d.path[-1] if d.path else d.anchor
            assert _extendable(s.owner, size, set(d.path), tip, d.k - len(d.path))
        else:
            assert not d.path
    else:
        assert d.anchor is None and not d.path
    assert GAME.legal_actions(s)
