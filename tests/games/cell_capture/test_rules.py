"""One or more tests per rule R1–R17 of the spec, and every IllegalAction code."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.cell_capture import GAME, Action, ActionType, State
from games.cell_capture.engine import allowed_numbers, anchors, feasible, next_order, scores
from games.cell_capture.events import GameOver, RoundEnded, RoundStarted, Stuck
from games.cell_capture.model import CENTRE, COLOURS
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
from tests.games.spec import missing_rules


def refused(s: State, action: Action) -> str:
    """Apply `action`, expect IllegalAction, check `s` is unchanged; return the code."""
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, action)
    assert s.model_dump_json() == before
    return err.value.code


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r1_r2_player_counts_and_grid_side(n: int) -> None:
    """R1, R2: 3–6 players (2 with Option `allow_two_players`); the side is 2·N + 1."""
    options = {"allow_two_players": True} if n == 2 else None
    s = GAME.new(players=PIDS[:n], seed=3, options=options)
    assert s.size == 2 * n + 1
    assert len(s.owner) == (2 * n + 1) ** 2
    check_invariants(s)


@pytest.mark.parametrize("players", [[1], [], [1, 2], [1, 2, 3, 4, 5, 6, 7], [5, 5, 6]])
def test_r1_bad_player_lists_refused(players: list[int]) -> None:
    """R1 (revised 2026-12): fewer than 3, more than 6, or repeated players are refused."""
    with pytest.raises(ValueError, match="players"):
        GAME.new(players=players, seed=1)


def test_r1_three_players_is_the_floor_and_two_need_the_option() -> None:
    """R1 (revised 2026-12): the engine's floor is 3; `allow_two_players` keeps N = 2 as a
    house rule, and only then; one player is refused even with it."""
    assert GAME.min_players == 3 and GAME.max_players == 6
    with pytest.raises(ValueError, match="allow_two_players"):
        GAME.new(players=[1, 2], seed=1)
    assert GAME.new(players=[1, 2], seed=1, options={"allow_two_players": True}).size == 5
    with pytest.raises(ValueError, match="players"):
        GAME.new(players=[1], seed=1, options={"allow_two_players": True})
    with pytest.raises(ValueError):
        GAME.new(players=[1, 2, 3], seed=1, options={"allow_two_players": "maybe"})


def test_r1_why_two_players_always_end_12_to_12() -> None:
    """R1's reason: with N = 2 the order and no-repeat rules make every game end 12 : 12,
    whatever the players choose (here: random choices, several seeds)."""
    import random

    for seed in range(8):
        s = GAME.new(players=[1, 2], seed=seed, options={"allow_two_players": True})
        r = random.Random(seed)
        while not GAME.is_over(s):
            s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
        assert sorted(x.score for x in GAME.result(s).standings) == [12, 12]


def test_r15_a_three_player_game_plays_on_with_two_after_one_leaves() -> None:
    """R15 with the floor of 3: a leaver leaves two, who play on (the game is not over)."""
    s = GAME.new(players=PIDS[:3], seed=2)
    s, _ = GAME.remove(s, PIDS[0])
    assert not GAME.is_over(s) and GAME.legal_actions(s)
    s, _ = GAME.remove(s, PIDS[1])
    assert GAME.is_over(s) and s.end_reason == "players_left"


def test_options_unknown_key_refused() -> None:
    with pytest.raises(ValueError):
        GAME.new(players=[1, 2, 3], seed=1, options={"size": 9})
    assert GAME.new(players=[1, 2, 3], seed=1, options={}).size == 7


def test_r3_distinct_colours_in_palette_order() -> None:
    """R3: seats get красный, синий, зелёный, оранжевый, фиолетовый, бирюзовый."""
    v = GAME.view(GAME.new(players=PIDS, seed=1), None)
    assert [p.colour for p in v.players] == list(COLOURS)
    assert list(COLOURS) == ["red", "blue", "green", "orange", "purple", "teal"]


@pytest.mark.parametrize(("n", "centre"), [(2, "C3"), (3, "D4"), (4, "E5"), (5, "F6"), (6, "G7")])
def test_r4_centre_is_neutral_and_never_free(n: int, centre: str) -> None:
    """R4: the centre (row N, column N) is pre-filled, owned by nobody."""
    s = new_game(n)
    assert s.owner[c(s, centre)] == CENTRE
    assert names(s, anchors(s)) == [centre]
    assert GAME.view(s, None).centre == centre


def test_r5_first_order_random_from_seed() -> None:
    """R5: the first order is a permutation drawn from the seed; same seed, same order."""
    orders = {tuple(GAME.new(players=PIDS[:4], seed=seed).order) for seed in range(40)}
    assert len(orders) > 5
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)
    assert GAME.new(players=PIDS[:4], seed=9).order == GAME.new(players=PIDS[:4], seed=9).order


def test_r6_no_previous_number_at_start() -> None:
    """R6: nobody has a previous number, so every number 1…N is allowed in round 1."""
    s = new_game(4)
    assert s.prev == [None] * 4
    assert GAME.legal_actions(s) == [k(1), k(2), k(3), k(4)]


# ---------------------------------------------------------------- paths and anchors


def test_r7a_path_cells_must_be_free() -> None:
    """R7(a): a step onto a captured cell or the centre is refused (`cell_taken`)."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3", "D2", "E2"])
    s, _ = play(s, [k(2), anchor("D3")])
    assert refused(s, step(UP)) == "cell_taken"  # D2 is Аня's
    assert refused(s, step(DOWN)) == "cell_taken"  # D4 is the centre
    s, _ = GAME.apply(s, step(LEFT))
    assert refused(s, step(RIGHT)) == "cell_taken"  # back onto D3, the anchor


