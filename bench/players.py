"""Strength and speed of the computer players: seeded self-play of every game's levels.

    python -m bench.players --json FILE [--games N] [--master-games M] [--only ID,...]
                            [--pairings NAME,...] [--quick] [--budget SECONDS]

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
  game's larger size (4 players, or its most if fewer are allowed).

Seats rotate with the seed, so no level keeps the first seat. «Семидорожник» is measured
on one-round games (its `single_round` option; a game to 144 is about ten rounds).
Decision times (CPU, `time.process_time`) are collected per game and level, and per
pairing: p50 and p99 of the decisions that had a choice (more than one legal action).
`--quick` plays 60 fast and 6 master games per pairing, for tuning. Run it niced:
`nice -n 19 python -m ...`.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import games
from games.players import computer_id, policy
from games.policy import Policy
from games.search import Master

#: engine options per game for the bench (a one-round «Семидорожник», see the module doc)
OPTIONS: dict[str, dict[str, Any]] = {"seven_tracks": {"single_round": True}}
#: games whose 2-player game is a house rule: the option that allows it (the `_2p` pairings)
HOUSE_DUEL: dict[str, dict[str, Any]] = {"cell_capture": {"allow_two_players": True}}
MAX_ACTIONS = 50_000


def _policies(game_id: str, levels: Sequence[str], budget: float | None) -> list[Policy[Any, Any]]:
    out: list[Policy[Any, Any]] = []
    for level in levels:
        p = policy(game_id, level)
        if budget is not None and isinstance(p, Master):
            p = p.with_budget(budget)
        out.append(p)
    return out


def play(
    game_id: str,
    levels: Sequence[str],
    seed: int,
    times: dict[str, list[float]] | None = None,
    budget: float | None = None,
    options: dict[str, Any] | None = None,
) -> list[float]:
    """One seeded game, seat i playing `levels[i]`; the place of each seat (1 = first).
    `times` collects each level's CPU seconds per decision that had a choice; `options`
    are the engine's (default: the bench's `OPTIONS` for the game)."""
    game = games.get(game_id)
    players = [computer_id(i) for i in range(len(levels))]
    chosen = _policies(game_id, levels, budget)
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
            start = time.process_time()
            action = chosen[seat].choose(game.view(state, player), legal, rng)
            if times is not None:
                times.setdefault(levels[seat], []).append(time.process_time() - start)
        state, _ = game.apply(state, action)
    else:
        raise RuntimeError(f"{game_id} seed {seed}: no end after {MAX_ACTIONS} actions")
    result = game.result(state)
    place = {s.player: s.place for s in result.standings}
    return [float(place[p]) for p in players]


def pairing(
    game_id: str,
    hero: str,
    other: str,
    size: int,
    n_games: int,
    times: dict[str, list[float]],
    budget: float | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`n_games` of one `hero` seat against `size - 1` seats of `other`, seats rotating
    (`options`: the engine's, as in `play`)."""
    won = {hero: 0.0, other: 0.0}
    places: dict[str, list[float]] = {hero: [], other: []}
    for g in range(n_games):
        levels = [other] * size
        hero_seat = g % size
        levels[hero_seat] = hero
        seed = 1_000_003 * (g + 1) + size
        result = play(game_id, levels, seed, times=times, budget=budget, options=options)
        firsts = [i for i, p in enumerate(result) if p == 1.0]
        for i in firsts:
            won[levels[i]] += 1 / len(firsts)
        for i, p in enumerate(result):
            places[levels[i]].append(p)
    out: dict[str, Any] = {
        "players": size,
        "games": n_games,
        "fair_share": round(1 / size, 4),
        "levels": {
            level: {
                "seats": 1 if level == hero else size - 1,
                "win_share": round(won[level] / n_games, 4),
                "mean_place": round(statistics.fmean(places[level]), 3),
            }
            for level in (hero, other)
        },
    }
    if options is not None:
        out["options"] = options
    return out


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
)


