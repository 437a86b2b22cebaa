"""Strength and speed of the computer players: seeded self-play of every game's levels.

    python -m bench.players --json FILE [--games N] [--master-games M] [--only ID,...]
                            [--pairings NAME,...] [--quick] [--seeds SET | --seeds-file F]
                            [--budget SECONDS] [--wall SECONDS] [--iterations N]
                            [--rollouts N] [--jobs N] [--via-bot TABLES [--processes N]]
                            [--burn N] [--nice N] [--exact]

Per game and pairing it plays seeded games through the engine, every seat choosing with
`games.players.policy(game, level)` from its own view, and reports the games played and,
per level, the win share (a first place shared by k players counts 1/k) and the mean
place. Pairings, for each game:

* `experienced_vs_novice` and `master_vs_experienced`: head-to-head, one seat each in a
  2-player game (for «Захват клеток», which has 3–6 players, one seat against two in a
  3-player game);
* `experienced_vs_novice_2p` and `master_vs_experienced_2p`: the same head-to-head in a
  2-player game that only a house rule allows (`HOUSE_DUEL`: «Захват клеток» with its
  option `allow_two_players`, spec R1; other games skip these pairings);
* `experienced_vs_3_novices` and `master_vs_3_novices`: one seat against the others in the
  game's larger size (4 players, or its most if fewer are allowed);
* `experienced_vs_experienced_random_ties` and `master_vs_experienced_random_ties`
  («Захват клеток» only, `RANDOM_TIES`): the head-to-head against «опытный» that breaks
  its ties at random (`RandomTies`: it is handed the legal actions shuffled), a yardstick
  whose games differ from seed to seed; every other game of the pairing is a replay.

Games are numbered from 1: game k plays the engine's seed `1_000_003 * k + players`, and
the hero sits in seat `(k - 1) % players`, so seats rotate and no level keeps the first
seat. `--games N` / `--master-games M` play games 1..N / 1..M; `--seeds SET` (e.g.
`1-400`, `1-100,301-400`) or `--seeds-file F` (numbers and ranges, separated by commas or
white space) plays those game numbers in every chosen pairing. «Семидорожник» is measured
on one-round games (its `single_round` option; a game to 144 is about ten rounds).

Decision times are collected per game and level, and per pairing, of the decisions that
had a choice (more than one legal action): CPU (`time.process_time`) and wall
(`time.monotonic`) p50 and p99. For «мастер» also the decisions it searched
(`games.search.Master.last`), how many of them a guard cut short (`cut`: the CPU guard
or the wall-clock cap, `games.search.Search.cut`; its counted work ends the others),
the CPU per iteration and the iterations done.

`--budget`, `--wall`, `--iterations` and `--rollouts` override «мастер»'s guard, cap
and work (a calibration runs with guards that never fire: `--budget 100 --wall 100`;
the code before issue 30 was `--budget 0.25 --wall 1000 --rollouts 0`). `--jobs N`
plays the games in N processes (`0`: one per usable CPU); results do not depend on it
as long as no guard fires. `--via-bot TABLES` plays TABLES games at once, every decision
asked of the bot's own decision processes (`bot.decisions.Decisions`, `--processes N` of
them, default one per usable CPU as in the bot; `--processes 1`: the bot before issue
30): the wall time is then what a table waits for its computer's move. `--burn N` keeps
N other processes busy for the run, at the priority the bench started with, and `--nice
N` then lowers the bench's own priority by N (the bot's decision processes lower their
own by 10: `--nice 10` for the games played here): that is a loaded machine.

`--exact` plays «Захват клеток» «мастер» against two «опытный» once per hero seat and
first order (`exact`): nothing there is hidden or random but the first order, so that is
its exact win share. `--quick` plays 60 fast and 6 master games per pairing, for tuning.
A strength run alone is best niced: `nice -n 19 python -m ...`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import itertools
import json
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import games
from bot.cpus import usable_cpus
from bot.decisions import Decisions, default_decision_processes, make_job
from games.players import computer_id, policy
from games.policy import Policy
from games.search import Master

#: engine options per game for the bench (a one-round «Семидорожник», see the module doc)
OPTIONS: dict[str, dict[str, Any]] = {"seven_tracks": {"single_round": True}}
#: games whose 2-player game is a house rule: the option that allows it (the `_2p` pairings)
HOUSE_DUEL: dict[str, dict[str, Any]] = {"cell_capture": {"allow_two_players": True}}
#: games measured against «опытный» with ties broken at random (the `_random_ties` pairings)
RANDOM_TIES = ("cell_capture",)
MAX_ACTIONS = 50_000
TIES = "_random_ties"  # a level's suffix: the level, handed the legal actions shuffled

#: one decision with a choice: CPU s, wall s, and for a search (None: not searched) its
#: iterations done, planned, candidates and what cut it short (None: nothing)
Decision = tuple[float, float, "tuple[int, int, int, str | None] | None"]


class RandomTies:
    """A policy handed the legal actions in a random order: a deterministic heuristic that
    takes the first of its equally good actions («опытный»: `min`/`max` over a key) then
    breaks its ties at random, and plays differently from seed to seed."""

    def __init__(self, inner: Policy[Any, Any]) -> None:
        self.inner = inner
        self.name = inner.name + TIES

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        shuffled = list(legal)
        rng.shuffle(shuffled)
        return self.inner.choose(view, shuffled, rng)


def level_policy(game_id: str, level: str, master: dict[str, Any] | None) -> Policy[Any, Any]:
    """The policy of a bench level: a level of `games.players`, or one with `TIES`
    (`RandomTies`); «мастер» with the fields of `master` replaced (guard, iterations)."""
    base = level.removesuffix(TIES)
    p = policy(game_id, base)
    if master and isinstance(p, Master):
        p = dataclasses.replace(p, **master)
    return RandomTies(p) if level != base else p


def play(
    game_id: str,
    levels: Sequence[str],
    seed: int,
    times: dict[str, list[Decision]] | None = None,
    master: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    trace: Any = None,
) -> list[float]:
    """One seeded game, seat i playing `levels[i]`; the place of each seat (1 = first).
    `times` collects each level's decisions that had a choice (`Decision`); `master`
    replaces fields of «мастер» (`level_policy`); `options` are the engine's (default:
    the bench's `OPTIONS` for the game); `trace` (a hashlib object) is fed every action."""
    game = games.get(game_id)
    players = [computer_id(i) for i in range(len(levels))]
    chosen = [level_policy(game_id, level, master) for level in levels]
    if options is None:
        options = OPTIONS.get(game_id)
    state = game.new(players, seed=seed, options=options)
    rng = random.Random(f"bench:{seed}")
    for _ in range(MAX_ACTIONS):
        player = game.to_act(state)
        if player is None:
            break
        legal = game.legal_actions(state)
        seat = players.index(player)
        if len(legal) == 1:
            action = legal[0]
        else:
            p = chosen[seat]
            cpu, wall = time.process_time(), time.monotonic()
            action = p.choose(game.view(state, player), legal, rng)
            cpu, wall = time.process_time() - cpu, time.monotonic() - wall
            if times is not None:
                s = p.last if isinstance(p, Master) else None
                searched = None if s is None else (s.iterations, s.planned, s.candidates, s.cut)
                times.setdefault(levels[seat], []).append((cpu, wall, searched))
        if trace is not None:
            trace.update(game.encode_action(action).encode() + b";")
        state, _ = game.apply(state, action)
    else:
        raise RuntimeError(f"{game_id} seed {seed}: no end after {MAX_ACTIONS} actions")
    result = game.result(state)
    place = {s.player: s.place for s in result.standings}
    return [float(place[p]) for p in players]