def test_r7b_path_must_be_connected_orthogonally() -> None:
    """R7(b): the path grows only by orthogonal steps, never back onto itself."""
    s = new_game(3, [0, 1, 2])
    s, _ = play(s, [k(3), anchor("D4"), step(UP), step(LEFT)])
    assert names(s, s.draft.path) == ["D3", "C3"]
    assert refused(s, step(RIGHT)) == "cell_taken"  # D3 is already in the path
    actions = {a.dir for a in GAME.legal_actions(s) if a.type is ActionType.STEP}
    assert actions == {UP, DOWN, LEFT}


def test_r7_paths_may_turn() -> None:
    """R7 decision: the path is a snake, turns are allowed."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3", "C3", "C2"])
    assert names(s, s.paths[0].cells) == ["D3", "C3", "C2"]


def test_r7c_path_must_start_next_to_an_anchor() -> None:
    """R7(c): only anchors may be chosen; the first cell is a neighbour of the anchor."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3"])
    s, _ = GAME.apply(s, k(2))
    assert refused(s, anchor("B2")) == "not_anchor"
    assert refused(s, anchor("A1")) == "not_anchor"


def test_r8_anchors_are_path_ends_of_everyone() -> None:
    """R8: start and end of every path (own included) are anchors; a 1-path gives one."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3", "D2", "E2"])
    s, _ = capture(s, ["C3", "C2"])
    s, _ = capture(s, ["E3"])
    assert names(s, anchors(s)) == ["C2", "E2", "C3", "D3", "E3"]  # D2 (a middle) is not
    assert c(s, "D4") not in anchors(s)  # the centre only anchors the first capture
    assert s.order == [2, 1, 0] and GAME.to_act(s) == PIDS[2]
    s, _ = play(s, [k(2), anchor("E3"), step(RIGHT), step(UP), CONFIRM])  # his own anchor
    assert names(s, s.paths[-1].cells) == ["F3", "F2"]


def test_r9_number_range_and_unique_per_round() -> None:
    """R9: 1 ≤ k ≤ N, each number once per round."""
    s = new_game(3, [0, 1, 2])
    assert refused(s, k(4)) == "number_out_of_range"
    s, _ = capture(s, ["D3", "D2"])
    assert refused(s, k(2)) == "number_used"
    assert GAME.legal_actions(s) == [k(1), k(3)]


def test_r10_feasible_numbers_only() -> None:
    """R10: a number with no legal path is not offered (`number_impossible`)."""
    free = {"A1", "C1", "E1", "C3"}
    cells = [f"{col}{row}" for row in range(1, 6) for col in "ABCDE"]
    earlier = [(i % 2, [x]) for i, x in enumerate(x for x in cells if x not in free)]
    s = position(2, earlier, order=[0, 1])
    assert feasible(s, 1) and not feasible(s, 2)
    assert GAME.legal_actions(s) == [k(1)]
    assert refused(s, k(2)) == "number_impossible"


def test_r11_no_repeat_when_an_alternative_exists() -> None:
    """R11: the previous number is refused while another unused feasible number exists."""
    s = new_game(3, [0, 1, 2])
    for path in (["D3"], ["D2", "E2"], ["E3", "F3", "F4"]):
        s, _ = capture(s, path)
    assert s.order == [0, 1, 2] and s.prev == [1, 2, 3]
    assert refused(s, k(1)) == "number_repeated"
    assert GAME.legal_actions(s) == [k(2), k(3)]


def test_r11_repeat_allowed_without_alternative() -> None:
    """R11: when the previous number is the only feasible unused one, it is allowed."""
    free = {"A1", "C1", "E1", "C3"}
    cells = [f"{col}{row}" for row in range(1, 6) for col in "ABCDE"]
    earlier = [(i % 2, [x]) for i, x in enumerate(x for x in cells if x not in free)]
    s = position(2, earlier, order=[0, 1], prev=[1, 2])
    assert allowed_numbers(s, 0) == [1]


def test_r12_stuck_player_uses_no_number_and_loses_previous() -> None:
    """R12: a stuck player is skipped by the engine, uses nothing, previous := none."""
    free = {"A1", "C1", "E1", "C3"}
    cells = [f"{col}{row}" for row in range(1, 6) for col in "ABCDE"]
    earlier = [(i % 2, [x]) for i, x in enumerate(x for x in cells if x not in free)]
    s = position(2, earlier, order=[0, 1], prev=[2, 2])
    s, events = capture(s, ["A1"])  # A takes 1; B has only 2 left and no 2-path
    stuck = [e for e in events if e.type == "stuck"]
    assert [e.seat for e in stuck] == [1]
    assert stuck[0].data == Stuck(player=PIDS[1], round=1, unused=[2])
    assert s.prev == [1, None]
    assert s.order == [1, 0] and GAME.to_act(s) == PIDS[1]
    assert GAME.legal_actions(s) == [k(1)]


def test_r13_next_order_stuck_first_then_by_number() -> None:
    """R13: next round — stuck players in stuck order, then movers by ascending k."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3", "D2", "E2"])  # seat 0: 3
    s, _ = capture(s, ["E1"])  # seat 1: 1
    assert next_order(s) == [1, 0]
    s, _ = capture(s, ["C3", "C2"])  # seat 2: 2
    assert s.order == [1, 2, 0]


