"""Every worked example of the spec (§9, E1–E15) as a test."""

from __future__ import annotations

from pathlib import Path

from games.sea_cross import GAME, Phase, engine, rolloff_events
from games.sea_cross.events import Jumped, Passed
from games.sea_cross.model import cell_of

from ..facts import fact, facts
from ..spec import missing_examples
from .builder import B, act, act_ev, build, codes, refused, rel, roll, roll_ev, types


def test_e1_entering_with_a_six_r8() -> None:
    s = roll(build(), 6, 3)
    assert codes(s) == ["E"]
    s = act(s, "E")
    assert s.tokens[0][0] == 0 and cell_of(0, 0, 0) == (0, 6)
    assert codes(s) == ["M,1,3"]
    s = act(s, "M,1,3")
    assert s.tokens[0][0] == 3 and cell_of(0, 3, 0) == (3, 6)
    assert s.phase == Phase.AWAIT_ROLL and s.current == 1


def test_e2_nothing_legal_no_double_r6() -> None:
    s, events = roll_ev(build(), 5, 3)
    assert "passed" in types(events)
    passed = facts(events, Passed)[0]
    assert passed.reason == "no_move" and passed.unused == [5, 3]
    assert s.phase == Phase.AWAIT_ROLL and s.current == 1
    assert codes(s) == ["R"]


def test_e3_double_with_no_move_still_gives_a_roll_r7() -> None:
    s, events = roll_ev(build(), 2, 2)
    assert types(events) == ["rolled", "passed", "extra_roll"]
    assert s.phase == Phase.AWAIT_ROLL and s.current == 0


def test_e4_capture_is_optional_r13() -> None:
    s = roll(build({0: [5], 1: [rel(1, 8)]}), 3, 4)
    assert codes(s) == ["M,1,3", "M,1,4"]
    infos = {i.code: i for i in GAME.view(s).actions}
    assert infos["M,1,3"].captures and not infos["M,1,4"].captures
    s = act(s, "M,1,4")
    assert s.tokens[0][0] == 9 and cell_of(0, 9, 0) == (5, 10)
    assert codes(s) == ["M,1,3"]
    s = act(s, "M,1,3")
    assert s.tokens[0][0] == 12 and cell_of(0, 12, 0) == (6, 8)
    assert s.tokens[1][0] == 38 and cell_of(1, 38, 0) == (4, 10)


def test_e5_block_r12() -> None:
    start = build({0: [5], 1: [rel(1, 7), rel(1, 8)]})
    s = roll(start, 2, 4)
    assert codes(s) == ["M,1,2"]
    refused(s, "M,1,4", "blocked")
    s, events = act_ev(s, "M,1,2")
    assert types(events) == ["moved", "captured"]
    assert s.tokens[1][:2] == [B, rel(1, 8)]
    assert codes(s) == ["M,1,4"]
    s = act(s, "M,1,4")
    assert s.tokens[0][0] == 11 and cell_of(0, 11, 0) == (6, 9)
    # variant: (3, 4) — +3 passes g 7, +4 passes both: the turn passes
    s, events = roll_ev(start, 3, 4)
    assert "passed" in types(events) and s.current == 1


def test_e6_own_tokens_are_never_passed_r11() -> None:
    s = roll(build({0: [10, 12]}), 3, 2)
    assert codes(s) == ["M,2,2", "M,2,3"]
    refused(s, "M,1,3", "passes_own")
    refused(s, "M,1,2", "lands_on_own")
    s = act(s, "M,2,3")
    assert s.tokens[0][:2] == [10, 15]
    assert codes(s) == ["M,1,2", "M,2,2"]


def test_e7_forced_red_corner_jump_with_a_capture_r15_r16_r17() -> None:
    s = roll(build({0: [14], 2: [rel(2, 24)]}), 1, 5)
    assert s.forced_jumps == 1
    assert codes(s) == ["J,1"]
    refused(s, "M,1,5", "must_jump")
    refused(s, "M,1,1", "must_jump")
    s, events = act_ev(s, "J,1")
    assert types(events) == ["jumped", "captured"]
    assert s.tokens[0][0] == 24 and cell_of(0, 24, 0) == (6, 4)
    assert s.tokens[2][0] == B
    assert "M,1,5" in codes(s)
    s = act(s, "M,1,5")
    assert s.tokens[0][0] == 29 and cell_of(0, 29, 0) == (5, 0)


def test_e8_double_one_jumps_past_the_home_r17_r18() -> None:
    s = roll(build({0: [34]}), 1, 1)
    assert s.forced_jumps == 2 and codes(s) == ["J,1"]
    s, events = act_ev(s, "J,1")
    assert s.tokens[0][0] == 4 and cell_of(0, 4, 0) == (4, 6)
    assert fact(events[0], Jumped).past_home is True
    assert codes(s) == ["J,1"]
    s, events = act_ev(s, "J,1")
    assert s.tokens[0][0] == 14 and cell_of(0, 14, 0) == (6, 6)
    assert types(events)[-1] == "extra_roll"
    assert s.phase == Phase.AWAIT_ROLL and s.current == 0


