"""The engine behind the project's game protocol: registry, encoding, JSON, view, AFK."""

from __future__ import annotations

import games
from games.cell_capture import GAME, Action, ActionType, Direction, State, View
from games.cell_capture.model import parse_cell
from tests.games.cell_capture.builder import (
    CANCEL,
    CONFIRM,
    PIDS,
    UP,
    anchor,
    capture,
    k,
    new_game,
    play,
    step,
)


def test_registry_and_attributes() -> None:
    assert "cell_capture" in games.ids()
    g = games.get("cell_capture")
    assert g is GAME
    assert (g.id, g.min_players, g.max_players, g.state_type) == ("cell_capture", 3, 6, State)


def test_encode_decode_every_kind() -> None:
    samples = {
        "K,3": Action(type=ActionType.CHOOSE_K, k=3),
        "A,M13": Action(type=ActionType.CHOOSE_ANCHOR, cell="M13"),
        "S,L": Action(type=ActionType.STEP, dir=Direction.LEFT),
        "B": Action(type=ActionType.BACK),
        "U": Action(type=ActionType.UNDO),
        "X": Action(type=ActionType.CANCEL),
        "C": Action(type=ActionType.CONFIRM),
    }
    for text, action in samples.items():
        assert GAME.encode_action(action) == text
        assert GAME.decode_action(text) == action
    by = Action(type=ActionType.CONFIRM, by=5)
    assert GAME.encode_action(by) == "C"  # the sender is not part of the callback data


def test_json_round_trip_mid_turn() -> None:
    s = new_game(4)
    s, _ = capture(s, ["E4", "D4"])
    s, _ = play(s, [k(3), anchor("D4"), step(UP)])
    text = s.model_dump_json()
    back = State.model_validate_json(text)
    assert back == s
    assert back.model_dump_json() == text


def test_apply_is_pure() -> None:
    s = new_game(3)
    before = s.model_dump_json()
    s2, _ = GAME.apply(s, k(1))
    assert s.model_dump_json() == before
    assert s2.draft.k == 1 and s.draft.k is None


def test_view_is_public_and_complete() -> None:
    """§6: everything is public; every viewer sees the same board."""
    s = new_game(3, [0, 1, 2])
    s, _ = capture(s, ["D3", "D2", "E2"])
    s, _ = play(s, [k(2), anchor("D3"), step(Direction.LEFT)])
    v = GAME.view(s, PIDS[0])
    w = GAME.view(s, None)
    assert isinstance(v, View)
    assert v.model_dump(exclude={"me"}) == w.model_dump(exclude={"me"})
    assert v.grid[2][3] == 0 and v.numbers[1][3] == 2  # D3 is Аня's 1st, D2 her 2nd
    assert v.grid[3][3] == -2  # the centre
    assert v.draft is not None and v.draft.path == ["C3"] and v.draft.anchor == "D3"
    assert v.steps == [Direction.UP, Direction.DOWN, Direction.LEFT]  # C2, C4, B3
    assert v.to_act == PIDS[1] and v.used == [3]
    assert v.players[0].cells == 3 and v.players[0].number == 3
    assert v.next_order == [0]
    assert v.anchors == ["E2", "D3"]
    View.model_validate_json(v.model_dump_json())


def test_view_offers_anchors_and_allowed() -> None:
    s = new_game(3, [0, 1, 2])
    assert GAME.view(s, None).allowed == [1, 2, 3]
    s, _ = GAME.apply(s, k(2))
    v = GAME.view(s, None)
    assert v.offered_anchors == ["D4"] and v.allowed == []


def test_auto_actions_canonical_move() -> None:
    """§5 AFK: smallest k, first anchor row-major, first direction ⬆️ ➡️ ⬇️ ⬅️, CONFIRM."""
    s = new_game(3, [0, 1, 2])
    assert [a.encode() for a in GAME.auto_actions(s)] == ["K,1", "A,D4", "S,U", "C"]
    s, _ = play(s, GAME.auto_actions(s))
    assert parse_cell("D3", 7) in s.paths[0].cells
    s, _ = play(s, [k(2), anchor("D3")])
    auto = GAME.auto_actions(s)
    assert auto[0] == CANCEL and auto[-1] == CONFIRM
    # 1 is used this round: k = 2; the only anchor D3; ⬆️ D2, ⬆️ D1.
    assert [a.encode() for a in auto] == ["X", "K,2", "A,D3", "S,U", "S,U", "C"]
    s, _ = play(s, auto)
    assert GAME.to_act(s) == PIDS[2]


def test_auto_actions_from_anchor_choice_goes_back_first() -> None:
    """§5 AFK while the number is chosen but no anchor yet: BACK, then the canonical move."""
    s = new_game(3, [0, 1, 2])
    s, _ = GAME.apply(s, k(2))
    assert [a.encode() for a in GAME.auto_actions(s)] == ["B", "K,1", "A,D4", "S,U", "C"]
