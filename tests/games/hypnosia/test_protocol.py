"""The game protocol (docs/spec/DESIGN.md): actions as text, refusals, purity, view, JSON."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

import games.hypnosia.engine as engine
from games import IllegalAction
from games.hypnosia import CODES, GAME, Action, ActionType, Phase, Route, State, View
from games.hypnosia.events import Captured, Moved

from ..facts import fact
from .builder import BLUE, RED, act, build, mv, roll

ALL_ACTIONS = [Action(type=ActionType.ROLL)] + [
    mv(t, d, r, p) for d in range(1, 7) for t in range(1, 5) for r in "rb" for p in (True, False)
]


def test_protocol_attributes() -> None:
    assert GAME.id == "hypnosia"
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    assert GAME.state_type is State
    assert len(set(CODES)) == len(CODES)


def test_encode_decode_round_trip_every_action() -> None:
    for a in ALL_ACTIONS:
        text = GAME.encode_action(a)
        assert len(text) <= 9
        assert GAME.decode_action(text) == a
    assert GAME.encode_action(mv(1, 3, "r", True)) == "M,1,3,r,p"
    assert GAME.encode_action(mv(4, 1, "b")) == "M,4,1,b"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "X",
        "R,1",
        "M",
        "M,1,3",
        "M,0,3,r",
        "M,5,3,r",
        "M,1,7,r",
        "M,1,0,r",
        "M,1,3,x",
        "M,1,3,r,q",
        "M,1,3,r,p,p",
        "M,01,3,r",
        "M,1,3,r,",
        "r",
        "M,a,3,r",
        "M,1,3,R",
        "M,1,3,r,p" + "x" * 40,
    ],
)
def test_decode_malformed(text: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        GAME.decode_action(text)
    assert exc.value.code == "malformed"


def test_action_fields_are_validated() -> None:
    with pytest.raises(ValidationError):
        Action(type=ActionType.ROLL, die=3)
    with pytest.raises(ValidationError):
        Action(type=ActionType.MOVE, token=1, die=3)
    with pytest.raises(ValidationError):
        Action(type=ActionType.MOVE, token=5, die=3, route=Route.RING)


def test_apply_refuses_non_actions_and_bypassed_validation() -> None:
    s = GAME.new([1, 2], seed=0)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, "R")  # type: ignore[arg-type]
    assert exc.value.code == "malformed"
    bad = Action.model_construct(type=ActionType.MOVE, token=9, die=9, route=Route.RING)
    s = roll(build(), 3, 4)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, bad)
    assert exc.value.code == "malformed"
    cases: list[dict[str, Any]] = [{"token": 9, "die": 3}, {"token": 1, "die": 3, "route": "x"}]
    for fields in cases:
        raw: dict[str, Any] = {"type": ActionType.MOVE, "route": Route.RING, **fields}
        bad = Action.model_construct(**raw)
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(s, bad)
        assert exc.value.code == "malformed"


def test_wrong_phase_stale_and_game_over_codes() -> None:
    s = build()
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, mv(1, 3))
    assert exc.value.code == "wrong_phase"
    s = roll(s, 3, 5)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, mv(1, 4))  # a die from another roll: stale
    assert exc.value.code == "no_such_die"
    over = roll(build(tokens={RED: {1: "3.2"}}, centre=[BLUE] * 4), 1, 2)
    over, _ = GAME.apply(over, mv(1, 1, "b"))
    for a in ALL_ACTIONS[:3]:
        with pytest.raises(IllegalAction) as exc:
            GAME.apply(over, a)
        assert exc.value.code == "game_over"
    assert GAME.remove(over, 101) == (over, [])


def test_apply_is_pure_and_counts_versions() -> None:
    s = build(tokens={RED: {1: "1.5"}, BLUE: {1: "1.9"}})
    s = roll(s, 4, 1)
    before = s.model_dump_json()
    s2, events = GAME.apply(s, mv(1, 4))
    assert s.model_dump_json() == before
    assert s2.version == s.version + 1
    assert [e.type for e in events] == ["moved", "captured"]
    assert events[0].seat == RED and fact(events[0], Moved).to == "1.9"
    assert events[1].data == Captured(victim=BLUE, tokens=[1], at="1.9")


def test_every_refusal_code_is_listed() -> None:
    """Every code `_why` can return over many positions is in CODES (and vice versa)."""
    import random

    seen: set[str] = set()
    for seed in range(6):
        s = GAME.new([1, 2, 3], seed=seed, options={"pairs_cross_bridges": seed % 2 == 1})
        r = random.Random(seed)
        for _ in range(400):
            if GAME.is_over(s):
                break
            for a in ALL_ACTIONS:
                code = engine._why(s, a)
                if code is not None:
                    seen.add(code)
            s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
    assert seen <= set(CODES)
    assert set(CODES) - seen <= {"game_over", "malformed", "not_a_player", "centre_needs_one"}


def test_view_is_public_and_complete() -> None:
    s = build(tokens={RED: {1: "1.5", 2: "1.5"}, BLUE: {1: "C5"}}, centre=[BLUE])
    s.tokens[BLUE][0] = "C5"
    s = roll(s, 4, 2)
    v = GAME.view(s, 101)
    assert isinstance(v, View)
    assert v.me == RED and GAME.view(s, None).me is None and GAME.view(s, 999).me is None
    assert v.board["1.5"].seat == RED and v.board["1.5"].tokens == [1, 2]
    assert v.centre == [BLUE, None, None, None, None]
    assert v.phase == Phase.MOVE and v.dice == [4, 2] and v.unused == [4, 2]
    assert v.current == RED and v.to_act == 101
    assert v.players[BLUE].centre_fields == [5] and v.players[BLUE].score == 5
    assert v.players[BLUE].place == 1 and v.players[RED].in_play == 4
    assert View.model_validate_json(v.model_dump_json()) == v


def test_json_round_trip_mid_game() -> None:
    s = act(roll(build(tokens={RED: {1: "1.27", 3: "1.27"}}), 4, 1), 1, 4)
    again = State.model_validate_json(s.model_dump_json())
    assert again == s and GAME.legal_actions(again) == GAME.legal_actions(s)
    with pytest.raises(ValidationError):
        State.model_validate_json(s.model_dump_json().replace('"1.31"', '"4.1"'))


def test_options_are_validated() -> None:
    with pytest.raises(ValidationError):
        GAME.new([1, 2], seed=0, options={"no_such_option": 1})
    assert GAME.new([1, 2], seed=0, options=None).options.round_limit == 200


def test_preview_describes_a_legal_move() -> None:
    s = build(tokens={RED: {1: "1.4", 2: "1.6", 3: "3.6"}, BLUE: {1: "1.9", 2: "1.9"}})
    s = act(roll(s, 2, 3), 1, 2)
    p = GAME.preview(s, mv(1, 3, pair=True))
    assert (p.tokens, p.src, p.dest, p.fields, p.captures) == ([1, 2], "1.6", "1.9", [], 2)
    t = roll(build(tokens={RED: {3: "3.6"}}, centre=[BLUE]), 1, 2)
    p = GAME.preview(t, mv(3, 1, "b"))
    assert (p.dest, p.fields, p.captures) == ("C", [4], 0)
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(t, mv(3, 2, "b"))
    assert exc.value.code == "centre_needs_one"
    with pytest.raises(IllegalAction) as exc:
        GAME.preview(build(), Action(type=ActionType.ROLL))
    assert exc.value.code == "wrong_phase"


def test_the_bot_s_formalities_are_the_roll_and_a_move_that_is_the_only_one() -> None:
    """§5 (`forced`): the roll, and a move that is the only legal one; a choice among
    moves, and a finished game, are left alone."""
    s = build(tokens={RED: {1: "3.1"}}, rest="X")
    assert GAME.forced(s) == Action(type=ActionType.ROLL)
    only = roll(s, 1, 1)
    assert GAME.forced(only) == mv(1, 1)  # the 1 takes №1 on to 3.2, the only move
    many = roll(build(tokens={RED: {1: "1.5", 2: "1.9"}}), 2, 5)
    assert len(GAME.legal_actions(many)) > 1 and GAME.forced(many) is None
    assert GAME.forced(s.model_copy(update={"phase": Phase.GAME_OVER})) is None


def test_a_turn_is_one_decision_for_the_timer() -> None:
    """`turn_key` is the turn: the roll and both dice belong to one decision."""
    s = build(tokens={RED: {1: "1.5", 2: "1.9"}})
    key = GAME.turn_key(s)
    moved = act(roll(s, 2, 5), 1, 2)
    assert moved.current == RED and GAME.turn_key(moved) == key
    assert GAME.turn_key(act(moved, 2, 5)) != key  # Борис's turn
    assert GAME.turn_key(s.model_copy(update={"phase": Phase.GAME_OVER})) is None
