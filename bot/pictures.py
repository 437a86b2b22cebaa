"""Where the table pictures are drawn: a small thread pool of their own, or a process.

Drawing and PNG-encoding a board is ~60 % of the bot's CPU under load. On asyncio's
default pool (up to cpu+4 threads) every thread that renders grows its own malloc arena,
and every render thread takes the GIL from the event loop that answers the presses. So:

- `threads` (2) dedicated render threads, always there;
- with `process=True` (the default of `python -m bot`, see `RENDER_PROCESS`) one worker
  process (forkserver) draws instead, warmed up when it starts; if that process dies or
  cannot be started, pictures fall back to the threads for good (logged once).

Whoever draws runs at a lower CPU priority (`RENDER_NICE`): when the cores are busy a
press is answered first and the picture waits, never the other way round.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import importlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

RENDER_NICE = 10  # niceness added to the render process and threads


def lower_priority(nice: int = RENDER_NICE) -> None:
    """Lower the calling thread's CPU priority (Linux: niceness is per thread, so this
    leaves the event loop's thread alone; a process's first thread is the process)."""
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + nice)
    except (AttributeError, OSError):  # not Linux, or not allowed: draw at normal priority
        pass


def warm_up_renderers(game_ids: Iterable[str]) -> None:
    """Fill every renderer's caches (board, sprites, palette) now: the first picture after
    a start then takes milliseconds instead of most of a second. A `render/<id>.py`
    without a `warm_up()` (or a game without a renderer) is skipped."""
    for game_id in game_ids:
        try:
            module = importlib.import_module(f"render.{game_id}")
        except ImportError:
            continue
        warm = getattr(module, "warm_up", None)
        if callable(warm):
            try:
                warm()
            except Exception:
                log.exception("warming up render.%s failed", game_id)


def _watch_parent(pid: int) -> None:
    """End the render process once the bot is gone. A pool worker started through the
    forkserver holds both ends of its own task pipe (and is the forkserver's child, not
    the bot's), so it would never notice a bot killed with SIGKILL and live on forever,
    with the forkserver and the resource tracker."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:
            pass


def _child_init(game_ids: list[str], parent: int) -> None:
    """In the render process: lower its priority, watch the bot, warm every renderer
    once, freeze the GC."""
    lower_priority()
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    warm_up_renderers(game_ids)
    gc.collect()
    gc.freeze()


def _ready() -> bool:
    return True


class Pictures:
    """`await pictures.draw(fn, *args)` runs `fn` (a presenter's `picture`) off the loop."""

    def __init__(self, game_ids: Iterable[str], *, threads: int = 2, process: bool = False):
        self._ids = list(game_ids)
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="render", initializer=lower_priority
        )
        self._want_process = process
        self._procs: concurrent.futures.ProcessPoolExecutor | None = None
        self._warm_threads = False

    @property
    def in_process(self) -> bool:
        return self._procs is not None

    async def start(self) -> None:
        """Start the render process (its warm-up runs there, in the background), or warm
        the render threads' caches here (in a thread: the loop is not blocked)."""
        if self._want_process and self._procs is None:
            try:
                self._procs = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("forkserver"),
                    initializer=_child_init,
                    initargs=(self._ids, os.getpid()),
                )
                self._procs.submit(_ready)  # spawn the worker (and its warm-up) now
                return
            except Exception as e:
                log.warning("no render process (%s): pictures are drawn in threads", e)
                self._drop_process()
        await self._warm_up_threads()

    async def _warm_up_threads(self) -> None:
        if not self._warm_threads:
            self._warm_threads = True
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._threads, warm_up_renderers, self._ids)

    def _drop_process(self) -> None:
        procs, self._procs = self._procs, None
        if procs is not None:
            procs.shutdown(wait=False, cancel_futures=True)

    async def draw(self, fn: Callable[..., bytes], *args: Any) -> bytes:
        loop = asyncio.get_running_loop()
        procs = self._procs
        if procs is not None:
            try:
                return await loop.run_in_executor(procs, fn, *args)
            except BrokenProcessPool as e:
                if self._procs is procs:
                    log.warning("the render process failed (%r): pictures go to threads", e)
                    self._drop_process()
        return await loop.run_in_executor(self._threads, fn, *args)

    async def close(self) -> None:
        """Stop the render threads and the render process (waiting for it to exit)."""
        procs, self._procs = self._procs, None
        self._threads.shutdown(wait=False, cancel_futures=True)
        if procs is not None:
            await asyncio.to_thread(procs.shutdown, True, cancel_futures=True)