def game_seed(k: int, size: int) -> int:
    """The engine's seed of game number `k` (from 1) at `size` players."""
    return 1_000_003 * k + size


def _one(
    game_id: str,
    levels: list[str],
    seed: int,
    master: dict[str, Any] | None,
    options: dict[str, Any] | None,
) -> tuple[list[float], dict[str, list[Decision]], str]:
    times: dict[str, list[Decision]] = {}
    trace = hashlib.sha256()
    return play(game_id, levels, seed, times, master, options, trace), times, trace.hexdigest()


#: how the games of a pairing are played: here, in `jobs` processes (`pairing`), or
#: through the bot's decision processes, `streams` tables at once (`via_bot`)
@dataclasses.dataclass(frozen=True)
class Via:
    jobs: int = 1
    streams: int = 0  # 0: not through the bot
    processes: int = 1  # the bot's decision processes (`streams` > 0)


def pairing(
    game_id: str,
    hero: str,
    other: str,
    size: int,
    seeds: int | Sequence[int],
    times: dict[str, list[Decision]],
    master: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    via: Via = Via(),
) -> dict[str, Any]:
    """One `hero` seat against `size - 1` seats of `other`, in the games numbered `seeds`
    (an int n: 1..n), the hero in seat `(k - 1) % size` (`options`: the engine's, as in
    `play`; `via`: in this process, in several, or through the bot's decision processes,
    which know nothing of `master`)."""
    numbers = list(range(1, seeds + 1)) if isinstance(seeds, int) else list(seeds)
    plans = []
    for k in numbers:
        levels = [other] * size
        levels[(k - 1) % size] = hero
        plans.append((game_id, levels, game_seed(k, size), master, options))
    traces: list[str] = []
    if via.streams:
        results = via_bot(game_id, [(p[1], p[2]) for p in plans], times, via, options, traces)
    else:
        with _pool(via.jobs) as starmap:
            played = starmap(_one, plans)
        results = []
        for result, own, trace in played:
            results.append(result)
            traces.append(trace)
            for level, v in own.items():
                times.setdefault(level, []).extend(v)
    won = {hero: 0.0, other: 0.0}
    places: dict[str, list[float]] = {hero: [], other: []}
    for (_, levels, *_rest), result in zip(plans, results, strict=True):
        firsts = [i for i, p in enumerate(result) if p == 1.0]
        for i in firsts:
            won[levels[i]] += 1 / len(firsts)
        for i, p in enumerate(result):
            places[levels[i]].append(p)
    n_games = len(numbers)
    out: dict[str, Any] = {
        "players": size,
        "games": n_games,
        "seeds": _ranges(numbers),
        # every action of every game, hashed: two runs with the same value played the
        # same games move for move (no decision depended on the machine's speed)
        "replay_sha": hashlib.sha256(" ".join(traces).encode()).hexdigest()[:16],
        "fair_share": round(1 / size, 4),
        "levels": {
            level: {
                "seats": 1 if level == hero else size - 1,
                "win_share": round(won[level] / max(1, n_games), 4),
                "interval95": _interval(won[level], n_games),
                "mean_place": round(statistics.fmean(places[level]), 3) if n_games else None,
            }
            for level in (hero, other)
        },
    }
    if via.streams:
        out["via_bot"] = {"streams": via.streams, "processes": via.processes}
    if options is not None:
        out["options"] = options
    return out


