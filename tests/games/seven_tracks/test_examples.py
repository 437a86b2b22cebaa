"""Every worked example of the spec (§18, E1–E25) as a test."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.seven_tracks import GAME, Action, ActionType, Phase, State, Status, engine

from ..spec import missing_examples
from .builder import act, build, kinds, refused, restrict, roll, track

T = ActionType


def legal(s: State) -> list[Action]:
    return GAME.legal_actions(s)


def has(s: State, type_: ActionType, **kw: object) -> bool:
    return Action(type=type_, **kw) in legal(s)


def test_e1_one_die_white_substitution_r24_r28_r30() -> None:
    s = roll(build(hands={0: ["W", "W", "C", "R"]}, tracks={3: ["Y"]}), 3)
    assert s.turn.modes == {3: "sequence"}
    s = act(s, T.PLACE, kind="W", track=3)
    assert track(s, 3) == ["Y", "W"]
    refused(s, T.PLACE, "two_whites", kind="W", track=3)
    s = act(s, T.PLACE, kind="C", track=3)
    s = act(s, T.PLACE, kind="W", track=3)
    assert track(s, 3) == ["Y", "W", "C", "W"]
    refused(s, T.PLACE, "wrong_colour", kind="R", track=3)
    assert kinds(s.hands[0]) == ["R"]
    assert has(s, T.END_PLACING)


def test_e2_two_dice_r25_r29_r42_r45() -> None:
    s = roll(build(hands={0: ["Y", "G", "G", "C"]}, tracks={1: ["R", "O"]}), 1, 4)
    s = act(s, T.PLACE, kind="Y", track=1)
    refused(s, T.END_PLACING, "must_place")
    s = act(s, T.PLACE, kind="G", track=4)
    refused(s, T.PLACE, "track_capacity", kind="C", track=4)
    assert track(s, 1) == ["R", "O", "Y"] and track(s, 4) == ["G"]
    assert kinds(s.hands[0]) == ["C", "G"]


def test_e3_completing_a_track_and_continuing_r31_r40() -> None:
    s = build(
        hands={0: ["R", "O", "Y", "V", "G"]},
        tracks={2: ["O", "Y", "W", "C", "B", "U"], 5: ["C", "B"]},
    )
    s = roll(s, 2, 5)
    s = act(s, T.PLACE, kind="R", track=2)
    assert track(s, 2) == [] and s.turn.modes[2] == "sequence"
    assert kinds(s.out) == kinds(["B", "C", "O", "R", "Y"])
    assert kinds(s.store) == ["U", "W"]
    s = act(s, T.PLACE, kind="O", track=2)
    s = act(s, T.PLACE, kind="Y", track=2)
    assert track(s, 2) == ["O", "Y"]
    s = act(s, T.PLACE, kind="V", track=5)
    assert track(s, 5) == ["C", "B", "V"]
    assert kinds(s.hands[0]) == ["G"]


def test_e4_placing_a_block_r33_r34() -> None:
    s = roll(build(hands={0: ["R", "K", "K", "G"]}, tracks={6: ["B", "V"]}), 6)
    refused(s, T.BLOCK, "no_placement_on_track", kind="K", track=6)
    s = act(s, T.PLACE, kind="R", track=6)
    s = act(s, T.BLOCK, kind="K", track=6)
    assert track(s, 6) == ["B", "V", "R"] and s.tracks[5].block is not None
    refused(s, T.BLOCK, "already_blocked", kind="K", track=6)
    refused(s, T.PLACE, "track_blocked", kind="G", track=6)
    assert kinds(s.hands[0]) == ["G", "K"]


def test_e4b_nothing_usable_draw_is_the_only_way() -> None:
    s = roll(build(hands={0: ["K", "G"]}, tracks={6: ["B", "V"]}), 6)
    assert legal(s) == [Action(type=T.DRAW)]
    refused(s, T.BLOCK, "no_placement_on_track", kind="K", track=6)
    refused(s, T.END_PLACING, "obligation_unmet")


def test_e5_removing_a_block_r35() -> None:
    s = build(hands={0: ["W", "O", "Y", "C"]}, tracks={6: ["B", "V", "R"]}, blocks={6: ("K", 1, 3)})
    s = roll(s, 6)
    s = act(s, T.UNBLOCK, kind="W", track=6)
    assert s.tracks[5].block is None and track(s, 6) == ["B", "V", "R"]
    assert kinds(s.out) == ["K", "W"]
    assert GAME.view(s, None).turn.obligation_met is True
    s = act(s, T.PLACE, kind="O", track=6)
    s = act(s, T.PLACE, kind="Y", track=6)
    assert track(s, 6) == ["B", "V", "R", "O", "Y"]
    assert kinds(s.hands[0]) == ["C"]


def test_e5b_unblock_counts_as_the_single_placement() -> None:
    s = build(hands={0: ["W", "O", "Y", "C"]}, tracks={6: ["B", "V", "R"]}, blocks={6: ("K", 1, 3)})
    s = act(roll(s, 6, 2), T.UNBLOCK, kind="W", track=6)
    refused(s, T.PLACE, "track_capacity", kind="O", track=6)


def test_e5c_own_block_of_this_turn_cannot_be_removed_d12() -> None:
    s = build(
        hands={0: ["W", "O"]}, tracks={6: ["B", "V", "R"]}, blocks={6: ("K", 0, 10)}, turn_no=10
    )
    refused(roll(s, 6), T.UNBLOCK, "own_block", kind="W", track=6)


def test_e6_reclaiming_a_white_r32() -> None:
    s = build(hands={0: ["C", "V", "G", "SK"]}, tracks={4: ["G", "W", "B"], 1: ["R"]})
    s = roll(s, 4, 1)
    s = act(s, T.RECLAIM, track=4, slot=2)
    assert track(s, 4) == ["G", "C", "B"] and kinds(s.hands[0]) == ["G", "SK", "V", "W"]
    s = act(s, T.PLACE, kind="V", track=4)
    s = act(s, T.PLACE, kind="W", track=1)
    assert track(s, 4) == ["G", "C", "B", "V"] and track(s, 1) == ["R", "W"]
    assert s.turn.draws == 0
    assert kinds(s.hands[0]) == ["G", "SK"]
    refused(s, T.SHIFT, "board_action_done", kind="SK", role="SK", die=0)


def test_e7_track_7_on_a_double_clearing_and_black_discard_r37_r39() -> None:
    s = build(
        hands={0: ["C", "B", "V", "R", "K", "W", "G"]},
        tracks={3: ["Y", "G"]},
        t7=["R", "O", "Y", "G", "C"],
    )
    s = roll(s, 3, 3)
    s = act(s, T.PLACE, kind="C", track=3)
    refused(s, T.PLACE_T7, "wrong_colour", kind="W")
    refused(s, T.PLACE_T7, "t7_colour_taken", kind="R")
    s = act(s, T.PLACE_T7, kind="B")
    s = act(s, T.PLACE_T7, kind="V")
    assert s.t7 == [] and s.turn.t7_completions == 1
    assert kinds(s.out) == kinds(["R", "O", "Y", "G", "C", "B", "V"])
    s = act(s, T.PLACE_T7, kind="R")
    assert kinds(s.t7) == ["R"]
    s = act(s, T.DISCARD_BLACK, kind="K")
    refused(s, T.DISCARD_BLACK, "no_black_discard", kind="K")
    assert kinds(s.hands[0]) == ["G", "W"]


def test_e8_double_six_and_the_bonus_store_r41() -> None:
    s = build(hands={0: ["Y", "K"]}, tracks={6: ["B"]}, store=["W", "W", "U"])
    s = roll(s, 6, 6)
    s = act(s, T.TAKE_BONUS, kind="W")
    s = act(s, T.TAKE_BONUS, kind="U")
    refused(s, T.TAKE_BONUS, "bonus_limit", kind="W")
    s = act(s, T.PLACE, kind="W", track=6)
    s = act(s, T.BLOCK, kind="K", track=6)
    s = act(s, T.PLACE_T7, kind="Y")
    assert kinds(s.hands[0]) == ["U"] and kinds(s.store) == ["W"]
    assert track(s, 6) == ["B", "W"] and s.tracks[5].block is not None


def test_e8_two_universals_never_in_one_turn_d17() -> None:
    s = roll(build(hands={0: ["Y"]}, store=["U", "U"]), 6, 6)
    s = act(s, T.TAKE_BONUS, kind="U")
    refused(s, T.TAKE_BONUS, "bonus_limit", kind="U")


def test_e9_drawing_up_to_five_r44() -> None:
    s = build(hands={0: ["G", "G", "K"]}, tracks={5: ["C", "B", "V"]}, bank_top=["Y", "W"])
    s = roll(s, 5)
    refused(s, T.END_PLACING, "obligation_unmet")
    s = act(s, T.DRAW)
    assert kinds(s.turn.drawn) == ["Y"]
    s = act(s, T.DRAW)
    refused(s, T.DRAW, "must_place")
    s = act(s, T.PLACE, kind="W", track=5)
    assert track(s, 5) == ["C", "B", "V", "W"]
    assert s.turn.draws == 2


def test_e9b_five_unusable_draws_then_end_placing_r45() -> None:
    s = build(
        hands={0: ["G", "G", "K"]},
        tracks={5: ["C", "B", "V"]},
        bank_top=["Y", "G", "O", "B", "C"],
    )
    s = roll(s, 5)
    for _ in range(5):
        s = act(s, T.DRAW)
    refused(s, T.DRAW, "draw_limit")
    s = act(s, T.END_PLACING)
    assert kinds(s.hands[0]) == kinds(["G", "G", "K", "Y", "G", "O", "B", "C"])


def test_e9c_drawn_fm_is_discarded_and_replaced_r46_r59() -> None:
    s = build(hands={0: ["G", "K"]}, tracks={5: ["C", "B", "V"]}, bank_top=["FM", "Y"])
    s = roll(s, 5)
    s2, events = GAME.apply(s, Action(type=T.DRAW))
    assert "FM" in kinds(s2.out)
    assert kinds(s2.hands[0]) == ["G", "K", "Y"]
    assert s2.turn.draws == 1
    public = [e.type for e in events if e.private_to is None]
    assert "fm_discarded" in public
    assert all(e.private_to == 0 for e in events if e.type == "drew_tile")


def test_e9d_empty_bank_end_placing_at_once() -> None:
    s = roll(build(hands={0: ["G", "K"]}, tracks={5: ["C", "B", "V"]}, bank_size=0), 5)
    assert legal(s) == [Action(type=T.END_PLACING)]


def test_e10_sk_as_a_shift_r26_r50() -> None:
    s = roll(build(hands={0: ["SK", "G", "R"]}, tracks={2: ["O"], 3: ["Y"]}), 2, 3)
    s = act(s, T.SHIFT, kind="SK", role="SK", die=0)
    assert s.turn.modes == {3: "single"} and "SK" in kinds(s.out)
    s = act(s, T.PLACE, kind="G", track=3)
    assert track(s, 3) == ["Y", "G"] and s.turn.priority_used


def test_e11_sk_instead_of_and_after_the_move_r49_r52() -> None:
    s = build(n=4, hands={0: ["SK", "R", "R"]})
    s2 = act(s, T.INSTEAD_OF_MOVE, kind="SK", role="SK")
    assert s2.current == 1 and s2.phase == Phase.PRE_MOVE
    s3 = act(
        build(n=4, hands={0: ["SK", "R"]}, phase=Phase.POST_MOVE),
        T.AFTER_MOVE,
        kind="SK",
        role="SK",
    )
    assert s3.current == 2
    s4 = act(
        build(n=2, hands={0: ["SK", "R"]}, phase=Phase.POST_MOVE),
        T.AFTER_MOVE,
        kind="SK",
        role="SK",
    )
    assert s4.current == 0


def test_e11_skip_after_move_no_effect_option_r52() -> None:
    s = build(
        n=4, hands={0: ["SK", "R"]}, phase=Phase.POST_MOVE, options={"skip_after_move": "no_effect"}
    )
    assert act(s, T.AFTER_MOVE, kind="SK", role="SK").current == 1


def test_e12_op_r53() -> None:
    s = act(build(n=4, seat=1, hands={1: ["OP", "R"]}), T.INSTEAD_OF_MOVE, kind="OP", role="OP")
    assert s.current == 3 and engine.cw(s, 3) == 0
    five = build(n=5, hands={0: ["OP", "R"]}, phase=Phase.POST_MOVE)
    assert act(five, T.AFTER_MOVE, kind="OP", role="OP", target=3).current == 3
    assert act(five, T.AFTER_MOVE, kind="OP", role="OP", target=2).current == 2
    refused(five, T.AFTER_MOVE, "bad_target", kind="OP", role="OP", target=1)
    three = build(n=3, hands={0: ["OP", "R"]}, phase=Phase.POST_MOVE)
    targets = {a.target for a in legal(three) if a.type == T.AFTER_MOVE}
    assert targets == {1, 2}


def test_e12_op_as_a_shift_r26() -> None:
    s = act(roll(build(hands={0: ["OP", "R"]}), 5, 2), T.SHIFT, kind="OP", role="OP", die=0)
    assert sorted(s.turn.modes) == [1, 2]
    s = act(roll(build(hands={0: ["OP", "R"]}), 6, 2), T.SHIFT, kind="OP", role="OP", die=0)
    assert sorted(s.turn.modes) == [2]


def test_e13_pv_r54() -> None:
    s = act(
        build(n=4, seat=2, hands={2: ["PV", "R"]}, phase=Phase.POST_MOVE),
        T.AFTER_MOVE,
        kind="PV",
        role="PV",
    )
    assert s.current == 1 and engine.cw(s, 1) == 2 and engine.cw(s, 2) == 3
    s = act(build(n=4, seat=2, hands={2: ["PV", "R"]}), T.INSTEAD_OF_MOVE, kind="PV", role="PV")
    assert s.current == 1 and s.turn.n_dice == 0
    s = act(roll(build(hands={0: ["PV", "R"]}), 1), T.SHIFT, kind="PV", role="PV", die=0)
    assert list(s.turn.modes) == [6]


def test_e14_restriction_and_its_cancellation_r55_r57() -> None:
    s = build(
        n=4,
        hands={0: ["RS", "R"], 1: ["G", "C", "B", "K"], 2: ["U", "SK", "R", "O"], 3: ["Y", "Y"]},
        phase=Phase.POST_MOVE,
    )
    s = act(s, T.AFTER_MOVE, kind="RS", role="RS")
    assert s.restricted_left == 3 and s.current == 1 and s.turn.restricted
    refused(s, T.INSTEAD_OF_MOVE, "restricted_turn", kind="SK", role="SK")
    s = roll(s, 4)
    s = act(s, T.PLACE, kind="G", track=4)
    refused(s, T.PLACE, "restricted_one_placement", kind="C", track=4)
    refused(s, T.BLOCK, "restricted_turn", kind="K", track=4)
    s = act(s, T.END_PLACING)
    s = act(s, T.END_TURN)
    assert s.restricted_left == 2 and s.current == 2 and s.turn.restricted
    s = act(s, T.CANCEL_RESTRICTION, kind="U")
    assert s.restricted_left == 0 and not s.turn.restricted and "U" in kinds(s.out)
    s = roll(s, 1)
    s = act(s, T.PLACE, kind="R", track=1)
    s = act(s, T.PLACE, kind="O", track=1)
    s = act(s, T.END_PLACING)
    assert has(s, T.AFTER_MOVE, kind="SK", role="SK")
    s = act(s, T.END_TURN)
    assert s.current == 3 and not s.turn.restricted


def test_e14_rs_instead_of_the_move_r55() -> None:
    s = act(build(n=4, hands={0: ["RS", "R"]}), T.INSTEAD_OF_MOVE, kind="RS", role="RS")
    assert s.restricted_left == 3 and s.current == 1 and s.turn.n_dice == 0


def test_e14b_restricted_player_may_draw_voluntarily_r56() -> None:
    s = restrict(build(n=4, seat=1, hands={1: ["G", "R"]}, bank_top=["O", "G"]), 3)
    s = roll(s, 4)
    s = act(s, T.DRAW)
    s = act(s, T.DRAW)
    refused(s, T.DRAW, "must_place")
    refused(s, T.END_PLACING, "must_place")
    s = act(s, T.PLACE, kind="G", track=4)


class Dice:
    """A stand-in RNG that rolls the given numbers, for the dice-off example."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = rolls

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0)

    def shuffle(self, x: list[str]) -> None:
        return None


