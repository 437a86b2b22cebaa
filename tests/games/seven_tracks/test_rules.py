"""Rules of the spec not already named by a worked example, each by its R-number."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from games import IllegalAction
from games.seven_tracks import GAME, Action, ActionType, Phase, State, Status, engine
from games.seven_tracks.events import DrewTile, RoundEnded
from games.seven_tracks.model import (
    COLOURS,
    DEFAULT_TILE_SET,
    TileKind,
    expected_colour,
    kind_of,
)

from ..spec import missing_rules
from .builder import act, build, kinds, refused, roll, track
from .invariants import check, locations

T = ActionType


def test_r1_seven_colours_in_spectrum_order() -> None:
    assert COLOURS == ("R", "O", "Y", "G", "C", "B", "V")


def test_r2_default_tile_set_has_111_tiles() -> None:
    s = GAME.new([1, 2], seed=0)
    counts = Counter(kind_of(t) for t in locations(s))
    assert sum(counts.values()) == 111
    assert all(counts[c] == 12 for c in COLOURS)
    assert counts[TileKind.WHITE] == counts[TileKind.BLACK] == 7
    assert counts[TileKind.FIRST_MOVE] == 1 and counts[TileKind.UNIVERSAL] == 2
    assert dict(counts) == {k: v for k, v in DEFAULT_TILE_SET.items() if v}


def test_r3_tile_values_option_changes_the_score() -> None:
    values = {**GAME.new([1, 2], seed=0).options.tile_values, TileKind.VIOLET: 100}
    s = build(n=2, hands={0: ["R"], 1: ["V"]}, options={"tile_values": values})
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.scores == [0, 100]


def test_r4_ids_are_unique_and_the_lowest_id_is_taken() -> None:
    s = GAME.new([1, 2, 3], seed=5)
    ids = locations(s)
    assert len(ids) == len(set(ids))
    s = build(hands={0: ["R", "R"]})
    low = min(s.hands[0], key=engine._tile_no)
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.tracks[0].slots == [low]


@pytest.mark.parametrize(
    ("players", "options", "word"),
    [
        ([1], None, "players"),
        (list(range(7)), None, "players"),
        ([1, 1], None, "players"),
        ([1, 2], {"hand_size": 0}, "hand_size"),
        ([1, 2], {"hand_size": 60}, "hand_size"),
        ([1, 2], {"target_score": 0}, "target_score"),
        ([1, 2], {"max_draws": -1}, "max_draws"),
        ([1, 2], {"tile_set": {"R": -1}}, "tile_set"),
        ([1, 2], {"tile_values": {"ZZ": 3}}, "tile_values"),
        ([1, 2], {"skip_after_move": "maybe"}, "skip_after_move"),
        ([1, 2], {"no_such_option": 1}, "no_such_option"),
    ],
)
def test_r5_options_are_validated(
    players: list[int], options: dict[str, object] | None, word: str
) -> None:
    with pytest.raises((ValueError, ValidationError)) as exc:
        GAME.new(players, seed=0, options=options)
    assert word in str(exc.value)


def test_r6_expected_colour_table() -> None:
    table = {
        1: "ROYGCBV",
        2: "OYGCBVR",
        3: "YGCBVRO",
        4: "GCBVROY",
        5: "CBVROYG",
        6: "BVROYGC",
    }
    for k, seq in table.items():
        assert "".join(expected_colour(k, i) for i in range(1, 8)) == seq


def test_r7_a_block_does_not_take_a_slot() -> None:
    s = act(
        roll(build(hands={0: ["R", "K", "G"]}, tracks={6: ["B", "V"]}), 6),
        T.PLACE,
        kind="R",
        track=6,
    )
    s = act(s, T.BLOCK, kind="K", track=6)
    assert len(s.tracks[5].slots) == 3 and s.tracks[5].block is not None
    assert s.tracks[5].block.by == 0 and s.tracks[5].block.turn == s.turn_no


def test_r8_centre_track_one_of_each_colour_and_store_grows_without_limit() -> None:
    s = build(hands={0: ["V", "K"]}, tracks={1: ["R", "W", "Y", "U", "C", "B"]}, store=["W"] * 5)
    s = act(roll(s, 1), T.PLACE, kind="V", track=1)
    assert kinds(s.store) == ["U"] + ["W"] * 6
    s2 = roll(build(hands={0: ["R", "R"]}, t7=["R"]), 2, 2)
    refused(s2, T.PLACE_T7, "t7_colour_taken", kind="R")


def test_r9_every_tile_in_exactly_one_location() -> None:
    for n in range(2, 7):
        check(GAME.new(list(range(n)), seed=n))


def test_r10_r11_r12_r13_a_new_game() -> None:
    s = GAME.new([7, 8, 9, 10], seed=3)
    assert s.players == [7, 8, 9, 10]
    assert s.status == [Status.ACTIVE] * 4 and s.scores == [0] * 4
    assert [len(h) for h in s.hands] == [12] * 4 and len(s.bank) == 111 - 48
    assert s.phase == Phase.FIRST_MOVE and s.current == 0


def test_r14_later_round_returns_the_board_and_keeps_hands() -> None:
    s = build(n=3, hands={0: ["R"], 1: ["O", "K"], 2: ["G"]}, store=["W"])
    kept = {1: sorted(s.hands[1]), 2: sorted(s.hands[2])}
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.round_no == 2 and not s.store and not s.out
    assert all(not tr.slots for tr in s.tracks)
    assert sorted(s.hands[1]) == kept[1] and sorted(s.hands[2]) == kept[2]


def test_r14_bonus_store_persists_option() -> None:
    s = build(
        n=3,
        hands={0: ["R"], 1: ["O"], 2: ["G"]},
        store=["W"],
        options={"bonus_store_persists": True},
    )
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.round_no == 2 and kinds(s.store) == ["W"]


def test_r15_round_start_resets_counters() -> None:
    s = build(n=3, hands={0: ["R"], 1: ["O"], 2: ["G"]})
    s.restricted_left = 2
    s = act(roll(s, 1), T.PLACE, kind="R", track=1)
    assert s.phase == Phase.FIRST_MOVE
    assert s.restricted_left == s.final_left == s.idle_turns == 0 and s.out_order == []


def test_r17_next_player_is_clockwise_skipping_out_players() -> None:
    s = build(n=4, hands={0: ["R", "O"]}, phase=Phase.POST_MOVE)
    s.bank += s.hands[1]
    s.hands[1] = []
    s.status[1] = Status.OUT
    assert act(s, T.END_TURN).current == 2


def test_r18_r19_turn_phases_and_turn_record_reset() -> None:
    s = build(hands={0: ["R", "O", "Y"], 1: ["R", "O"]}, tracks={1: []})
    assert {a.type for a in GAME.legal_actions(s)} >= {T.CHOOSE_DICE}
    s = roll(s, 1)
    s = act(s, T.PLACE, kind="R", track=1)
    s = act(s, T.END_PLACING)
    assert s.phase == Phase.POST_MOVE
    assert GAME.legal_actions(s) == [Action(type=T.END_TURN)]
    s = act(s, T.END_TURN)
    assert s.phase == Phase.PRE_MOVE and s.current == 1
    assert s.turn.placements == {} and s.turn.dice == [] and not s.turn.priority_used


def test_r20_r26_draw_is_not_a_board_action_so_a_shift_may_follow_d6() -> None:
    s = roll(build(hands={0: ["SK", "K"]}, tracks={2: ["O"]}), 2)
    s = act(s, T.DRAW)
    assert not s.turn.board_action_done
    assert Action(type=T.SHIFT, kind="SK", role="SK", die=0) in GAME.legal_actions(s)


def test_r23_dice_choice_is_public_and_rolls_n_dice() -> None:
    s = build(hands={0: ["R", "O"]})
    for n in (1, 2):
        s2, events = GAME.apply(s, Action(type=T.CHOOSE_DICE, n=n))
        assert len(s2.turn.dice) == n and s2.phase == Phase.PLACING
        assert all(1 <= d <= 6 for d in s2.turn.dice)
        assert [e.type for e in events][:2] == ["dice_chosen", "rolled"]
        assert all(e.private_to is None for e in events)
    refused(s, T.CHOOSE_DICE, "malformed", n=3)


def test_r24_one_die_never_gives_track_7() -> None:
    s = roll(build(hands={0: ["R"]}), 6)
    assert 7 not in s.turn.modes
    refused(s, T.PLACE_T7, "not_double", kind="R")


def test_r36_universal_block_goes_out_when_removed_d14() -> None:
    s = build(hands={0: ["W", "O"]}, tracks={6: ["B", "V", "R"]}, blocks={6: ("U", 1, 3)})
    s = act(roll(s, 6), T.UNBLOCK, kind="W", track=6)
    assert kinds(s.out) == ["U", "W"] and "U" not in kinds(s.hands[0])


def test_r38_t7_completion_counts_and_allows_more() -> None:
    s = build(hands={0: ["V", "R", "K"]}, t7=["R", "O", "Y", "G", "C", "B"])
    s = act(roll(s, 4, 4), T.PLACE_T7, kind="V")
    assert s.turn.t7_completions == 1 and s.t7 == []
    s = act(s, T.PLACE_T7, kind="R")
    assert kinds(s.t7) == ["R"]


def test_r39_black_discard_on_any_double_option() -> None:
    s = roll(build(hands={0: ["K", "R"]}, options={"black_discard_on_any_double": True}), 3, 3)
    s = act(s, T.DISCARD_BLACK, kind="K")
    assert "K" in kinds(s.out)


def test_r42_double_t7_counts_option() -> None:
    s = roll(
        build(hands={0: ["R", "K"]}, tracks={3: ["Y"]}, options={"double_t7_counts": True}), 3, 3
    )
    s = act(s, T.PLACE_T7, kind="R")
    assert Action(type=T.END_PLACING) in GAME.legal_actions(s)


def test_r43_unblock_makes_a_white_usable_and_forbids_drawing_d19() -> None:
    s = build(hands={0: ["W", "K"]}, tracks={6: ["B", "V"]}, blocks={6: ("K", 1, 3)})
    s = roll(s, 6)
    refused(s, T.DRAW, "must_place")
    assert Action(type=T.UNBLOCK, kind="W", track=6) in GAME.legal_actions(s)


def test_r43_restricted_turn_targets_include_track_7_on_a_double() -> None:
    s = build(n=3, seat=1, hands={1: ["R", "K"]}, tracks={2: ["O"]})
    s.restricted_left = 2
    s.turn.restricted = s.turn.began_restricted = True
    s = roll(s, 2, 2)
    assert Action(type=T.PLACE_T7, kind="R") in GAME.legal_actions(s)
    s = act(s, T.PLACE_T7, kind="R")
    assert Action(type=T.END_PLACING) in GAME.legal_actions(s)


def test_r33_black_anywhere_after_move_option_d10() -> None:
    opts: dict[str, object] = {"black_anywhere_after_move": True}
    s = roll(build(hands={0: ["R", "K", "G"]}, tracks={1: [], 2: ["O"]}, options=opts), 1, 2)
    s = act(s, T.PLACE, kind="R", track=1)
    s = act(s, T.BLOCK, kind="K", track=2)
    assert Action(type=T.END_PLACING) in GAME.legal_actions(s)


def test_r35_allow_same_turn_unblock_option_d12() -> None:
    opts: dict[str, object] = {"allow_same_turn_unblock": True}
    s = build(
        hands={0: ["W", "O"]}, tracks={6: ["B", "V", "R"]}, blocks={6: ("K", 0, 10)}, options=opts
    )
    assert Action(type=T.UNBLOCK, kind="W", track=6) in GAME.legal_actions(roll(s, 6))


def test_r47_swaps_and_replacements_are_not_draws() -> None:
    s = build(hands={0: ["R"] * 5 + ["EX"]})
    s = act(s, T.FIFTH_SWAP, kind="R")
    s = act(s, T.EXCHANGE_BEGIN, kind="EX", role="EX")
    s = act(s, T.EXCHANGE_ADD, kind="R")
    s = act(s, T.EXCHANGE_CONFIRM)
    assert s.turn.draws == 0 and s.turn.drawn == []


def test_r51_used_priority_tiles_go_out_universal_white_stays() -> None:
    s = roll(build(hands={0: ["SK", "U", "R"]}, tracks={3: ["Y"]}), 2)
    s = act(s, T.SHIFT, kind="SK", role="SK", die=0)
    s = act(s, T.PLACE, kind="U", track=3)
    assert "SK" in kinds(s.out) and track(s, 3) == ["Y", "U"]


def test_r60_exchange_priority_option() -> None:
    s = build(hands={0: ["EX", "SK", "R"]}, options={"exchange_allows_priority": False})
    s = act(s, T.EXCHANGE_BEGIN, kind="EX", role="EX")
    refused(s, T.EXCHANGE_ADD, "exchange_priority", kind="SK")


def test_r60_d39_an_fm_in_the_bank_does_not_count_towards_an_exchange() -> None:
    """R60 (D39, revised 2026-12): one for one. The bank holds an FM and one other tile, so
    one tile may be exchanged, not two: the drawn FM would go out (R59), and the hand
    would get back fewer tiles than it gave."""
    s = build(hands={0: ["EX", "K", "K", "V"]}, bank_top=["FM", "R"], bank_size=2)
    s = act(s, T.EXCHANGE_BEGIN, kind="EX", role="EX")
    s = act(s, T.EXCHANGE_ADD, kind="K")
    refused(s, T.EXCHANGE_ADD, "exchange_limit", kind="K")
    s = act(s, T.EXCHANGE_CONFIRM)
    # K out for R (the FM went out on the way), the EX spent and replaced by the K
    assert kinds(s.hands[0]) == kinds(["K", "V", "R", "K"])
    assert "FM" in kinds(s.out) and "EX" in kinds(s.out) and s.bank == []


def test_r60_d39_a_bank_of_only_an_fm_allows_an_empty_exchange() -> None:
    s = build(hands={0: ["EX", "K", "V"]}, bank_top=["FM"], bank_size=1)
    s = act(s, T.EXCHANGE_BEGIN, kind="EX", role="EX")
    refused(s, T.EXCHANGE_ADD, "exchange_limit", kind="K")
    s = act(s, T.EXCHANGE_CONFIRM)
    assert kinds(s.hands[0]) == ["K", "V"] and "FM" in kinds(s.out)


def test_r61_d39_the_fifth_swap_needs_a_tile_that_is_not_an_fm() -> None:
    """R61 (D39, revised 2026-12): with only an FM in the bank a swap would shrink the
    hand; with an FM on top and another tile below it, the swap is one for one."""
    s = build(hands={0: ["R"] * 5 + ["W"]}, bank_top=["FM"], bank_size=1)
    refused(s, T.FIFTH_SWAP, "exchange_limit", kind="R")
    s = build(hands={0: ["R"] * 5 + ["W"]}, bank_top=["FM", "O"], bank_size=2)
    s = act(s, T.FIFTH_SWAP, kind="R")
    assert len(s.hands[0]) == 6 and kinds(s.hands[0]).count("R") == 4 and "O" in kinds(s.hands[0])
    assert "FM" in kinds(s.out) and kinds(s.bank) == ["R"]
    s = build(hands={0: ["R"] * 5}, bank_size=0)
    refused(s, T.FIFTH_SWAP, "bank_empty", kind="R")


def test_r63_universal_first_move_as_the_last_tile_ends_the_round() -> None:
    s = build(n=3, hands={0: ["U"], 1: ["R"], 2: ["O"]}, phase=Phase.FIRST_MOVE)
    s = act(s, T.FM_PASS, seat=2)
    s = act(s, T.FM_PASS, seat=1)
    s = act(s, T.FM_DECLARE, kind="U", seat=0)
    assert s.last_round is not None and s.last_round.first_out == 0 and s.round_no == 2


def test_r73_view_hides_other_hands_and_private_events() -> None:
    s = GAME.new([1, 2, 3], seed=9)
    table = GAME.view(s, None)
    assert table.hand is None and [p.hand_count for p in table.players] == [12, 12, 12]
    mine = GAME.view(s, 2)
    assert mine.hand is not None and sorted(mine.hand) == sorted(s.hands[1])
    assert "bank" not in table.model_dump() and "seed" not in table.model_dump()
    s = roll(build(hands={0: ["K"]}, tracks={1: ["R"]}), 1)
    _, events = GAME.apply(s, Action(type=T.DRAW))
    public = [e for e in events if e.private_to is None]
    assert public and all("#" not in e.model_dump_json() for e in public)  # no tile's id
    assert [type(e.data) for e in events if e.private_to is not None] == [DrewTile]


def test_r74_leaving_player_in_turn_hand_out_next_clockwise() -> None:
    s = build(n=3, hands={0: ["R", "O"], 1: ["G"], 2: ["Y"]})
    s2, events = GAME.remove(s, 101)
    assert s2.status[0] == Status.ELIMINATED and s2.hands[0] == []
    assert s2.current == 1 and s2.phase == Phase.PRE_MOVE
    assert {"R", "O"} <= set(kinds(s2.out))
    assert "player_left" in [e.type for e in events]
    check(s2)


def test_r74_last_but_one_leaving_ends_the_game_and_leavers_rank_last() -> None:
    s = GAME.new([1, 2, 3], seed=4)
    s, _ = GAME.remove(s, 2)
    assert not GAME.is_over(s)
    s, _ = GAME.remove(s, 1)
    assert GAME.is_over(s) and s.winners == [3]
    assert [x.player for x in GAME.result(s).standings] == [3, 1, 2]


def test_r74_leaving_drops_a_pending_final_turn() -> None:
    s = build(n=4, hands={0: ["RS"], 1: ["R"], 2: ["R"], 3: ["R"]})
    s = act(s, T.INSTEAD_OF_MOVE, kind="RS", role="RS")
    assert s.final_left == 3 and s.current == 1
    s, _ = GAME.remove(s, 103)
    assert s.final_left == 2 and s.restricted_left <= 2


def test_r74_leaving_in_the_first_move_window() -> None:
    s = GAME.new([1, 2, 3], seed=2)
    assert s.phase == Phase.FIRST_MOVE and s.current == 0
    s, _ = GAME.remove(s, 1)
    assert s.current == 1 and s.phase == Phase.FIRST_MOVE


def test_r22_stale_and_wrong_player_input_is_refused() -> None:
    s = build(hands={0: ["R"]})
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, Action(type=T.END_TURN))
    assert exc.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as exc:
        GAME.decode_action("ZZ,??")
    assert exc.value.code == "malformed"
    with pytest.raises(IllegalAction):
        GAME.remove(s, 999)
    assert isinstance(State.model_validate_json(s.model_dump_json()), State)


def test_every_spec_rule_is_named_by_a_test() -> None:
    """Each R-number of the spec (docs/spec/seven_tracks.md) appears in a test name or docstring."""
    assert missing_rules("seven_tracks", Path(__file__).parent) == []


def test_r65_going_out_with_sk_when_nobody_else_is_active_ends_the_round() -> None:
    s = build(n=3, hands={0: ["SK"], 1: ["R"], 2: ["O"]})
    for seat in (1, 2):
        s.bank += s.hands[seat]
        s.hands[seat] = []
        s.status[seat] = Status.OUT
    s = act(s, T.INSTEAD_OF_MOVE, kind="SK", role="SK")
    assert s.last_round is not None and s.last_round.first_out == 0
    assert s.cycle_no == 2 and s.phase == Phase.FIRST_MOVE


def _ended(s: State, *actions: Action) -> tuple[State, list[RoundEnded]]:
    ended: list[RoundEnded] = []
    for a in actions:
        s, events = GAME.apply(s, a)
        ended += [e.data for e in events if isinstance(e.data, RoundEnded)]
    return s, ended


def test_r66_priority_tiles_in_hand_keep_a_blocked_round_open_until_the_backstop() -> None:
    """Issue 31: a two-player round ended «в тупике» while both held priority tiles. The
    rule holds: a priority tile that can be played instead of a move is no dead position
    (R66.1), and every such turn offers it (WAIVE, then AFTER_MOVE), so the bot never ends
    the turn by itself; a round ends only after three circles in which nobody placed or
    played a tile (R66.2), and its end says it was the backstop, not a dead position."""
    s = build(n=2, hands={0: ["SK", "K"], 1: ["EX", "K"]}, bank_size=0)
    assert not engine.dead_position(s)
    ended: list[RoundEnded] = []
    for turn in range(6):  # 3 × 2 idle turns
        assert not ended, turn
        s = roll(s, 2, 3)
        kind = "SK" if s.current == 0 else "EX"
        assert Action(type=T.WAIVE, kind=kind, role=kind) in GAME.legal_actions(s)
        assert not engine.turn_is_dead(s)  # the player decides: he may play it instead
        s, ended = _ended(s, Action(type=T.END_PLACING), Action(type=T.END_TURN))
    assert [e.summary.stalled for e in ended] == [True] and not ended[0].dead
    assert s.last_round is not None and s.last_round.hands[0] and s.last_round.hands[1]


def test_r66_a_dead_position_says_so_when_it_ends_the_round() -> None:
    s = build(n=2, hands={i: ["K", "K"] for i in range(2)}, bank_size=0)
    s = roll(s, 2, 3)
    assert engine.turn_is_dead(s)
    _, ended = _ended(s, Action(type=T.END_PLACING), Action(type=T.END_TURN))
    assert [(e.summary.stalled, e.dead) for e in ended] == [(True, True)]