def via_bot(
    game_id: str,
    plans: list[tuple[list[str], int]],
    times: dict[str, list[Decision]],
    via: Via,
    options: dict[str, Any] | None = None,
    traces: list[str] | None = None,
) -> list[list[float]]:
    """The games `plans` (levels, seed), `via.streams` tables at once (dealt among them in
    turn), every decision with a choice asked of `via.processes` decision processes of
    the bot (`bot.decisions.Decisions.ask`) as the bot asks it: the wall time is the
    table's wait for its computer, queueing behind other tables included; the CPU and
    the search's report come from the process that searched (a decision not searched
    counts 0 CPU). The places of each game, in the order of `plans` (`traces`: each
    game's actions hashed, in that order)."""

    if options is None:
        options = OPTIONS.get(game_id)
    game = games.get(game_id)
    results: list[list[float]] = [[] for _ in plans]
    hashed = [hashlib.sha256() for _ in plans]

    async def table(decisions: Decisions, mine: list[int]) -> None:
        loop = asyncio.get_running_loop()
        for i in mine:
            levels, seed = plans[i]
            players = [computer_id(n) for n in range(len(levels))]
            state = game.new(players, seed=seed, options=options)
            rng = random.Random(f"bench:{seed}")
            while (player := game.to_act(state)) is not None:
                legal = game.legal_actions(state)
                action = legal[0]
                if len(legal) > 1:
                    level = levels[players.index(player)]
                    view = game.view(state, player)
                    job = make_job(game_id, level, view, legal, rng.getrandbits(48))
                    start = loop.time()
                    code, s = await decisions.ask(job)
                    wall = loop.time() - start
                    action = game.decode_action(code)
                    did = None if s is None else (s.iterations, s.planned, s.candidates, s.cut)
                    times.setdefault(level, []).append((0.0 if s is None else s.cpu, wall, did))
                hashed[i].update(game.encode_action(action).encode() + b";")
                state, _ = game.apply(state, action)
            place = {x.player: x.place for x in game.result(state).standings}
            results[i] = [float(place[x]) for x in players]

    async def run() -> None:
        decisions = Decisions(processes=via.processes)
        try:  # the processes started and warm before the tables play (not timed)
            warm = plans[0][1]
            players = [computer_id(n) for n in range(len(plans[0][0]))]
            first = game.new(players, seed=warm, options=options)
            view = game.view(first, game.to_act(first))
            job = make_job(game_id, "novice", view, game.legal_actions(first), 0)
            await asyncio.gather(*(decisions.ask(job) for _ in range(via.processes)))
            streams = [list(range(n, len(plans), via.streams)) for n in range(via.streams)]
            await asyncio.gather(*(table(decisions, mine) for mine in streams))
        finally:
            await decisions.close()

    asyncio.run(run())
    if traces is not None:
        traces.extend(h.hexdigest() for h in hashed)
    return results


