"""`python -m bench [--quick]`: every benchmark of the project, one table per part.

Each number is printed beside a baseline measured in the same run, with the target's
verdict (✓/✗). These are measurements, not pass/fail tests.

- Board pictures: render time of mid-game states vs encoding the finished image.
- Replays: a `/replay` animation per game, time and size, vs the table's PNGs of the
  same boards; the hot record with the game's steps inside vs out.
- The bot end to end: the real bot process (`bot`; `before`: the bot of the commit
  before the fixes of docs/performance.md) vs a minimal aiogram echo bot, against the
  fake Bot API server
  and a real Redis, with 1, 10, 100 (and 1000) concurrent games.
- Memory: Redis `MEMORY USAGE` per stored game; the bot's RSS with the most games.
- Engine: random full games of «Семидорожник» per second with 2, 4 and 6 players.
- A press: the CPU of a «Семидорожник» press on the presenter alone, beside the commit
  before run 18's cuts (`bench/press.py`).
- Restart: the first table edit after a restart of the bot (press → edit) beside the
  same bot once warm and the bot of the commit before pictures stopped waiting for the
  warm-up (`bench/restart.py`).

`--quick` (about 3 minutes): 1/10/100 games, short windows. The full run adds 1000
games and a saturation run (100 games, no think time). A `redis-server` is started on a
free port for the run (or give `--redis-url`).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
import platform
import subprocess
import tempfile
import time
from pathlib import Path

from bench import e2e, engine, press, render, replay, restart
from bench.report import e2e_table, engine_table, memory_table, render_table
from bench.waste import waste_table


def machine() -> str:
    cpu = ""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                cpu = line.split(":", 1)[1].strip()
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 2**20:.1f} GiB RAM"
    except OSError:
        pass
    rev = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return (
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC · code {rev or '?'} · "
        f"{os.cpu_count()} CPUs "
        f"({cpu or platform.machine()}) · {mem} · Python {platform.python_version()} · "
        f"load before the run {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="1/10/100 games, short windows")
    parser.add_argument("--games", type=int, nargs="+", default=None)
    parser.add_argument("--measure", type=float, default=None, help="seconds per scenario")
    parser.add_argument(
        "--variants",
        nargs="+",
        default=["echo", "before", "bot"],
        help="echo, before, bot, threads, stats, rev:<commit> or dir:<path> (the bot there)",
    )
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--profile", default=None, help="write py-spy profiles of the bot here")
    parts = ["render", "replay", "engine", "press", "e2e", "restart"]
    parser.add_argument("--skip", nargs="*", default=[], choices=parts)
    args = parser.parse_args()
    quick = args.quick
    games = args.games or ([1, 10, 100] if quick else [1, 10, 100, 1000])
    measure = args.measure or (8.0 if quick else 30.0)
    warmup = 2.0 if quick else 5.0
    saturate = 0 if quick else 100
    started = time.monotonic()

    print(f"machine: {machine()}")
    print(f"run: {'quick' if quick else 'full'}\n")

    if "render" not in args.skip:
        print(render_table(render.run(n_states=8 if quick else 20, repeat=2 if quick else 3)))
        print()
    if "replay" not in args.skip:  # /replay animations, one game each (bench/replay.py)
        print(replay.report())
        print()

    if "e2e" not in args.skip:
        logdir = Path(tempfile.mkdtemp(prefix="bench-logs-"))

        async def go(url: str) -> list[e2e.Scenario]:
            return await e2e.run_all(
                games,
                redis_url=url,
                warmup=warmup,
                measure=measure,
                think=None,
                saturate=saturate,
                logdir=logdir,
                variants=tuple(args.variants),
                profile_dir=Path(args.profile) if args.profile else None,
            )

        if args.redis_url:
            results = asyncio.run(go(args.redis_url))
        else:
            with e2e.redis_server() as url:
                results = asyncio.run(go(url))
        print()
        print(e2e_table(results))
        print()
        print(waste_table(results))
        print()
        print(memory_table(results))
        print(f"(bot logs: {logdir})\n")

    if "restart" not in args.skip:
        rounds = (2, 3) if quick else (3, 5)
        print(restart.report(asyncio.run(restart.run(["bot", "before"], *rounds, args.redis_url))))
        print()

    if "engine" not in args.skip:
        print(engine_table([engine.run(n, 2 if quick else 5) for n in (2, 4, 6)]))
        print()
    if "press" not in args.skip:  # a press's CPU on the presenter (bench/press.py)
        print(press.report(8 if quick else 30))
        print()
    print(f"took {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