def window(n: int, hands: dict[int, list[str]]) -> State:
    s = build(n=n, hands=hands, phase=Phase.FIRST_MOVE)
    s.dice_off = []
    return s


def test_e15_first_move_r58() -> None:
    """R58 (revised 2026-12): everyone answers at once; the FM closes the window although
    seat 1 has not answered."""
    s = window(4, {0: ["U", "R"], 1: ["R"], 2: ["FM", "R"], 3: ["R"]})
    bank = len(s.bank)
    s = act(s, T.FM_DECLARE, kind="U", seat=0)
    s = act(s, T.FM_PASS, seat=3)
    assert s.phase == Phase.FIRST_MOVE and GAME.deciders(s) == [s.players[1], s.players[2]]
    s = act(s, T.FM_DECLARE, kind="FM", seat=2)
    assert s.current == 2 and s.phase == Phase.PRE_MOVE
    assert "FM" in kinds(s.out) and len(s.hands[2]) == 2 and len(s.bank) == bank - 1
    assert "U" in kinds(s.hands[0]) and s.dice_off == []


def test_e15b_dice_off_r16(monkeypatch: pytest.MonkeyPatch) -> None:
    s = window(4, {i: ["R"] for i in range(4)})
    rolls = Dice([4, 4, 5, 6, 6, 5, 2, 3, 3, 4, 4, 5])
    for seat in (3, 1, 0):
        s = act(s, T.FM_PASS, seat=seat)
    monkeypatch.setattr(engine, "_rng", lambda st: rolls)
    s, _ = GAME.apply(s, Action(type=T.FM_PASS, seat=2))
    assert s.dice_off == [{0: 8, 1: 11, 2: 11, 3: 5}, {1: 7, 2: 9}]
    assert s.current == 2 and s.phase == Phase.PRE_MOVE


