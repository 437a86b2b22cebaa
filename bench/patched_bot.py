"""`python -m bot` with diagnostics: GC pauses, event-loop stalls, pydantic rebuilds.

    BENCH_STATS=1 python -m bench.patched_bot

The fixes this file used to try as monkeypatches (renderer warm-up and `gc.freeze()`,
pinned `Response[T]` models, a blocking Redis pool, a render pool and process, the
callback answered before the picture starts, capped malloc arenas) now live in `bot/`
(docs/performance.md), so the bench measures `python -m bot` itself (variants `bot`,
`threads`, and `before`: the bot of the commit before them). What is left here is the
`stats` variant: with `BENCH_STATS=1` the bot logs how often pydantic built a generic
model (they should no longer be rebuilt), every garbage collection over 10 ms, and every
stall of the event loop over 30 ms.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from typing import Any

log = logging.getLogger("bench.patched_bot")


def count_generics() -> None:
    from pydantic._internal import _generics

    original = _generics.create_generic_submodel
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] % 50 == 0:
            log.warning("pydantic built %d generic models so far (%s)", calls[0], args[0])
        return original(*args, **kwargs)

    _generics.create_generic_submodel = counted


def watch_gc() -> None:
    """Log every garbage collection that takes longer than 10 ms (main thread or not)."""
    import time

    started = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = time.perf_counter() - started[0]
        if took > 0.010:
            log.warning(
                "gc generation %d took %.0f ms (collected %d)",
                info["generation"],
                took * 1e3,
                info["collected"],
            )

    gc.callbacks.append(callback)


def patch_lag_monitor() -> None:
    """Log whenever the event loop was blocked for more than 30 ms."""
    import time

    from bot.app import App

    original = App.startup

    async def monitor() -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            lag = time.perf_counter() - t0 - 0.005
            if lag > 0.030:
                log.warning("event loop blocked for %.0f ms", lag * 1e3)

    async def startup(self: Any) -> None:
        await original(self)
        self._bench_monitor = asyncio.ensure_future(monitor())

    App.startup = startup  # type: ignore[method-assign]


def main() -> int:
    if os.environ.get("BENCH_STATS"):
        count_generics()
        watch_gc()
        patch_lag_monitor()
    from bot.__main__ import main as bot_main

    return bot_main([])


if __name__ == "__main__":
    sys.exit(main())
