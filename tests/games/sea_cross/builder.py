"""Build exact «Морской крест» positions and play actions, each state checked by invariants.py."""

from __future__ import annotations

import pytest

from games import Event, IllegalAction
from games.sea_cross import CODES, GAME, Action, ActionType, Phase, State, engine
from games.sea_cross.model import BASE, LOOP_LEN, TOKENS

from .invariants import check

PLAYERS = [101, 102, 103, 104]
B = BASE


def rel(arm: int, g: int) -> int:
    """The `rel` of loop index `g` for a token of `arm`."""
    return (g - 10 * arm) % LOOP_LEN


def build(tokens: dict[int, list[int]] | None = None, *, n: int = 4, current: int = 0) -> State:
    """Seat `current` to roll; `tokens[seat]` lists rel values (BASE = reserve), padded."""
    s = GAME.new(PLAYERS[:n], seed=1)
    s.tokens = [[B] * TOKENS for _ in range(n)]
    for seat, rels in (tokens or {}).items():
        s.tokens[seat] = [*rels, *[B] * (TOKENS - len(rels))]
    s.current = current
    s.phase = Phase.AWAIT_ROLL
    check(s)
    return s


def roll_ev(s: State, a: int, b: int) -> tuple[State, list[Event]]:
    """The player to act rolls exactly (a, b) (the engine's roll with chosen dice)."""
    assert GAME.legal_actions(s) == [Action(type=ActionType.ROLL)]
    s2 = s.model_copy(deep=True)
    events: list[Event] = []
    engine.start_roll(s2, [a, b], events)
    s2.version += 1
    check(s2, s)
    return s2, events


def roll(s: State, a: int, b: int) -> State:
    return roll_ev(s, a, b)[0]


def codes(s: State) -> list[str]:
    return [a.encode() for a in GAME.legal_actions(s)]


def act_ev(s: State, text: str) -> tuple[State, list[Event]]:
    s2, events = GAME.apply(s, GAME.decode_action(text))
    check(s2, s)
    return s2, events


def act(s: State, text: str) -> State:
    return act_ev(s, text)[0]


def refused(s: State, text: str, code: str) -> None:
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, GAME.decode_action(text))
    assert exc.value.code == code, (text, exc.value.code, code)
    assert exc.value.code in CODES
    assert s.model_dump_json() == before


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


EVERY_ACTION: list[Action] = [
    Action(type=ActionType.ROLL),
    Action(type=ActionType.ENTER),
    *(Action(type=ActionType.JUMP, token=t) for t in range(1, 5)),
    *(Action(type=ActionType.MOVE, token=t, die=d) for t in range(1, 5) for d in range(1, 7)),
]