def bench_game(
    game_id: str,
    fast: int,
    slow: int,
    budget: float | None,
    pairings: Sequence[str] = PAIRINGS,
    saved: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """The `pairings` of one game (module doc) and its decision times."""
    duel, big = _sizes(game_id)
    times: dict[str, list[float]] = {}
    house = HOUSE_DUEL.get(game_id)
    two = None if house is None else {**OPTIONS.get(game_id, {}), **house}
    plan: list[tuple[str, str, str, int, int, dict[str, Any] | None]] = [
        ("experienced_vs_novice", "experienced", "novice", duel, fast, None),
        ("master_vs_experienced", "master", "experienced", duel, slow, None),
        ("experienced_vs_novice_2p", "experienced", "novice", 2, fast, two),
        ("master_vs_experienced_2p", "master", "experienced", 2, slow, two),
        ("experienced_vs_3_novices", "experienced", "novice", big, fast, None),
        ("master_vs_3_novices", "master", "novice", big, slow, None),
    ]
    out: dict[str, Any] = {"pairings": {}, "decision_ms": {}}
    for name, hero, other, size, n, options in plan:
        if name not in pairings or (name.endswith("_2p") and options is None):
            continue
        start = time.monotonic()
        own: dict[str, list[float]] = {}
        out["pairings"][name] = pairing(game_id, hero, other, size, n, own, budget, options)
        out["pairings"][name]["wall_seconds"] = round(time.monotonic() - start, 1)
        out["pairings"][name]["decision_ms"] = _times(own)
        for level, v in own.items():
            times.setdefault(level, []).extend(v)
        print(game_id, name, json.dumps(out["pairings"][name]["levels"]), flush=True)
        out["decision_ms"] = _times(times)
        if saved is not None:
            saved(out)
    print(game_id, "decision_ms", json.dumps(out["decision_ms"]), flush=True)
    return out


def _times(times: dict[str, list[float]]) -> dict[str, Any]:
    return {
        level: {
            "decisions": len(v),
            "p50": round(1000 * _percentile(v, 0.5), 2),
            "p99": round(1000 * _percentile(v, 0.99), 2),
            "max": round(1000 * max(v), 2),
        }
        for level, v in sorted(times.items())
        if v
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
    return out


def table(report: dict[str, Any]) -> str:
    """The report as Markdown: one row per game and pairing, then decision times."""
    rows = [
        "| game | pairing | players | games | hero's win share (fair) | hero's mean place "
        "| others' mean place |",
        "|---|---|---|---|---|---|---|",
    ]
    for game_id, data in report["games"].items():
        for name in PAIRINGS:
            p = data["pairings"].get(name)
            if p is None:
                continue
            hero, other = name.split("_vs_")[0], list(p["levels"])[1]
            h, o = p["levels"][hero], p["levels"][other]
            rows.append(
                f"| {game_id} | {name} | {p['players']} | {p['games']} "
                f"| {100 * h['win_share']:.1f} % ({100 * p['fair_share']:.0f} %) "
                f"| {h['mean_place']:.2f} | {o['mean_place']:.2f} |"
            )
    rows += [
        "",
        "| game | level | decisions | p50 ms | p99 ms | max ms |",
        "|---|---|---|---|---|---|",
    ]
    for game_id, data in report["games"].items():
        for level, t in data["decision_ms"].items():
            rows.append(
                f"| {game_id} | {level} | {t['decisions']} | {t['p50']} | {t['p99']} | {t['max']} |"
            )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.players", description=__doc__)
    parser.add_argument("--json", type=Path, help="write the results to this file")
    parser.add_argument("--games", type=int, default=1000, help="games per fast pairing")
    parser.add_argument("--master-games", type=int, default=100, help="games per master pairing")
    parser.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--quick", action="store_true", help="60 fast and 6 master games")
    parser.add_argument("--budget", type=float, default=None, help="master's CPU budget, s")
    parser.add_argument("--pairings", default="", help="comma-separated pairings (default: all)")
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
    fast, slow = (60, 6) if args.quick else (args.games, args.master_games)
    ids = [g for g in args.only.split(",") if g] or games.ids()
    pairings = [p for p in args.pairings.split(",") if p] or list(PAIRINGS)
    report: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine(),
        },
        "options": OPTIONS,
        "budget_s": args.budget,
        "games": {},
    }

    def save(game_id: str, part: dict[str, Any]) -> None:
        report["games"][game_id] = part
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")

    for game_id in ids:
        bench_game(game_id, fast, slow, args.budget, pairings, functools.partial(save, game_id))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