@contextlib.contextmanager
def _pool(jobs: int) -> Iterator[Callable[..., list[Any]]]:
    """`starmap` in this process (`jobs` ≤ 1) or in `jobs` forked ones, in order."""
    if jobs <= 1:
        yield lambda fn, plans: list(itertools.starmap(fn, plans))
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield lambda fn, plans: pool.starmap(fn, plans, chunksize=1)


def _interval(wins: float, n: int) -> list[float] | None:
    """The normal 95 % interval of a share of `n` games, in percent."""
    if n == 0:
        return None
    p = wins / n
    half = 1.96 * (p * (1 - p) / n) ** 0.5
    return [round(100 * max(0.0, p - half), 1), round(100 * min(1.0, p + half), 1)]


def parse_seeds(spec: str) -> list[int]:
    """Game numbers from "1-400", "1-100,301-400 7" (commas or white space; in order,
    each once).

    >>> parse_seeds("1-3, 7 5-6 2")
    [1, 2, 3, 7, 5, 6]
    """
    out: dict[int, None] = {}
    for part in spec.replace(",", " ").split():
        lo, _, hi = part.partition("-")
        first, last = int(lo), int(hi or lo)
        if first < 1 or last < first:
            raise ValueError(f"not a range of game numbers from 1: {part!r}")
        out.update(dict.fromkeys(range(first, last + 1)))
    return list(out)


def _ranges(numbers: Sequence[int]) -> str:
    """Game numbers as ranges: [1, 2, 3, 7] → "1-3,7"."""
    out: list[str] = []
    for _, run in itertools.groupby(enumerate(numbers), key=lambda x: x[1] - x[0]):
        block = [n for _, n in run]
        out.append(str(block[0]) if len(block) == 1 else f"{block[0]}-{block[-1]}")
    return ",".join(out)


def _sizes(game_id: str) -> tuple[int, int]:
    game = games.get(game_id)
    duel = 3 if game_id == "cell_capture" else max(2, game.min_players)
    return duel, min(4, game.max_players) if game.max_players > duel else duel


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


PAIRINGS = (
    "experienced_vs_novice",
    "master_vs_experienced",
    "experienced_vs_novice_2p",
    "master_vs_experienced_2p",
    "experienced_vs_3_novices",
    "master_vs_3_novices",
    "experienced_vs_experienced" + TIES,
    "master_vs_experienced" + TIES,
)


