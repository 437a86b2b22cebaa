"""The bot-wide send budget alone (bot/budget.py): how long calls wait for their turn.

    python -m bench.budget [--seconds 20] [--rate 30] [--load 0.5 0.75 0.9 1.1]

Calls arrive at random (Poisson) at a share `load` of the budget's rate, as the bot's
calls do at a busy table: half are answers to presses, the rest table edits (and a few
new messages), each in one of 100 chats. Every call waits for `GlobalBudget.wait_turn`
and is then done at once. Printed per load: the wait at p50 / p99 per priority and the
most calls any moving second held. The baseline in the same run is the budget of
`75a04b3` (strict pacing: one call every 1/rate seconds), kept here as `Paced`.

Little CPU is used (the calls do nothing), so the numbers hold on a loaded machine too,
give or take the event loop's wake-up delays.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import random
import time
from collections import defaultdict

from bench.stats import median, pct
from bot.budget import GlobalBudget
from bot.storage import MemoryStore

METHODS = (("answerCallbackQuery", 0.5), ("editMessageMedia", 0.45), ("sendMessage", 0.05))
CHATS = 100


class Paced(GlobalBudget):
    """The budget before the moving window: one call every `instances / rate` seconds."""

    async def _pump(self) -> None:
        next_at = 0.0
        while True:
            while not self._queue:
                self._wake.clear()
                await self._wake.wait()
            delay = next_at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            while self._queue:
                _, stamp, _, waiter = heapq.heappop(self._queue)
                if not waiter.done():
                    self._served = max(self._served, stamp)
                    waiter.set_result(False)  # not counted: left at once (`wait_turn`)
                    break
            next_at = max(next_at, time.monotonic()) + self.instances / self.rate


async def drive(
    budget: GlobalBudget, rate: float, load: float, seconds: float, seed: int
) -> tuple[dict[str, list[float]], int]:
    """(waits per method, the most calls in a moving second)."""
    rng = random.Random(seed)
    waits: dict[str, list[float]] = defaultdict(list)
    left: list[float] = []
    names = [m for m, _ in METHODS]
    weights = [w for _, w in METHODS]

    async def call(method: str, chat: int) -> None:
        asked = time.monotonic()
        await budget.wait_turn(method, chat)
        now = time.monotonic()
        waits[method].append(now - asked)
        left.append(now)

    await budget.start()
    tasks: list[asyncio.Task[None]] = []
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await asyncio.sleep(rng.expovariate(rate * load))
            method = rng.choices(names, weights)[0]
            tasks.append(asyncio.create_task(call(method, -rng.randrange(CHATS))))
        await asyncio.gather(*tasks)
    finally:
        await budget.stop()
    left.sort()
    most, j = 0, 0
    for i, t in enumerate(left):
        while left[j] <= t - 1.0:
            j += 1
        most = max(most, i - j + 1)
    return waits, most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=30.0)
    parser.add_argument("--load", type=float, nargs="+", default=[0.5, 0.75, 0.9, 1.1])
    args = parser.parse_args()
    print(
        f"calls at a share of the budget's {args.rate:.0f} calls/s, {args.seconds:.0f} s each; "
        "wait in ms, p50 / p99"
    )
    head = f"{'budget':>14} {'load':>5} {'answers':>17} {'table edits':>17} {'messages':>17}"
    print(head + f" {'most in 1 s':>12}")
    print("-" * (len(head) + 13))
    for load in args.load:
        for name, cls in (("paced (before)", Paced), ("moving window", GlobalBudget)):
            budget = cls(MemoryStore(), args.rate)
            waits, most = asyncio.run(drive(budget, args.rate, load, args.seconds, seed=7))
            cells = []
            for method, _ in METHODS:
                w = waits.get(method, [])
                cells.append(f"{median(w) * 1e3:7.1f} / {pct(w, 0.99) * 1e3:7.1f}")
            print(f"{name:>14} {load:5.2f} {cells[0]:>17} {cells[1]:>17} {cells[2]:>17} {most:12d}")


if __name__ == "__main__":
    main()
