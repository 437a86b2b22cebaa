"""Random legal games to the end with every invariant checked after every action (§16)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st

from games import IllegalAction
from games.seven_tracks import GAME, Action, ActionType, Phase, State

from ..seeds import SEEDS
from .invariants import check, check_round_start

# I15: every round ends (a round's turns each move a tile out of a hand or draw from a bank
# that never grows; R66 closes a blocked round). Random rounds take at most ~700 steps in
# 290 games of 5 and 6 players (hands of 7 and of 14): a round is capped at about three
# times that. The game as a whole ends "in practice, not by a theorem" (the spec): its cap
# only stops a test that would never end (games to 60 took up to 6,035 steps).
ROUND_STEPS = 2000
MAX_STEPS = 40_000
# Whole games are slow to shrink; a failure prints its seed, which replays exactly.
NO_SHRINK = [HPhase.explicit, HPhase.reuse, HPhase.generate]


def play(n: int, seed: int, options: dict[str, object] | None = None) -> tuple[State, int]:
    s = GAME.new(list(range(1, n + 1)), seed=seed, options=options)
    check(s)
    check_round_start(s)
    r = random.Random(seed)
    steps = in_round = 0
    while not GAME.is_over(s):
        assert in_round < ROUND_STEPS, f"I15: round {s.round_no} did not end"
        assert steps < MAX_STEPS, "the game did not end"
        acts = GAME.legal_actions(s)
        assert acts, f"no legal action in {s.phase}"
        assert len(set(acts)) == len(acts)
        calm = [a for a in acts if a.type != ActionType.FIFTH_SWAP]
        a = r.choice(calm if calm and r.random() < 0.97 else acts)
        prev_round = (s.round_no, s.cycle_no)
        s2, _events = GAME.apply(s, a)
        assert s2.version == s.version + 1
        check(s2, s)
        in_round += 1
        if (s2.round_no, s2.cycle_no) != prev_round:
            in_round = 0
            if s2.phase == Phase.FIRST_MOVE:
                check_round_start(s2)
        s = s2
        steps += 1
    return s, steps


@settings(
    max_examples=12, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow]
)
@given(n=st.integers(2, 6), seed=SEEDS)
def test_i1_i15_random_full_games_end_and_keep_invariants(n: int, seed: int) -> None:
    """R70 / I1–I15: random legal games end with a winner and never break an invariant."""
    s, _ = play(n, seed, {"target_score": 60})
    res = GAME.result(s)
    assert res.winners
    assert sorted(x.player for x in res.standings) == list(range(1, n + 1))


@settings(max_examples=25, deadline=None, phases=NO_SHRINK)
@given(n=st.integers(2, 6), seed=SEEDS)
def test_r71_random_single_round_games(n: int, seed: int) -> None:
    """R71: a single-round game ends after the first round, ranked by score ascending."""
    s, _ = play(n, seed, {"single_round": True})
    assert s.round_no == 1 and s.last_round is not None
    scores = [x.score for x in GAME.result(s).standings]
    assert scores == sorted(scores)


@pytest.mark.parametrize("n", [2, 4, 6])
def test_random_full_game_to_144(n: int) -> None:
    """A whole game at the default target of 144 (R68, R69, R70)."""
    s, _steps = play(n, 1000 + n)
    assert GAME.is_over(s)
    assert max(s.scores) >= 144


@settings(max_examples=15, deadline=None, phases=NO_SHRINK)
@given(
    n=st.integers(2, 6),
    seed=SEEDS,
    opts=st.fixed_dictionaries(
        {
            "black_anywhere_after_move": st.booleans(),
            "allow_same_turn_unblock": st.booleans(),
            "skip_after_move": st.sampled_from(["skip_next", "no_effect"]),
            "exchange_allows_priority": st.booleans(),
            "black_discard_on_any_double": st.booleans(),
            "double_t7_counts": st.booleans(),
            "bonus_store_persists": st.booleans(),
            "hand_size": st.integers(3, 14),
            "max_draws": st.integers(0, 6),
            "target_score": st.integers(20, 80),
        }
    ),
)
def test_r5_options_random_games_keep_invariants(
    n: int, seed: int, opts: dict[str, object]
) -> None:
    """§17 options: every combination plays to the end with the invariants intact."""
    play(n, seed, opts)


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, steps=st.integers(0, 400), data=st.data())
def test_r22_actions_outside_legal_actions_are_refused(
    seed: int, steps: int, data: st.DataObject
) -> None:
    """R22: anything not in legal_actions raises IllegalAction and leaves the state unchanged."""
    s = GAME.new([1, 2, 3], seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
    legal = GAME.legal_actions(s)
    a = Action(
        type=data.draw(st.sampled_from(list(ActionType))),
        kind=data.draw(st.sampled_from([None, "R", "O", "W", "K", "U", "SK", "OP", "EX", "FM"])),
        track=data.draw(st.sampled_from([None, 0, 1, 3, 6, 7, 9])),
        slot=data.draw(st.sampled_from([None, 1, 2, 7])),
        die=data.draw(st.sampled_from([None, 0, 1, 2])),
        role=data.draw(st.sampled_from([None, "SK", "OP", "PV", "RS", "EX"])),
        target=data.draw(st.sampled_from([None, 0, 1, 2, 5])),
        n=data.draw(st.sampled_from([None, 1, 2, 3])),
    )
    before = s.model_dump_json()
    if a in legal:
        GAME.apply(s, a)
    else:
        with pytest.raises(IllegalAction):
            GAME.apply(s, a)
    assert s.model_dump_json() == before


@pytest.mark.parametrize("seed", [3, 4])
def test_i14_replay_and_json_round_trip(seed: int) -> None:
    """I14 / R72: JSON round trip is exact and a replay gives byte-identical states."""
    s = GAME.new([1, 2, 3, 4], seed=seed)
    r = random.Random(seed)
    actions = []
    for _ in range(600):
        if GAME.is_over(s):
            break
        a = r.choice(GAME.legal_actions(s))
        actions.append(a)
        s, _ = GAME.apply(s, a)
        again = State.model_validate_json(s.model_dump_json())
        assert again == s
        assert Action.decode(a.encode()) == a
    t = GAME.new([1, 2, 3, 4], seed=seed)
    for a in actions:
        t, _ = GAME.apply(t, a)
    assert t.model_dump_json() == s.model_dump_json()
