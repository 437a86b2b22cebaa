"""Rules of the spec (§2, §4), each test named by its R-number."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from pydantic import ValidationError

from games import IllegalAction
from games.hypnosia import GAME, Action, ActionType, EndReason, Phase
from games.hypnosia.engine import score
from games.hypnosia.events import DiceLapsed, EnteredCentre, GameOver, OutOfTokens
from games.hypnosia.model import (
    BOARD_SEATS,
    CAPTURED,
    COLOURS,
    REMOVED,
    START,
    bridge_target,
    entry,
    is_bridge,
)

from ..facts import fact, facts
from ..spec import missing_rules
from .builder import BLUE, RED, act, build, codes, mv, refused, roll

ROLL = Action(type=ActionType.ROLL)


def test_every_spec_rule_is_named_by_a_test() -> None:
    """Each R-number of the spec (docs/spec/hypnosia.md) appears in a test name or docstring."""
    assert missing_rules("hypnosia", Path(__file__).parent) == []


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("players", [[1], list(range(7)), [1, 1]])
def test_r1_two_to_six_distinct_players(players: list[int]) -> None:
    with pytest.raises(ValueError, match="players"):
        GAME.new(players, seed=0)


def test_r1_four_tokens_each_and_colours_by_board_seat() -> None:
    for n in range(2, 7):
        s = GAME.new(list(range(n)), seed=n)
        assert all(len(row) == 4 for row in s.tokens)
        v = GAME.view(s, None)
        assert [p.colour for p in v.players] == [COLOURS[b] for b in BOARD_SEATS[n]]
    assert COLOURS == ("red", "orange", "yellow", "green", "blue", "purple")


def test_r2_board_seats_and_entries() -> None:
    expected = {
        2: [0, 3],
        3: [0, 2, 4],
        4: [0, 1, 3, 4],
        5: [0, 1, 2, 3, 4],
        6: [0, 1, 2, 3, 4, 5],
    }
    for n, seats in expected.items():
        assert GAME.new(list(range(n)), seed=1).board_seats == seats
    assert [entry(b) for b in range(6)] == [0, 30, 24, 18, 12, 6]
    v = GAME.view(GAME.new([5, 6], seed=0), 5)
    assert [p.entry for p in v.players] == ["1.0", "1.18"] and v.me == 0


def test_r3_every_token_starts_on_its_start_position() -> None:
    s = GAME.new([1, 2, 3], seed=2)
    assert s.tokens == [[START] * 4] * 3
    assert s.phase == Phase.ROLL and s.version == 0 and s.centre == []


def test_r4_the_roll_off_picks_the_first_player_and_play_goes_clockwise() -> None:
    tied = 0
    for seed in range(40):
        s = GAME.new(list(range(10, 14)), seed=seed)
        last = s.roll_off[-1]
        best = max(last.values())
        assert [x for x, v in last.items() if v == best] == [s.first] == [s.current]
        for earlier, later in zip(s.roll_off, s.roll_off[1:], strict=False):
            top = max(earlier.values())
            assert sorted(later) == sorted(x for x, v in earlier.items() if v == top)
            tied += 1
        assert GAME.new(list(range(10, 14)), seed=seed) == s  # deterministic
    assert tied > 0, "some seed needs a re-roll"
    s = GAME.new([1, 2, 3, 4], seed=3)
    seen = [s.current]
    while len(seen) < 5:
        s, _ = GAME.apply(s, ROLL)
        while s.phase == Phase.MOVE:
            s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
        seen.append(s.current)
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(seen))


# ------------------------------------------------------------------ dice


def test_r5_two_dice_one_unit_may_take_both_and_really_stops() -> None:
    s = roll(build(tokens={RED: {1: "1.5"}, BLUE: {1: "1.9"}}), 4, 5)
    assert s.dice == [4, 5] and s.unused == [4, 5]
    s = act(s, 1, 4)  # stops on 1.9 and captures there
    assert s.tokens[BLUE][0] == CAPTURED and s.unused == [5]
    s = act(s, 1, 5)
    assert s.tokens[RED][0] == "1.14" and s.current == BLUE and s.phase == Phase.ROLL


def test_r6_a_usable_die_must_be_used_and_an_unusable_one_lapses() -> None:
    s = act(roll(build(tokens={RED: {1: "1.5"}}), 4, 5), 1, 4)
    assert s.phase == Phase.MOVE and s.current == RED
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, ROLL)
    assert exc.value.code == "wrong_phase"
    # a single №1 on 1.30: the 6 would land on the Blue pair on 1.0, the 2 is fine
    t = build(tokens={RED: {1: "1.30"}, BLUE: {1: "1.0", 2: "1.0"}}, rest=CAPTURED)
    t = roll(t, 6, 2)
    assert codes(t) == ["M,1,2,r"]
    t2, events = GAME.apply(t, mv(1, 2))  # then 1.32 + 6 = 1.2: legal, so no lapse
    assert t2.phase == Phase.MOVE and codes(t2) == ["M,1,6,r"]
    u = build(tokens={RED: {1: "1.30"}, BLUE: {1: "1.0", 2: "1.0", 3: "1.2", 4: "1.2"}})
    u.tokens[RED][1:] = [CAPTURED] * 3
    u = roll(u, 6, 2)
    u2, events = GAME.apply(u, mv(1, 2))
    assert fact(events[-3], DiceLapsed).dice == [6]
    assert u2.current == BLUE


def test_r7_no_extra_roll_for_doubles_and_one_list() -> None:
    s = roll(build(tokens={RED: {1: "1.5"}}), 3, 3)
    assert [a.die for a in GAME.legal_actions(s)] == [3] * len(codes(s))
    s = act(s, 1, 3)
    assert s.unused == [3]
    s = act(s, 1, 3)
    assert s.tokens[RED][0] == "1.11" and s.current == BLUE and s.phase == Phase.ROLL


# ------------------------------------------------------------------ the start


def test_r8_leaving_the_start() -> None:
    s = GAME.new([1, 2], seed=0)
    s.current = BLUE
    s = roll(s, 2, 6)
    refused(s, "die_too_small", 3, 2)
    refused(s, "not_on_bridge", 1, 6, "b")
    refused(s, "not_a_pair", 1, 2, pair=True)  # start tokens move only singly
    assert act(s, 2, 2).tokens[BLUE][1] == "1.18"
    assert act(s, 4, 6).tokens[BLUE][3] == "1.20"
    assert act(s, 1, 6).tokens[BLUE][0] == "1.23"


def test_r8_r12_leaving_the_start_onto_own_tokens() -> None:
    s = roll(build(tokens={RED: {1: "1.1"}}), 3, 6)
    assert act(s, 2, 3).tokens[RED][:2] == ["1.1", "1.1"]  # forms a pair
    t = roll(build(tokens={RED: {1: "1.1", 2: "1.1"}}), 4, 6)
    refused(t, "stack_limit", 3, 4)


# ------------------------------------------------------------------ rings


def test_r9_moving_wraps_around_and_passes_over_anything() -> None:
    tokens = {RED: {1: "1.34", 2: "2.22", 3: "3.10"}, BLUE: {1: "1.35", 2: "1.35"}}
    s = roll(build(tokens=tokens, rest=CAPTURED), 4, 5)
    assert act(s, 1, 4).tokens[RED][0] == "1.2"  # over the Blue pair on 1.35
    assert act(s, 2, 4).tokens[RED][1] == "2.2"
    assert act(s, 3, 4).tokens[RED][2] == "3.2"


def test_r9_ring_geometry() -> None:
    bridges = {
        k: [j for j in range(n) if is_bridge(k, j)] for k, n in {1: 36, 2: 24, 3: 12}.items()
    }
    assert bridges == {1: [3, 9, 15, 21, 27, 33], 2: [0, 8, 16], 3: [2, 6, 10]}
    assert [bridge_target(1, j) for j in bridges[1]] == [(2, x) for x in (2, 6, 10, 14, 18, 22)]
    assert [bridge_target(2, j) for j in bridges[2]] == [(3, 0), (3, 4), (3, 8)]
    assert all(bridge_target(3, j) is None for j in bridges[3])
    for k in (1, 2):
        for j in bridges[k]:
            t = bridge_target(k, j)
            assert t is not None and not is_bridge(*t)


def test_r10_crossing_bridges() -> None:
    tokens = {RED: {1: "2.16", 2: "1.33", 3: "1.4"}}
    s = roll(build(tokens=tokens, rest=CAPTURED), 1, 6)
    assert act(s, 1, 1, "b").tokens[RED][0] == "3.8"  # first step onto the target
    assert act(s, 1, 6, "b").tokens[RED][0] == "3.1"  # 3.8 + 5, wrapping
    assert act(s, 2, 6, "b").tokens[RED][1] == "2.3"  # 2.22 + 5
    refused(s, "not_on_bridge", 3, 1, "b")
    assert "M,3,6,b" not in codes(s)


def test_r10_r12_a_crossing_lands_by_the_landing_rules() -> None:
    tokens = {RED: {1: "1.9"}, BLUE: {1: "2.8"}}
    s = roll(build(tokens=tokens), 3, 5)
    s = act(s, 1, 3, "b")  # 2.6 + 2 = 2.8: captures
    assert s.tokens[RED][0] == "2.8" and s.tokens[BLUE][0] == CAPTURED


def test_r11_centre_entry_takes_the_highest_free_field_and_is_final() -> None:
    s = roll(build(tokens={RED: {1: "3.2", 2: "3.2"}}, centre=[BLUE]), 1, 1)
    refused(s, "pair_no_bridge", 1, 1, "b", pair=True)
    s = act(s, 1, 1, "b")
    assert s.tokens[RED][0] == "C4" and s.centre == [BLUE, RED]
    refused(s, "token_out_of_play", 1, 1)
    s = act(s, 2, 1, "b")
    assert s.tokens[RED][1] == "C3" and score(s, RED) == 7


# ------------------------------------------------------------------ landing


@pytest.mark.parametrize(
    ("there", "pair", "outcome"),
    [
        ({}, False, "moves"),
        ({}, True, "moves"),
        ({RED: [3]}, False, "stacks"),
        ({RED: [3]}, True, "stack_limit"),
        ({RED: [3, 4]}, False, "stack_limit"),
        ({RED: [3, 4]}, True, "stack_limit"),
        ({BLUE: [1]}, False, "captures"),
        ({BLUE: [1]}, True, "captures"),
        ({BLUE: [1, 2]}, False, "single_vs_pair"),
        ({BLUE: [1, 2]}, True, "captures"),
    ],
)
def test_r12_the_landing_table(there: dict[int, list[int]], pair: bool, outcome: str) -> None:
    tokens: dict[int, dict[int, str]] = {RED: {1: "1.10"}, BLUE: {}}
    if pair:
        tokens[RED][2] = "1.10"
    for seat, numbers in there.items():
        for t in numbers:
            tokens[seat][t] = "1.14"
    s = roll(build(tokens=tokens), 4, 5)
    if outcome in ("stack_limit", "single_vs_pair"):
        refused(s, outcome, 1, 4, pair=pair)
        return
    s2 = act(s, 1, 4, pair=pair)
    movers = [0, 1] if pair else [0]
    assert all(s2.tokens[RED][i] == "1.14" for i in movers)
    lost = len(there.get(BLUE, []))
    assert s2.lost[BLUE] == lost and s2.captured[RED] == lost
    if outcome == "stacks":
        assert s2.tokens[RED][0] == s2.tokens[RED][2] == "1.14"


# ------------------------------------------------------------------ pairs, captures


def test_r13_a_pair_moves_as_one_or_splits_by_its_lower_token() -> None:
    s = roll(build(tokens={RED: {2: "1.10", 4: "1.10"}, BLUE: {1: "1.5"}}), 4, 5)
    refused(s, "use_lower_token", 4, 4)
    refused(s, "use_lower_token", 4, 4, pair=True)
    refused(s, "not_a_pair", 1, 4, pair=True)
    whole = act(s, 2, 4, pair=True)
    assert whole.tokens[RED][1] == whole.tokens[RED][3] == "1.14"
    split = act(s, 2, 4)
    assert split.tokens[RED][1] == "1.14" and split.tokens[RED][3] == "1.10"


def test_r14_capture_is_forever_scored_and_never_compulsory() -> None:
    s = roll(build(tokens={RED: {1: "1.5"}, BLUE: {1: "1.9"}}), 4, 1)
    legal = codes(s)
    assert "M,1,4,r" in legal and "M,1,1,r" in legal  # capturing or not
    s = act(s, 1, 4)
    assert s.tokens[BLUE][0] == CAPTURED and (score(s, RED), score(s, BLUE)) == (1, -1)
    s = act(s, 1, 1)
    assert s.tokens[BLUE][0] == CAPTURED  # never comes back


def test_r15_variant_option_default_and_pair_entering_two_fields() -> None:
    assert GAME.new([1, 2], seed=0).options.pairs_cross_bridges is False
    opts = {"pairs_cross_bridges": True}
    s = roll(build(tokens={RED: {1: "3.6", 2: "3.6"}}, options=opts), 1, 2)
    s2, events = GAME.apply(s, mv(1, 1, "b", pair=True))
    assert s2.tokens[RED][:2] == ["C5", "C4"] and score(s2, RED) == 9
    assert [x.field for x in facts(events, EnteredCentre)] == [5, 4]
    with pytest.raises(ValidationError):
        GAME.new([1, 2], seed=0, options={"pairs_cross_bridges": "maybe"})


# ------------------------------------------------------------------ score, end


def test_r16_score_can_be_negative() -> None:
    s = build(tokens={BLUE: {1: "1.9", 2: "1.9"}, RED: {1: "1.5", 2: "1.5"}})
    s = act(roll(s, 4, 1), 1, 4, pair=True)
    assert score(s, BLUE) == -2 and score(s, RED) == 2
    assert [p.score for p in GAME.view(s, None).players] == [2, -2]


def test_r17a_centre_full_ends_the_game_at_once() -> None:
    s = roll(build(tokens={RED: {1: "3.2", 2: "1.0"}}, centre=[BLUE] * 4), 1, 1)
    s, events = GAME.apply(s, mv(1, 1, "b"))
    assert s.end_reason == EndReason.CENTRE_FULL and events[-1].type == "game_over"
    assert fact(events[-1], GameOver).reason == "centre_full"


def test_r17b_no_tokens_in_play_ends_the_game_start_counts() -> None:
    s = GAME.new([1, 2], seed=0)
    assert not GAME.is_over(s)  # tokens on start positions are in play
    t = build(tokens={RED: {1: "3.2"}}, rest=CAPTURED)
    t.tokens[BLUE] = ["C5", CAPTURED, CAPTURED, CAPTURED]
    t.centre = [BLUE]
    t.lost = [3, 3]
    t.captured = [3, 3]
    t2, events = GAME.apply(roll(t, 1, 4), mv(1, 1, "b"))
    assert t2.end_reason == EndReason.NO_TOKENS and GAME.is_over(t2)
    assert [e.type for e in events][-3:] == ["dice_lapsed", "turn_ended", "game_over"]


def test_r17c_round_limit() -> None:
    s = GAME.new([1, 2, 3], seed=4, options={"round_limit": 2})
    while not GAME.is_over(s):
        s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.end_reason == EndReason.ROUND_LIMIT and s.round_no == 2
    with pytest.raises(ValidationError):
        GAME.new([1, 2], seed=0, options={"round_limit": 0})


def test_r17d_one_player_racing_alone_runs_home_at_once() -> None:
    """R17d: Red captures Blue's last token while Green has none in play: Red alone has
    tokens in play, so at the end of his turn they take the highest free fields (lower
    number first) and the game ends; the score is what the run home would have given."""
    s = build(n=3, tokens={RED: {1: "1.5", 2: "2.3", 3: "1.30"}, BLUE: {1: "1.9"}}, rest=CAPTURED)
    s.tokens[2] = ["C5", CAPTURED, CAPTURED, CAPTURED]
    s.centre = [2]
    s, events = GAME.apply(act(roll(s, 4, 6), 1, 4), mv(2, 6))  # 1.5 + 4 = 1.9 captures
    assert GAME.is_over(s) and s.end_reason == EndReason.LAST_RACER
    assert s.tokens[RED][:3] == ["C4", "C3", "C2"] and s.centre == [2, RED, RED, RED]
    assert [fact(e, EnteredCentre).field for e in events if e.type == "entered_centre"] == [4, 3, 2]
    assert events[-1].type == "game_over" and fact(events[-1], GameOver).reason == "last_racer"
    assert score(s, RED) == 4 + 3 + 2 + s.captured[RED] - s.lost[RED]
    # more tokens than free fields: the lower numbers take them, the centre is full
    t = build(n=2, tokens={RED: {1: "1.5", 2: "2.3", 3: "3.1"}}, rest=CAPTURED, centre=[BLUE] * 3)
    t, _ = GAME.apply(roll(t, 6, 6), mv(1, 6))
    t, events = GAME.apply(t, mv(1, 6))
    assert t.end_reason == EndReason.LAST_RACER and t.tokens[RED][:3] == ["C2", "C1", "3.1"]


def test_r18_a_player_out_of_tokens_is_told_once_and_the_game_goes_on() -> None:
    """R18 (Decision): Blue's last token is captured while Red and Green still race: the
    engine says so once, with his final score, and he is skipped from then on; the
    mover's last token entering the centre is told the same way."""
    s = build(n=3, tokens={RED: {1: "1.5"}, BLUE: {1: "1.9"}, 2: {1: "1.20"}}, rest=CAPTURED)
    s, events = GAME.apply(roll(s, 4, 2), mv(1, 4))
    told = [e for e in events if e.type == "out_of_tokens"]
    assert [(e.seat, fact(e, OutOfTokens).score) for e in told] == [(BLUE, score(s, BLUE))]
    assert GAME.finished(s, 102) and not GAME.finished(s, 101) and not GAME.finished(s, 103)
    s, events = GAME.apply(s, mv(1, 2))
    assert (
        not GAME.is_over(s) and s.current == 2 and "out_of_tokens" not in {e.type for e in events}
    )
    for _ in range(30):  # Blue never rolls again, and is never told again
        if GAME.is_over(s):
            break
        assert s.current != BLUE
        s, events = GAME.apply(s, GAME.legal_actions(s)[0])
        assert all(e.seat != BLUE for e in events if e.type == "out_of_tokens")
    t = build(n=3, tokens={RED: {1: "3.2"}, BLUE: {1: "1.9"}, 2: {1: "1.20"}}, rest=CAPTURED)
    t, events = GAME.apply(roll(t, 1, 3), mv(1, 1, "b"))
    assert [e.seat for e in events if e.type == "out_of_tokens"] == [RED]
    assert not GAME.is_over(t)


