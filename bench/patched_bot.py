"""`python -m bot` with the bot-side fixes this benchmark recommends, applied as patches.

    BENCH_FIXES=warm,pool,generics,arena python -m bench.patched_bot

The bench may not edit `bot/` (another change is under way there), so the fixes it
recommends are tried here, from the outside, to measure what each one gains before it
is written properly in `bot/` (docs/performance.md lists the exact changes):

- `warm`: build the render caches (board, sprites, palette) before polling starts, so
  the first table after a start is not ~0.7 s late (render.*.warm_up()).
- `pool`: Redis through a `BlockingConnectionPool` (redis-py 8's asyncio pool raises
  `MaxConnectionsError` beyond 100 connections instead of waiting).
- `generics`: keep aiogram's `Response[T]` models alive (pydantic keeps parametrised
  generics in a weak cache, so aiogram may rebuild them on the event loop).
- `renderpool`: render pictures on a dedicated pool of `BENCH_RENDER_THREADS` (2)
  threads instead of asyncio's default pool of up to cpu+4 threads (each thread that
  renders grows its own malloc arena; with `MALLOC_ARENA_MAX=2` RSS stays flat).
- `gcfreeze` (with `warm`): `gc.collect(); gc.freeze()` once started, so the cyclic
  collector stops re-scanning the ~1e6 objects of aiogram's and pydantic's types.
- `renderproc`: pictures in a separate process (ProcessPoolExecutor, forkserver, one
  worker, warmed up at start) instead of a thread of the bot's own process.
- `answerfirst`: the table worker is started after `answerCallbackQuery` is sent, not
  before (the render thread no longer competes with the answer for the GIL).
- `nolog`: aiogram's per-update INFO line ("Update id=… is handled") at WARNING.

`BENCH_STATS=1` logs how often pydantic built a generic model (to check `generics`),
every garbage collection over 10 ms, and every stall of the event loop over 30 ms.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger("bench.patched_bot")


def fixes() -> set[str]:
    return {x.strip() for x in os.environ.get("BENCH_FIXES", "").split(",") if x.strip()}


def pin_generics() -> list[Any]:
    """`Response[T]` for the return type of every aiogram method, held for good."""
    import inspect

    from aiogram import methods
    from aiogram.methods.base import Response, TelegramMethod

    kept: list[Any] = []
    for _, cls in inspect.getmembers(methods, inspect.isclass):
        if issubclass(cls, TelegramMethod) and cls is not TelegramMethod:
            returning = cls.__dict__.get("__returning__")
            if returning is not None and not isinstance(returning, property):
                kept.append(Response[returning])  # type: ignore[valid-type]
    return kept


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


def patch_pool() -> None:
    from redis.asyncio import BlockingConnectionPool, Redis

    from bot.storage import redis as store

    original = store.RedisStore.__init__

    def init(self: Any, url: str, *args: Any, **kwargs: Any) -> None:
        original(self, url, *args, **kwargs)
        pool = BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=64, timeout=20
        )
        self._redis = Redis(connection_pool=pool)
        self._cas = self._redis.register_script(store._CAS)

    store.RedisStore.__init__ = init  # type: ignore[method-assign]


def patch_render_thread() -> None:
    from bot import service

    threads = int(os.environ.get("BENCH_RENDER_THREADS", "2"))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="render")

    class Asyncio:
        """`asyncio` as bot.service sees it, with `to_thread` on the render thread."""

        def __getattr__(self, name: str) -> Any:
            return getattr(asyncio, name)

        @staticmethod
        async def to_thread(func: Callable[..., T], /, *args: Any) -> T:
            return await asyncio.get_running_loop().run_in_executor(pool, func, *args)

    setattr(service, "asyncio", Asyncio())  # noqa: B010 (the module's own name)


def patch_answer_first() -> None:
    """Start the table worker (and so the picture) only after the callback is answered.

    As it is, `play_press` → `_changed` → `_kick` creates the worker task before the
    handler sends `answerCallbackQuery`; the worker reaches `asyncio.to_thread(render)`
    while the answer is still being built, and the render thread then competes with the
    answer for the GIL. Here a press's kicks are held until the answer is sent."""
    from contextvars import ContextVar

    from bot.handlers import play
    from bot.service import GameService

    held: ContextVar[list[int] | None] = ContextVar("held", default=None)
    original_kick = GameService._kick

    def kick(self: GameService, chat_id: int) -> None:
        waiting = held.get()
        if waiting is None:
            original_kick(self, chat_id)
        else:
            self._dirty.add(chat_id)
            waiting.append(chat_id)

    async def play_button(query: Any, callback_data: Any, service: GameService) -> None:
        msg = query.message
        if msg is None:
            await query.answer(service.t()("press.old_button"))
            return
        waiting: list[int] = []
        token = held.set(waiting)
        try:
            answer = await service.play_press(
                msg.chat.id, query.from_user.id, msg.message_id, callback_data
            )
            held.reset(token)
            await query.answer(answer.text, show_alert=answer.alert)
        finally:
            for chat_id in waiting:
                original_kick(service, chat_id)

    GameService._kick = kick  # type: ignore[method-assign]
    play.play_button = play_button


