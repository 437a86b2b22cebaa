"""Every registered engine implements the protocol the bot relies on (DESIGN)."""

from __future__ import annotations

import random

import pytest

import games
from games import IllegalAction


@pytest.mark.parametrize("game_id", games.ids())
def test_registered_game_follows_the_protocol(game_id: str) -> None:
    game = games.get(game_id)
    assert game.id == game_id
    n = game.min_players
    s = game.new(list(range(1, n + 1)), seed=3, options=None)
    r = random.Random(3)
    for _ in range(50):
        if game.is_over(s):
            break
        assert game.to_act(s) in range(1, n + 1)
        actions = game.legal_actions(s)
        a = r.choice(actions)
        assert game.decode_action(game.encode_action(a)) == a
        assert len(game.encode_action(a)) <= 40
        s2, _ = game.apply(s, a)
        assert type(s2).model_validate_json(s2.model_dump_json()) == s2
        s = s2
    with pytest.raises(IllegalAction):
        game.decode_action("\x00garbage\x00")
    game.view(s, None)
    game.result(s)