def test_r18_a_player_without_tokens_in_play_is_skipped() -> None:
    s = build(n=3, tokens={RED: {1: "1.5"}, 2: {1: "1.20"}}, rest=CAPTURED)
    s.tokens[BLUE] = ["C5", CAPTURED, CAPTURED, CAPTURED]
    s.centre = [BLUE]
    s = act(act(roll(s, 1, 2), 1, 1), 1, 2)
    assert s.current == 2 and s.phase == Phase.ROLL


def test_r19_places_tie_break_and_shared_lower_places() -> None:
    s = build(n=4, centre=[2])
    s.captured = [1, 1, 0, 0]  # scores 1, 1, 5, −2: Green 1st, Red and Blue share 2nd
    s.lost = [0, 0, 0, 2]
    res = GAME.result(s)
    assert [(x.player, x.place) for x in res.standings] == [(103, 1), (101, 2), (102, 2), (104, 4)]
    t = build(n=3, centre=[1, 0])  # tied on score 4: Blue holds 5 -> ahead
    t.captured = [0, 0, 0]
    t.lost = [0, 1, 0]
    assert [x.player for x in GAME.result(t).standings] == [102, 101, 103]


# ------------------------------------------------------------------ leaving


def test_r20_leaving_during_his_turn() -> None:
    s = build(n=3, tokens={RED: {1: "1.5", 2: "C5"}, BLUE: {1: "1.9"}}, centre=[RED])
    s.tokens[RED][3] = START
    s = act(roll(s, 1, 2), 1, 1)
    s2, events = GAME.remove(s, 101)
    assert s2.version == s.version + 1
    assert s2.tokens[RED] == [REMOVED, "C5", REMOVED, REMOVED]
    assert s2.centre == [RED] and s2.lost == [0, 0, 0] and s2.captured == [0, 0, 0]
    assert [e.type for e in events] == ["player_left", "turn_ended", "turn_started"]
    assert s2.current == BLUE and s2.phase == Phase.ROLL and s2.unused == []
    res = GAME.result(s2)
    assert res.standings[-1].player == 101 and res.standings[-1].score == 5
    assert GAME.remove(s2, 101) == (s2, [])
    with pytest.raises(IllegalAction) as exc:
        GAME.remove(s2, 999)
    assert exc.value.code == "not_a_player"