def test_e15c_universal_as_first_move_r58() -> None:
    s = window(4, {0: ["U", "R"], 1: ["R"], 2: ["R"], 3: ["R"]})
    for seat in (2, 1, 3):
        s = act(s, T.FM_PASS, seat=seat)
    s = act(s, T.FM_DECLARE, kind="U", seat=0)
    assert s.current == 0 and kinds(s.hands[0]) == ["R"] and "U" in kinds(s.out)


def test_e15d_the_first_universal_declared_and_a_timed_out_window_r58() -> None:
    s = window(4, {0: ["U", "R"], 1: ["R"], 2: ["R"], 3: ["U", "R"]})
    s = act(s, T.FM_DECLARE, kind="U", seat=3)
    refused(s, T.FM_DECLARE, "fm_u_taken", kind="U", seat=0)
    refused(s, T.FM_PASS, "fm_answered", seat=3)
    assert GAME.legal_actions_for(s, s.players[0]) == [Action(type=T.FM_PASS, seat=0)]
    s, events = GAME.timeout(s)
    assert [e.seat for e in events if e.type == "fm_passed"] == [0, 1, 2]
    assert s.current == 3 and s.phase == Phase.PRE_MOVE and "U" in kinds(s.out)


def test_e16_universal_roles_and_the_one_priority_limit_r50_r62() -> None:
    s = roll(build(hands={0: ["SK", "U", "U", "K"]}, tracks={2: ["O", "Y"], 3: ["Y"]}), 2)
    s = act(s, T.SHIFT, kind="SK", role="SK", die=0)
    s = act(s, T.PLACE, kind="U", track=3)
    assert track(s, 3) == ["Y", "U"]
    refused(s, T.PLACE, "two_whites", kind="U", track=3)
    refused(s, T.BLOCK, "priority_used", kind="U", track=3)
    s = act(s, T.BLOCK, kind="K", track=3)
    assert kinds(s.hands[0]) == ["U"]