def test_e9_jump_blocked_by_an_own_token_r16_r17() -> None:
    s = roll(build({0: [14, 24]}), 1, 3)
    assert s.forced_jumps == 1
    assert codes(s) == ["J,2"]
    refused(s, "J,1", "lands_on_own")
    s = act(s, "J,2")
    assert s.tokens[0][:2] == [14, 34]
    assert "M,1,3" in codes(s)
    s = act(s, "M,1,3")
    assert s.tokens[0][0] == 17
    # variant: a token on every red corner — every jump target is own
    s, events = roll_ev(build({0: [4, 14, 24, 34]}), 1, 3)
    assert "jumps_void" in types(events) and s.forced_jumps == 0
    assert codes(s) == ["M,1,1", "M,2,1", "M,3,1", "M,4,1", "M,1,3", "M,2,3", "M,3,3", "M,4,3"]
    s = act(s, "M,1,1")
    assert s.tokens[0][0] == 5


def test_e10_exact_count_into_the_home_r10() -> None:
    s = roll(build({0: [38, 20]}), 6, 5)
    refused(s, "M,1,6", "overshoot")
    assert codes(s) == ["E", "M,1,5", "M,2,5", "M,2,6"]
    s = act(s, "M,1,5")
    assert s.tokens[0][0] == 43 and cell_of(0, 43, 0) == (4, 5)


def test_e11_tidying_the_home_r11_r14() -> None:
    start = roll(build({0: [40, 37]}), 3, 2)
    assert codes(start) == ["M,1,2", "M,2,2", "M,1,3"]
    refused(start, "M,2,3", "lands_on_own")
    # sequence A
    s = act(start, "M,1,2")
    assert codes(s) == ["M,2,3"]
    s = act(s, "M,2,3")
    assert s.tokens[0][:2] == [42, 40]
    # sequence B
    s = act(start, "M,1,3")
    assert codes(s) == ["M,2,2"]
    s = act(s, "M,2,2")
    assert s.tokens[0][:2] == [43, 39] and cell_of(0, 39, 1) == (0, 5)


def test_e12_own_token_on_the_start_blocks_entering_r9() -> None:
    s = roll(build({0: [0]}), 6, 2)
    assert codes(s) == ["M,1,2", "M,1,6"]
    refused(s, "E", "start_occupied")
    s = act(s, "M,1,2")
    assert codes(s) == ["E", "M,1,6"]


def test_e13_entering_captures_on_the_start_r9() -> None:
    s = roll(build({1: [rel(1, 0)]}), 6, 1)
    assert s.forced_jumps == 0
    assert codes(s) == ["E"]
    s, events = act_ev(s, "E")
    assert types(events) == ["entered", "captured"]
    assert s.tokens[0][0] == 0 and s.tokens[1][0] == B
    assert codes(s) == ["M,1,1"]
    s = act(s, "M,1,1")
    assert s.tokens[0][0] == 1


def test_e14_win_ends_the_game_at_once_r19() -> None:
    s = roll(build({0: [41, 42, 43, 39]}), 1, 1)
    assert s.forced_jumps == 0
    assert codes(s) == ["M,4,1"]
    s, events = act_ev(s, "M,4,1")
    assert s.phase == Phase.GAME_OVER and GAME.is_over(s)
    assert types(events)[-1] == "game_over" and "extra_roll" not in types(events)
    assert GAME.result(s).winners == [101]
    assert GAME.to_act(s) is None and codes(s) == []
    assert s.unused == []


def test_e15_roll_off_r4() -> None:
    dice = iter([5, 6, 6, 2, 4])
    rounds, first = engine.roll_off([0, 1, 2], lambda: next(dice))
    assert [(r.seats, r.dice) for r in rounds] == [([0, 1, 2], [5, 6, 6]), ([1, 2], [2, 4])]
    assert first == 2
    # the same roll-off from a real seed, then the order 2 → 0 → 1 → 2
    s = GAME.new([101, 102, 103], seed=63)
    assert [r.dice for r in s.rolloff] == [[5, 6, 6], [2, 4]]
    assert s.first == 2 and GAME.to_act(s) == 103
    events = rolloff_events(s)
    assert types(events) == ["roll_off", "roll_off", "first_player"]
    assert events[-1].seat == 2
    order = []
    for _ in range(4):
        order.append(s.current)
        s = roll(s, 5, 3)  # nothing can move: the turn passes
    assert order == [2, 0, 1, 2]


def test_every_worked_example_of_the_spec_is_a_test() -> None:
    """Each worked example of the spec (docs/spec/sea_cross.md) has a `test_e<n>…_` here."""
    assert missing_examples("sea_cross", Path(__file__).parent) == []