def _render_child_init() -> None:
    """In the render process: build every renderer's caches once, then freeze the GC."""
    import importlib

    import games

    for game_id in games.ids():
        try:
            module = importlib.import_module(f"render.{game_id}")
        except ImportError:
            continue
        warm = getattr(module, "warm_up", None)
        if warm is not None:
            warm()
    gc.collect()
    gc.freeze()


def patch_render_process() -> None:
    """Pictures in a separate process (`BENCH_RENDER_PROCS`, 1): the event loop no longer
    shares the GIL with rendering, and the OS shares the cores between the two."""
    import multiprocessing

    from bot import service

    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=int(os.environ.get("BENCH_RENDER_PROCS", "1")),
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_render_child_init,
    )
    pool.submit(gc.collect)  # start the worker (and its warm-up) now

    class Asyncio:
        """`asyncio` as bot.service sees it: `to_thread(p.picture, …)` goes to the pool."""

        def __getattr__(self, name: str) -> Any:
            return getattr(asyncio, name)

        @staticmethod
        async def to_thread(func: Callable[..., T], /, *args: Any) -> T:
            if getattr(func, "__name__", "") == "picture":
                return await asyncio.get_running_loop().run_in_executor(pool, func, *args)
            return await asyncio.to_thread(func, *args)

    setattr(service, "asyncio", Asyncio())  # noqa: B010 (the module's own name)


def patch_warm_up() -> None:
    from bot.app import App

    original = App.startup

    async def startup(self: Any) -> None:
        from render import cell_capture, seven_tracks

        await asyncio.to_thread(seven_tracks.warm_up)
        await asyncio.to_thread(cell_capture.warm_up)
        await original(self)
        if "gcfreeze" in fixes():
            gc.collect()
            gc.freeze()  # startup objects (aiogram/pydantic types, caches) leave the GC's view

    App.startup = startup  # type: ignore[method-assign]


def main() -> int:
    on = fixes()
    kept: list[Any] = []
    if os.environ.get("BENCH_STATS"):
        count_generics()
        watch_gc()
        patch_lag_monitor()
    if "generics" in on:
        kept = pin_generics()
    if "pool" in on:
        patch_pool()
    if "renderproc" in on:
        patch_render_process()
    elif "renderpool" in on:
        patch_render_thread()
    if "warm" in on:
        patch_warm_up()
    if "answerfirst" in on:
        patch_answer_first()
    if "nolog" in on:
        logging.getLogger("aiogram.event").setLevel(logging.WARNING)
    from bot.__main__ import main as bot_main

    code = bot_main([])
    del kept
    return code


if __name__ == "__main__":
    sys.exit(main())
