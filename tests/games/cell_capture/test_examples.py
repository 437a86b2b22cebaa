"""The worked examples E1–E11 of the spec (`docs/spec/cell_capture.md` §9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.cell_capture import GAME, Phase, State
from games.cell_capture.engine import allowed_numbers, anchors, feasible, phase, used_numbers
from games.cell_capture.events import Captured, GameOver, RoundEnded, Stuck
from games.cell_capture.model import CENTRE, FREE
from games.protocol import IllegalAction
from tests.games.cell_capture.builder import (
    BACK,
    CANCEL,
    CONFIRM,
    DOWN,
    LEFT,
    PIDS,
    RIGHT,
    UNDO,
    UP,
    anchor,
    board_text,
    c,
    capture,
    k,
    names,
    new_game,
    play,
    position,
    step,
)
from tests.games.cell_capture.invariants import check_invariants
from tests.games.facts import fact
from tests.games.spec import missing_examples

ANYA, BORYA, VIKA = 0, 1, 2


def steps_of(s: State) -> list[str]:
    return [a.dir.value for a in GAME.legal_actions(s) if a.dir is not None]


def anchors_offered(s: State) -> list[str]:
    return [a.cell for a in GAME.legal_actions(s) if a.cell is not None]


def e2() -> State:
    s = new_game(3, [ANYA, BORYA, VIKA])
    s, _ = play(s, [k(3), anchor("D4"), step(UP), step(UP), step(RIGHT), CONFIRM])
    return s


def e3() -> State:
    s = e2()
    s, _ = play(s, [k(2), anchor("D3"), step(LEFT), step(DOWN), CONFIRM])
    s, _ = play(s, [k(1), anchor("C4"), step(DOWN), CONFIRM])
    return s


def test_e1_setup_r2_r4() -> None:
    """E1 (R2, R4): N = 3 → 7×7, D4 is the neutral centre, 48 free cells, anchors = {D4}."""
    s = new_game(3)
    assert s.size == 7
    assert s.owner[c(s, "D4")] == CENTRE
    assert s.owner.count(FREE) == 48
    assert names(s, anchors(s)) == ["D4"]
    check_invariants(s)


def test_e2_first_capture_r7_r8() -> None:
    """E2 (R7, R8): Аня captures D3, D2, E2 starting next to the centre."""
    s = new_game(3, [ANYA, BORYA, VIKA])
    assert GAME.legal_actions(s) == [k(1), k(2), k(3)]
    s, _ = GAME.apply(s, k(3))
    assert GAME.legal_actions(s) == [anchor("D4"), BACK]
    s, _ = GAME.apply(s, anchor("D4"))
    assert steps_of(s) == ["U", "R", "D", "L"]  # D3, E4, D5, C4
    s, events = play(s, [step(UP), step(UP), step(RIGHT), CONFIRM])
    assert [s.owner[c(s, x)] for x in ("D3", "D2", "E2")] == [ANYA] * 3
    assert names(s, s.paths[0].cells) == ["D3", "D2", "E2"]
    assert names(s, anchors(s)) == ["E2", "D3"]
    assert used_numbers(s) == [3]
    captured = [e for e in events if e.type == "captured"]
    assert fact(captured[0], Captured).cells == ["D3", "D2", "E2"]
    assert captured[0].seat == ANYA
    check_invariants(s)


def test_e3_anchors_after_first_capture_r8() -> None:
    """E3 (R8): anchors are path ends; the centre is no longer one; next order Вика, Боря, Аня."""
    s = e2()
    assert GAME.to_act(s) == PIDS[BORYA]
    assert GAME.legal_actions(s) == [k(1), k(2)]
    s, _ = GAME.apply(s, k(2))
    assert anchors_offered(s) == ["E2", "D3"]
    s, _ = GAME.apply(s, anchor("D3"))
    assert steps_of(s) == ["R", "L"]  # E3, C3: D2 is captured, D4 is the centre
    s, _ = play(s, [step(LEFT), step(DOWN), CONFIRM])
    assert GAME.to_act(s) == PIDS[VIKA]
    assert GAME.legal_actions(s) == [k(1)]
    s, _ = GAME.apply(s, k(1))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, anchor("D4"))  # D5 touches only the centre: no longer an anchor
    assert err.value.code == "not_anchor"
    first_cells = set()
    for a in anchors_offered(s):
        s2, _ = GAME.apply(s, anchor(a))
        for d in GAME.legal_actions(s2):
            if d.dir is not None:
                s3, _ = GAME.apply(s2, step(d.dir))
                first_cells.add(names(s3, s3.draft.path)[0])
    assert first_cells == {"E1", "F2", "E3", "B3", "C2", "B4", "C5"}
    assert "D5" not in first_cells
    s, events = play(s, [anchor("C4"), step(DOWN), CONFIRM])
    assert s.round_no == 2
    assert s.order == [VIKA, BORYA, ANYA]
    assert [e.type for e in events][-3:] == ["captured", "round_end", "round_start"]
    assert fact(events[-2], RoundEnded).next_order == [PIDS[VIKA], PIDS[BORYA], PIDS[ANYA]]
    check_invariants(s)


def test_e4_no_repeat_r11() -> None:
    """E4 (R11): previous numbers 1, 2, 3 → Вика {2,3}; after 3: Боря {1}; Аня {2}."""
    s = e3()
    assert s.prev == [3, 2, 1]
    assert GAME.legal_actions(s) == [k(2), k(3)]
    s, _ = capture(s, ["C6", "C7", "B7"])
    assert GAME.to_act(s) == PIDS[BORYA]
    assert GAME.legal_actions(s) == [k(1)]
    s, _ = capture(s, ["B4"])
    assert GAME.to_act(s) == PIDS[ANYA]
    assert GAME.legal_actions(s) == [k(2)]
    check_invariants(s)


def e5_position() -> State:
    """9×9, only these cells free: A1–C1, A3–D3, A5, A7, A9 (the rest taken earlier)."""
    free = {"A1", "B1", "C1", "A3", "B3", "C3", "D3", "A5", "A7", "A9", "E5"}
    cells = [f"{col}{row}" for row in range(1, 10) for col in "ABCDEFGHI"]
    earlier = [(i % 4, [x]) for i, x in enumerate(x for x in cells if x not in free)]
    return position(4, earlier, order=[0, 1, 2, 3])


def test_e5_seed_example_stuck_r12_r13() -> None:
    """E5 (R12, R13): Вася 3, Кира 4, Петя 1; Вика has only 2 and no 2-path → stuck."""
    vasya, kira, petya, vika = 0, 1, 2, 3
    s = e5_position()
    check_invariants(s)
    s, _ = capture(s, ["A1", "B1", "C1"])
    s, _ = capture(s, ["A3", "B3", "C3", "D3"])
    s, events = capture(s, ["A5"])
    stuck = [e for e in events if e.type == "stuck"]
    assert len(stuck) == 1 and stuck[0].seat == vika
    assert fact(stuck[0], Stuck).unused == [2]  # nothing used: 2 stays unused
    assert [e.type for e in events] == [
        "number_chosen",
        "anchor_chosen",
        "stepped",
        "captured",
        "stuck",
        "round_end",
        "round_start",
    ]
    assert s.order == [vika, petya, vasya, kira]
    assert s.prev[vika] is None
    assert GAME.to_act(s) == PIDS[vika]
    assert allowed_numbers(s, vika) == [1]  # any feasible number: only 1-paths remain
    check_invariants(s)


def e6() -> State:
    s = new_game(2, [0, 1])
    for path in (["C2"], ["C1", "D1"], ["D2", "E2"], ["B2"]):
        s, _ = capture(s, path)
    return s


def test_e6_no_dead_ends_offered() -> None:
    """E6 (§5 STEP rule): only anchors and steps that can be completed are offered."""
    s = e6()
    assert board_text(s) == [
        ". . B B .",
        ". B A A A",
        ". . ✦ . .",
        ". . . . .",
        ". . . . .",
    ]
    assert s.order == [1, 0]
    assert GAME.legal_actions(s) == [k(2)]
    s, _ = GAME.apply(s, k(2))
    assert names(s, anchors(s)) == ["C1", "D1", "B2", "C2", "D2", "E2"]
    assert anchors_offered(s) == ["C1", "B2", "D2", "E2"]
    for blocked in ("D1", "C2"):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(s, anchor(blocked))
        assert err.value.code == "anchor_blocked"
    s, _ = GAME.apply(s, anchor("E2"))
    assert steps_of(s) == ["D"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, step(UP))
    assert err.value.code == "dead_end"
    s, _ = GAME.apply(s, step(DOWN))
    assert steps_of(s) == ["D", "L"]
    check_invariants(s)


E7_PATHS = [
    ["C2"],
    ["C1", "D1"],
    ["D2", "E2"],
    ["B2"],
    ["B1", "A1"],
    ["B3"],
    ["A3", "A4"],
    ["E3"],
    ["A5", "B5"],
    ["E1"],
    ["E4", "E5"],
    ["D3"],
    ["D4", "C4"],
    ["D5"],
]


def test_e7_repeat_when_only_option_and_end_r11_r12_r13_r16_r17() -> None:
    """E7: A must repeat 1; B stuck; B first; A stuck; board full; 12–12 shared win."""
    a, b = 0, 1
    s = new_game(2, [a, b])
    for path in E7_PATHS:
        s, _ = capture(s, path)
        check_invariants(s)
    assert board_text(s) == [
        "B B B B A",
        ". B A A A",
        "A A ✦ B B",
        "A . B B A",
        "B B . A A",
    ]
    assert s.order == [a, b] and s.prev == [1, 2]
    assert GAME.legal_actions(s) == [k(1)]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, k(2))
    assert err.value.code == "number_impossible"
    s1, _ = GAME.apply(s, k(1))
    assert {"A1", "B2", "A3"} <= set(anchors_offered(s1))  # the three ways to reach A2
    s, events = capture(s, ["A2"], via="A1")
    assert [e.seat for e in events if e.type == "stuck"] == [b]
    assert s.order == [b, a]
    assert GAME.legal_actions(s) == [k(1)]
    s, events = capture(s, ["B4"])
    assert [e.seat for e in events if e.type == "stuck"] == [a]
    assert s.order == [a, b]
    s, events = capture(s, ["C5"])
    assert GAME.is_over(s)
    assert s.end_reason == "board_full"
    assert fact(events[-1], GameOver).reason == "board_full"
    res = GAME.result(s)
    assert [(x.player, x.place, x.score) for x in res.standings] == [
        (PIDS[a], 1, 12),
        (PIDS[b], 1, 12),
    ]
    assert res.winners == [PIDS[a], PIDS[b]]
    check_invariants(s)


E10 = [
    ("ABC", [("A", "C4 C3 B3"), ("B", "C5 B5"), ("C", "B4")]),
    ("CBA", [("C", "C6 B6"), ("B", "A6 A5 A4"), ("A", "D6")]),
    ("ACB", [("A", "A3 A2"), ("C", "D7"), ("B", "D5 E5 E6")]),
    ("CAB", [("C", "B2 B1"), ("A", "A1"), ("B", "F6 F7 G7")]),
    ("ACB", [("A", "G6 G5"), ("C", "E7"), ("B", "C1 D1 D2")]),
    ("CAB", [("C", "D3 E3 E2"), ("A", "C2"), ("B", "B7 A7")]),
    ("ABC", [("A", "F5 F4 F3"), ("B", "F2"), ("C", "E1 F1")]),
    ("BCA", [("B", "G2 G3 G4"), ("C", "G1")]),
    ("ACB", [("A", "C7")]),
]


def golden() -> tuple[State, list[str]]:
    s = new_game(3, [0, 1, 2])
    all_types: list[str] = []
    for order, moves in E10:
        assert s.order == ["ABC".index(x) for x in order]
        for who, path in moves:
            assert GAME.to_act(s) == PIDS["ABC".index(who)]
            s, events = capture(s, path.split())
            all_types += [e.type for e in events]
            check_invariants(s)
    return s, all_types


def test_e10_golden_game() -> None:
    """E10: the whole 3-player game, orders of every round, final board and result."""
    s, types = golden()
    assert types.count("stuck") == 1  # A in round 8
    assert board_text(s) == [
        "A C B B C C C",
        "A C A B C B B",
        "A A A C C A B",
        "B C A ✦ . A B",
        "B B B B B A A",
        "B C C A B B A",
        "B B A C C B B",
    ]
    res = GAME.result(s)
    assert [(x.player, x.place, x.score) for x in res.standings] == [
        (PIDS[1], 1, 20),
        (PIDS[0], 2, 14),
        (PIDS[2], 3, 13),
    ]
    assert res.winners == [PIDS[1]]
    assert s.owner.count(FREE) == 1  # I4: 47 owned + 1 free + 1 centre = 49


def test_e8_game_ends_with_free_cells_r16b() -> None:
    """E8 (R16b): E4 is free but touches no anchor → game over, no_moves, in round 9."""
    s, types = golden()
    assert GAME.is_over(s)
    assert s.end_reason == "no_moves"
    assert s.round_no == 9
    assert types[-1] == "game_over"
    assert s.owner[c(s, "E4")] == FREE
    assert not {c(s, x) for x in ("D4", "E3", "E5", "F4")} & set(anchors(s))
    assert not feasible(s, 1)
    assert GAME.to_act(s) is None and GAME.legal_actions(s) == []


def test_e9_undo_and_cancel() -> None:
    """E9 (§5): UNDO walks back to the anchor choice, BACK to the number; nothing is used."""
    s0 = new_game(3, [ANYA, BORYA, VIKA])
    s, _ = play(s0, [k(3), anchor("D4"), step(UP), step(UP)])
    assert names(s, s.draft.path) == ["D3", "D2"]
    s, _ = GAME.apply(s, UNDO)
    assert names(s, s.draft.path) == ["D3"]
    s, _ = GAME.apply(s, UNDO)
    assert s.draft.path == [] and phase(s) is Phase.DRAW and s.draft.anchor == c(s, "D4")
    s, _ = GAME.apply(s, UNDO)
    assert phase(s) is Phase.PICK_ANCHOR
    assert GAME.legal_actions(s) == [anchor("D4"), BACK]
    s, _ = GAME.apply(s, BACK)
    assert phase(s) is Phase.PICK_K
    assert GAME.legal_actions(s) == [k(1), k(2), k(3)]
    assert s.paths == [] and used_numbers(s) == []

    def core(x: State) -> dict[str, object]:
        return x.model_dump(exclude={"version"})

    for prefix in (
        [k(3), anchor("D4")],
        [k(3), anchor("D4"), step(UP)],
        [k(3), anchor("D4"), step(UP), step(UP), step(RIGHT)],  # READY
    ):
        s, _ = play(s0, [*prefix, CANCEL])
        assert core(s) == core(s0)


def test_e11_two_stuck_players_order_r13() -> None:
    """E11 (R13): P1 takes 1; P2, P3, P4 stuck in order → next order P2, P3, P4, P1."""
    free = {"A1", "C1", "E1", "G1", "I1", "E5"}
    cells = [f"{col}{row}" for row in range(1, 10) for col in "ABCDEFGHI"]
    earlier = [(i % 4, [x]) for i, x in enumerate(x for x in cells if x not in free)]
    s = position(4, earlier, order=[0, 1, 2, 3])
    s, events = capture(s, ["A1"])
    assert [e.seat for e in events if e.type == "stuck"] == [1, 2, 3]
    assert not GAME.is_over(s)
    assert s.order == [1, 2, 3, 0]
    assert used_numbers(s) == [] and s.prev[1] is None
    assert allowed_numbers(s, 1) == [1]  # all of 1…4 unused; only 1 is feasible
    check_invariants(s)


def test_every_worked_example_of_the_spec_is_a_test() -> None:
    """Each worked example of the spec (docs/spec/cell_capture.md) has a `test_e<n>…_` here."""
    assert missing_examples("cell_capture", Path(__file__).parent) == []
