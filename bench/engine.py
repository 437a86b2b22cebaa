"""Engine speed: random full games per second, per-action latency and state size.

    python -m bench.engine [--games N]

Prints numbers only; the baseline in the same run is the cost of `legal_actions`
alone and of a bare pydantic deep copy of the state, beside the copy `apply` makes
(`games.copying.deep_copy`).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import games
from games.copying import deep_copy
from games.seven_tracks import State


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(players: int, n_games: int, seed0: int = 0) -> dict[str, float]:
    game = games.get("seven_tracks")
    step_times: list[float] = []
    legal_times: list[float] = []
    copy_times: list[float] = []
    ours_times: list[float] = []
    sizes: list[int] = []
    actions = 0
    t0 = time.perf_counter()
    for g in range(n_games):
        seed = seed0 + g
        s: State = game.new(list(range(1, players + 1)), seed=seed)
        r = random.Random(seed)
        while not game.is_over(s):
            a0 = time.perf_counter()
            acts = game.legal_actions(s)
            a1 = time.perf_counter()
            s, _ = game.apply(s, r.choice(acts))
            a2 = time.perf_counter()
            legal_times.append(a1 - a0)
            step_times.append(a2 - a0)
            actions += 1
            if actions % 50 == 0:
                c0 = time.perf_counter()
                s.model_copy(deep=True)
                copy_times.append(time.perf_counter() - c0)
                c0 = time.perf_counter()
                deep_copy(s)
                ours_times.append(time.perf_counter() - c0)
                sizes.append(len(s.model_dump_json()))
    elapsed = time.perf_counter() - t0
    return {
        "games_per_s": n_games / elapsed,
        "actions_per_game": actions / n_games,
        "step_median_us": statistics.median(step_times) * 1e6,
        "step_p99_us": _pct(step_times, 0.99) * 1e6,
        "legal_median_us": statistics.median(legal_times) * 1e6,
        "copy_median_us": statistics.median(copy_times) * 1e6,
        "ours_median_us": statistics.median(ours_times) * 1e6,
        "json_median_b": statistics.median(sizes),
        "json_max_b": max(sizes),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    cpu = platform.processor() or platform.machine()
    print(f"machine: {cpu}, python {platform.python_version()}")
    print("Seven Tracks, random full games to 144 (legal_actions + apply per step)")
    head = (
        f"{'players':>7} {'games/s':>8} {'actions':>8} {'step p50 µs':>12} {'step p99 µs':>12} "
        f"{'legal p50 µs':>13} {'deepcopy p50 µs':>16} {'deep_copy p50 µs':>17} "
        f"{'JSON p50 B':>11} {'JSON max B':>11}"
    )
    print(head)
    for n in (2, 4, 6):
        m = run(n, args.games)
        print(
            f"{n:>7} {m['games_per_s']:>8.2f} {m['actions_per_game']:>8.0f} "
            f"{m['step_median_us']:>12.0f} {m['step_p99_us']:>12.0f} {m['legal_median_us']:>13.0f} "
            f"{m['copy_median_us']:>16.0f} {m['ours_median_us']:>17.0f} "
            f"{m['json_median_b']:>11.0f} {m['json_max_b']:>11.0f}"
        )


if __name__ == "__main__":
    main()
