"""The policy seam (games/policy.py): a policy reads a player's view only, so two states
that differ only in what he cannot see get the same decision; a timeout is `timeout`,
never a legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.dominas import GAME as DOMINAS
from games.dominas import State as DominasState
from games.dominas.engine import slot_numbers
from games.dominas.policies import NOVICE as DOMINAS_NOVICE
from games.hypnosia.policies import NOVICE as HYPNOSIA_NOVICE
from games.policy import Policy, choose_for, view_rng

from .seeds import SEEDS

# static check (mypy): the novices are policies over their game's view and action
_dominas: Policy[Any, Any] = DOMINAS_NOVICE
_hypnosia: Policy[Any, Any] = HYPNOSIA_NOVICE


class Bad:
    name = "bad"

    def choose(self, view: object, legal: Sequence[str], rng: random.Random) -> str:
        return "not legal"


def test_choose_for_checks_the_choice() -> None:
    with pytest.raises(ValueError, match="not legal"):
        choose_for(Bad(), None, ["a"], random.Random(0))
    with pytest.raises(ValueError, match="no legal action"):
        no_actions: list[str] = []
        choose_for(Bad(), None, no_actions, random.Random(0))


def test_view_rng_depends_on_the_view_and_the_purpose_only() -> None:
    g = games.get("hypnosia")
    s = g.new([1, 2], seed=1)
    v = g.view(s, 1)
    assert view_rng(v, "x").random() == view_rng(v.model_copy(), "x").random()
    assert view_rng(v, "x").random() != view_rng(v, "y").random()
    other = s.model_copy(update={"seed": 99, "rng_calls": 5})
    assert view_rng(g.view(other, 1), "x").random() == view_rng(v, "x").random()


def _hide_differently(s: DominasState, r: random.Random) -> DominasState:
    """The same position for the player to act, with everything he cannot see changed:
    the other hands swap tiles among themselves (their sizes and tile numbers kept), the bazaar is
    reshuffled, and the seed and RNG counter are different."""
    t = s.model_copy(deep=True)
    others = [x for x in range(len(t.players)) if x != t.current and t.present[x]]
    pool = [tile for x in others for tile in t.hands[x]] + list(t.bazaar)
    r.shuffle(pool)
    for x in others:
        k = len(t.hands[x])
        numbers = slot_numbers(s, x)  # public: each tile keeps its number in the new hand
        t.hands[x], pool = sorted(pool[:k]), pool[k:]
        for number, tile in zip(numbers, t.hands[x], strict=True):
            t.entered[x][number - 1] = tile
    t.bazaar = pool
    t.seed, t.rng_calls = s.seed + 1 + r.randrange(10**6), s.rng_calls + r.randrange(1, 9)
    return t


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=SEEDS, steps=st.integers(0, 80))
def test_dominas_novice_and_timeout_decide_the_same_whatever_is_hidden(
    n: int, seed: int, steps: int
) -> None:
    s = DOMINAS.new(list(range(1, n + 1)), seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if DOMINAS.is_over(s):
            return
        s, _ = DOMINAS.apply(s, r.choice(DOMINAS.legal_actions(s)))
    if DOMINAS.is_over(s):
        return
    t = _hide_differently(s, r)
    me = s.players[s.current]
    assert DOMINAS.view(s, me) == DOMINAS.view(t, me)  # the same for him ...
    assert s.model_dump_json() != t.model_dump_json() or (n == 2 and not s.bazaar)  # ... not all
    legal = DOMINAS.legal_actions(s)
    assert DOMINAS.legal_actions(t) == legal
    a = choose_for(DOMINAS_NOVICE, DOMINAS.view(s, me), legal, view_rng(DOMINAS.view(s, me), "x"))
    b = choose_for(DOMINAS_NOVICE, DOMINAS.view(t, me), legal, view_rng(DOMINAS.view(t, me), "x"))
    assert a == b
    assert DOMINAS.timeout_action(s) == DOMINAS.timeout_action(t)


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_has_a_timeout_that_advances_and_is_not_a_legal_action_choice(
    game_id: str,
) -> None:
    """games.protocol.Game.timeout: one step for the player to act, a new version."""
    g = games.get(game_id)
    s = g.new(list(range(1, 1 + max(3, g.min_players))), seed=3)
    s2, _ = g.timeout(s)
    assert s2.model_dump_json() != s.model_dump_json()
    assert (
        s.model_dump_json()
        == g.new(list(range(1, 1 + max(3, g.min_players))), seed=3).model_dump_json()
    )