def bench_game(
    game_id: str,
    fast: int | Sequence[int],
    slow: int | Sequence[int],
    budget: float | None,
    pairings: Sequence[str] = PAIRINGS,
    saved: Callable[[dict[str, Any]], None] | None = None,
    master: dict[str, Any] | None = None,
    via: Via = Via(),
) -> dict[str, Any]:
    """The `pairings` of one game (module doc) and its decision times: `fast` and `slow`
    are the games of the pairings without and with «мастер» (a count n: games 1..n, or
    the game numbers); `budget` and `master` replace «мастер»'s fields; `via`: how the
    games are played (`pairing`)."""
    duel, big = _sizes(game_id)
    times: dict[str, list[Decision]] = {}
    house = HOUSE_DUEL.get(game_id)
    two = None if house is None else {**OPTIONS.get(game_id, {}), **house}
    ties = game_id in RANDOM_TIES
    if budget is not None:
        master = {**(master or {}), "budget": budget}
    plan: list[tuple[str, str, str, int, int | Sequence[int], dict[str, Any] | None, bool]] = [
        ("experienced_vs_novice", "experienced", "novice", duel, fast, None, True),
        ("master_vs_experienced", "master", "experienced", duel, slow, None, True),
        ("experienced_vs_novice_2p", "experienced", "novice", 2, fast, two, two is not None),
        ("master_vs_experienced_2p", "master", "experienced", 2, slow, two, two is not None),
        ("experienced_vs_3_novices", "experienced", "novice", big, fast, None, True),
        ("master_vs_3_novices", "master", "novice", big, slow, None, True),
        (PAIRINGS[6], "experienced", "experienced" + TIES, duel, fast, None, ties),
        (PAIRINGS[7], "master", "experienced" + TIES, duel, slow, None, ties),
    ]
    out: dict[str, Any] = {"pairings": {}, "decision_ms": {}}
    for name, hero, other, size, n, options, playable in plan:
        if name not in pairings or not playable:
            continue
        start = time.monotonic()
        own: dict[str, list[Decision]] = {}
        out["pairings"][name] = pairing(game_id, hero, other, size, n, own, master, options, via)
        out["pairings"][name]["wall_seconds"] = round(time.monotonic() - start, 1)
        out["pairings"][name]["decision_ms"] = _times(own)
        for level, v in own.items():
            times.setdefault(level, []).extend(v)
        print(game_id, name, json.dumps(out["pairings"][name]["levels"]), flush=True)
        print(game_id, name, json.dumps(out["pairings"][name]["decision_ms"]), flush=True)
        out["decision_ms"] = _times(times)
        if saved is not None:
            saved(out)
    print(game_id, "decision_ms", json.dumps(out["decision_ms"]), flush=True)
    return out


def _ms(values: list[float], q: float) -> float:
    return round(1000 * _percentile(values, q), 2)


def _times(times: dict[str, list[Decision]]) -> dict[str, Any]:
    """Per level: CPU and wall ms of the decisions with a choice (p50, p99, max); for a
    search also its own times, the share cut by a guard, and the CPU per iteration."""
    out: dict[str, Any] = {}
    for level, v in sorted(times.items()):
        if not v:
            continue
        cpu, wall = [d[0] for d in v], [d[1] for d in v]
        row: dict[str, Any] = {
            "decisions": len(v),
            "p50": _ms(cpu, 0.5),
            "p99": _ms(cpu, 0.99),
            "max": round(1000 * max(cpu), 2),
            "wall_p50": _ms(wall, 0.5),
            "wall_p99": _ms(wall, 0.99),
            "wall_max": round(1000 * max(wall), 2),
        }
        searches = [(c, w, s) for c, w, s in v if s is not None]
        if searches:
            s_cpu, s_wall = [c for c, _, _ in searches], [w for _, w, _ in searches]
            cuts = [s[3] for _, _, s in searches if s[3] is not None]
            # the CPU of one iteration, from the searches that did at least one
            per = [c / s[0] for c, _, s in searches if s[0] > 0]
            row["searched"] = {
                "decisions": len(searches),
                "p50": _ms(s_cpu, 0.5),
                "p99": _ms(s_cpu, 0.99),
                "max": round(1000 * max(s_cpu), 2),
                "wall_p50": _ms(s_wall, 0.5),
                "wall_p99": _ms(s_wall, 0.99),
                "wall_max": round(1000 * max(s_wall), 2),
                "cut": len(cuts),
                "cut_cpu": cuts.count("cpu"),
                "cut_wall": cuts.count("wall"),
                "cut_share": round(len(cuts) / len(searches), 4),
                "iterations_p50": _percentile([float(s[0]) for _, _, s in searches], 0.5),
                "planned": max(s[1] for _, _, s in searches),
                "candidates_max": max(s[2] for _, _, s in searches),
                "iteration_ms_p50": _ms(per, 0.5) if per else None,
                "iteration_ms_p99": _ms(per, 0.99) if per else None,
                "iteration_ms_p999": _ms(per, 0.999) if per else None,
                "iteration_ms_max": round(1000 * max(per), 2) if per else None,
            }
        out[level] = row
    return out


