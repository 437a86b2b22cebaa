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


@pytest.mark.parametrize("game_id", games.ids())
def test_deciders_and_their_legal_actions_agree_with_to_act(game_id: str) -> None:
    """`deciders` holds `to_act` (never anyone once the game is over); `legal_actions`
    is the one to act's `legal_actions_for`; a player who is no decider may do nothing;
    whatever any decider may do, `apply` accepts. Played by random deciders' choices, so
    a simultaneous decision («Семидорожник»'s first-move window) is answered in any order."""
    game = games.get(game_id)
    n = min(game.max_players, max(game.min_players, 3))
    players = list(range(1, n + 1))
    for seed in range(3):
        s = game.new(players, seed=seed, options=None)
        r = random.Random(seed)
        for _ in range(120):
            deciders = game.deciders(s)
            if game.is_over(s):
                assert deciders == [] and game.to_act(s) is None
                break
            assert deciders and set(deciders) <= set(players)
            actor = game.to_act(s)
            assert actor is not None and actor in deciders
            assert game.legal_actions(s) == game.legal_actions_for(s, actor)
            for p in players:
                if p not in deciders:
                    assert game.legal_actions_for(s, p) == []
            decider = r.choice(deciders)
            legal = game.legal_actions_for(s, decider)
            assert legal
            s, _ = game.apply(s, r.choice(legal))
