"""A state's JSON is canonical: `dump(load(dump(s))) == dump(s)` byte for byte, for every
game, for fresh states and for random reachable ones (the bot compares stored JSON to
decide whether a press changed anything, and Redis's compare-and-set stores it)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games

from .seeds import SEEDS

IDS = games.ids()


def _dump(state: Any) -> str:
    text: str = state.model_dump_json()
    return text


def assert_canonical(game: games.Game[Any, Any], state: Any) -> None:
    raw = _dump(state)
    again = game.state_type.model_validate_json(raw)
    assert _dump(again) == raw
    assert again == state


def _players(game: games.Game[Any, Any], n: int) -> list[int]:
    return list(range(101, 101 + max(game.min_players, min(n, game.max_players))))


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("n", [2, 3, 6])
def test_a_fresh_state_serialises_like_itself_read_back(game_id: str, n: int) -> None:
    """The defaults of a new state (seven_tracks' tile set) serialise as they read back."""
    game = games.get(game_id)
    assert_canonical(game, game.new(_players(game, n), seed=7))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game_id=st.sampled_from(IDS),
    n=st.integers(2, 6),
    seed=SEEDS,
    steps=st.integers(0, 400),
)
def test_random_reachable_states_serialise_canonically(
    game_id: str, n: int, seed: int, steps: int
) -> None:
    game = games.get(game_id)
    s = game.new(_players(game, n), seed=seed)
    r = random.Random(seed)
    for i in range(steps):
        if game.is_over(s):
            break
        if i % 7 == 0:
            assert_canonical(game, s)
        s, _ = game.apply(s, r.choice(game.legal_actions(s)))
    assert_canonical(game, s)
    if not game.is_over(s) and r.random() < 0.3:  # a player leaves (remove) on the way
        actor = game.to_act(s)
        s, _ = game.remove(s, actor if actor is not None else s.players[0])
        assert_canonical(game, s)
