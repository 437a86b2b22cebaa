"""Computer players (issue 14): every level of every game plays full games through the
engine, decides from the view alone (two states differing only in hidden information
give the same decision), repeats its decision for the same seed, and the «новичок»
always brings a game to its end."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

import games
from games.players import LEVELS, computer_id, decide, policy
from games.policy import Policy
from games.search import Master

OPTIONS: dict[str, dict[str, Any]] = {"seven_tracks": {"single_round": True}}
SIZES = {"cell_capture": 3}


def _quick(game_id: str, level: str) -> Policy[Any, Any]:
    p = policy(game_id, level)
    if isinstance(p, Master):
        return p.with_budget(0.004, iterations=1)
    return p


def _play(game_id: str, levels: list[str], seed: int) -> Any:
    game = games.get(game_id)
    players = [computer_id(i) for i in range(len(levels))]
    chosen = [_quick(game_id, lv) for lv in levels]
    state = game.new(players, seed=seed, options=OPTIONS.get(game_id))
    rng = random.Random(seed)
    for _ in range(20_000):
        player = game.to_act(state)
        if player is None:
            return state
        legal = game.legal_actions(state)
        action = chosen[players.index(player)].choose(game.view(state, player), legal, rng)
        assert action in legal
        state, _ = game.apply(state, action)
    raise AssertionError(f"{game_id}: no end after 20,000 actions")


@pytest.mark.parametrize("game_id", games.ids())
def test_every_level_plays_a_full_game(game_id: str) -> None:
    """Each level has its own policy and plays to the end against the others."""
    names = [policy(game_id, lv).name for lv in LEVELS]
    assert names == ["novice", "experienced", "master"]
    levels = list(LEVELS) if game_id == "cell_capture" else ["experienced", "master"]
    n = len(levels)
    state = _play(game_id, levels, seed=11)
    game = games.get(game_id)
    assert game.is_over(state)
    assert len(game.result(state).standings) == n


@pytest.mark.parametrize("game_id", games.ids())
def test_novices_always_finish(game_id: str) -> None:
    """A table of «новичок» ends by the rules, never at a guard (hypnosia's round limit)."""
    game = games.get(game_id)
    for seed, size in ((1, 4), (2, SIZES.get(game_id, 2))):
        state = _play(game_id, ["novice"] * size, seed=seed)
        assert game.is_over(state)
        if game_id == "hypnosia":
            assert state.end_reason.value != "round_limit"


def _hidden_twin(game_id: str, state: Any, seat: int) -> Any:
    """The same state with everything `seat` cannot see changed: the dice to come (the
    seed) and, in the games with hands, the other hands and the bank dealt anew."""
    twin = state.model_copy(deep=True)
    twin.seed = state.seed + 12345
    rng = random.Random(5)
    if game_id == "seven_tracks":
        pool = [t for x, h in enumerate(twin.hands) if x != seat for t in h] + twin.bank
        pool += twin.out
        rng.shuffle(pool)
        for x, h in enumerate(twin.hands):
            if x != seat:
                twin.hands[x] = [pool.pop() for _ in h]
        twin.out = [pool.pop() for _ in twin.out]
        twin.bank = pool
    if game_id == "dominas":
        pool = [t for x, h in enumerate(twin.hands) if x != seat for t in h] + twin.bazaar
        rng.shuffle(pool)
        for x, h in enumerate(twin.hands):
            if x != seat:
                new = {t: pool.pop() for t in h}  # each tile keeps its slot's number
                twin.hands[x] = [new[t] for t in h]
                twin.entered[x] = [new.get(t, t) for t in twin.entered[x]]
        twin.bazaar = pool
    return twin


def _positions(game_id: str, count: int) -> list[Any]:
    """Positions where a choice is to be made, after some seeded novice play."""
    game = games.get(game_id)
    det = importlib.import_module(f"games.{game_id}.determinize")
    out: list[Any] = []
    size = SIZES.get(game_id, 3)
    state = game.new(list(range(1, size + 1)), seed=3, options=OPTIONS.get(game_id))
    rng = random.Random(3)
    while len(out) < count and game.to_act(state) is not None:
        legal = game.legal_actions(state)
        view = game.view(state, game.to_act(state))
        sampleable = getattr(det, "sampleable", lambda v: True)
        if len(legal) > 1 and sampleable(view) and rng.random() < 0.2:
            out.append(state)
        state, _ = game.apply(state, rng.choice(legal))
    return out


@pytest.mark.parametrize("game_id", games.ids())
def test_decisions_depend_on_the_view_alone(game_id: str) -> None:
    """Two states differing only in hidden information give the same decision, at every
    level (with a search budget too large to run out, so the iteration cap decides)."""
    game = games.get(game_id)
    for state in _positions(game_id, 2):
        player = game.to_act(state)
        seat = state.players.index(player)
        twin = _hidden_twin(game_id, state, seat)
        assert twin != state
        view = game.view(state, player)
        assert game.view(twin, player) == view
        legal = game.legal_actions(state)
        for level in LEVELS:
            p = policy(game_id, level)
            if isinstance(p, Master):
                p = p.with_budget(10.0, iterations=2, horizon=3)
            a = p.choose(view, legal, random.Random(9))
            b = p.choose(game.view(twin, player), game.legal_actions(twin), random.Random(9))
            assert a == b, (game_id, level)


@pytest.mark.parametrize("game_id", games.ids())
def test_decide_is_deterministic(game_id: str) -> None:
    game = games.get(game_id)
    state = _positions(game_id, 1)[0]
    player = game.to_act(state)
    view, legal = game.view(state, player), game.legal_actions(state)
    for level in ("novice", "experienced"):
        assert decide(game_id, level, view, legal, seed=4) == decide(
            game_id, level, view, legal, seed=4
        )
    master = policy(game_id, "master")
    assert isinstance(master, Master)
    quick = master.with_budget(10.0, iterations=2, horizon=3)
    assert quick.choose(view, legal, random.Random(4)) == quick.choose(
        view, legal, random.Random(4)
    )


@pytest.mark.parametrize("game_id", games.ids())
def test_samples_match_the_view(game_id: str) -> None:
    """A determinization is a full state that shows the seat exactly its view."""
    game = games.get(game_id)
    det = importlib.import_module(f"games.{game_id}.determinize")
    for i, state in enumerate(_positions(game_id, 4)):
        player = game.to_act(state)
        view = game.view(state, player)
        sampled = det.sample(view, random.Random(i))
        assert game.view(sampled, player) == view
        assert game.legal_actions(sampled) == game.legal_actions(state)


def test_master_obeys_its_budget() -> None:
    """With a budget far below one rollout, the search stops at the guard and still
    answers with a legal move."""
    import time

    game = games.get("hypnosia")
    state = _positions("hypnosia", 1)[0]
    player = game.to_act(state)
    master = policy("hypnosia", "master")
    assert isinstance(master, Master)
    tight = master.with_budget(0.001, iterations=1000)
    start = time.process_time()
    action = tight.choose(game.view(state, player), game.legal_actions(state), random.Random(0))
    assert time.process_time() - start < 0.1
    assert action in game.legal_actions(state)


def test_bench_plays_the_house_rule_duel() -> None:
    """`bench.players` plays «Захват клеток»'s head-to-head also at 2 players, with the
    house-rule option `allow_two_players` (R1), beside its 3-seat rows; other games skip
    the `_2p` pairings."""
    from bench.players import bench_game

    out = bench_game(
        "cell_capture", 2, 0, 0.004, ["experienced_vs_novice", "experienced_vs_novice_2p"]
    )
    duel, house = (
        out["pairings"]["experienced_vs_novice"],
        out["pairings"]["experienced_vs_novice_2p"],
    )
    assert (duel["players"], house["players"], house["games"]) == (3, 2, 2)
    assert house["options"] == {"allow_two_players": True} and "options" not in duel
    assert set(house["decision_ms"]) == {"experienced", "novice"}
    assert bench_game("sea_cross", 2, 0, None, ["experienced_vs_novice_2p"])["pairings"] == {}
