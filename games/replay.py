"""Replaying a recorded game: its engine's `new` call and its steps, in order.

A step is an action's text (`game.encode_action`), a timed-out step (`TIMEOUT`: the
engine's `timeout`, which is deterministic), a whole timed-out decision (`TIMEOUT_TURN`:
its `timeout_turn`, games/automation.py) or a player removed (`REMOVE` and his id: the
engine's `remove`). The engines are pure and draw their chance from the seed in the
state, so the same start and steps always give the same final state.

    >>> import games
    >>> g = games.get("hypnosia")
    >>> s = g.new([1, 2], seed=3)
    >>> a = g.legal_actions(s)[0]
    >>> s2, _ = g.apply(s, a)
    >>> s3, _ = g.timeout(s2)
    >>> s4, _ = g.timeout_turn(s3)
    >>> steps = [g.encode_action(a), TIMEOUT, TIMEOUT_TURN]
    >>> replay("hypnosia", [1, 2], 3, None, steps) == s4
    True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel

import games
from games.automation import Automation

TIMEOUT = "~t"
TIMEOUT_TURN = "~T"
REMOVE = "~r"


def remove_step(player: int) -> str:
    """The step of `player` leaving or being removed.

    >>> remove_step(-2)
    '~r-2'
    """
    return f"{REMOVE}{player}"


def states(
    game_id: str,
    players: list[int],
    seed: int,
    options: dict[str, Any] | None,
    steps: Iterable[str],
) -> Iterator[BaseModel]:
    """The state at the start and after each step (an `IllegalAction` for a step the
    engine refuses: the record does not belong to this engine or version)."""
    game = games.get(game_id)
    state: BaseModel = game.new(players=list(players), seed=seed, options=options or None)
    yield state
    for step in steps:
        state = advance(game_id, state, step)
        yield state


def advance(game_id: str, state: BaseModel, step: str) -> BaseModel:
    """The state after one recorded step."""
    game = games.get(game_id)
    out: BaseModel
    if step == TIMEOUT:
        out, _ = game.timeout(state)
    elif step == TIMEOUT_TURN:
        assert isinstance(game, Automation)  # every registered engine (test_registry.py)
        out, _ = game.timeout_turn(state)
    elif step.startswith(REMOVE):
        out, _ = game.remove(state, int(step[len(REMOVE) :]))
    else:
        out, _ = game.apply(state, game.decode_action(step))
    return out


def replay(
    game_id: str,
    players: list[int],
    seed: int,
    options: dict[str, Any] | None,
    steps: Iterable[str],
) -> BaseModel:
    """The final state of the recorded game."""
    (last,) = deque(states(game_id, players, seed, options, steps), maxlen=1)
    return last
