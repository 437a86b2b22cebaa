"""Rules of the spec, each named by its R-number, and the protocol's promises."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

import games.dominas.engine as engine_module
import games.dominas.figure as figure_module
from games import IllegalAction
from games.dominas import CODES, GAME, Action, ActionType, BonusKind, Phase, Pos, State
from games.dominas.engine import game_scores, run_of
from games.dominas.events import Drew, MatchOver, PlayerLeft, Skipped, TurnEnded
from games.dominas.model import GameRecord
from games.dominas.tiles import (
    ALL_TILES,
    NAMED,
    REGULAR,
    SAMOHODS,
    SYMBOLS,
    from_ascii,
    label,
    sort_key,
    to_ascii,
)

from ..facts import fact, facts
from ..spec import missing_rules
from .builder import (
    FLOOR1,
    PLAYERS,
    STOP,
    TIMEOUT,
    TO_CENTRE_3,
    TO_ENTRY_5,
    TOP,
    C,
    L,
    P,
    R,
    act,
    build,
    needs,
    of_type,
    play,
    refused,
    run_position,
    tile_moves,
)
from .invariants import check, check_views, locations

# ------------------------------------------------------------------ components


def test_r1_tiles_are_the_84_triples_with_fixed_clockwise_order() -> None:
    assert len(set(SYMBOLS.values())) == 84
    assert all(list(v) == sorted(v) for v in SYMBOLS.values())
    s = GAME.new([1, 2], seed=0)
    assert Counter(locations(s)) == Counter(ALL_TILES) and len(ALL_TILES) == 88


def test_r2_colours_numbers_named_tiles() -> None:
    for c in "ОМЗВ":
        tiles = [f"{c}{i}" for i in range(1, 22)]
        key = [(sum(SYMBOLS[t]), SYMBOLS[t]) for t in tiles]
        assert key == sorted(key), "numbers follow (pip sum, then lexicographic)"
        assert len([t for t in tiles if t in NAMED]) == 2
    assert {SYMBOLS[t] for t in NAMED} == {
        (0, 0, 0),
        (1, 1, 1),
        (2, 2, 2),
        (3, 3, 3),
        (3, 3, 4),
        (4, 4, 4),
        (5, 5, 5),
        (6, 6, 6),
    }


def test_r3_samohods_start_in_the_bazaar_and_are_never_first() -> None:
    for seed in range(5):
        s = GAME.new(PLAYERS[:8], seed=seed)
        assert set(SAMOHODS) <= set(s.bazaar)
        assert not set(SAMOHODS) & {t for h in s.hands for t in h}
    s = build(hands={0: ["О⚙", "В14"], 1: ["М2"]}, bazaar=["З8"])
    assert GAME.legal_actions(s) == [P("В14", C)]
    refused(s, P("О⚙", C), "samohod_first")


def test_r3_a_samohod_passes_the_symbol_on_in_a_kolobok_series() -> None:
    # in a bonus series a самоход is a legal tile too (R21), carrying the needed symbol
    s = build(
        moves=[*TO_CENTRE_3, ("О1", C, 0)],
        hands={0: ["З1", "З⚙", "О⚙", "М5"], 1: ["М10"]},
        bazaar=["З8", "З13"],
    )
    s = play(s, P("З1", TOP))
    refused(s, P("З⚙", R), "wrong_colour")  # the parent of ◢ is О1
    assert P("О⚙", R) in GAME.legal_actions(s)
    s = play(s, P("О⚙", R))
    assert s.figure[-1].edges == [0, 0, 0] and needs(s) == [("L", 0)]


def test_r4_only_the_parent_contact_is_matched() -> None:
    s = build(moves=FLOOR1, hands={0: ["О1", "М12"], 1: ["М10"]}, bazaar=["З8"])
    assert needs(s) == [("R", 3)]
    assert tile_moves(s, "О1") == [P("О1", R)]  # 0-0-3 by its side 2
    refused(s, P("М12", R), "no_match")
    refused(s, P("О1", TOP), "no_nest")
    refused(s, P("В14", R), "no_tile")


def test_r5_a_threefold_tile_has_one_placement_and_variant_1_needs_a_far_nest() -> None:
    s = build(
        moves=[("М11", C, 0), ("В1", TOP, 0), ("В20", L, 0)],
        hands={0: ["О11", "В15"], 1: ["М10"]},
        bazaar=["З8"],
    )
    assert tile_moves(s, "О11") == [P("О11", R)]
    refused(s, P("О11", R, 1), "one_side")
    assert tile_moves(s, "В15") == [P("В15", R, 0), P("В15", R, 1)]
    s = build(moves=[("М11", C, 0)], hands={0: ["В15"], 1: ["М10"]}, bazaar=["З8"])
    assert tile_moves(s, "В15") == [P("В15", R)]  # ◢ is not the last corner yet


# ------------------------------------------------------------------ players, deal


@pytest.mark.parametrize(
    ("players", "options", "word"),
    [
        ([1], None, "players"),
        (list(range(9)), None, "players"),
        ([1, 1], None, "players"),
        ([1, 2], {"mode": "teams"}, "mode"),
        ([1, 2, 3], {"mode": "teams"}, "mode"),
        ([1, 2, 3, 4, 5], {"mode": "teams"}, "mode"),
        ([1, 2], {"mode": "pairs"}, "mode"),
        ([1, 2], {"match_games": 3}, "match_games"),
        ([1, 2], {"tempo": "bullet"}, "tempo"),
        ([1, 2], {"fill_direction": "up"}, "fill_direction"),
        ([1, 2], {"no_such_option": 1}, "no_such_option"),
    ],
)
def test_r6_players_and_options_are_validated(
    players: list[int], options: dict[str, object] | None, word: str
) -> None:
    with pytest.raises((ValueError, ValidationError)) as exc:
        GAME.new(players, seed=0, options=options)
    assert word in str(exc.value)


def test_r6_teams_sit_alternately() -> None:
    for n in (4, 6, 8):
        s = GAME.new(PLAYERS[:n], seed=0, options={"mode": "teams"})
        assert s.side_of == [0, 1] * (n // 2)
    assert GAME.new(PLAYERS[:3], seed=0).side_of == [0, 1, 2]


@pytest.mark.parametrize("n", range(2, 9))
def test_r7_deal_ten_each_the_rest_and_the_samohods_to_the_bazaar(n: int) -> None:
    s = GAME.new(PLAYERS[:n], seed=n)
    assert [len(h) for h in s.hands] == [10] * n
    assert len(s.bazaar) == 84 - 10 * n + 4
    assert s.initial_hands == s.hands and s.initial_bazaar == s.bazaar
    assert all(h == sorted(h, key=sort_key) for h in s.hands)


def test_r8_the_first_player_is_random_then_clockwise() -> None:
    firsts = {GAME.new(PLAYERS[:4], seed=seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    s = GAME.new(PLAYERS[:4], seed=7)
    assert GAME.to_act(s) == PLAYERS[s.first]
    s = play(s, GAME.legal_actions(s)[0])
    assert s.current == (s.first + 1) % 4 or of_type([], "passed") == []


# ------------------------------------------------------------------ the turn


def test_r9_any_regular_tile_may_open_the_figure() -> None:
    s = GAME.new(PLAYERS[:3], seed=11)
    hand = s.hands[s.current]
    assert GAME.legal_actions(s) == [P(t, C) for t in hand]


def test_r10_r12_a_placement_is_compulsory_no_voluntary_draw_or_pass() -> None:
    s = GAME.new(PLAYERS[:2], seed=2)
    acts = GAME.legal_actions(s)
    assert {a.type for a in acts} == {ActionType.PLACE}
    refused(s, STOP, "wrong_phase")
    refused(s, TIMEOUT, "malformed")  # R12: passing is not a choice, with or without a timer
    seat = s.current
    s2 = play(s, acts[0])
    assert s2.current != seat and len(s2.hands[seat]) == 9 and s2.phase is Phase.PLAY


def test_r11_an_empty_bazaar_means_a_pass() -> None:
    s = build(moves=TO_ENTRY_5, hands={0: ["З21", "В12"], 1: ["З3"], 2: ["М10"]}, n=3)
    s, ev = act(s, P("З21", L))  # the centre needs 6: seat 1 cannot place, nothing to draw
    assert [e.seat for e in of_type(ev, "passed")] == [1]
    assert s.current == 2 and not of_type(ev, "drew")


def test_r13_r16_tiles_of_all_players_count_and_a_skip_is_a_lost_turn() -> None:
    s, ev = act(run_position(["В3", "О5", "М9"], "З12", n=3), P("З12", C))
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skip.seat == 2 and skipped.by == 1  # the next player, not the placer
    assert s.current == 0 and not of_type(ev, "drew") and s.hands[2] == ["З13"]
    assert s.last_run is not None and s.last_run.skipper == 2


@pytest.mark.parametrize(
    ("tiles", "kinds", "extra"),
    [
        (["В3", "О7", "М12", "З20"], ["monotone"], None),  # gaps allowed
        (["В20", "О12", "М7", "З3"], ["monotone"], None),  # decreasing
        (["В3", "О3", "М5", "З12"], [], None),  # not strictly monotone
        (["О1", "О2", "О9", "О21"], ["colour", "monotone"], None),
        (["О⚙", "М2", "М4", "М6"], [], None),  # a самоход has no number
        (["М1", "М⚙", "М5", "М9"], ["colour"], None),
        (["В3", "О5", "М9", "З1"], ["parity"], None),  # Колобок gives no extra tile
        (["В3", "О5", "М9", "М21"], ["parity", "monotone"], "named"),
        (["В2", "О4", "М9", "В6"], [], None),
    ],
)
def test_r14_runs(tiles: list[str], kinds: list[str], extra: str | None) -> None:
    got, has_extra, reason = run_of(tiles)
    assert (got, reason, has_extra) == (kinds, extra, extra is not None)
    assert run_of(tiles[1:]) == ([], False, None)


def test_r15_a_growing_run_triggers_again() -> None:
    s = run_position(["О2", "О8", "О4"], "О12", placer_extra=["О13", "М8"])
    s, ev = act(s, P("О12", C))
    assert of_type(ev, "skipped")[0].seat == 0 and s.current == 1
    assert P("О13", TOP) in GAME.legal_actions(s) or P("О13", R) in GAME.legal_actions(s)
    a = next(a for a in GAME.legal_actions(s) if a.tile == "О13")
    s, ev = act(s, a)  # five О in a row: the run of the last four goes on
    assert facts(ev, Skipped)[0].run == ["colour"]


def test_r17_at_most_one_extra_tile_even_if_several_conditions_hold() -> None:
    # М1 М3 М5 М21: one colour + odd (b) and the 4th is Жар-птица (c)
    _s, ev = act(run_position(["М1", "М3", "М5"], "М21"), P("М21", C))
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skipped.extra and skipped.reason == "colour_parity"
    assert [fact(e, Drew).count for e in of_type(ev, "drew") if e.seat == 0] == [1]


def test_r17_no_extra_tile_from_an_empty_bazaar() -> None:
    _s, ev = act(run_position(["О2", "О8", "О4"], "О12", bazaar=[]), P("О12", C))
    assert facts(ev, Skipped)[0].extra
    assert not [e for e in of_type(ev, "drew") if e.seat == 0]


def test_r18_the_last_tile_of_a_run_wins_instead_of_skipping() -> None:
    s = run_position(["О2", "О8", "О4"], "О12", placer_extra=[])
    s, ev = act(s, P("О12", C))
    assert not of_type(ev, "skipped") and s.records[0].reason == "win"


def test_r19_r20_tridevyatoe_as_the_fourth_tile_gives_no_extra_tile() -> None:
    s = run_position(["М1", "З5", "В9"], "О11")
    s, ev = act(s, P("О11", C))
    if s.phase is Phase.BONUS:
        s, ev = act(s, STOP)
    (skip,) = of_type(ev, "skipped")  # 1 < 5 < 9 < 11, all odd
    skipped = fact(skip, Skipped)
    assert not skipped.extra


# ------------------------------------------------------------------ bonuses


def test_r20_tridesyatoe_gosudarstvo_sum_10_and_stop() -> None:
    s = build(
        moves=TO_CENTRE_3,
        hands={0: ["О15", "М13", "О14", "В14", "О⚙"], 1: ["М10"]},
        bazaar=["З8", "З13"],
    )
    s = play(s, P("О15", C))  # 3-3-4 by side 0: ▲ 3, ◢ 4
    assert s.bonus is not None and (s.bonus.kind, s.bonus.target) == (BonusKind.SUM10, 10)
    assert needs(s) == [("T", 3), ("R", 4)]
    assert [a.tile for a in GAME.legal_actions(s) if a.tile] == ["М13", "О14"]
    refused(s, P("В14", TOP), "bonus_sum")  # 2-3-4 sums to 9
    refused(s, P("О⚙", TOP), "bonus_sum")  # a самоход has no pips
    s = play(s, P("М13", TOP))
    assert s.bonus is not None and s.bonus.left == 2
    s, ev = act(s, STOP)
    assert facts(ev, TurnEnded)[0] == TurnEnded(placed=2)
    assert s.bonus is None and s.hands[0] == ["О14", "В14", "О⚙"]


def test_r20_r21_no_drawing_when_a_bonus_has_nothing_to_place() -> None:
    s = build(moves=TO_CENTRE_3, hands={0: ["О11", "М2"], 1: ["М10"]}, bazaar=["О9", "З11"])
    s, ev = act(s, P("О11", C))
    assert [e.type for e in ev][:4] == ["placed", "bonus_started", "bonus_ended", "turn_ended"]
    assert not [e for e in of_type(ev, "drew") if e.seat == 0] and s.hands[0] == ["М2"]


def test_r21_kolobok_allows_any_number_of_tiles() -> None:
    s = build(
        moves=[*TO_CENTRE_3, ("О1", C, 0)],
        hands={0: ["З1", "М1", "В2", "М6", "З3", "М12"], 1: ["М10"]},
        bazaar=["З8", "З13"],
    )
    s = play(s, P("З1", TOP))
    s = play(s, P("М1", R, 1))  # entry needs 0
    s = play(s, P("В2", L, 0))  # far side 2: the centre needs 4
    s = play(s, P("З3", C))  # 0-2-4 by side 2: ▲ 0, ◢ 2
    assert s.phase is Phase.BONUS and s.bonus is not None and s.bonus.left is None
    assert len(s.figure) == 10 and s.current == 0


def test_r22_bonuses_do_not_nest() -> None:
    s = build(
        moves=[*TO_CENTRE_3, ("О1", C, 0)],
        hands={0: ["З1", "О11", "М5", "М12"], 1: ["М10"]},
        bazaar=["З8", "З13"],
    )
    s = play(s, P("З1", TOP))
    refused(s, P("О11", R), "no_match")
    s = build(moves=TO_CENTRE_3, hands={0: ["О15", "О11", "О14", "М12"], 1: ["М10"]}, bazaar=["З8"])
    s = play(s, P("О15", C))  # sum-10 bonus; О11 (sum 9) does not qualify
    refused(s, P("О11", TOP), "bonus_sum")
    k = build(
        moves=[*TO_CENTRE_3, ("О1", C, 0)],
        hands={0: ["З1", "З4", "О11", "З11", "М12"], 1: ["М10"]},
        bazaar=["З8", "З13"],
    )
    k = play(k, P("З1", TOP))
    k = play(k, P("З4", R, 0))  # 0-3-3 by side 0: far side 2 → the entry needs 3
    k = play(k, P("О11", L))  # 3-3-3 inside a Колобок series: no new bonus
    assert k.bonus is not None and k.bonus.kind is BonusKind.KOLOBOK and k.bonus.left is None


# ------------------------------------------------------------------ end, score, match


def test_r23_r25_game_scores() -> None:
    assert game_scores(2, [0, 1], [0, 7], 0) == [37, 10]
    assert game_scores(3, [0, 1, 2], [0, 3, 4], 0) == [37, 10, 10]
    assert game_scores(3, [0, 2], [2, 3, 0], 2) == [10, 0, 32]  # side 1 has left
    assert game_scores(2, [0, 1], [3, 3], None) == [20, 20]
    assert game_scores(4, [0, 1, 2, 3], [1, 1, 4, 2], None) == [24, 24, 20, 20]


def test_r24_fish_is_checked_after_a_skip_too() -> None:
    # the skipper's extra draw empties the bazaar; then nobody can place → рыба
    s = run_position(["О2", "О8", "О4"], "О12", placer_extra=["М2"], other=["М4"], bazaar=["В4"])
    s = s.model_copy(update={"options": s.options.model_copy(update={"match_games": 1})})
    s, ev = act(s, P("О12", C))
    assert GAME.is_over(s) and s.records[0].reason == "fish"
    assert [e.type for e in ev][-5:] == ["skipped", "drew", "drew_tiles", "game_over", "match_over"]


def finished(records: list[GameRecord], n: int = 2, mode: str = "solo") -> State:
    s = GAME.new(PLAYERS[:n], seed=0, options={"mode": mode})
    return s.model_copy(update={"records": records, "phase": Phase.OVER, "game_no": 2})


def rec(game: int, winner: int | None, scores: list[int], reason: str = "win") -> GameRecord:
    return GameRecord(
        game=game, reason=reason, winner_side=winner, first=0, tiles=[], scores=scores
    )


def test_r26_match_ties_go_to_more_game_wins_then_a_draw() -> None:
    s = finished([rec(1, 0, [40, 10]), rec(2, None, [20, 30], "fish")])
    res = GAME.result(s)
    assert [(x.player, x.place, x.score) for x in res.standings] == [(101, 1, 60), (102, 2, 40)]
    s = finished([rec(1, 0, [40, 10]), rec(2, 1, [10, 40])])
    res = GAME.result(s)
    assert res.winners == [101, 102] and {x.place for x in res.standings} == {1}
    s = finished([rec(1, 0, [38, 10]), rec(2, None, [20, 48], "fish")])
    assert GAME.result(s).winners == [101]  # 58 : 58, one win against none


def test_r26_single_game_match_option() -> None:
    s = build(
        moves=TO_ENTRY_5,
        hands={0: ["З21"], 1: ["М2", "М4"]},
        bazaar=["З8"],
        options={"match_games": 1},
    )
    s, ev = act(s, P("З21", L))
    assert GAME.is_over(s) and not of_type(ev, "game_started")
    assert facts(ev, MatchOver)[0].winners == [0]
    assert GAME.to_act(s) is None and GAME.legal_actions(s) == []
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, TIMEOUT)
    assert exc.value.code == "game_over"
    with pytest.raises(IllegalAction) as exc:
        GAME.timeout(s)
    assert exc.value.code == "game_over"


def test_r26_teams_game_two_starts_with_the_other_team() -> None:
    s = GAME.new(PLAYERS[:4], seed=5, options={"mode": "teams"})
    first = s.first
    s = build(
        n=4,
        mode="teams",
        seat=first,
        moves=TO_ENTRY_5,
        hands={x: ["З21"] if x == first else [f"М{x + 1}"] for x in range(4)},
        bazaar=["З8"],
    ).model_copy(update={"first": first, "game1_first": first, "initial_hands": s.initial_hands})
    s = play(s, P("З21", L))
    assert s.game_no == 2 and s.side_of[s.first] != s.side_of[first]
    check_views(s)
    me = PLAYERS[0]
    assert sorted(GAME.view(s, me).remembered or []) == sorted(
        s.initial_hands[0] + s.initial_hands[2]
    )


@pytest.mark.parametrize("tempo", ["free", "moderate", "blitz"])
def test_r12_r27_timeout_is_never_a_legal_action_only_the_bots_timeout(tempo: str) -> None:
    """R12, R27: with or without a timer nobody may pass voluntarily: TIMEOUT is never in
    `legal_actions` and `apply` refuses it; `timeout(state)` (the bot's timer) plays it:
    a penalty draw, and the turn passes."""
    s = GAME.new(PLAYERS[:2], seed=1, options={"tempo": tempo})
    assert GAME.view(s, None).tempo == tempo
    assert all(a.type is not ActionType.TIMEOUT for a in GAME.legal_actions(s))
    refused(s, TIMEOUT, "malformed")
    with pytest.raises(IllegalAction):
        GAME.apply(s, GAME.decode_action("T"))  # the text form is refused too
    assert GAME.timeout_action(s) == TIMEOUT
    seat, bazaar = s.current, len(s.bazaar)
    s2, ev = GAME.timeout(s)
    assert s2.version == s.version + 1 and s2.current != seat
    assert len(s2.hands[seat]) == len(s.hands[seat]) + 1 and len(s2.bazaar) == bazaar - 1
    assert [e.type for e in ev][:2] == ["timeout", "drew"]


# ------------------------------------------------------------------ leaving


def test_r28_solo_leaver_hand_returns_to_the_bazaar_and_he_ranks_last() -> None:
    s = GAME.new(PLAYERS[:3], seed=4)
    leaver = (s.current + 1) % 3
    bazaar = len(s.bazaar)
    s2, ev = GAME.remove(s, PLAYERS[leaver])
    assert s2.version == s.version + 1 and len(s2.bazaar) == bazaar + 10
    assert not s2.present[leaver] and not s2.hands[leaver] and s2.current == s.current
    assert facts(ev, PlayerLeft)[0].returned == 10
    check(s2)
    assert GAME.remove(s2, PLAYERS[leaver]) == (s2, [])
    with pytest.raises(IllegalAction) as exc:
        GAME.remove(s2, 999)
    assert exc.value.code == "not_a_player"
    res = GAME.result(s2)
    assert res.standings[-1].player == PLAYERS[leaver] and res.standings[-1].score == 0


def test_r28_leaving_during_own_turn_or_bonus_passes_the_turn_without_a_run_check() -> None:
    s = build(
        n=3,
        moves=[*TO_CENTRE_3, ("О1", C, 0)],
        hands={0: ["З1", "М1", "В2"], 1: ["М10"], 2: ["М12", "В5"]},
        bazaar=["З8", "З13"],
    )
    s = play(s, P("З1", TOP))  # В15 М15 О1 З1 would be an odd run
    s, ev = GAME.remove(s, PLAYERS[0])
    assert not of_type(ev, "skipped") and s.bonus is None and s.current == 1
    assert sorted(s.bazaar) == sorted(["З8", "З13", "М1", "В2"])


def test_r28_last_solo_player_wins_and_the_match_ends() -> None:
    s = GAME.new(PLAYERS[:2], seed=9)
    s, _ev = GAME.remove(s, PLAYERS[1])
    assert GAME.is_over(s) and s.records[0].reason == "abandoned"
    assert s.records[0].scores == [30, 0] and GAME.result(s).winners == [PLAYERS[0]]


def test_r28_teams_play_on_and_a_team_without_members_loses() -> None:
    s = GAME.new(PLAYERS[:4], seed=9, options={"mode": "teams"})
    s, _ = GAME.remove(s, PLAYERS[1])
    assert not GAME.is_over(s)
    check(s)
    s, _ev = GAME.remove(s, PLAYERS[3])
    assert GAME.is_over(s) and s.records[-1].reason == "abandoned"
    assert s.records[-1].winner_side == 0
    res = GAME.result(s)
    assert res.winners == [PLAYERS[0], PLAYERS[2]]
    assert [x.score for x in res.standings][2:] == [0, 0]


# ------------------------------------------------------------------ protocol


def test_encode_decode_is_compact_ascii() -> None:
    a = P("В14", R, 1)
    assert a.encode() == "P,V14,R,1" and GAME.decode_action("P,V14,R,1") == a
    assert P("О⚙", L).encode() == "P,O0,L,0" and GAME.decode_action("P,O0,L,0") == P("О⚙", L)
    assert STOP.encode() == "S" and TIMEOUT.encode() == "T"
    for tile in ALL_TILES:
        assert from_ascii(to_ascii(tile)) == tile and to_ascii(tile).isascii()
    for bad in ["", "X", "P", "P,V22,R,0", "P,V14,Q,0", "P,V14,R,2", "P,V014,R,0", "S,1", "T,"]:
        with pytest.raises(IllegalAction) as exc:
            GAME.decode_action(bad)
        assert exc.value.code == "malformed"
    with pytest.raises(ValidationError):
        Action(type=ActionType.PLACE, tile="Q1", nest=Pos.TOP)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(GAME.new([1, 2], seed=0), "P,V14,R,0")  # type: ignore[arg-type]
    assert exc.value.code == "malformed"


def test_popup_labels() -> None:
    assert [label(t) for t in ("В14", "З1", "В⚙")] == ["В14·234", "З1·000★", "В⚙"]
    with pytest.raises(IllegalAction):
        GAME.decode_action(None)  # type: ignore[arg-type]


def test_every_code_the_engine_can_raise_is_listed() -> None:
    text = Path(engine_module.__file__).read_text() + Path(figure_module.__file__).read_text()
    raised = set(re.findall(r'IllegalAction\(\s*"(\w+)"', text))
    returned = set(re.findall(r'return "(\w+)"', text))
    returned |= set(re.findall(r'"(\w+)" if ', text)) | set(re.findall(r'else "(\w+)"', text))
    assert raised | returned <= set(CODES)
    assert {"no_match", "wrong_colour", "one_side", "bonus_sum", "samohod_first"} <= returned


def test_protocol_attributes() -> None:
    assert (GAME.id, GAME.min_players, GAME.max_players, GAME.state_type) == (
        "dominas",
        2,
        8,
        State,
    )
    assert len(REGULAR) == 84


def test_view_shows_only_the_own_hand() -> None:
    s = GAME.new(PLAYERS[:4], seed=3)
    check_views(s)
    v = GAME.view(s, PLAYERS[2])
    assert v.hand == s.hands[2] and v.remembered is None
    assert GAME.view(s, None).bazaar_size == len(s.bazaar)
    assert GAME.view(s, 999).hand is None


def test_every_spec_rule_is_named_by_a_test() -> None:
    """Each R-number of the spec (docs/spec/dominas.md) appears in a test name or docstring."""
    assert missing_rules("dominas", Path(__file__).parent) == []
