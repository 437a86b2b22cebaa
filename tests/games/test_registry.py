"""Every registered engine implements the protocol the bot relies on (DESIGN)."""

from __future__ import annotations

import random

import pytest

import games
from games import IllegalAction
from games.automation import FORCED, Automation, settle


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


@pytest.mark.parametrize("game_id", games.ids())
def test_registered_game_implements_the_automation_extension(game_id: str) -> None:
    """games.automation: a forced action is one a decider may take, and settling stops
    where a real choice is left; a timed-out turn ends that decision; `turn_key` is None
    exactly when the game is over; `first_legal` and `batch` agree with `apply`; every
    action's encoding is a button's code (an upper-case letter first, no «:»)."""
    game = games.get(game_id)
    assert isinstance(game, Automation)
    n = min(game.max_players, max(game.min_players, 3))
    players = list(range(1, n + 1))
    for seed in range(3):
        s = game.new(players, seed=seed, options=None)
        r = random.Random(seed)
        for step in range(150):
            if game.is_over(s):
                assert game.turn_key(s) is None and game.forced(s) is None
                break
            assert game.turn_key(s) is not None
            forced = game.forced(s)
            if forced is not None:
                assert any(forced in game.legal_actions_for(s, p) for p in game.deciders(s))
            settled, events = settle(game, s)
            assert game.is_over(settled) or game.forced(settled) is None
            assert [e.type for e in events].count(FORCED) >= (forced is not None)
            s = settled
            if game.is_over(s):
                continue
            if step % 7 == 3 and not game.is_simultaneous(s):
                key = game.turn_key(s)
                after, _ = game.timeout_turn(s)
                assert game.is_over(after) or game.turn_key(after) != key
                s = after
                continue
            decider = r.choice(game.deciders(s))
            legal = game.legal_actions_for(s, decider)
            for a in legal:
                code = game.encode_action(a)
                assert code[:1].isascii() and code[:1].isupper() and ":" not in code
            wanted = r.choice(legal)
            if decider == game.to_act(s):
                assert game.first_legal(s, [wanted]) == wanted
                b = game.batch(s)
                assert b.first([wanted]) == wanted
                assert b.state == game.apply(s, wanted)[0]
            s, _ = game.apply(s, wanted)
