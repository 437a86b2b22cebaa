"""Every worked example of the spec (§9, E1–E14) as a test."""

from __future__ import annotations

from pathlib import Path

from games.hypnosia import GAME, Phase
from games.hypnosia.engine import score
from games.hypnosia.events import DiceLapsed, EnteredCentre
from games.hypnosia.model import CAPTURED, EndReason

from ..facts import fact, facts
from ..spec import missing_examples
from .builder import BLUE, RED, act, build, codes, mv, refused, rig, roll


def test_e1_leaving_the_start_r8() -> None:
    s = roll(build(), 3, 5)
    assert codes(s) == ["M,1,3,r", "M,2,3,r", "M,3,3,r", "M,1,5,r", "M,2,5,r", "M,3,5,r", "M,4,5,r"]
    lands = {a.encode(): GAME.apply(s, a)[0].tokens[RED] for a in GAME.legal_actions(s)}
    assert lands["M,1,3,r"][0] == "1.2"
    assert lands["M,2,3,r"][1] == "1.1"
    assert lands["M,3,3,r"][2] == "1.0"
    assert lands["M,1,5,r"][0] == "1.4"
    assert lands["M,2,5,r"][1] == "1.3"
    assert lands["M,3,5,r"][2] == "1.2"
    assert lands["M,4,5,r"][3] == "1.1"
    refused(s, "die_too_small", 4, 3)


def test_e2_one_token_both_dice_crossing_in_the_same_turn_r5_r10() -> None:
    s = act(roll(build(), 3, 5), 2, 5)
    assert s.tokens[RED][1] == "1.3" and s.unused == [3]
    assert {"M,2,3,b", "M,2,3,r", "M,1,3,r", "M,3,3,r"} == set(codes(s))
    assert act(s, 2, 3, "b").tokens[RED][1] == "2.4"
    assert act(s, 2, 3, "r").tokens[RED][1] == "1.6"


def test_e3_passing_a_bridge_does_nothing_r10() -> None:
    s = roll(build(tokens={RED: {1: "1.1"}}), 5, 2)
    s1 = act(s, 1, 5)
    assert s1.tokens[RED][0] == "1.6"
    refused(s1, "not_on_bridge", 1, 2, "b")
    s2 = act(s, 1, 2)
    assert s2.tokens[RED][0] == "1.3"
    assert act(s2, 1, 5, "b").tokens[RED][0] == "2.6"  # 2.2 + 4 steps


def test_e4_capture_of_a_single_r12_r14() -> None:
    s = roll(build(tokens={RED: {1: "1.5"}, BLUE: {3: "1.9"}}), 4, 1)
    s = act(s, 1, 4)
    assert s.tokens[RED][0] == "1.9" and s.tokens[BLUE][2] == CAPTURED
    assert (s.captured, s.lost) == ([1, 0], [0, 1])
    assert (score(s, RED), score(s, BLUE)) == (1, -1)


def test_e5_pair_forming_and_pair_capture_r12_r13() -> None:
    s = build(tokens={RED: {1: "1.4", 2: "1.6"}, BLUE: {1: "1.9", 2: "1.9"}})
    s = roll(s, 2, 3)
    refused(s, "single_vs_pair", 2, 3)
    s = act(s, 1, 2)
    assert s.tokens[RED][:2] == ["1.6", "1.6"]
    s = act(s, 1, 3, pair=True)
    assert s.tokens[RED][:2] == ["1.9", "1.9"]
    assert s.tokens[BLUE][:2] == [CAPTURED, CAPTURED]
    assert (s.captured, s.lost) == ([2, 0], [0, 2])


def test_e6_stacking_limit_r12() -> None:
    s = roll(build(tokens={RED: {1: "1.10", 2: "1.10", 3: "1.8"}}, rest=CAPTURED), 2, 6)
    refused(s, "stack_limit", 3, 2)
    legal = set(codes(s))
    assert {"M,1,2,r,p", "M,1,6,r,p", "M,1,2,r", "M,1,6,r"} <= legal
    assert "M,3,2,r" not in legal


