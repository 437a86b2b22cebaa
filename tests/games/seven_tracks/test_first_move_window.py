"""R58 (revised 2026-12): the first-move window is a simultaneous decision of the engine:
every ACTIVE player answers once, in any order (`deciders`, `legal_actions_for`)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import replay
from games.seven_tracks import GAME, Action, ActionType, Phase, State

from ..seeds import SEEDS
from .builder import build, kinds
from .invariants import check

T = ActionType


def window(n: int, hands: dict[int, list[str]]) -> State:
    s = build(n=n, hands=hands, phase=Phase.FIRST_MOVE)
    s.dice_off = []
    return s


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=SEEDS)
def test_r58_answers_in_any_order_keep_the_invariants_and_replay(n: int, seed: int) -> None:
    """Every window answered by random deciders in a random order; the invariants hold
    after each step, and the recorded steps replay to the same state (I14)."""
    players = list(range(1, n + 1))
    s = GAME.new(players, seed=seed, options={"single_round": True})
    r = random.Random(seed)
    steps: list[str] = []
    windows = 0
    for _ in range(1500):
        if GAME.is_over(s):
            break
        deciders = GAME.deciders(s)
        if s.phase == Phase.FIRST_MOVE:
            windows += 1
            assert deciders and GAME.to_act(s) == deciders[0]
            assert all(a.seat is not None for d in deciders for a in GAME.legal_actions_for(s, d))
        else:
            assert deciders == [GAME.to_act(s)]
        decider = r.choice(deciders)
        a = r.choice(GAME.legal_actions_for(s, decider))
        steps.append(GAME.encode_action(a))
        s2, _ = GAME.apply(s, a)
        check(s2, s)
        s = s2
    assert windows > 0
    assert replay.replay("seven_tracks", players, seed, {"single_round": True}, steps) == s


def test_r58_a_seatless_answer_is_the_lowest_seat_still_to_answer() -> None:
    """The windows recorded before 2026-12 (answers with no seat, in seat order) replay
    the same as the same answers naming their seats."""
    players = [1, 2, 3, 4]
    s = GAME.new(players, seed=11)
    old = [Action(type=T.FM_PASS)] * 4
    new = [Action(type=T.FM_PASS, seat=seat) for seat in range(4)]
    a = replay.replay("seven_tracks", players, 11, None, [x.encode() for x in old])
    b = replay.replay("seven_tracks", players, 11, None, [x.encode() for x in new])
    assert a.model_dump_json() == b.model_dump_json() and a != s
    assert Action.decode("FP") == Action(type=T.FM_PASS)
    assert Action.decode("FP,,,,,,,,2") == Action(type=T.FM_PASS, seat=2)


def test_r58_a_state_stored_mid_window_before_2026_12_plays_on() -> None:
    """A stored state of the sequential window has no `fm_decided`: the seats before the
    one to answer had answered."""
    s = window(3, {0: ["R"], 1: ["U", "R"], 2: ["R"]})
    s, _ = GAME.apply(s, Action(type=T.FM_PASS))
    data = json.loads(s.model_dump_json())
    assert data.pop("fm_decided") == [0]
    old = State.model_validate(data)
    assert old.fm_decided == [0] and GAME.deciders(old) == [old.players[1], old.players[2]]
    old, _ = GAME.apply(old, Action(type=T.FM_DECLARE, kind="U"))
    old, _ = GAME.apply(old, Action(type=T.FM_PASS))
    assert old.phase == Phase.PRE_MOVE and old.current == 1 and "U" in kinds(old.out)


def test_r58_an_answer_is_final_and_no_one_answers_outside_the_window() -> None:
    s = window(3, {0: ["FM", "R"], 1: ["R"], 2: ["R"]})
    s, _ = GAME.apply(s, Action(type=T.FM_PASS, seat=2))
    assert GAME.legal_actions_for(s, s.players[2]) == []
    assert GAME.legal_actions_for(s, 999) == []
    assert GAME.to_act(s) == s.players[0]
    s, _ = GAME.apply(s, Action(type=T.FM_DECLARE, kind="FM", seat=0))
    assert s.phase == Phase.PRE_MOVE and GAME.deciders(s) == [s.players[0]]
    assert Action(type=T.FM_PASS, seat=1) not in GAME.legal_actions_for(s, s.players[1])


def test_r74_leaving_in_the_window() -> None:
    """A leaver still to answer is no decider any more; when he was the last one, the
    window closes (R74, R58)."""
    s = window(4, {0: ["R"], 1: ["R"], 2: ["U", "R"], 3: ["R"]})
    s, _ = GAME.apply(s, Action(type=T.FM_PASS, seat=1))
    s, _ = GAME.remove(s, s.players[3])
    assert GAME.deciders(s) == [s.players[0], s.players[2]]
    s, _ = GAME.apply(s, Action(type=T.FM_DECLARE, kind="U", seat=2))
    assert s.phase == Phase.FIRST_MOVE and GAME.deciders(s) == [s.players[0]]
    s, _ = GAME.remove(s, s.players[0])
    assert s.phase == Phase.PRE_MOVE and s.current == 2 and "U" in kinds(s.out)