def test_e17_exchange_r60() -> None:
    s = build(hands={0: ["EX", "K", "K", "V", "W"]}, bank_size=20)
    s = act(s, T.EXCHANGE_BEGIN, kind="EX", role="EX")
    for k in ("K", "K", "V"):
        s = act(s, T.EXCHANGE_ADD, kind=k)
    s = act(s, T.EXCHANGE_CONFIRM)
    assert len(s.hands[0]) == 5 and "EX" in kinds(s.out) and len(s.bank) == 19
    assert s.phase == Phase.PRE_MOVE and s.turn.priority_used
    s = roll(s, 1)
    refused(s, T.SHIFT, "priority_used", kind="SK", role="SK", die=0)


def test_e17b_exchange_limited_by_the_bank_r60() -> None:
    s = build(hands={0: ["EX", "K", "K", "V", "W"]}, bank_size=2)
    s = act(s, T.EXCHANGE_BEGIN, kind="EX", role="EX")
    s = act(s, T.EXCHANGE_ADD, kind="K")
    s = act(s, T.EXCHANGE_ADD, kind="K")
    refused(s, T.EXCHANGE_ADD, "exchange_limit", kind="V")


def test_e17c_exchange_after_the_move_ends_the_turn_r60() -> None:
    s = build(hands={0: ["EX", "K", "V"]}, phase=Phase.POST_MOVE)
    s = act(s, T.EXCHANGE_BEGIN, kind="EX", role="EX")
    s = act(s, T.EXCHANGE_ADD, kind="K")
    s = act(s, T.EXCHANGE_CONFIRM)
    assert s.current == 1 and len(s.hands[0]) == 3


