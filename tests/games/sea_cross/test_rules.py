"""Rules of the spec (R1–R20), each named by its R-number."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from games import IllegalAction
from games.sea_cross import GAME, Phase, engine
from games.sea_cross.events import Captured, DiceLapsed, Rolled
from games.sea_cross.model import (
    ARMS,
    RED_CELLS,
    RED_CORNERS,
    global_index,
    home_cell,
    loop_cell,
    reserve_cell,
    start_index,
    threshold_index,
)

from ..facts import fact
from ..spec import missing_rules
from .builder import PLAYERS, B, act, act_ev, build, codes, refused, rel, roll, roll_ev, types

# ------------------------------------------------------------------ setup


@pytest.mark.parametrize(("n", "arms"), [(2, [0, 2]), (3, [0, 1, 2]), (4, [0, 1, 2, 3])])
def test_r1_two_to_four_players_on_their_arms(n: int, arms: list[int]) -> None:
    s = GAME.new(PLAYERS[:n], seed=0)
    assert s.arms == arms == list(ARMS[n])
    colours = [p.colour for p in GAME.view(s).players]
    assert colours == [("blue", "yellow", "green", "purple")[a] for a in arms]


@pytest.mark.parametrize(
    ("players", "options", "word"),
    [
        ([1], None, "players"),
        ([1, 2, 3, 4, 5], None, "players"),
        ([1, 1], None, "players"),
        ([1, 2], {"no_such_option": 1}, "no_such_option"),
    ],
)
def test_r1_players_and_options_are_validated(
    players: list[int], options: dict[str, object] | None, word: str
) -> None:
    with pytest.raises((ValueError, ValidationError)) as exc:
        GAME.new(players, seed=0, options=options)
    assert word in str(exc.value)


def test_r2_four_tokens_each_all_in_the_reserve() -> None:
    s = GAME.new(PLAYERS, seed=4)
    assert s.tokens == [[B] * 4] * 4
    v = GAME.view(s)
    for p in v.players:
        assert p.reserve_count == 4 and p.home_count == 0
        assert [t.cell for t in p.tokens] == [reserve_cell(p.arm, k) for k in range(4)]


def test_r2_a_six_is_needed_to_start() -> None:
    for a, b in [(1, 2), (3, 5), (4, 4), (5, 5)]:
        _s, events = roll_ev(build(), a, b)
        assert "passed" in types(events)
    assert codes(roll(build(), 6, 6)) == ["E"]


def test_r3_two_six_sided_dice() -> None:
    s = GAME.new(PLAYERS[:2], seed=9)
    seen = set()
    for _ in range(200):
        if GAME.is_over(s):
            break
        if s.phase != Phase.AWAIT_ROLL:
            s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
            continue
        s, events = GAME.apply(s, GAME.decode_action("R"))
        dice = fact(events[0], Rolled).dice
        assert len(dice) == 2
        seen.update(dice)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_r4_roll_off_repeats_among_the_tied_only() -> None:
    dice = iter([6, 3, 6, 6, 6, 5, 1, 2])
    rounds, first = engine.roll_off([0, 1, 2, 3], lambda: next(dice))
    assert [(r.seats, r.dice) for r in rounds] == [
        ([0, 1, 2, 3], [6, 3, 6, 6]),
        ([0, 2, 3], [6, 5, 1]),
    ]
    assert first == 0


def test_r4_roll_off_is_deterministic_and_clockwise_afterwards() -> None:
    for seed in range(30):
        s = GAME.new(PLAYERS[:3], seed=seed)
        assert s == GAME.new(PLAYERS[:3], seed=seed)
        last = s.rolloff[-1]
        assert max(last.dice) == last.dice[last.seats.index(s.first)]
        assert last.dice.count(max(last.dice)) == 1
        assert s.current == s.first and s.phase == Phase.AWAIT_ROLL
    s = build(n=2, current=1)
    s = roll(s, 5, 3)  # nothing to move: the next seat in ascending order
    assert s.current == 0


# --------------------------------------------------------------- geometry


def test_r5_geometry_of_the_loop_homes_and_corners() -> None:
    """§3 tables (the board every rule below moves on)."""
    cells = [loop_cell(g) for g in range(40)]
    assert len(set(cells)) == 40
    for g in range(40):
        (r1, c1), (r2, c2) = cells[g], cells[(g + 1) % 40]
        assert abs(r1 - r2) + abs(c1 - c2) == 1
        assert 4 <= r1 <= 6 or 4 <= c1 <= 6
    assert [loop_cell(g) for g in (0, 10, 20, 30)] == [(0, 6), (6, 10), (10, 4), (4, 0)]
    assert [loop_cell(g) for g in (9, 19, 29, 39)] == [(5, 10), (10, 5), (5, 0), (0, 5)]
    assert RED_CELLS == ((4, 6), (6, 6), (6, 4), (4, 4)) and RED_CORNERS == (4, 14, 24, 34)
    assert [home_cell(1, k) for k in range(4)] == [(5, 9), (5, 8), (5, 7), (5, 6)]
    assert [home_cell(2, k) for k in range(4)] == [(9, 5), (8, 5), (7, 5), (6, 5)]
    assert [home_cell(3, k) for k in range(4)] == [(5, 1), (5, 2), (5, 3), (5, 4)]
    for arm in range(4):
        assert start_index(arm) == global_index(arm, 0) == 10 * arm
        assert threshold_index(arm) == global_index(arm, 39)
        assert [global_index(arm, r) % 10 for r in RED_CORNERS] == [4] * 4
    reserves = {reserve_cell(a, k) for a in range(4) for k in range(4)}
    assert len(reserves) == 16 and not reserves & set(cells)


# ------------------------------------------------------------------ dice


def test_r5_one_token_may_use_both_dice_and_really_stops_between() -> None:
    s = roll(build({0: [5], 1: [rel(1, 8)]}), 3, 4)
    s, events = act_ev(s, "M,1,3")  # stops on g 8: the capture happens there
    assert types(events) == ["moved", "captured"] and s.tokens[1][0] == B
    s = act(s, "M,1,4")
    assert s.tokens[0][0] == 12


def test_r5_the_order_of_the_dice_is_free() -> None:
    s = roll(build({0: [10, 20]}), 2, 5)
    assert codes(s) == ["M,1,2", "M,2,2", "M,1,5", "M,2,5"]
    assert (
        act(act(s, "M,1,5"), "M,2,2").tokens[0][:2] == act(act(s, "M,2,2"), "M,1,5").tokens[0][:2]
    )


def test_r6_the_second_die_must_be_used_if_it_can() -> None:
    s = roll(build({0: [10, 20]}), 2, 5)
    s = act(s, "M,1,2")
    assert s.phase == Phase.AWAIT_MOVE and codes(s) == ["M,1,5", "M,2,5"]
    assert "R" not in codes(s)
    refused(s, "R", "wrong_phase")


def test_r6_an_order_may_leave_the_second_die_unusable() -> None:
    """Free order, no "use both dice" rule: +2 first leaves the 3 blocked."""
    start = roll(build({0: [30], 1: [rel(1, 33), rel(1, 34)]}), 2, 3)
    assert codes(start) == ["M,1,2", "M,1,3"]
    s, events = act_ev(start, "M,1,2")
    assert types(events)[-2:] == ["dice_lapsed", "turn"] and s.current == 1
    assert fact(events[1], DiceLapsed).unused == [3]
    s = act(act(start, "M,1,3"), "M,1,2")  # the other order uses both dice
    assert s.tokens[0][0] == 35 and s.tokens[1][:2] == [B, rel(1, 34)]


def test_r7_doubles_roll_again_without_limit() -> None:
    s = roll(build({0: [10]}), 3, 3)
    s = act(act(s, "M,1,3"), "M,1,3")
    assert s.phase == Phase.AWAIT_ROLL and s.current == 0
    for _ in range(3):
        s, _events = roll_ev(s, 2, 2)
        s = act(act(s, "M,1,2"), "M,1,2")
        assert s.current == 0
    s = roll(s, 2, 3)
    s = act(act(s, "M,1,2"), "M,1,3")
    assert s.current == 1 and s.tokens[0][0] == 33


# ---------------------------------------------------------------- entering


def test_r8_entering_is_optional_and_the_other_die_moves_any_token() -> None:
    s = roll(build({0: [10]}), 6, 2)
    assert codes(s) == ["E", "M,1,2", "M,1,6"]
    s = act(s, "M,1,6")
    assert s.tokens[0] == [16, B, B, B] and codes(s) == ["M,1,2"]
    s = roll(build({0: [10]}), 6, 2)
    s = act(s, "E")
    assert s.tokens[0] == [10, 0, B, B]
    assert codes(s) == ["M,1,2", "M,2,2"]
    s = act(s, "M,1,2")
    assert s.tokens[0] == [12, 0, B, B]


def test_r8_the_lowest_numbered_reserve_token_enters() -> None:
    s = act(roll(build({0: [B, 12]}), 6, 2), "E")
    assert s.tokens[0][:2] == [0, 12]
    refused(roll(build({0: [1, 2, 3, 5]}), 6, 3), "E", "reserve_empty")
    refused(roll(build({0: [10]}), 5, 3), "E", "no_six")


def test_r8_a_double_six_enters_two_tokens() -> None:
    s = roll(build(), 6, 6)
    s = act(s, "E")
    assert codes(s) == ["M,1,6"]  # the кон is taken: move first, then enter
    s = act(s, "M,1,6")
    assert s.phase == Phase.AWAIT_ROLL and s.current == 0  # the double rolls again
    s = roll(s, 6, 6)
    assert codes(s) == ["E", "M,1,6"]
    s = act(s, "E")
    assert codes(s) == ["M,1,6"]  # №2 + 6 would land on №1
    s = act(s, "M,1,6")
    assert s.tokens[0] == [12, 0, B, B]


def test_r9_entering_onto_own_start_is_illegal_and_onto_an_opponent_captures() -> None:
    refused(roll(build({0: [0]}), 6, 2), "E", "start_occupied")
    s = roll(build({0: [20], 3: [rel(3, 0), rel(3, 39)]}), 6, 5)  # a block on g 39, g 0
    s, events = act_ev(s, "E")
    assert types(events) == ["entered", "captured"] and s.tokens[3][:2] == [B, rel(3, 39)]


# ------------------------------------------------------------------ moving


def test_r10_no_overshooting_and_only_the_own_home() -> None:
    s = roll(build({0: [39]}), 5, 4)
    assert codes(s) == ["M,1,4"]
    refused(s, "M,1,5", "overshoot")
    # a yellow token passes blue's threshold and stays on the loop
    s = roll(build({1: [rel(1, 38)]}, current=1), 3, 4)
    s = act(s, "M,1,3")
    assert s.tokens[1][0] == rel(1, 1) < 40
    assert [p.tokens[0].where for p in GAME.view(s).players][1] == "loop"


def test_r10_a_token_never_moves_backwards_and_reserve_tokens_do_not_move() -> None:
    s = roll(build({0: [10]}), 2, 3)
    refused(s, "M,2,2", "in_reserve")
    refused(s, "M,1,4", "die_not_available")
    for a in GAME.legal_actions(s):
        info = GAME.describe(s, a)
        assert info.to_rel is not None and info.from_rel is not None
        assert info.to_rel > info.from_rel


def test_r11_own_tokens_block_on_the_loop_and_in_the_home() -> None:
    s = roll(build({0: [38, 41, 10]}), 4, 3)
    refused(s, "M,1,4", "passes_own")  # 38 → 42 passes Д2
    refused(s, "M,1,3", "lands_on_own")  # 38 → 41 is Д2
    refused(s, "M,2,3", "overshoot")
    assert codes(s) == ["M,3,3", "M,3,4"]
    s = roll(build({0: [10, 14]}), 6, 5)
    refused(s, "M,1,6", "passes_own")


def test_r12_a_block_cannot_be_passed_by_anyone() -> None:
    start = build({0: [3], 1: [rel(1, 6), rel(1, 7)]})
    assert "passed" in types(roll_ev(start, 5, 4)[1])
    s = roll(build({0: [3, 20], 1: [rel(1, 6), rel(1, 7)]}), 5, 4)
    refused(s, "M,1,4", "blocked")  # lands on the second block token
    refused(s, "M,1,5", "blocked")
    assert codes(s) == ["M,2,4", "M,2,5"]
    s = roll(start, 3, 4)
    assert codes(s) == ["M,1,3"]  # lands on the first block token: legal
    # a single opponent token (green on g 2) is passed freely
    s = roll(build({0: [0], 2: [rel(2, 2)]}), 4, 5)
    assert codes(s) == ["M,1,4", "M,1,5"]


def test_r12_a_block_wraps_round_g39_g0_and_exists_only_on_the_loop() -> None:
    s = roll(build({1: [rel(1, 36)], 0: [39, 0]}, current=1), 5, 3)
    refused(s, "M,1,5", "blocked")  # yellow from g 36 over g 39 and g 0
    assert codes(s) == ["M,1,3"]  # lands on g 39 (the first block token)
    v = GAME.view(s)
    assert [t.in_block for t in v.players[0].tokens][:2] == [True, True]
    s = build({0: [42, 43]})
    assert not any(t.in_block for t in GAME.view(s).players[0].tokens)


def test_r13_capture_sends_the_token_to_its_reserve_to_enter_again() -> None:
    s = roll(build({0: [8], 1: [rel(1, 10)]}), 2, 5)  # yellow on his own кон
    s, events = act_ev(s, "M,1,2")
    cap = fact(events[1], Captured)
    assert cap.victim == 102 and cap.token == 1
    assert s.tokens[1] == [B] * 4


def test_r13_the_only_legal_action_that_captures_is_forced() -> None:
    s = roll(build({0: [5], 1: [rel(1, 8)]}), 3, 3)
    assert codes(s) == ["M,1,3"]
    assert GAME.view(s).actions[0].captures


def test_r14_home_tokens_are_safe_and_move_only_forward_inside() -> None:
    s = roll(build({0: [40], 1: [rel(1, 38)]}, current=1), 2, 3)
    for a in GAME.legal_actions(s):
        info = GAME.describe(s, a)
        assert not info.captures
    s = roll(build({0: [40, 36]}), 1, 2)
    assert "M,1,1" in codes(s) and "M,1,2" in codes(s)
    s = act(s, "M,1,2")
    assert s.tokens[0][0] == 42 and GAME.view(s).players[0].tokens[0].where == "home"


# ------------------------------------------------------------- red corners


def test_r15_the_jump_trigger_is_a_snapshot_at_the_roll() -> None:
    s = roll(build({0: [12]}), 2, 1)  # no token on a corner at the roll
    assert s.forced_jumps == 0
    s = act(s, "M,1,2")  # now on rel 14, a red corner
    assert codes(s) == ["M,1,1"]  # the 1 is an ordinary die
    refused(s, "J,1", "no_forced_jump")
    assert act(s, "M,1,1").tokens[0][0] == 15
    s = roll(build({0: [14]}), 2, 3)  # no 1: no obligation
    assert s.forced_jumps == 0 and "J,1" not in codes(s)
    refused(s, "J,1", "no_forced_jump")


def test_r16_the_one_must_jump_not_move_another_token() -> None:
    s = roll(build({0: [14, 20]}), 1, 4)
    assert codes(s) == ["J,1"]
    refused(s, "M,2,1", "must_jump")
    refused(s, "M,2,4", "must_jump")
    refused(s, "J,2", "not_on_red_corner")


def test_r16_the_player_chooses_which_corner_token_jumps() -> None:
    s = roll(build({0: [4, 24]}), 1, 5)
    assert codes(s) == ["J,1", "J,2"]
    assert act(s, "J,2").tokens[0][:2] == [4, 34]


def test_r16_no_legal_jump_turns_the_ones_into_ordinary_dice() -> None:
    s, events = roll_ev(build({0: [14, 24, 34, 4]}), 1, 1)
    assert types(events)[:2] == ["rolled", "jumps_void"] and s.forced_jumps == 0
    assert "M,1,1" in codes(s)


def test_r17_a_jump_ignores_blocks_and_own_tokens_and_captures_even_a_block_member() -> None:
    blockers = [rel(1, 6), rel(1, 7), rel(1, 24), rel(1, 25)]
    s = roll(build({0: [4, 8], 1: blockers}), 1, 6)
    s, events = act_ev(s, "J,1")  # over yellow's block on g 6–7 and own token on g 8
    assert s.tokens[0][:2] == [14, 8] and types(events) == ["jumped"]
    s = roll(build({0: [14], 1: blockers}), 1, 2)
    s, events = act_ev(s, "J,1")  # onto g 24: the first token of a block
    assert types(events) == ["jumped", "captured"] and s.tokens[1][2] == B


def test_r17_a_jump_onto_an_own_token_is_illegal() -> None:
    s = roll(build({0: [34, 4]}), 1, 6)
    refused(s, "J,1", "lands_on_own")
    assert codes(s) == ["J,2"]


def test_r18_double_one_second_jump_by_another_token() -> None:
    s = roll(build({0: [4, 34]}), 1, 1)
    assert s.forced_jumps == 2 and codes(s) == ["J,1"]  # 34 → 4 is own
    s = act(s, "J,1")  # 4 → 14
    assert s.forced_jumps == 1 and codes(s) == ["J,1", "J,2"]
    s, events = act_ev(s, "J,2")  # 34 → 4, past the home
    assert s.tokens[0][:2] == [14, 4]
    assert types(events)[-1] == "extra_roll" and s.current == 0


# ------------------------------------------------------------------ winning


def test_r19_the_others_are_ranked_by_home_count_then_progress_then_seat() -> None:
    s = build({0: [41, 42, 43, 39], 1: [40, 41, 5, B], 2: [40, 41, 7, B], 3: [40, 20, B, B]})
    res = GAME.result(s)
    assert res.winners == []  # provisional while the game runs
    s = act(roll(s, 1, 2), "M,4,1")
    res = GAME.result(s)
    assert res.winners == [101]
    assert [(x.player, x.place, x.score) for x in res.standings] == [
        (101, 1, 4),
        (103, 2, 2),
        (102, 3, 2),
        (104, 4, 1),
    ]
    assert [p.place for p in GAME.view(s).players] == [1, 3, 2, 4]
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, GAME.decode_action("R"))
    assert exc.value.code == "game_over"


def test_r19_ties_fall_to_seat_order() -> None:
    s = act(roll(build({0: [41, 42, 43, 39], 1: [5], 2: [5]}, n=3), 1, 2), "M,4,1")
    assert [x.player for x in GAME.result(s).standings] == [101, 102, 103]


# ------------------------------------------------------------------ leaving


def test_r20_a_leaver_s_tokens_go_and_the_next_seat_moves() -> None:
    s = roll(build({0: [10], 1: [rel(1, 5)], 2: [3]}), 6, 2)
    s, events = GAME.remove(s, 101)
    assert types(events) == ["player_left", "turn"]
    assert s.tokens[0] == [] and not s.active[0]
    assert s.phase == Phase.AWAIT_ROLL and s.current == 1 and s.unused == []
    assert GAME.legal_actions(s)[0].encode() == "R"
    # the former leaver's cells are free now
    s = roll(s, 5, 3)
    assert "M,1,5" in codes(s)


def test_r20_removing_a_waiting_player_keeps_the_turn() -> None:
    s = roll(build({0: [10], 1: [rel(1, 5)]}), 6, 2)
    s2, events = GAME.remove(s, 103)
    assert types(events) == ["player_left"] and s2.current == 0 and s2.unused == s.unused
    assert s2.version == s.version + 1
    s3 = act(act(s2, "M,1,6"), "M,1,2")
    assert s3.current == 1
    s3 = roll(s3, 1, 3)
    s3 = act(act(s3, "M,1,1"), "M,1,3")
    assert s3.current == 3  # seat 2 is skipped


def test_r20_one_player_left_wins_and_leavers_rank_last() -> None:
    s = build({0: [10], 1: [40, 41, 42]}, n=3)
    s, _ = GAME.remove(s, 102)
    s, events = GAME.remove(s, 103)
    assert s.phase == Phase.GAME_OVER and types(events) == ["player_left", "game_over"]
    res = GAME.result(s)
    assert res.winners == [101]
    assert [x.player for x in res.standings] == [101, 103, 102]
    assert GAME.remove(s, 101) == (s, [])  # after the end: nothing changes
    with pytest.raises(IllegalAction) as exc:
        GAME.remove(s, 999)
    assert exc.value.code == "not_a_player"


def test_r20_removing_twice_changes_nothing() -> None:
    s, _ = GAME.remove(build(), 102)
    assert GAME.remove(s, 102) == (s, [])


# -------------------------------------------------------------------- spec


def test_every_spec_rule_is_named_by_a_test() -> None:
    """Each R-number of the spec (docs/spec/sea_cross.md) appears in a test name or docstring."""
    assert missing_rules("sea_cross", Path(__file__).parent) == []