def test_e7_centre_entry_needs_an_exact_1_r11() -> None:
    base = build(tokens={RED: {4: "3.6", 2: "2.20"}, BLUE: {1: "1.30"}}, rest=CAPTURED)
    s = roll(base, 1, 4)
    assert codes(s) == ["M,2,1,r", "M,4,1,r", "M,4,1,b", "M,2,4,r", "M,4,4,r"]
    refused(s, "centre_needs_one", 4, 4, "b")
    assert act(s, 4, 1).tokens[RED][3] == "3.7"
    assert act(s, 4, 4).tokens[RED][3] == "3.10"
    assert act(s, 2, 1).tokens[RED][1] == "2.21"
    assert act(s, 2, 4).tokens[RED][1] == "2.0"
    before = score(s, RED)
    e = act(s, 4, 1, "b")
    assert e.tokens[RED][3] == "C5" and e.centre == [RED] and score(e, RED) == before + 5
    assert codes(e) == ["M,2,4,r"]
    assert act(e, 2, 4).tokens[RED][1] == "2.0"
    # variant: without №2 the 4 lapses after the entry (R6); a third player still races
    # with Blue, so the game goes on (R17d)
    tokens = {RED: {4: "3.6"}, BLUE: {1: "1.30"}, 2: {1: "1.10"}}
    alone = build(n=3, tokens=tokens, rest=CAPTURED)
    s2, events = GAME.apply(roll(alone, 1, 4), mv(4, 1, "b"))
    assert [e.type for e in events][-3:] == ["dice_lapsed", "turn_ended", "turn_started"]
    assert fact(events[-3], DiceLapsed).dice == [4] and s2.current == BLUE
    # alternative order: the same token takes both dice (R5)
    s3 = act(act(s, 4, 4), 4, 1, "b")
    assert s3.tokens[RED][3] == "C5"


def test_e8_a_pair_cannot_cross_r15() -> None:
    tokens = {RED: {1: "2.8", 2: "2.8"}, BLUE: {1: "1.30"}}
    s = roll(build(tokens=tokens, rest=CAPTURED), 2, 3)
    assert codes(s) == ["M,1,2,r,p", "M,1,2,r", "M,1,2,b", "M,1,3,r,p", "M,1,3,r", "M,1,3,b"]
    assert act(s, 1, 2, pair=True).tokens[RED][:2] == ["2.10", "2.10"]
    assert act(s, 1, 2).tokens[RED][:2] == ["2.10", "2.8"]
    assert act(s, 1, 2, "b").tokens[RED][0] == "3.5"
    assert act(s, 1, 3, pair=True).tokens[RED][:2] == ["2.11", "2.11"]
    assert act(s, 1, 3).tokens[RED][0] == "2.11"
    assert act(s, 1, 3, "b").tokens[RED][0] == "3.6"
    refused(s, "pair_no_bridge", 1, 2, "b", pair=True)
    refused(s, "pair_no_bridge", 1, 3, "b", pair=True)
    opt = build(tokens=tokens, rest=CAPTURED, options={"pairs_cross_bridges": True})
    o = roll(opt, 2, 3)
    assert act(o, 1, 2, "b", pair=True).tokens[RED][:2] == ["3.5", "3.5"]
    assert act(o, 1, 3, "b", pair=True).tokens[RED][:2] == ["3.6", "3.6"]


def test_e9_entering_onto_an_opponent_r8_r12() -> None:
    s = roll(build(tokens={BLUE: {1: "1.2"}}), 3, 6)
    a = act(s, 1, 3)
    assert a.tokens[RED][0] == "1.2" and a.tokens[BLUE][0] == CAPTURED
    assert (score(a, RED), score(a, BLUE)) == (1, -1)
    b = act(s, 4, 6)
    assert b.tokens[RED][3] == "1.2" and b.tokens[BLUE][0] == CAPTURED