def exact(
    game_id: str = "cell_capture",
    hero: str = "master",
    other: str = "experienced",
    size: int = 3,
    master: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A game where nothing is hidden or random but the first order («Захват клеток»):
    one game per hero seat and first order (each found by trying seeds), so the hero's
    exact win share over uniformly random seeds, and the result per hero's place in the
    first order (the same in every game of that place when the others are alike and
    deterministic: `same` says whether it was)."""
    game = games.get(game_id)
    players = [computer_id(i) for i in range(size)]
    n_orders = len(list(itertools.permutations(range(size))))
    found: dict[tuple[int, ...], int] = {}
    seed = 0
    while len(found) < n_orders:
        seed += 1
        found.setdefault(tuple(game.new(players, seed=seed).order), seed)
    by_place: dict[int, list[float]] = {}
    for hero_seat in range(size):
        levels = [other] * size
        levels[hero_seat] = hero
        for order, s in sorted(found.items()):
            result = play(game_id, levels, s, master=master)
            firsts = [i for i, p in enumerate(result) if p == 1.0]
            share = 1 / len(firsts) if hero_seat in firsts else 0.0
            by_place.setdefault(order.index(hero_seat) + 1, []).append(share)
    shares = [x for v in by_place.values() for x in v]
    return {
        "players": size,
        "games": len(shares),
        "win_share": round(statistics.fmean(shares), 4),
        "by_first_order_place": {
            str(place): {"win_share": round(statistics.fmean(v), 4), "same": len(set(v)) == 1}
            for place, v in sorted(by_place.items())
        },
    }


def merge(files: Sequence[Path]) -> dict[str, Any]:
    """One report from several runs (say, the fast and the master pairings run apart):
    pairings side by side, decision times of a level from the run with more of them."""
    out: dict[str, Any] = {}
    for path in files:
        part = json.loads(path.read_text())
        if not out:
            out = {**part, "games": {}}
        for game_id, data in part["games"].items():
            into = out["games"].setdefault(game_id, {"pairings": {}, "decision_ms": {}})
            into["pairings"].update(data["pairings"])
            for level, t in data["decision_ms"].items():
                have = into["decision_ms"].get(level)
                if have is None or have["decisions"] < t["decisions"]:
                    into["decision_ms"][level] = t
            if "exact" in data:
                into["exact"] = data["exact"]
    return out


def table(report: dict[str, Any]) -> str:
    """The report as Markdown: one row per game and pairing, then decision times."""
    rows = [
        "| game | pairing | players | games | hero's win share (fair) | 95 % interval "
        "| hero's mean place | others' mean place |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game_id, data in report["games"].items():
        for name in PAIRINGS:
            p = data["pairings"].get(name)
            if p is None:
                continue
            hero, other = list(p["levels"])
            h, o = p["levels"][hero], p["levels"][other]
            lo, hi = h.get("interval95") or ("—", "—")
            rows.append(
                f"| {game_id} | {name} | {p['players']} | {p['games']} "
                f"| {100 * h['win_share']:.1f} % ({100 * p['fair_share']:.0f} %) | {lo}–{hi} % "
                f"| {h['mean_place']:.2f} | {o['mean_place']:.2f} |"
            )
    rows += [
        "",
        "| game | level | decisions | CPU p50 / p99 / max ms | wall p50 / p99 ms "
        "| searched | searched CPU p50 / p99 ms | wall p50 / p99 ms | cut by a guard |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for game_id, data in report["games"].items():
        for level, t in data["decision_ms"].items():
            s = t.get("searched")
            more = (
                f"| {s['decisions']} | {s['p50']} / {s['p99']} | {s['wall_p50']} / "
                f"{s['wall_p99']} | {s['cut']} ({100 * s['cut_share']:.2f} %) |"
                if s
                else "| — | — | — | — |"
            )
            rows.append(
                f"| {game_id} | {level} | {t['decisions']} | {t['p50']} / {t['p99']} / "
                f"{t['max']} | {t.get('wall_p50', '—')} / {t.get('wall_p99', '—')} {more}"
            )
    return "\n".join(rows)


def _burn(stop: Any) -> None:
    """Keep a CPU busy until `stop` is set (`--burn`)."""
    n = 0
    while not stop.is_set():
        for _ in range(100_000):
            n += 1


@contextlib.contextmanager
def burning(n: int) -> Iterator[None]:
    """`n` processes burning a CPU each, for the block (at this process's priority)."""
    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    procs = [ctx.Process(target=_burn, args=(stop,), daemon=True) for _ in range(n)]
    for p in procs:
        p.start()
    try:
        yield
    finally:
        stop.set()
        for p in procs:
            p.join(5)
            if p.is_alive():
                p.kill()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.players",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", type=Path, help="write the results to this file")
    parser.add_argument("--games", type=int, default=1000, help="games per fast pairing")
    parser.add_argument("--master-games", type=int, default=100, help="games per master pairing")
    parser.add_argument("--seeds", default="", help="game numbers of every pairing: 1-400")
    parser.add_argument("--seeds-file", type=Path, help="game numbers, from a file")
    parser.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--quick", action="store_true", help="60 fast and 6 master games")
    parser.add_argument("--budget", type=float, default=None, help="master's CPU guard, s")
    parser.add_argument("--wall", type=float, default=None, help="master's wall-clock cap, s")
    parser.add_argument("--iterations", type=int, default=None, help="master's iterations")
    parser.add_argument("--pairings", default="", help="comma-separated pairings (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing (0: the CPUs)")
    parser.add_argument(
        "--via-bot", type=int, default=0, metavar="TABLES", help="through the bot's processes"
    )
    parser.add_argument(
        "--processes", type=int, default=0, help="the bot's decision processes (0: its default)"
    )
    parser.add_argument("--rollouts", type=int, default=None, help="master's rollouts (0: none)")
    parser.add_argument("--burn", type=int, default=0, help="processes burning a CPU meanwhile")
    parser.add_argument("--nice", type=int, default=0, help="lower the bench's own priority")
    parser.add_argument("--exact", action="store_true", help="Захват клеток: every first order")
    parser.add_argument(
        "--merge", nargs="*", type=Path, default=[], help="join these result files into --json"
    )
    args = parser.parse_args(argv)
    if args.merge:
        assert args.json is not None, "--merge needs --json"
        merged = merge(args.merge)
        args.json.write_text(json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
        print(table(merged))
        return 0
    fast: int | list[int]
    slow: int | list[int]
    fast, slow = (60, 6) if args.quick else (args.games, args.master_games)
    if args.seeds or args.seeds_file is not None:
        spec = args.seeds if args.seeds_file is None else args.seeds_file.read_text()
        fast = slow = parse_seeds(spec)
    ids = [g for g in args.only.split(",") if g] or games.ids()
    pairings = [p for p in args.pairings.split(",") if p] or list(PAIRINGS)
    jobs = args.jobs if args.jobs > 0 else usable_cpus()
    master: dict[str, Any] = {}
    for name in ("budget", "wall", "iterations", "rollouts"):
        if getattr(args, name) is not None:
            master[name] = getattr(args, name)
    if master.get("rollouts") == 0:
        master["rollouts"] = None
    processes = args.processes or default_decision_processes()
    via = Via(jobs=jobs, streams=args.via_bot, processes=processes)
    if via.streams and master:
        parser.error("--via-bot plays the bot's own «мастер»: no --budget, --wall, ...")
    report: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "cpus": os.cpu_count(),
            "usable_cpus": usable_cpus(),
            "processor": platform.processor() or platform.machine(),
            "load_average_at_start": list(os.getloadavg()),
        },
        "options": OPTIONS,
        "master": master,
        "jobs": jobs,
        "via_bot": {"tables": via.streams, "processes": processes} if via.streams else None,
        "burn": args.burn,
        "nice": args.nice,
        "games": {},
    }

    started = time.monotonic()

    def save(game_id: str, part: dict[str, Any]) -> None:
        report["games"][game_id] = part
        report["machine"]["load_average_now"] = list(os.getloadavg())
        # the CPU this bench (and its processes) got: its share of one core, on average
        t = os.times()
        used = t.user + t.system + t.children_user + t.children_system
        report["cpu_of_a_core"] = round(used / max(1e-9, time.monotonic() - started), 2)
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")

    with burning(args.burn):
        if args.nice:
            os.nice(args.nice)
        for game_id in ids:
            part = bench_game(
                game_id, fast, slow, None, pairings, functools.partial(save, game_id), master, via
            )
            if args.exact and game_id == "cell_capture":
                part["exact"] = exact(master=master)
                print(game_id, "exact", json.dumps(part["exact"]), flush=True)
                save(game_id, part)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