def test_e18_fifth_tile_swap_r61() -> None:
    s = build(hands={0: ["R"] * 6 + ["W", "SK"]}, bank_top=["O", "G"])
    s = act(s, T.FIFTH_SWAP, kind="R")
    assert kinds(s.hands[0]).count("R") == 5 and "O" in kinds(s.hands[0])
    while kinds(s.hands[0]).count("R") >= 5:
        s = act(s, T.FIFTH_SWAP, kind="R")
    assert kinds(s.hands[0]).count("R") == 4
    refused(s, T.FIFTH_SWAP, "fifth_swap_needs_five", kind="R")
    refused(s, T.FIFTH_SWAP, "fifth_swap_needs_five", kind="W")
    refused(s, T.FIFTH_SWAP, "bad_role", kind="SK")
    assert s.turn.draws == 0 and not s.turn.priority_used


def test_e19_last_tile_is_a_priority_tile_r64_r65() -> None:
    s = build(n=3, hands={0: ["SK"], 1: ["R", "SK"], 2: ["R"]}, tracks={1: []})
    s.scores = [10, 0, 0]
    s = act(s, T.INSTEAD_OF_MOVE, kind="SK", role="SK")
    assert s.status[0] == Status.OUT and s.out_order == [0]
    assert s.current == 1 and s.turn.final and s.final_left == 1
    refused(s, T.INSTEAD_OF_MOVE, "final_turn", kind="SK", role="SK")
    s = roll(s, 1)
    s = act(s, T.PLACE, kind="R", track=1)
    s = act(s, T.END_PLACING)
    s = act(s, T.END_TURN)
    assert s.last_round is not None and s.last_round.first_out == 0
    assert s.scores[0] == 3