def test_r14_round_ends_when_everyone_had_a_turn() -> None:
    """R14: the round ends after the last player in the order; events round_end/start."""
    s = new_game(2, [1, 0])
    s, events = capture(s, ["C2"])
    assert s.round_no == 1 and not [e for e in events if e.type == "round_end"]
    s, events = capture(s, ["B2", "B1"])
    assert s.round_no == 2
    types = [e.type for e in events]
    assert types[-2:] == ["round_end", "round_start"]
    assert events[-2].data == RoundEnded(round=1, next_order=[PIDS[1], PIDS[0]], stuck=[])
    assert events[-1].data == RoundStarted(round=2, order=[PIDS[1], PIDS[0]])


# ---------------------------------------------------------------- leaving


def test_r15_leaving_player_cells_stay_and_order_skips_him() -> None:
    """R15: a leaver's cells stay and count; N, S and 1…N stay; he is out of orders."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3", "D2", "E2"])
    s, events = GAME.remove(s, PIDS[2])
    assert events[0].type == "player_left" and events[0].seat == 2
    assert GAME.to_act(s) == PIDS[1]
    s, _ = play(s, [k(1), anchor("E2"), step(UP), CONFIRM])
    assert s.order == [1, 0]  # round 2 without seat 2
    assert s.size == 7 and GAME.legal_actions(s) == [k(2), k(3)]  # 1…3 still
    assert scores(s) == [3, 1, 0]
    check_invariants(s)


def test_r15_leaving_player_to_act_passes_the_turn_and_drops_his_draft() -> None:
    """R15: removing the player to act discards his draft; the next player acts."""
    s = new_game(3, [0, 1, 2])
    s, _ = play(s, [k(2), anchor("D4"), step(UP)])
    s, _ = GAME.remove(s, PIDS[0])
    assert GAME.to_act(s) == PIDS[1]
    assert s.draft.k is None and s.paths == []
    assert GAME.legal_actions(s) == [k(1), k(2), k(3)]


def test_r15_last_player_standing_wins_and_leavers_rank_below() -> None:
    """R15 decision: with one player left the game ends; leavers rank below him."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3", "D2", "E2"])
    s, _ = GAME.remove(s, PIDS[0])
    assert not GAME.is_over(s)
    s, events = GAME.remove(s, PIDS[2])
    assert GAME.is_over(s) and s.end_reason == "players_left"
    assert events[-1].type == "game_over"
    res = GAME.result(s)
    assert res.winners == [PIDS[1]]
    assert [(x.player, x.place, x.score) for x in res.standings] == [
        (PIDS[1], 1, 0),
        (PIDS[0], 2, 3),
        (PIDS[2], 3, 0),
    ]


