"""`games.copying.deep_copy`: the states' copy the engines change in place (apply, batch)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from pydantic import BaseModel, PrivateAttr

import games
from games.copying import deep_copy


def _states(game_id: str, n_games: int = 3, steps: int = 400) -> list[BaseModel]:
    """States met in random games of `game_id`, from the start to the end."""
    game: Any = games.get(game_id)
    out: list[BaseModel] = []
    for seed in range(n_games):
        rng = random.Random(seed)
        s = game.new(list(range(1, game.min_players + 2))[: game.max_players], seed)
        for _ in range(steps):
            out.append(s)
            if game.is_over(s):
                break
            legal = game.legal_actions(s)
            s, _ = game.apply(s, rng.choice(legal)) if legal else game.timeout(s)
    return out


def _mutables(x: Any) -> list[Any]:
    """Every list, dict and model inside `x`, `x` included."""
    found: list[Any] = []
    stack = [x]
    while stack:
        v = stack.pop()
        if isinstance(v, BaseModel):
            found.append(v)
            stack.extend(v.__dict__.values())
        elif isinstance(v, list | dict):
            found.append(v)
            stack.extend(v.values() if isinstance(v, dict) else v)
        elif isinstance(v, tuple):
            stack.extend(v)
    return found


@pytest.mark.parametrize("game_id", games.ids())
def test_a_copy_equals_its_state_and_shares_nothing_mutable(game_id: str) -> None:
    for s in _states(game_id):
        c = deep_copy(s)
        assert type(c) is type(s)
        assert c == s == s.model_copy(deep=True)
        assert c.model_dump_json() == s.model_dump_json()
        assert c.model_fields_set == s.model_fields_set
        shared = {id(v) for v in _mutables(s)} & {id(v) for v in _mutables(c)}
        assert not shared


@pytest.mark.parametrize("game_id", games.ids())
def test_changing_a_copy_leaves_the_state_as_it_was(game_id: str) -> None:
    """An engine's `apply` changes the copy in place: the state it was given stays."""
    game: Any = games.get(game_id)
    for s in _states(game_id, n_games=1)[::7]:
        before = s.model_dump_json()
        legal = [] if game.is_over(s) else game.legal_actions(s)
        for a in legal[:5]:
            game.apply(s, a)
        assert s.model_dump_json() == before


class _Secret(BaseModel):
    n: list[int]
    _note: list[int] = PrivateAttr(default_factory=list)


def test_private_attributes_and_other_values_are_copied_as_deepcopy_does() -> None:
    m = _Secret(n=[1, 2])
    m._note.append(3)
    c = deep_copy(m)
    assert c == m and c._note == [3] and c._note is not m._note and c.n is not m.n
    odd = {"a": ({1, 2}, [3])}  # a set: no state holds one, `copy.deepcopy` copies it
    d = deep_copy(odd)
    assert d == odd == copy.deepcopy(odd)
    assert d["a"][0] is not odd["a"][0] and d["a"][1] is not odd["a"][1]
    assert deep_copy(None) is None and deep_copy("x") == "x"