def test_e19_waive_is_illegal_in_a_final_turn_r65() -> None:
    s = build(n=3, hands={0: ["SK"], 1: ["R", "SK"], 2: ["R"]}, tracks={1: ["R"]})
    s = roll(act(s, T.INSTEAD_OF_MOVE, kind="SK", role="SK"), 1)
    refused(s, T.WAIVE, "final_turn", kind="SK", role="SK")


def test_e19b_last_tile_a_universal_as_sk_ends_the_round_r62() -> None:
    s = build(n=3, hands={0: ["U"], 1: ["R"], 2: ["R"]})
    s = act(s, T.INSTEAD_OF_MOVE, kind="U", role="SK")
    assert s.last_round is not None and s.last_round.first_out == 0 and s.round_no == 2


def test_e19c_last_tile_rs_gives_restricted_final_turns_r65() -> None:
    s = build(n=3, hands={0: ["RS"], 1: ["R"], 2: ["O", "G"]})
    s.scores = [10, 20, 0]
    s = act(s, T.INSTEAD_OF_MOVE, kind="RS", role="RS")
    assert s.current == 1 and s.turn.restricted and s.final_left == 2
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.status[1] == Status.OUT and s.current == 2 and s.turn.restricted
    s = act(roll(s, 1), T.PLACE, kind="O", track=1)
    s = act(s, T.END_PLACING)
    s = act(s, T.END_TURN)
    assert s.last_round is not None and s.last_round.out_order == [0, 1]
    assert s.scores[:2] == [3, 20]


