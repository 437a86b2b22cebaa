"""Every worked example of the spec (§9, E1–E22) as a test."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

from games.dominas import GAME, BonusKind, Phase, State
from games.dominas.events import (
    BonusEnded,
    DrawReason,
    Drew,
    DrewTiles,
    GameOver,
    GameStarted,
    MatchOver,
    Skipped,
    Timeout,
)
from games.dominas.tiles import COLOURS, NAMED, REGULAR, SYMBOLS, pips
from games.protocol import Event

from ..facts import fact, facts
from ..spec import missing_examples
from .builder import (
    STOP,
    TIMEOUT,
    TO_CENTRE_3,
    TO_CENTRE_6,
    TO_ENTRY_5,
    TOP,
    C,
    L,
    P,
    R,
    act,
    arrange,
    build,
    needs,
    of_type,
    parent_for,
    play,
    refused,
    run_position,
    tile_moves,
)

ANYA, BORIS, VIKA, GENA = 0, 1, 2, 3  # teams: A = {Аня, Вика}, B = {Борис, Гена}


def test_e1_tile_set_r1_r2() -> None:
    assert len(REGULAR) == 84
    assert sorted(SYMBOLS.values()) == sorted(itertools.combinations_with_replacement(range(7), 3))
    assert SYMBOLS["В14"] == (2, 3, 4)
    assert NAMED["О15"] == "Тридесятое государство" and SYMBOLS["О15"] == (3, 3, 4)
    for c in COLOURS:
        tiles = [f"{c}{i}" for i in range(1, 22)]
        assert all(t in SYMBOLS for t in tiles) and f"{c}22" not in SYMBOLS
        counts = Counter(x for t in tiles for x in SYMBOLS[t])
        assert counts == {v: 9 for v in range(7)}
        assert sum(pips(t) or 0 for t in tiles) == 189


def opening(**options: object) -> State:
    """Аня (seat 0) starts; the hands of E2–E7."""
    return build(
        hands={ANYA: ["В14", "М4", "О6", "З20"], BORIS: ["З3", "М8", "З12", "О3"]},
        bazaar=["М6", "М7"],
        options=dict(options),
    )


def test_e2_opening_r9() -> None:
    s = play(opening(), P("В14", C))
    assert needs(s) == [("T", 2), ("R", 3), ("L", 4)]
    assert GAME.to_act(s) == 102


def test_e3_corner_choice_r4() -> None:
    s = play(opening(), P("В14", C))
    assert tile_moves(s, "З3") == [P("З3", TOP), P("З3", L)]
    refused(s, P("З3", R), "no_match")
    s = play(s, P("З3", L))
    assert s.figure[-1].side == 2
    assert needs(s) == [("T", 2), ("R", 3)]


def e4(s: State) -> State:
    s = play(play(s, P("В14", C)), P("З3", L))
    assert tile_moves(s, "М4") == [P("М4", TOP)]
    refused(s, P("М4", TOP, 1), "one_side")
    s = play(s, P("М4", TOP))
    assert needs(s) == [("R", 3)] and GAME.view(s, None).nests[0].far
    return s


def test_e4_no_variants_on_a_non_last_corner_r5() -> None:
    e4(opening())


def test_e5_last_corner_two_variants_r5() -> None:
    s = e4(opening())
    assert tile_moves(s, "М8") == [P("М8", R, 0), P("М8", R, 1)]
    v1 = play(s, P("М8", R, 1))
    assert v1.figure[-1].side == 2 and needs(v1) == [("L", 3)]
    v0 = play(s, P("М8", R, 0))
    assert v0.figure[-1].side == 1 and needs(v0) == [("L", 1)] and v0.floor == 2
    ccw = e4(opening(fill_direction="counterclockwise"))
    assert needs(play(ccw, P("М8", R, 0))) == [("L", 3)]
    assert needs(play(ccw, P("М8", R, 1))) == [("L", 1)]


def test_e6_e7_entry_centre_corners_then_a_parity_run_r13_r14_r15_r16() -> None:
    s = play(e4(opening()), P("М8", R, 0))
    s, ev = act(s, P("О6", L))
    assert s.figure[-1].side == 1 and needs(s) == [("C", 0)]
    assert not of_type(ev, "skipped")  # З3 М4 М8 О6: 3, 4, 8, 6
    s, ev = act(s, P("З12", C))
    assert s.figure[-1].side == 0 and needs(s) == [("T", 3), ("R", 6)]
    # E7: М4 М8 О6 З12 → 4, 8, 6, 12 all even: Аня skips, no extra tile
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skip.seat == ANYA and skipped.run == ["parity"] and not skipped.extra
    assert skipped.tiles == ["М4", "М8", "О6", "З12"]
    assert not of_type(ev, "drew") and s.hands[ANYA] == ["З20"]
    assert GAME.to_act(s) == 102 and s.phase is Phase.PLAY


def test_e7_no_run_before_the_sixth_tile_r14() -> None:
    s = opening()
    for a in (P("В14", C), P("З3", L), P("М4", TOP), P("М8", R, 0), P("О6", L)):
        s, ev = act(s, a)
        assert not of_type(ev, "skipped")


def run_events(three: list[str], fourth: str, n: int = 2) -> tuple[State, list[Event]]:
    s = run_position(three, fourth, n=n)
    return act(s, P(fourth, C))


def test_e8_colour_and_parity_skip_and_extra_tile_r17() -> None:
    s, ev = run_events(["О2", "О8", "О4"], "О12")
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skip.seat == 0 and set(skipped.run) == {"colour", "parity"}
    assert skipped.extra and skipped.reason == "colour_parity"
    (drew,) = of_type(ev, "drew")
    assert drew.seat == 0 and drew.data == Drew(count=1, reason=DrawReason.EXTRA, bazaar=2)
    assert s.hands[0] == ["М10", "М12", "З8"]


def test_e9_monotone_run_r14() -> None:
    _s, ev = run_events(["В3", "О5", "М9"], "З12")
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skipped.run == ["monotone"] and not skipped.extra
    assert not [e for e in of_type(ev, "drew") if e.seat == 0]


def test_e10_equal_numbers_r17a() -> None:
    _s, ev = run_events(["О7", "М7", "З7"], "В7")
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skipped.run == ["parity"] and skipped.reason == "equal"
    assert [e.seat for e in of_type(ev, "drew")][:1] == [0]


def test_e11_named_fourth_tile_r17c_r19() -> None:
    _s, ev = run_events(["М2", "З10", "О8"], "В6")
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skipped.run == ["parity"] and skipped.reason == "named"
    # the variant: Колобок as the 4th — 2, 10, 8, 1 is no run at all
    s, ev = run_events(["М2", "З10", "О8"], "З1")
    if s.phase is Phase.BONUS:
        s, ev = act(s, STOP)
    assert not of_type(ev, "skipped")


def test_e12_samohod_in_a_colour_run_r3_r14() -> None:
    _s, ev = run_events(["О9", "О⚙", "О13"], "О20")
    (skip,) = of_type(ev, "skipped")
    skipped = fact(skip, Skipped)
    assert skipped.run == ["colour"] and not skipped.extra


def test_e13_tridevyatoe_tsarstvo_r20() -> None:
    s = build(
        moves=TO_CENTRE_3,
        hands={0: ["О11", "В14", "З12", "О9", "М2"], 1: ["М10", "М12"]},
        bazaar=["З8", "З9", "З13", "З15"],
    )
    assert needs(s) == [("C", 3)]
    s, ev = act(s, P("О11", C))
    assert needs(s) == [("T", 3), ("R", 3)]
    assert s.phase is Phase.BONUS and s.bonus is not None
    assert (s.bonus.kind, s.bonus.target, s.bonus.left) == (BonusKind.SUM9, 9, 3)
    assert GAME.legal_actions(s) == [
        P("В14", TOP),
        P("В14", R),
        P("З12", TOP),
        P("З12", R),
        STOP,
    ]
    refused(s, P("М2", TOP), "bonus_sum")
    s = play(s, P("В14", TOP))
    s = play(s, P("З12", R))
    assert s.figure[-1].side == 1 and needs(s) == [("L", 0)]
    s, ev = act(s, P("О9", L))
    assert s.figure[-1].side == 0
    assert needs(s) == [("C", 5)]
    assert [x.reason for x in facts(ev, BonusEnded)] == ["used_up"]
    assert not of_type(ev, "skipped")  # 11, 14, 12, 9
    assert s.hands[0] == ["М2"] and s.current == 1


def kolobok_position(hand: list[str], **kw: Any) -> State:
    s = build(
        moves=[*TO_CENTRE_3, ("О1", C, 0)],
        hands={0: hand, 1: ["М10", "М12"]},
        bazaar=["З8", "З9"],
        **kw,
    )
    assert s.figure[-1].side == 2 and needs(s) == [("T", 0), ("R", 0)]
    return s


def test_e14_kolobok_r21_r23() -> None:
    s = kolobok_position(["З1", "М1", "В2", "М5"])
    s, ev = act(s, P("З1", TOP))
    assert s.bonus is not None and s.bonus.kind is BonusKind.KOLOBOK and s.current == 0
    assert tile_moves(s, "М1") == [P("М1", R, 0), P("М1", R, 1)]
    assert needs(play(s, P("М1", R, 0))) == [("L", 1)]
    s = play(s, P("М1", R, 1))
    assert needs(s) == [("L", 0)] and s.phase is Phase.BONUS
    assert tile_moves(s, "В2") == [P("В2", L, 0), P("В2", L, 1)]
    stop, ev = act(s, STOP)  # ⏹ Хватит: the turn ends with the run check (М15 О1 З1 М1: odd)
    assert [x.reason for x in facts(ev, BonusEnded)] == ["stop"]
    assert of_type(ev, "skipped")[0].seat == 1 and stop.current == 0
    s, ev = act(s, P("В2", L, 1))  # the series ends by itself when nothing fits
    assert needs(s) == [("C", 0)] and s.phase is Phase.PLAY
    assert [x.reason for x in facts(ev, BonusEnded)] == ["nothing_fits"]
    assert not of_type(ev, "skipped")  # О1 З1 М1 В2: 1, 1, 1, 2
    assert s.current == 1 and s.hands[0] == ["М5"]


def test_e14_kolobok_emptying_the_hand_wins_at_once_r23() -> None:
    s = kolobok_position(["З1", "М1", "В2"], options={"match_games": 1})
    s = play(play(play(s, P("З1", TOP)), P("М1", R, 1)), P("В2", L))
    assert GAME.is_over(s) and s.records[0].reason == "win"
    assert GAME.result(s).winners == [101]


def e15() -> State:
    s = build(
        moves=[*TO_CENTRE_6, ("В19", C, 0), ("З16", TOP, 0)],
        hands={0: ["В⚙", "О⚙", "М2"], 1: ["М10"]},
        bazaar=["З8", "З13", "З15"],
    )
    assert needs(s) == [("R", 5)] and s.figure[-2].tile == "В19"
    return s


def test_e15_samohod_placement_r3() -> None:
    s = e15()
    assert GAME.legal_actions(s) == [P("В⚙", R)]
    refused(s, P("О⚙", R), "wrong_colour")
    refused(s, P("В⚙", R, 1), "one_side")
    refused(s, P("М2", R), "no_match")
    s = play(s, P("В⚙", R))
    assert s.figure[-1].edges == [5, 5, 5] and needs(s) == [("L", 5)]


def test_e16_draw_until_playable_r11() -> None:
    s = build(
        moves=TO_ENTRY_5,
        hands={0: ["З21", "В12"], 1: ["З3", "М2"]},
        bazaar=["О2", "В17", "М6"],
    )
    s, ev = act(s, P("З21", L))
    assert needs(s) == [("C", 6)]
    (drew,) = of_type(ev, "drew")
    assert drew.seat == 1 and drew.private_to is None
    assert drew.data == Drew(count=2, reason=DrawReason.NEED, bazaar=1)
    assert "О2" not in str(drew.data)
    (secret,) = of_type(ev, "drew_tiles")
    assert secret.private_to == 1 and fact(secret, DrewTiles).tiles == ["О2", "В17"]
    assert GAME.legal_actions(s) == [P("В17", C)] and s.bazaar == ["М6"]
    assert s.hands[1] == ["З3", "М2", "О2", "В17"]


NO_SIX = ["О1", "О2", "О3", "О4", "М1", "М2", "М4", "З2", "З3", "З4", "В2", "В3", "В4", "М5"]


def fish_position(counts: list[int], *, n: int, mode: str, **kw: Any) -> State:
    """Seat 0 places З21 (the centre then needs 6) keeping counts[0]; nobody has a 6."""
    pool = iter(NO_SIX)
    hands = {x: [next(pool) for _ in range(c)] for x, c in enumerate(counts)}
    hands[0] = ["З21", *hands[0]]
    return build(n=n, mode=mode, moves=TO_ENTRY_5, hands=hands, **kw)


def test_e17_fish_and_its_score_r24_r25() -> None:
    s = fish_position([2, 4, 1, 3], n=4, mode="teams", options={"match_games": 1})
    s, ev = act(s, P("З21", L))
    assert GAME.is_over(s)
    rec = s.records[0]
    assert (rec.reason, rec.tiles, rec.scores) == ("fish", [3, 7], [24, 20])
    assert facts(ev, GameOver)[0].scores == [24, 20]
    assert GAME.result(s).winners == [101, 103]


def e18(games: int) -> tuple[State, list[Event]]:
    pool = iter(NO_SIX)
    hands = {x: [next(pool) for _ in range(c)] for x, c in ((0, 3), (1, 4), (3, 5))}
    hands[VIKA] = ["З21"]
    s = build(
        n=4,
        mode="teams",
        seat=VIKA,
        moves=TO_ENTRY_5,
        hands=hands,
        bazaar=["В5"],
        options={"match_games": games},
    )
    return act(s, P("З21", L))


def test_e18_win_score_r23_r25() -> None:
    s, _ev = e18(1)
    rec = s.records[0]
    assert (rec.reason, rec.winner_side, rec.scores) == ("win", 0, [39, 10])
    assert GAME.is_over(s) and GAME.result(s).winners == [101, 103]


def test_e19_match_r26() -> None:
    s, ev = e18(2)
    assert s.game_no == 2 and not GAME.is_over(s) and s.records[0].scores == [39, 10]
    assert [x.game for x in facts(ev, GameStarted)] == [2]
    for side in (0, 1):  # A received B's initial 20 tiles and vice versa
        got = sorted(t for x in (side, side + 2) for t in s.hands[x])
        assert got == sorted(t for x in (1 - side, 3 - side) for t in s.initial_hands[x])
    # game 2 ends in a рыба: A 6 tiles, B 2 → A 20, B 24
    s2 = fish_position([3, 1, 3, 1], n=4, mode="teams")
    s2 = s2.model_copy(update={"records": s.records, "game_no": 2})
    s2, ev = act(s2, P("З21", L))
    assert s2.records[1].scores == [20, 24]
    assert GAME.is_over(s2) and facts(ev, MatchOver)[0].totals == [59, 34]
    res = GAME.result(s2)
    assert res.winners == [101, 103]
    assert [(x.player, x.place, x.score) for x in res.standings] == [
        (101, 1, 59),
        (103, 1, 59),
        (102, 2, 34),
        (104, 2, 34),
    ]


def test_e20_fish_with_three_sides_r25() -> None:
    for counts, scores in (([2, 5, 5], [26, 20, 20]), ([2, 2, 6], [24, 24, 20])):
        s = fish_position(counts, n=3, mode="solo", options={"match_games": 1})
        s = play(s, P("З21", L))
        assert s.records[0].scores == scores
    assert GAME.result(s).winners == [101, 102]


def test_e21_game_two_deal_solo_r26() -> None:
    s = GAME.new([101, 102, 103], seed=1)
    s.first = s.game1_first = 2
    init = [list(h) for h in s.initial_hands]
    s = arrange(s, seat=2, hands={0: ["В2"], 1: ["В3"], 2: ["В4"]}, bazaar=["М6"])
    s, ev = act(s, P("В4", C))
    assert s.game_no == 2 and s.records[0].winner_side == 2
    assert s.hands == [init[1], init[2], init[0]]
    assert sorted(s.bazaar) == sorted(s.initial_bazaar) and len(s.bazaar) == 84 - 30 + 4
    assert s.first == 0 and GAME.to_act(s) == 101 and not s.figure
    assert GAME.view(s, 101).remembered == init[0]
    dealt = of_type(ev, "dealt")
    assert [(e.seat, e.private_to) for e in dealt] == [(0, 0), (1, 1), (2, 2)]


def test_e22_timeout_r27() -> None:
    # the last four tiles already form a run: a timeout checks nothing
    bazaar = ["З8", "З9", "З11", "З13", "З14"]
    four = ["О2", "О8", "О4", "О12"]
    parent, side = parent_for("В12", [*four, "В12", "М10", "М12", *bazaar])
    s = build(
        seat=1,
        hands={0: ["М10", "М12"], 1: ["В12"]},
        raw=[parent, *four],
        nest=(C, 0, side),
        bazaar=bazaar,
        options={"tempo": "blitz"},
    )
    assert GAME.legal_actions(s) == [P("В12", C)]  # R12: no voluntary pass
    refused(s, TIMEOUT, "malformed")  # a timeout is not a choice
    s, ev = GAME.timeout(s)  # the bot's timer ran out
    assert len(s.bazaar) <= 4 and s.hands[1] == ["В12", "З8"]
    assert [e.type for e in ev][:3] == ["timeout", "drew", "drew_tiles"]
    assert ev[0].data == Timeout(penalty=True)
    assert not of_type(ev, "skipped") and s.current == 0


def test_e22_timeout_in_a_kolobok_series_is_stop_r27() -> None:
    s = kolobok_position(["З1", "М1", "В2", "М5"])
    s = play(play(s, P("З1", TOP)), P("М1", R, 1))
    assert TIMEOUT not in GAME.legal_actions(s)
    s, ev = GAME.timeout(s)
    assert [x.reason for x in facts(ev, BonusEnded)] == ["timeout"]
    assert not of_type(ev, "drew") or of_type(ev, "drew")[0].seat != 0
    (skip,) = of_type(ev, "skipped")  # М15 О1 З1 М1: 15, 1, 1, 1 all odd
    skipped = fact(skip, Skipped)
    assert skip.seat == 1 and skipped.run == ["parity"]
    assert s.current == 0 and s.hands[0] == ["В2", "М5"]


def test_every_worked_example_of_the_spec_is_a_test() -> None:
    """Each worked example of the spec (docs/spec/dominas.md) has a `test_e<n>…_` here."""
    assert missing_examples("dominas", Path(__file__).parent) == []
