"""Where the table pictures are drawn: a small thread pool of their own, or a process.

Drawing and PNG-encoding a board is ~60 % of the bot's CPU under load. On asyncio's
default pool (up to cpu+4 threads) every thread that renders grows its own malloc arena,
and every render thread takes the GIL from the event loop that answers the presses. So:

- `threads` (2) dedicated render threads, always there;
- with `process=True` (the default of `python -m bot`, see `RENDER_PROCESS`)
  `processes` render processes (`bot/render_worker.py`, `RENDER_PROCESSES`) draw
  instead, a job to the least busy; one that dies is dropped, and with none left
  pictures fall back to the threads for good.

Nothing waits for a warm-up: a game's renderer is warmed in the background on its first
picture, which is drawn cold meanwhile (bot/warm_up.py), so the first table after a
restart is edited within about a second, not after 12–48 s of warming all five games.

Whoever draws runs at a lower CPU priority (`RENDER_NICE`): when the cores are busy a
press is answered first and the picture waits, never the other way round.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
import os
import pickle
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from render import deflate

log = logging.getLogger(__name__)

RENDER_NICE = 10  # niceness added to the render process and threads
HEADER = 4  # bytes of a frame's big-endian length, on the render process's pipes


def frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(HEADER, "big") + payload


def lower_priority(nice: int = RENDER_NICE) -> None:
    """Lower the calling thread's CPU priority (Linux: niceness is per thread, so this
    leaves the event loop's thread alone; a process's first thread is the process)."""
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + nice)
    except (AttributeError, OSError):  # not Linux, or not allowed: draw at normal priority
        pass


class WorkerGone(Exception):
    """The render process ended (or never started) before it answered."""


class RenderWorker:
    """The render process (`bot/render_worker.py`), spoken to through its pipes from the
    event loop: no executor threads in the bot, so nothing else wants the GIL while a
    press is answered. Jobs are answered in the order they were sent."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self._proc = proc
        self._waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self._gone = False
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, game_ids: Iterable[str]) -> RenderWorker:
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(x for x in (root, env.get("PYTHONPATH")) if x)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.render_worker",
            *game_ids,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=1 << 22,
        )
        worker = cls(proc)
        ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        ready.add_done_callback(lambda f: f.cancelled() or f.exception())  # nobody awaits it
        worker._waiting.append(ready)  # its first frame says it has imported the renderers
        worker._reader = asyncio.ensure_future(worker._read())
        return worker

    @property
    def alive(self) -> bool:
        return not self._gone

    def queued(self) -> int:
        """Jobs sent and not answered yet."""
        return len(self._waiting)

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._gone:
            raise WorkerGone
        stdin = self._proc.stdin
        assert stdin is not None
        payload = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        stdin.write(frame(payload))
        return await future

    async def _read(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        try:
            while True:
                size = int.from_bytes(await stdout.readexactly(HEADER), "big")
                ok, value = pickle.loads(await stdout.readexactly(size))
                future = self._waiting.popleft()
                if future.done():
                    continue
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass  # it ended
        except Exception:
            log.exception("unreadable answer from the render process")
        finally:
            self._gone = True
            while self._waiting:
                future = self._waiting.popleft()
                if not future.done():
                    future.set_exception(WorkerGone())

    async def close(self) -> None:
        self._gone = True
        stdin = self._proc.stdin
        if stdin is not None:
            stdin.close()  # the worker ends at the end of its input
        try:
            # a picture is a few ms; longer means it is still importing (a stop during
            # start-up): nobody waits for its answers any more, so do not wait for it either
            await asyncio.wait_for(self._proc.wait(), 1.0)
        except TimeoutError:
            self._proc.kill()
            await self._proc.wait()
        if self._reader is not None:
            await self._reader


class Pictures:
    """`await pictures.draw(fn, *args)` runs `fn` (a presenter's `picture`) off the loop."""

    def __init__(
        self,
        game_ids: Iterable[str],
        *,
        threads: int = 2,
        process: bool = False,
        processes: int = 1,
    ):
        self._ids = list(game_ids)
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="render", initializer=lower_priority
        )
        self._processes = processes if process else 0
        self._workers: list[RenderWorker] = []

    @property
    def in_process(self) -> bool:
        return any(w.alive for w in self._workers)

    async def start(self) -> None:
        """Start the render processes (a picture wanted before one has imported the
        renderers waits in its pipe). No warm-up is waited for, here or by a picture:
        each game warms up in the background on its first picture (bot/warm_up.py)."""
        while len(self._workers) < self._processes:
            try:
                self._workers.append(await RenderWorker.start(self._ids))
            except Exception as e:
                log.warning("no render process (%s): pictures are drawn in threads", e)
                break
        log.info(
            "pictures: %d render processes; PNG compressed by %s",
            len(self._workers),
            deflate.current().name,
        )

    async def draw(self, fn: Callable[..., bytes], *args: Any) -> bytes:
        while self._workers:
            worker = min(self._workers, key=RenderWorker.queued)  # the least busy
            try:
                result: bytes = await worker.call(fn, *args)
                return result
            except WorkerGone:
                if worker in self._workers:
                    self._workers.remove(worker)
                    left = len(self._workers)
                    log.warning("a render process is gone (%d left, then threads)", left)
                    await worker.close()
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    async def close(self) -> None:
        """Stop the render threads and the render processes (waiting for them to exit)."""
        workers, self._workers = self._workers, []
        self._threads.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            await worker.close()