def test_e20_scoring_bonus_and_floor_r67_r69() -> None:
    s = build(n=3, hands={0: ["R"], 1: ["V", "K", "U"], 2: ["R", "O"]})
    s.scores = [5, 60, 30]
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.scores == [0, 102, 33]
    assert s.status == [Status.OUT, Status.ACTIVE, Status.ACTIVE]
    total = sum(s.options.tile_set.values())
    assert len(s.bank) == total - 5 and s.phase == Phase.FIRST_MOVE and s.round_no == 2


def test_e21_elimination_and_a_new_cycle_r68_r70() -> None:
    s = build(n=4, seat=3, hands={1: ["W", "SK"], 2: ["R", "O"], 3: ["R"]})
    s.bank += s.hands[0]
    s.hands[0] = []
    s.status[0] = Status.OUT
    s.scores = [20, 130, 40, 10]
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.scores[1:] == [155, 43, 3]
    assert s.status == [Status.ACTIVE, Status.ELIMINATED, Status.ACTIVE, Status.ACTIVE]
    assert s.cycle_no == 2 and [len(h) for h in s.hands] == [12, 0, 12, 12]


def test_e21b_last_player_standing_wins_r70() -> None:
    s = build(n=4, seat=2, hands={1: ["W", "SK"], 2: ["R"]})
    for seat in (0, 3):
        s.bank += s.hands[seat]
        s.hands[seat] = []
        s.status[seat] = Status.ELIMINATED
    s.scores = [150, 130, 40, 160]
    s.eliminated_order = [[0], [3]]
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert GAME.is_over(s) and s.winners == [s.players[2]]
    assert [x.player for x in GAME.result(s).standings] == [103, 102, 104, 101]


def test_e22a_dead_position_ends_the_round_at_the_first_turn_end_r66() -> None:
    """E22a (revised 2026-12): bank empty, no priority tile, no roll lets anyone place."""
    s = build(n=3, hands={i: ["K", "K"] for i in range(3)}, bank_size=0)
    assert engine.dead_position(s)
    assert not any(engine.could_ever_move(s, seat) for seat in range(3))
    s = act(s, T.CHOOSE_DICE, n=2)
    assert engine.turn_is_dead(s)  # END_PLACING, then END_TURN: all he can do
    s = act(s, T.END_PLACING)
    s = act(s, T.END_TURN)
    assert s.last_round is not None and s.last_round.stalled and s.last_round.round == 1
    assert s.last_round.first_out is None and s.scores == [20, 20, 20]
    assert s.status == [Status.ACTIVE] * 3 and s.round_no == 2  # R69: all three play on


def test_e22a_a_priority_tile_or_a_usable_roll_is_not_a_dead_position_r66() -> None:
    s = build(n=3, hands={0: ["K", "K"], 1: ["K", "SK"], 2: ["K", "K"]}, bank_size=0)
    assert not engine.dead_position(s) and engine.could_ever_move(s, 1)
    s = build(n=3, hands={0: ["K", "FM"], 1: ["K"], 2: ["K"]}, bank_size=0)
    assert engine.dead_position(s)  # an FM is of no use outside its window (R58)
    s = build(n=3, hands={0: ["K", "V"], 1: ["K"], 2: ["K"]}, tracks={6: ["B"]}, bank_size=0)
    assert not engine.dead_position(s)  # V fits track 6 on a 6 (or on a double, the centre)
    assert not engine.dead_position(build(n=3, hands={i: ["K"] for i in range(3)}, bank_size=3))