def test_e10_the_game_ends_mid_turn_r17a() -> None:
    s = build(tokens={RED: {1: "3.2"}}, centre=[BLUE, BLUE, RED, BLUE])
    s = roll(s, 1, 6)
    s2, events = GAME.apply(s, mv(1, 1, "b"))
    assert s2.tokens[RED][0] == "C1" and len(s2.centre) == 5
    assert GAME.is_over(s2) and s2.end_reason == EndReason.CENTRE_FULL
    assert [e.type for e in events][-2:] == ["dice_lapsed", "game_over"]
    assert fact(events[-2], DiceLapsed).dice == [6]
    assert GAME.to_act(s2) is None and GAME.legal_actions(s2) == []


def test_e11_tie_break_r19() -> None:
    """R19: Red = field 4 + 3 captures = 7; Blue = fields 5, 2 + 1 capture − 1 lost = 7."""
    green = 2
    s = build(n=3)
    s.tokens = [["S", "S", "S", "C4"], ["C5", "C2", CAPTURED, "S"], ["C3"] + [CAPTURED] * 3]
    s.centre = [BLUE, RED, green, BLUE]  # fields 5, 4, 3, 2 (field 3 held by a third player)
    s.captured, s.lost = [3, 1, 0], [0, 1, 3]
    assert [score(s, x) for x in range(3)] == [7, 7, 0]
    res = GAME.result(s)
    assert [(x.player, x.place, x.score) for x in res.standings] == [
        (102, 1, 7),
        (101, 2, 7),
        (103, 3, 0),
    ]
    assert res.winners == [102]
    # variant: Red 3 and Green 3, neither in the centre -> shared 1st (a 4-player table)
    t = build(n=4)
    t.tokens[BLUE] = [CAPTURED] * 4
    t.tokens[3] = [CAPTURED, CAPTURED, "S", "S"]
    t.captured, t.lost = [3, 0, 3, 0], [0, 4, 0, 2]
    res3 = GAME.result(t)
    assert [(x.player, x.place, x.score) for x in res3.standings] == [
        (101, 1, 3),
        (103, 1, 3),
        (104, 3, -2),
        (102, 4, -4),
    ]
    assert res3.winners == [101, 103]


def test_e12_no_legal_use_the_dice_lapse_r6() -> None:
    tokens = {RED: {1: "1.20"}, BLUE: {1: "1.25", 2: "1.25", 3: "1.22", 4: "1.22"}}
    s = build(tokens=tokens, rest=CAPTURED)
    s2, events = GAME.apply(rig(s, 5, 2), GAME.decode_action("R"))
    assert [e.type for e in events] == ["rolled", "dice_lapsed", "turn_ended", "turn_started"]
    assert fact(events[1], DiceLapsed).dice == [5, 2]
    assert s2.tokens == s.tokens and s2.current == BLUE and s2.phase == Phase.ROLL


def test_e13_split_then_cross_with_the_other_die_r5_r13() -> None:
    s = roll(build(tokens={RED: {1: "1.27", 3: "1.27"}}), 4, 1)
    s = act(s, 1, 4)
    assert s.tokens[RED][0] == "1.31" and s.tokens[RED][2] == "1.27"
    s = act(s, 3, 1, "b")
    assert s.tokens[RED][2] == "2.18"


def test_e14_pair_entering_the_centre_with_one_field_free_r15() -> None:
    s = build(
        tokens={RED: {1: "3.10", 2: "3.10"}},
        centre=[BLUE, BLUE, BLUE, BLUE],
        options={"pairs_cross_bridges": True},
    )
    s = roll(s, 1, 3)
    s2, events = GAME.apply(s, mv(1, 1, "b", pair=True))
    assert s2.tokens[RED][:2] == ["C1", "3.10"]
    assert GAME.is_over(s2) and s2.end_reason == EndReason.CENTRE_FULL
    assert score(s2, RED) == 1
    assert [x.field for x in facts(events, EnteredCentre)] == [1]


def test_every_worked_example_of_the_spec_is_a_test() -> None:
    """Each worked example of the spec (docs/spec/hypnosia.md) has a `test_e<n>…_` here."""
    assert missing_examples("hypnosia", Path(__file__).parent) == []
