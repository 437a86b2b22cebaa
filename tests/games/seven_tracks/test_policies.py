"""The novice policy, which plays a timed-out turn (`GAME.timeout`): the plain turn (R23,
R28, R44, R45), never a priority tile for the absent player (R49, R50), and decided from
his view alone (R73)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.seven_tracks import GAME, Action, ActionType, Phase, State
from games.seven_tracks.model import PRIORITY, kind_of
from games.seven_tracks.policies import NOVICE

from ..seeds import SEEDS
from .builder import build, kinds, roll, track
from .invariants import check

T = ActionType


def absent_turn(s: State) -> State:
    seat, turn = s.current, s.turn_no
    for _ in range(300):
        if GAME.is_over(s) or s.current != seat or s.turn_no != turn:
            return s
        before = s
        s, _ = GAME.timeout(s)
        check(s, before)
    raise AssertionError("the timed-out turn did not end")


def test_r23_r28_the_absent_turn_is_two_dice_then_colours_before_whites() -> None:
    s = build(hands={0: ["W", "Y", "R", "SK"]}, tracks={3: ["Y"]})
    assert GAME.timeout_action(s) == Action(type=T.CHOOSE_DICE, n=2)
    s = roll(s, 3)  # one die: track 3 in SEQUENCE mode, G expected
    a = GAME.timeout_action(s)
    assert a == Action(type=T.PLACE, kind="W", track=3)  # no G: the white stands for it
    s, _ = GAME.apply(s, a)
    s = roll(build(hands={0: ["W", "G", "R"]}, tracks={3: ["Y"]}), 3)
    assert GAME.timeout_action(s) == Action(type=T.PLACE, kind="G", track=3)


def test_r44_r45_r49_it_draws_while_it_must_and_never_spends_a_priority_tile() -> None:
    s = roll(build(hands={0: ["SK", "OP", "EX", "RS"]}, bank_top=["B", "R"]), 1)
    s = absent_turn(s)  # B does not fit, R does; no waive, no shift, nothing after the move
    assert s.current == 1 and kinds(s.hands[0]) == ["B", "EX", "OP", "RS", "SK"]
    assert track(s, 1) == ["R"] and not any(kind_of(t) in PRIORITY for t in s.out)


def test_r45_a_universal_only_when_nothing_else_fits() -> None:
    s = roll(build(hands={0: ["U", "K"]}, tracks={2: ["O"]}, bank_size=0), 2)
    assert GAME.timeout_action(s) == Action(type=T.PLACE, kind="U", track=2)


def test_r58_the_absent_player_passes_the_first_move_window() -> None:
    """R58 (revised 2026-12): a timed-out window passes everyone still to answer, at once."""
    s = build(n=3, hands={0: ["FM", "R"]}, phase=Phase.FIRST_MOVE)
    assert GAME.timeout_action(s) == Action(type=T.FM_PASS, seat=0)
    s, _ = GAME.apply(s, Action(type=T.FM_PASS, seat=1))
    s2, events = GAME.timeout(s)
    assert [e.seat for e in events if e.type == "fm_passed"] == [0, 2]
    assert s2.phase == Phase.PRE_MOVE and "FM" in kinds(s2.hands[0])
    assert s2.version == s.version + 1


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=SEEDS)
def test_r70_a_game_of_absent_players_ends_and_no_priority_tile_is_spent(n: int, seed: int) -> None:
    """Every turn timed out (the first-move window passed): the game ends (R66 closes the
    blocked rounds), and the out pile never holds a priority tile the novice played."""
    s = GAME.new(list(range(1, n + 1)), seed=seed, options={"target_score": 40})
    for _ in range(3000):
        if GAME.is_over(s):
            break
        if s.phase == Phase.FIRST_MOVE:
            s, _ = GAME.apply(s, Action(type=T.FM_PASS))
            continue
        s, events = GAME.timeout(s)
        assert not any(e.type == "priority_used" for e in events)
    assert GAME.is_over(s)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=SEEDS, steps=st.integers(0, 300))
def test_r73_the_choice_depends_on_the_view_only(n: int, seed: int, steps: int) -> None:
    """Two states differing only in what the player to act cannot see — the other hands
    (their sizes kept), the bank's order, the seed — get the same timeout decision."""
    s = GAME.new(list(range(1, n + 1)), seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            return
        s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
    if GAME.is_over(s):
        return
    t = s.model_copy(deep=True)
    others = [x for x in range(n) if x != s.current]
    pool = [tile for x in others for tile in t.hands[x]] + t.bank
    r.shuffle(pool)
    for x in others:
        k = len(t.hands[x])
        t.hands[x], pool = pool[:k], pool[k:]
    t.bank, t.seed, t.rng_calls = pool, s.seed + 1, s.rng_calls + 3
    me = s.players[s.current]
    assert GAME.view(s, me) == GAME.view(t, me)
    legal = GAME.legal_actions(s)
    assert GAME.legal_actions(t) == legal
    assert GAME.timeout_action(s) == GAME.timeout_action(t)
    assert NOVICE.choose(GAME.view(t, me), legal, random.Random(1)) == GAME.timeout_action(s)
