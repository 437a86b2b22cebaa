"""The game protocol: encoding, refusals, codes, view, determinism, imports."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from games import IllegalAction
from games.sea_cross import CODES, GAME, Action, ActionType, MalformedAction, Phase, State, engine

from .builder import EVERY_ACTION, PLAYERS, act, build, codes, roll, types

PKG = Path(engine.__file__).parent


def test_attributes() -> None:
    assert GAME.id == "sea_cross"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.state_type is State


@pytest.mark.parametrize("action", EVERY_ACTION, ids=lambda a: a.encode())
def test_encode_decode_round_trip(action: Action) -> None:
    text = GAME.encode_action(action)
    assert len(text) <= 5 and GAME.decode_action(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "X",
        "R,1",
        "E,6",
        "M",
        "M,1",
        "M,1,7",
        "M,0,3",
        "M,5,3",
        "M,1,3,4",
        "J",
        "J,5",
        "J,1,1",
        "M,a,3",
        "M,10,3",
        "r",
        "R ",
        "M,1,-1",
        "x" * 100,
    ],
)
def test_decode_refuses_malformed_text(text: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        GAME.decode_action(text)
    assert exc.value.code == "malformed"
    assert isinstance(exc.value, MalformedAction) and isinstance(exc.value, ValueError)


def test_apply_refuses_a_non_action_with_the_state_unchanged() -> None:
    s = GAME.new(PLAYERS, seed=1)
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, "R")  # type: ignore[arg-type]
    assert exc.value.code == "malformed" and s.model_dump_json() == before


def test_stale_and_wrong_phase_actions_are_refused() -> None:
    s = GAME.new(PLAYERS, seed=1)
    for text, code in [("E", "wrong_phase"), ("M,1,3", "wrong_phase"), ("J,1", "wrong_phase")]:
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(s, GAME.decode_action(text))
        assert exc.value.code == code
    s = act(roll(build({0: [10]}), 2, 3), "M,1,2")
    with pytest.raises(IllegalAction) as exc:  # the 2 is spent: a stale button
        GAME.apply(s, GAME.decode_action("M,1,2"))
    assert exc.value.code == "die_not_available"


def test_codes_are_exactly_the_codes_the_engine_uses() -> None:
    src = (PKG / "engine.py").read_text()
    body = src.split("CODES", 1)[1].split("\n)\n", 1)[1]  # past the tuple of codes
    body += (PKG.parent / "engine.py").read_text()  # the shared scaffolding
    used = set(re.findall(r'return "([a-z_]+)"', body))
    used |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', body))
    used |= set(re.findall(r'code = "([a-z_]+)"', body))
    used |= {"malformed"}
    assert len(CODES) == len(set(CODES))
    assert used == set(CODES)


def test_every_refusal_in_exhaustive_probing_has_a_known_code() -> None:
    seen: set[str] = set()
    for seed in range(6):
        s = GAME.new(PLAYERS, seed=seed)
        r = random.Random(seed)
        while not GAME.is_over(s):
            legal = GAME.legal_actions(s)
            for a in EVERY_ACTION:
                if a in legal:
                    continue
                with pytest.raises(IllegalAction) as exc:
                    GAME.apply(s, a)
                seen.add(exc.value.code)
            s, _ = GAME.apply(s, r.choice(legal))
    assert seen <= set(CODES)
    assert {"wrong_phase", "die_not_available", "in_reserve", "overshoot"} <= seen


def test_buttons_stay_few() -> None:
    """§5: at most 8 buttons for different dice, 5 for a double, never over 10."""
    for seed in range(8):
        s = GAME.new(PLAYERS, seed=seed)
        r = random.Random(seed)
        while not GAME.is_over(s):
            legal = GAME.legal_actions(s)
            double = len(s.dice) == 2 and s.dice[0] == s.dice[1]
            assert len(legal) <= (5 if double and s.phase.value == "await_move" else 8)
            s, _ = GAME.apply(s, r.choice(legal))


def test_view_is_public_and_complete() -> None:
    s = roll(build({0: [5], 1: [38]}), 3, 4)
    v = GAME.view(s, 101)
    assert v.me == 101 and v.me_seat == 0
    assert GAME.view(s, None).model_dump(exclude={"me", "me_seat"}) == v.model_dump(
        exclude={"me", "me_seat"}
    )
    assert GAME.view(s, 999).me is None
    assert [a.code for a in v.actions] == codes(s)
    assert v.dice == [3, 4] and v.unused == [3, 4] and not v.double
    assert v.to_act == 101 and v.to_act_seat == 0
    assert v.players[0].tokens[0].cell == (4, 7)
    assert v.last_move_cells == []
    v = GAME.view(act(s, "M,1,3"))
    assert v.last_move_cells == [(4, 7), (4, 10)]
    assert v.last_move is not None and v.last_move.kind == "move"


def test_json_round_trip_and_purity() -> None:
    s = GAME.new(PLAYERS, seed=11)
    again = State.model_validate_json(s.model_dump_json())
    assert again == s
    before = s.model_dump_json()
    s2, _ = GAME.apply(s, Action(type=ActionType.ROLL))
    assert s.model_dump_json() == before and s2.version == s.version + 1
    s3, _ = GAME.apply(s, Action(type=ActionType.ROLL))
    assert s3 == s2  # the same state and action always give the same result


def test_the_bot_s_formalities_are_the_roll_and_a_move_that_is_the_only_one() -> None:
    """§5 UI decision (`forced`): the roll, and a move that is the only legal one; a real
    choice and a finished game are left alone."""
    s = build({0: [10]})
    assert GAME.forced(s) == Action(type=ActionType.ROLL)
    only = roll(s, 3, 3)
    assert codes(only) == ["M,1,3"] and GAME.forced(only) == GAME.decode_action("M,1,3")
    assert GAME.forced(roll(s, 2, 5)) is None  # №1 +2 or №1 +5
    assert GAME.forced(s.model_copy(update={"phase": Phase.GAME_OVER})) is None


def test_each_roll_is_a_decision_of_its_own_for_the_timer() -> None:
    """`turn_key` names a roll and the moves it asks for: a double's extra roll, by the
    same player in the same turn, is a new decision."""
    s = roll(build({0: [10]}), 3, 3)
    assert GAME.turn_key(s) == "1.1"
    s = act(act(s, "M,1,3"), "M,1,3")  # a double: he rolls again
    assert s.current == 0 and GAME.turn_key(roll(s, 2, 5)) == "1.2"
    assert GAME.turn_key(s.model_copy(update={"phase": Phase.GAME_OVER})) is None


def test_a_timed_out_turn_is_the_whole_turn_in_canonical_order() -> None:
    """§5 AFK decision (`timeout_turn`): the roll, or the first legal action in canonical
    order, until the turn passes — a double's extra rolls included."""
    extra = 0
    for seed in range(6):
        s = GAME.new(PLAYERS[:3], seed=seed)
        for _ in range(15):
            player, turn = GAME.to_act(s), s.turn_no
            by_hand, events = s, []
            while not GAME.is_over(by_hand) and by_hand.turn_no == turn:
                assert GAME.to_act(by_hand) == player
                by_hand, ev = GAME.apply(by_hand, GAME.legal_actions(by_hand)[0])
                events.extend(ev)
            after, timed = GAME.timeout_turn(s)
            assert after == by_hand and timed == events
            extra += types(events).count("extra_roll")
            s = after
    assert extra  # the seeds still give a double


def test_the_engine_imports_only_stdlib_and_pydantic() -> None:
    allowed = {"__future__", "random", "collections", "enum", "typing", "pydantic", "games"}
    for path in PKG.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, (path.name, name)