def test_r15_remove_errors() -> None:
    s = new_game(3)
    with pytest.raises(IllegalAction) as err:
        GAME.remove(s, 999)
    assert err.value.code == "not_in_game"
    s, _ = GAME.remove(s, PIDS[0])
    with pytest.raises(IllegalAction) as err:
        GAME.remove(s, PIDS[0])
    assert err.value.code == "not_in_game"
    s, _ = GAME.remove(s, PIDS[1])
    with pytest.raises(IllegalAction) as err:
        GAME.remove(s, PIDS[2])
    assert err.value.code == "game_over"


# ---------------------------------------------------------------- end and winner


def test_r16a_board_full_ends_the_game() -> None:
    """R16(a): the capture of the last free cell ends the game (`board_full`)."""
    cells = [f"{col}{row}" for row in range(1, 6) for col in "ABCDE"]
    earlier = [(i % 2, [x]) for i, x in enumerate(x for x in cells if x not in {"C3", "A1"})]
    s = position(2, earlier, order=[0, 1])
    s, events = capture(s, ["A1"])
    assert GAME.is_over(s) and s.end_reason == "board_full"
    assert fact(events[-1], GameOver).reason == "board_full"
    assert GAME.to_act(s) is None


def test_r17_score_is_cells_and_ties_share_places() -> None:
    """R17: score = cells; tied players share the place, the next place skips (1, 1, 3)."""
    earlier = [(0, ["A1"]), (0, ["A2"]), (1, ["C1"]), (1, ["C2"]), (2, ["E1"])]
    s = position(3, earlier, order=[0, 1, 2])
    res = GAME.result(s)
    assert [(x.player, x.place, x.score) for x in res.standings] == [
        (PIDS[0], 1, 2),
        (PIDS[1], 1, 2),
        (PIDS[2], 3, 1),
    ]
    assert res.winners == []  # not over yet


# ---------------------------------------------------------------- input codes (§5)


def test_codes_wrong_phase_and_path_length() -> None:
    s = new_game(3, [0, 1, 2])
    for a in (step(UP), UNDO, CANCEL, CONFIRM, BACK, anchor("D4")):
        assert refused(s, a) == "wrong_phase"
    s, _ = GAME.apply(s, k(2))
    assert refused(s, k(1)) == "wrong_phase"
    assert refused(s, step(UP)) == "wrong_phase"
    s, _ = play(s, [anchor("D4"), step(UP)])
    assert refused(s, CONFIRM) == "path_incomplete"
    assert refused(s, BACK) == "wrong_phase"
    s, _ = GAME.apply(s, step(UP))
    assert refused(s, step(LEFT)) == "path_complete"


def test_codes_off_board() -> None:
    s = new_game(2, [0, 1])
    s, _ = GAME.apply(s, k(1))
    assert refused(s, anchor("F1")) == "off_board"  # 5×5 has columns A–E
    s, _ = play(s, [anchor("C3"), step(UP), CONFIRM])  # A: C2
    s, _ = play(s, [k(2), anchor("C2"), step(UP)])  # B at C1, top row
    assert refused(s, step(UP)) == "off_board"


def test_codes_not_your_turn_and_game_over() -> None:
    s = new_game(2, [0, 1])
    assert refused(s, Action(type=ActionType.CHOOSE_K, k=1, by=PIDS[1])) == "not_your_turn"
    s2, _ = GAME.apply(s, Action(type=ActionType.CHOOSE_K, k=1, by=PIDS[0]))
    assert s2.draft.k == 1
    s3, _ = GAME.remove(s, PIDS[1])
    assert refused(s3, k(1)) == "game_over"


def test_codes_malformed() -> None:
    for text in (
        "",
        "Q",
        "K",
        "K,0",
        "K,x",
        "K,12",
        "A,Z9",
        "A,A0",
        "A,A14",
        "S,Q",
        "C,1",
        "K,1,2",
    ):
        with pytest.raises(IllegalAction) as err:
            GAME.decode_action(text)
        assert err.value.code == "malformed"
        with pytest.raises(ValueError):
            GAME.decode_action(text)
    s = new_game(2)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, "K,1")  # type: ignore[arg-type]
    assert err.value.code == "malformed"


def test_every_spec_rule_is_named_by_a_test() -> None:
    """Each R-number of the spec (docs/spec/cell_capture.md) appears in a test name or docstring."""
    assert missing_rules("cell_capture", Path(__file__).parent) == []
