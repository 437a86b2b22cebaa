"""«Гипнозия»: how long a game runs, in rounds, at 2–6 players (issue 31 point 3).

    python -m bench.hypnosia_length [--games N] [--master-games M] [--budget S] [--json FILE]

Per kind of play and player count it plays seeded games through the engine and prints
the rounds per game (median, mean, 90th percentile, most) and how the games ended:

* `random`: every seat picks a legal action at random (a player who presses anything);
* `novice`, `experienced`, `master`: every seat is that computer player, choosing from
  its own view — the novice is what the bot plays for an absent player (a timed-out turn)
  and for a vacated seat, the experienced what it plays for a seat handed to a computer;
* `absent`: one seat is absent (the novice plays it, as a timed-out turn does), the
  others press at random.

The master searches for `--budget` CPU seconds a decision (its own 0.25 s by default).
Run it niced: `nice -n 19 python -m bench.hypnosia_length`. docs/hypnosia-length.md has
the numbers before and after R17d.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

import games
from games.players import policy
from games.search import Master

GAME_ID = "hypnosia"
SIZES = (2, 3, 4, 5, 6)
Chooser = Callable[[Any, list[Any], random.Random, int], Any]  # view, legal, rng, seat


def _chooser(kind: str, budget: float | None) -> Chooser:
    if kind == "random":
        return lambda view, legal, rng, seat: rng.choice(legal)
    if kind == "absent":
        novice = policy(GAME_ID, "novice")

        def absent(view: Any, legal: list[Any], rng: random.Random, seat: int) -> Any:
            return novice.choose(view, legal, rng) if seat == 0 else rng.choice(legal)

        return absent
    level = policy(GAME_ID, kind)
    if budget is not None and isinstance(level, Master):
        level = level.with_budget(budget)
    chosen = level
    return lambda view, legal, rng, seat: chosen.choose(view, legal, rng)


def play(kind: str, players: int, seed: int, budget: float | None = None) -> tuple[int, str]:
    """One seeded game: its rounds and why it ended."""
    game = games.get(GAME_ID)
    choose = _chooser(kind, budget)
    s = game.new(list(range(1, players + 1)), seed=seed)
    rng = random.Random(f"length:{seed}")
    while not game.is_over(s):
        legal = game.legal_actions(s)
        player = game.to_act(s)
        seat = s.players.index(player)
        action = legal[0] if len(legal) == 1 else choose(game.view(s, player), legal, rng, seat)
        s, _ = game.apply(s, action)
    return s.round_no, str(s.end_reason)


def measure(kind: str, players: int, n_games: int, budget: float | None = None) -> dict[str, Any]:
    runs = [play(kind, players, seed, budget) for seed in range(n_games)]
    rounds = sorted(r for r, _ in runs)
    return {
        "play": kind,
        "players": players,
        "games": n_games,
        "median": statistics.median(rounds),
        "mean": round(statistics.fmean(rounds), 1),
        "p90": rounds[min(len(rounds) - 1, int(0.9 * len(rounds)))],
        "max": rounds[-1],
        "ends": dict(Counter(reason for _, reason in runs).most_common()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--master-games", type=int, default=10)
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows = []
    print("play         players games median  mean  p90  max  ends")
    for kind in ("random", "absent", "novice", "experienced", "master"):
        n_games = args.master_games if kind == "master" else args.games
        if n_games <= 0:
            continue
        for players in SIZES:
            row = measure(kind, players, n_games, args.budget)
            rows.append(row)
            ends = ", ".join(f"{k} {v}" for k, v in row["ends"].items())
            print(
                f"{kind:12} {players:7} {n_games:5} {row['median']:6} {row['mean']:5} "
                f"{row['p90']:4} {row['max']:4}  {ends}",
                flush=True,
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