def test_r20_leaving_out_of_turn_and_the_last_player_wins() -> None:
    s = GAME.new([1, 2, 3], seed=5)
    other = (s.current + 1) % 3
    s2, events = GAME.remove(s, s.players[other])
    assert s2.current == s.current and [e.type for e in events] == ["player_left"]
    last = next(x for x in range(3) if x not in (other, s.current))
    s3, events = GAME.remove(s2, s.players[last])
    assert GAME.is_over(s3) and s3.end_reason == EndReason.PLAYERS_LEFT
    res = GAME.result(s3)
    assert res.winners == [s.players[s.current]]
    assert [x.player for x in res.standings][1:] == [s.players[last], s.players[other]]


def test_r20_leaving_can_leave_no_tokens_in_play() -> None:
    s = build(n=3, tokens={RED: {1: "1.5"}, BLUE: {1: "1.9"}}, rest=CAPTURED)
    s.tokens[2] = ["C5", CAPTURED, CAPTURED, CAPTURED]
    s.centre = [2]
    s2, _ = GAME.remove(s, 101)
    assert s2.end_reason == EndReason.LAST_RACER  # R17d: Blue races alone with Green in
    assert s2.tokens[BLUE][0] == "C4" and GAME.result(s2).winners == [103]
    s3, events = GAME.remove(s, 102)  # Red races alone: the same
    assert s3.end_reason == EndReason.LAST_RACER and s3.tokens[RED][0] == "C4"
    t = build(n=3, tokens={RED: {1: "1.5"}}, rest=CAPTURED)  # nobody else in play
    t.tokens[2] = ["C5", CAPTURED, CAPTURED, CAPTURED]
    t.centre = [2]
    t2, events = GAME.remove(t, 101)
    assert t2.end_reason == EndReason.NO_TOKENS and events[-1].type == "game_over"
    u1, _ = GAME.remove(s, 103)  # two still race: the game goes on...
    assert not GAME.is_over(u1)
    u2, events = GAME.remove(u1, 101)  # ...until one player is left in it
    assert u2.end_reason == EndReason.PLAYERS_LEFT and GAME.result(u2).winners == [102]