def _idle_turn(s: State, *dice: int) -> State:
    s = roll(s, *dice)
    assert engine.turn_is_dead(s)
    return act(act(s, T.END_PLACING), T.END_TURN)


def test_e22b_backstop_three_idle_circles_r66() -> None:
    """E22b: seat 0's red fits track 1 only on a 1 (the centre holds a red); he never
    rolls one. Nine idle turns (3 × 3) end the round as in E22a."""
    s = build(n=3, hands={0: ["R", "K"], 1: ["K", "K"], 2: ["K", "K"]}, t7=["R"], bank_size=0)
    assert not engine.dead_position(s) and engine.could_ever_move(s, 0)
    for turn in range(1, 9):
        s = _idle_turn(s, 2, 3)
        assert s.idle_turns == turn and s.round_no == 1 and s.last_round is None
    s = _idle_turn(s, 6)
    assert s.last_round is not None and s.last_round.stalled and s.round_no == 2
    assert s.last_round.first_out is None and s.scores == [11, 20, 20]


def test_e22b_a_placement_starts_the_idle_count_again_r66() -> None:
    hands = {0: ["R", "O", "K"], 1: ["K", "K"], 2: ["K", "K"]}
    s = build(n=3, hands=hands, tracks={2: ["O"]}, t7=["R"], bank_size=0)
    for _ in range(3):
        s = _idle_turn(s, 2, 3)
    assert s.idle_turns == 3 and s.current == 0
    s = act(roll(s, 1, 3), T.PLACE, kind="R", track=1)  # he rolled a 1 after all
    s = act(act(s, T.END_PLACING), T.END_TURN)
    assert s.idle_turns == 0 and s.round_no == 1  # and O now fits track 1 on a 1


def test_e23_a_shift_on_a_double_r27() -> None:
    s = act(roll(build(hands={0: ["SK", "R"]}), 3, 3), T.SHIFT, kind="SK", role="SK", die=0)
    assert s.turn.modes == {4: "single", 7: "sequence"} and s.turn.is_double
    s = build(hands={0: ["PV", "R"]}, store=["W"])
    s = act(roll(s, 6, 6), T.SHIFT, kind="PV", role="PV", die=0)
    assert 5 in s.turn.modes and has(s, T.TAKE_BONUS, kind="W")
    s = act(roll(build(hands={0: ["SK", "R"]}), 2, 3), T.SHIFT, kind="SK", role="SK", die=0)
    assert s.turn.modes == {3: "single"} and not s.turn.is_double
    refused(s, T.PLACE_T7, "not_double", kind="R")


def test_e24_a_priority_tile_instead_of_drawing_r48() -> None:
    s = build(n=4, hands={0: ["O", "G", "OP"]}, tracks={1: ["R"], 2: ["O"]})
    s = act(roll(s, 1, 2), T.PLACE, kind="O", track=1)
    assert has(s, T.DRAW)
    s = act(s, T.WAIVE, kind="OP", role="OP")
    assert "OP" in kinds(s.out) and s.current == 2


def test_e25_block_on_six_slots_then_going_out_r34_r35_r31_r21_r64() -> None:
    s = build(
        hands={0: ["W", "V", "R"]},
        tracks={1: ["R", "O", "Y", "G", "C", "B"]},
        blocks={1: ("K", 1, 3)},
    )
    s = roll(s, 1)
    refused(s, T.PLACE, "track_blocked", kind="V", track=1)
    s = act(s, T.UNBLOCK, kind="W", track=1)
    s2, events = GAME.apply(s, Action(type=T.PLACE, kind="V", track=1))
    assert "track_completed" in [e.type for e in events] and track(s2, 1) == []
    s3, events = GAME.apply(s2, Action(type=T.PLACE, kind="R", track=1))
    types = [e.type for e in events]
    assert "went_out" in types and "round_ended" in types
    assert s3.last_round is not None and s3.last_round.first_out == 0


def test_every_worked_example_of_the_spec_is_a_test() -> None:
    """Each worked example of the spec (docs/spec/seven_tracks.md) has a `test_e<n>…_` here."""
    assert missing_examples("seven_tracks", Path(__file__).parent) == []
