"""Hand-built positions for the tests: tokens placed, dice rigged through the real RNG."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import IllegalAction
from games.hypnosia import GAME, Action, ActionType, Phase, Route, State
from games.hypnosia.model import CAPTURED, START

RED, BLUE = 0, 1


def build(
    n: int = 2,
    tokens: dict[int, dict[int, str]] | None = None,
    rest: str = START,
    centre: list[int] | None = None,
    current: int = 0,
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> State:
    """A game with `tokens[seat][number] = place`; other tokens at `rest` (S or X).

    `centre` lists the seats already holding fields 5, 4, … (their token places are the
    seat's highest numbers not named in `tokens`). Captured tokens (rest = X) count as lost
    to the next seat, so the score sums stay balanced (I5).
    """
    s = GAME.new(list(range(101, 101 + n)), seed=seed, options=options)
    s.tokens = [[rest] * 4 for _ in range(n)]
    for seat, places in (tokens or {}).items():
        for number, place in places.items():
            s.tokens[seat][number - 1] = place
    for i, seat in enumerate(centre or []):
        free = [t for t in range(4, 0, -1) if t not in (tokens or {}).get(seat, {})]
        taken = [t for t in free if not s.tokens[seat][t - 1].startswith("C")]
        s.tokens[seat][taken[0] - 1] = f"C{5 - i}"
    s.centre = list(centre or [])
    s.captured = [0] * n
    s.lost = [sum(1 for p in row if p == CAPTURED) for row in s.tokens]
    for seat in range(n):
        s.captured[(seat + 1) % n] += s.lost[seat]
    s.current = s.first = current
    s.phase = Phase.ROLL
    return s


def rig(s: State, d1: int, d2: int) -> State:
    """The same state, with the RNG counter set so that the next roll gives (d1, d2)."""
    c = s.rng_calls
    while True:
        rng = random.Random(f"{s.seed}:{c + 1}")
        if (rng.randint(1, 6), rng.randint(1, 6)) == (d1, d2):
            break
        c += 1
    return s.model_copy(update={"rng_calls": c})


def roll(s: State, d1: int, d2: int) -> State:
    """ROLL through the engine with the dice (d1, d2)."""
    s2, _ = GAME.apply(rig(s, d1, d2), Action(type=ActionType.ROLL))
    return s2


def mv(token: int, die: int, route: str = "r", pair: bool = False) -> Action:
    return Action(type=ActionType.MOVE, token=token, die=die, route=Route(route), pair=pair)


def act(s: State, token: int, die: int, route: str = "r", pair: bool = False) -> State:
    a = mv(token, die, route, pair)
    assert a in GAME.legal_actions(s), f"{a.encode()} not in {codes(s)}"
    s2, _ = GAME.apply(s, a)
    return s2


def codes(s: State) -> list[str]:
    return [a.encode() for a in GAME.legal_actions(s)]


def refused(
    s: State, code: str, token: int, die: int, route: str = "r", pair: bool = False
) -> None:
    a = mv(token, die, route, pair)
    assert a not in GAME.legal_actions(s)
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, a)
    assert exc.value.code == code
    assert s.model_dump_json() == before
