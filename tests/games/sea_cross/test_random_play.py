"""Random legal games to the end, with the invariants (§7) checked after every action."""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase as HPhase
from hypothesis import given, settings
from hypothesis import strategies as st

from games import IllegalAction
from games.sea_cross import CODES, GAME, Action, State

from ..seeds import SEEDS
from .builder import EVERY_ACTION, PLAYERS
from .invariants import check

MAX_STEPS = 5000  # random games take ~150–600 actions
# Whole games are slow to shrink; a failure prints its seed, which replays exactly.
NO_SHRINK = [HPhase.explicit, HPhase.reuse, HPhase.generate]


def refuse_one(s: State, r: random.Random) -> None:
    """A random action not in legal_actions raises IllegalAction, the state unchanged."""
    legal = GAME.legal_actions(s)
    wrong = r.choice([a for a in EVERY_ACTION if a not in legal])
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, wrong)
    assert exc.value.code in CODES
    assert s.model_dump_json() == before


def play(n: int, seed: int, leave_rate: float = 0.0) -> tuple[State, list[Action]]:
    s = GAME.new(PLAYERS[:n], seed=seed)
    check(s)
    r = random.Random(seed)
    actions: list[Action] = []
    for _ in range(MAX_STEPS):
        if GAME.is_over(s):
            return s, actions
        legal = GAME.legal_actions(s)
        assert legal and len(set(legal)) == len(legal)
        refuse_one(s, r)
        if r.random() < leave_rate:
            staying = [p for p, a in zip(s.players, s.active, strict=True) if a]
            s2, _ = GAME.remove(s, r.choice(staying))
        else:
            a = r.choice(legal)
            assert GAME.decode_action(GAME.encode_action(a)) == a
            actions.append(a)
            s2, _ = GAME.apply(s, a)
        check(s2, s)
        s = s2
    raise AssertionError(f"the game did not end in {MAX_STEPS} steps")


@pytest.mark.parametrize("n", [2, 3, 4])
@settings(max_examples=20, deadline=None, phases=NO_SHRINK)
@given(seed=SEEDS)
def test_i1_i6_random_games_end_and_keep_invariants(n: int, seed: int) -> None:
    """I1–I6, R19: random legal games end with one winner and keep every invariant."""
    s, _ = play(n, seed)
    res = GAME.result(s)
    assert len(res.winners) == 1
    assert sorted(x.place for x in res.standings) == list(range(1, n + 1))
    assert res.standings[0].player == res.winners[0] and res.standings[0].score == 4


@settings(max_examples=20, deadline=None, phases=NO_SHRINK)
@given(n=st.integers(2, 4), seed=SEEDS)
def test_r20_random_games_with_players_leaving(n: int, seed: int) -> None:
    """R20: removals at random moments keep the invariants; leavers rank last."""
    s, _ = play(n, seed, leave_rate=0.004)
    res = GAME.result(s)
    left = [s.players[x] for x in s.left]
    assert [x.player for x in res.standings][len(res.standings) - len(left) :] == left[::-1]
    assert res.winners[0] not in left


@pytest.mark.parametrize("seed", [5, 6])
def test_replay_is_exact(seed: int) -> None:
    """Same seed and actions give byte-identical states (chance only from the seed)."""
    s, actions = play(4, seed)
    t = GAME.new(PLAYERS, seed=seed)
    for a in actions:
        t, _ = GAME.apply(t, a)
    assert t.model_dump_json() == s.model_dump_json()
