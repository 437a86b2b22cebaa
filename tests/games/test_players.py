"""Computer players (issue 14): every level of every game plays full games through the
engine, decides from the view alone (two states differing only in hidden information
give the same decision), repeats its decision for the same seed, and the «новичок»
always brings a game to its end."""

from __future__ import annotations

import dataclasses
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


def _searched(game_id: str) -> tuple[Any, list[Any], Master]:
    """A position whose decision «мастер» searches, its legal actions and the master."""
    game = games.get(game_id)
    master = policy(game_id, "master")
    assert isinstance(master, Master)
    for state in _positions(game_id, 12):
        view, legal = game.view(state, game.to_act(state)), game.legal_actions(state)
        trivial = master.trivial is not None and master.trivial(view, legal)
        candidates = master.prune(view, legal) if master.prune is not None else legal
        if not trivial and 2 <= len(candidates) <= 4:
            return view, legal, master
    raise AssertionError(f"{game_id}: no searched position")


@pytest.mark.parametrize("game_id", games.ids())
def test_master_work_is_counted_so_its_decision_repeats(game_id: str) -> None:
    """Issue 30: with its own work and CPU guard (no test budget) «мастер» does its counted
    work — the guard, a safety net, does not fire — so the same view, legal actions and seed give
    the same decision on any machine under any load."""
    view, legal, master = _searched(game_id)
    # its own CPU guard; the wall-clock cap raised, for a test machine busy with others
    master = dataclasses.replace(master, wall=30.0)
    first = master.choose(view, legal, random.Random(7))
    report = master.last
    assert report is not None and report.cut is None, report
    assert report.iterations + report.skipped == report.planned
    assert report.planned == master.planned(report.candidates)
    assert master.choose(view, legal, random.Random(7)) == first
    assert master.last is not None and master.last.iterations == report.iterations


def test_the_guards_say_when_they_fire(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CPU guard and the wall-clock cap end a search early, and `last.cut` says which
    (the bench counts them, the bot logs them)."""
    view, legal, master = _searched("hypnosia")
    tight = master.with_budget(0.0, iterations=1000)
    assert tight.choose(view, legal, random.Random(0)) in legal
    assert tight.last is not None and tight.last.cut == "cpu"
    assert tight.last.iterations < 1000 and tight.last.planned == 1000
    clock = iter(float(x) for x in range(10**6))  # a second of wall time per reading
    monkeypatch.setattr("games.search.time.monotonic", lambda: next(clock))
    stalled = master.with_budget(100.0, iterations=1000, wall=2.5)
    assert stalled.choose(view, legal, random.Random(0)) in legal
    assert stalled.last is not None and stalled.last.cut == "wall"
    assert stalled.last.iterations == 0  # cut in the first iteration: the fallback's move


def test_a_sample_on_which_a_candidate_is_illegal_is_dropped() -> None:
    """A determinization may miss a hidden fact that the real legal actions reveal
    («Семидорожник»: the fifth-tile swap needs a tile in the bank other than an FM): on
    such a sample a candidate cannot be played, and the search drops the sample instead
    of failing."""
    from games.protocol import IllegalAction

    view, legal, master = _searched("hypnosia")
    game = master.game
    target = legal[-1]
    refused: list[bool] = []

    class Picky:
        """The game, except that every other sample refuses the candidate `target`."""

        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def apply(self, state: Any, action: Any) -> Any:
            if action is target:  # the candidate itself (a rollout's actions are copies)
                refused.append(len(refused) % 2 == 0)
                if refused[-1]:
                    raise IllegalAction("test")
            return game.apply(state, action)

    picky = dataclasses.replace(master, game=Picky(), iterations=6, rollouts=None, wall=30.0)
    assert picky.choose(view, legal, random.Random(3)) in legal
    assert picky.last is not None and picky.last.cut is None
    assert (picky.last.iterations, picky.last.skipped) == (3, 3)


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


def test_bench_plays_a_seed_set_and_counts_the_guard() -> None:
    """`bench.players` plays the game numbers it is given (`--seeds 1-400`), the hero's
    seat rotating with the number, and reports per level the CPU and wall times and, for
    «мастер», its searches and how many a guard cut short."""
    from bench.players import Via, bench_game, parse_seeds

    seeds = parse_seeds("4-5")
    out = bench_game(
        "sea_cross", seeds, seeds, None, ["master_vs_experienced"], master={"iterations": 1}
    )
    p = out["pairings"]["master_vs_experienced"]
    assert (p["games"], p["seeds"]) == (2, "4-5")
    searched = p["decision_ms"]["master"]["searched"]
    assert searched["decisions"] > 0 and searched["planned"] == 1
    assert searched["cut"] == 0 and searched["cut_share"] == 0.0
    assert {"wall_p50", "wall_p99", "iteration_ms_p99"} <= set(searched)
    # the same games move for move when played in two processes (nothing is timed)
    twice = bench_game(
        "sea_cross",
        seeds,
        seeds,
        None,
        ["master_vs_experienced"],
        master={"iterations": 1},
        via=Via(jobs=2),
    )
    assert twice["pairings"]["master_vs_experienced"]["replay_sha"] == p["replay_sha"]
    tight = bench_game("sea_cross", [4], [4], 0.0, ["master_vs_experienced"])
    cut = tight["pairings"]["master_vs_experienced"]["decision_ms"]["master"]["searched"]
    assert cut["cut"] == cut["decisions"] == cut["cut_cpu"] > 0


def test_bench_breaks_the_ties_of_a_level_at_random() -> None:
    """«опытный» with its ties broken at random (`RandomTies`): a yardstick that plays
    differently from seed to seed where «опытный» itself never does."""
    from bench.players import RandomTies, level_policy

    game = games.get("cell_capture")
    state = game.new([1, 2, 3], seed=3)
    plain = policy("cell_capture", "experienced")
    ties = level_policy("cell_capture", "experienced_random_ties", None)
    assert isinstance(ties, RandomTies) and ties.name == "experienced_random_ties"
    varied = 0
    while game.to_act(state) is not None and not varied:
        view, legal = game.view(state, game.to_act(state)), game.legal_actions(state)
        assert len({plain.choose(view, legal, random.Random(s)) for s in range(8)}) == 1
        chosen = {ties.choose(view, legal, random.Random(s)) for s in range(8)}
        varied += len(chosen) > 1
        state, _ = game.apply(state, plain.choose(view, legal, random.Random(0)))
    assert varied
