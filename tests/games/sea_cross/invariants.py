"""The spec's invariants I1–I6 (§7), the JSON round trip and the version step, checked after
every action the tests play."""

from __future__ import annotations

from collections import Counter

from games.sea_cross import GAME, ActionType, Phase, State
from games.sea_cross.model import BASE, HOME, LAST, LOOP_LEN, TOKENS, global_index


def check(s: State, prev: State | None = None) -> None:
    """I1–I6 of the spec, the JSON round trip, and the version step."""
    n = len(s.players)
    # I1
    for seat in range(n):
        toks = s.tokens[seat]
        if s.active[seat]:
            assert len(toks) == TOKENS, "I1 four tokens"
            assert all(r == BASE or 0 <= r <= LAST for r in toks), "I1 places"
        else:
            assert toks == [], "R20 a leaver has no tokens"
    # I2
    loop = [
        global_index(s.arms[seat], r)
        for seat in range(n)
        for r in s.tokens[seat]
        if 0 <= r < LOOP_LEN
    ]
    assert len(loop) == len(set(loop)), "I2 one token per loop cell"
    for seat in range(n):
        placed = [r for r in s.tokens[seat] if r != BASE]
        assert len(placed) == len(set(placed)), "I2 one token per cell"
    # I3
    if prev is not None:
        for seat in range(n):
            if not s.active[seat]:
                continue
            for before, after in zip(prev.tokens[seat], s.tokens[seat], strict=True):
                if before >= HOME:
                    assert after >= before, "I3 home tokens stay and never go back"
    # I4
    over = s.phase == Phase.GAME_OVER
    if s.phase == Phase.AWAIT_MOVE:
        assert s.unused, "I6 a move phase has a die to use"
        assert not Counter(s.unused) - Counter(s.dice), "I4 unused ⊆ roll"
        assert 0 <= s.forced_jumps <= s.unused.count(1), "I4 forced jumps"
        legal = GAME.legal_actions(s)
        if s.forced_jumps:
            assert legal and all(a.type is ActionType.JUMP for a in legal), "R16 jumps only"
    else:
        assert s.forced_jumps == 0 and s.unused == []
    # I5
    finished = [x for x in range(n) if s.active[x] and all(r >= HOME for r in s.tokens[x])]
    if over:
        assert s.winner is not None
        assert finished == [s.winner] or sum(s.active) == 1, "I5 over iff a player finished"
        assert GAME.to_act(s) is None
    else:
        assert finished == [], "I5 a finished player ends the game"
        assert sum(s.active) >= 2
        assert s.active[s.current]
        assert GAME.to_act(s) == s.players[s.current]
    # I6
    assert bool(GAME.legal_actions(s)) == (not over), "I6 a decision is always pending"
    assert GAME.is_over(s) == over
    # exact JSON round trip
    again = State.model_validate_json(s.model_dump_json())
    assert again == s
    assert again.model_dump_json() == s.model_dump_json()
    if prev is not None:
        assert s.version == prev.version + 1
