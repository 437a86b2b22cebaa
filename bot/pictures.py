"""Where the table pictures are drawn: a small thread pool of their own, or a process.

Drawing and PNG-encoding a board is ~60 % of the bot's CPU under load. On asyncio's
default pool (up to cpu+4 threads) every thread that renders grows its own malloc arena,
and every render thread takes the GIL from the event loop that answers the presses. So:

- `threads` (2) dedicated render threads, always there;
- with `process=True` (the default of `python -m bot`, see `RENDER_PROCESS`)
  `processes` render processes (`bot/render_worker.py`, `RENDER_PROCESSES`) draw
  instead, a job to the least busy; one that dies is dropped, and with none left
  pictures fall back to the threads for good.

A table's picture goes to a render process as data (`bot.warm_up.PictureJob`: game id,
public view JSON, names, language), drawn there by `render/<game id>.py`; `draw(fn,
*args)` sends a call (a replay's jobs, bot/memory/replay.py).

Nothing waits for a warm-up: a game's renderer is warmed in the background on its first
picture, which is drawn cold meanwhile (bot/warm_up.py), so the first table after a
restart is edited within about a second, not after 12–48 s of warming all five games.

Whoever draws runs at a lower CPU priority (`RENDER_NICE`): when the cores are busy a
press is answered first and the picture waits, never the other way round.

Headroom: the tables' pictures wait in a line of their own (`Pictures.latest`), at most
one per chat — a chat's newer picture replaces its waiting one, which is never drawn —
and only `depth` (2) pictures per render process are handed out at a time, so nothing
piles up in the pipes. The table worker waits `late` (0.25 s) for a picture
(`Pictures.ready`); a later one lets the caption and keyboard be edited at once and the
picture follow when its turn comes (bot/table.py). However many games, the buttons'
edit does not wait for the pictures of the other chats.
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
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from bot import metrics
from bot.pipes import HEADER, frame
from bot.warm_up import PictureJob, draw_job
from render import deflate

log = logging.getLogger(__name__)

RENDER_NICE = 10  # niceness added to the render process and threads
LATE = 0.25  # seconds: a table's picture not drawn by then is late (caption edited first)

T = TypeVar("T")


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
        return await cls.spawn("bot.render_worker", *game_ids, limit=1 << 22)

    @classmethod
    async def spawn(cls, module: str, *args: str, limit: int) -> RenderWorker:
        """`python -m <module> <args>` with its pipes (bot/pipes.py): the render process,
        or another worker of the same kind (bot/decision_worker.py)."""
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(x for x in (root, env.get("PYTHONPATH")) if x)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            module,
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=limit,
        )
        worker = cls(proc)
        ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        ready.add_done_callback(lambda f: f.cancelled() or f.exception())  # nobody awaits it
        worker._waiting.append(ready)  # its first frame says it has imported what it needs
        worker._reader = asyncio.ensure_future(worker._read())
        return worker

    @property
    def alive(self) -> bool:
        return not self._gone

    def queued(self) -> int:
        """Jobs sent and not answered yet."""
        return len(self._waiting)

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in the worker (a call job: bot/pipes.py `call`)."""
        return await self.send((fn, args))

    async def send(self, job: Any) -> Any:
        """The worker's answer to `job` (what its `run` takes: bot/pipes.py `serve`)."""
        if self._gone:
            raise WorkerGone
        stdin = self._proc.stdin
        assert stdin is not None
        payload = pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
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


class Job:
    """One chat's picture: `tag` (the picture's key) drawn from `picture` into `future`."""

    __slots__ = ("future", "picture", "tag")

    def __init__(self, tag: str, picture: PictureJob) -> None:
        self.tag = tag
        self.picture = picture
        self.future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.future.add_done_callback(_seen)


def _seen(future: asyncio.Future[Any]) -> None:
    """Nobody may be waiting for a picture any more (its chat went on): not a warning."""
    if not future.cancelled():
        future.exception()


class Pictures:
    """`await pictures.picture(job)` draws a table's picture (`PictureJob`) off the loop;
    `await pictures.draw(fn, *args)` runs `fn` there (a replay's jobs).

    The tables' pictures go through `latest(chat, tag, job)` instead: a queue with
    at most one waiting picture per chat, latest wins (a chat's waiting picture is
    replaced by its newer one, in the same place in the line), and only `depth` pictures
    per render process (or one per render thread) handed out at a time. So under any
    overload the line is at most one picture per chat, a stale picture is never drawn,
    and `ready(...)` lets the table worker edit the caption and keyboard at once when
    the picture is late, and the picture when its turn comes.
    """

    def __init__(
        self,
        game_ids: Iterable[str],
        *,
        threads: int = 2,
        process: bool = False,
        processes: int = 1,
        depth: int = 2,
        drawer: Callable[[PictureJob], bytes] = draw_job,  # in a render thread (tests)
    ):
        self._ids = list(game_ids)
        self._drawer = drawer
        self._threads = concurrent.futures.ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="render", initializer=lower_priority
        )
        self._processes = processes if process else 0
        self._workers: list[RenderWorker] = []
        self.late = LATE  # the table worker's budget for a picture (`ready`)
        self._n_threads = threads
        self._depth = depth
        self._waiting: collections.OrderedDict[Hashable, Job] = collections.OrderedDict()
        self._drawing: dict[Hashable, Job] = {}  # handed out, one per chat at most
        self._done: dict[Hashable, Job] = {}  # drawn, until its chat's worker takes it
        self._running: set[asyncio.Task[None]] = set()
        self.dropped = 0  # stale pictures never drawn (replaced by their chat's latest)
        self.drawn = 0  # pictures drawn through `latest`
        self.peak = 0  # the longest the line of waiting pictures ever was

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
        where = (
            f"{len(self._workers)} render processes"
            if self._workers
            else f"{self._n_threads} render threads of this process"
        )
        log.info("pictures: %s; PNG compressed by %s", where, deflate.current().name)

    async def draw(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a render process (a call job), or in a render thread."""
        return await self._run((fn, args), fn, *args)

    async def picture(self, job: PictureJob) -> bytes:
        """The picture of `job`, drawn in a render process, or in a render thread."""
        return await self._run(job, self._drawer, job)

    async def _run(self, job: Any, fn: Callable[..., T], *args: Any) -> T:
        """`job` answered by the least busy render process, or `fn(*args)` in a thread."""
        while self._workers:
            worker = min(self._workers, key=RenderWorker.queued)  # the least busy
            try:
                result: T = await worker.send(job)
                return result
            except WorkerGone:
                if worker in self._workers:
                    self._workers.remove(worker)
                    left = len(self._workers)
                    log.warning("a render process is gone (%d left, then threads)", left)
                    await worker.close()
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    # ------------------------------------------------------------ the tables' pictures

    def latest(self, chat: Hashable, tag: str, picture: PictureJob) -> asyncio.Future[bytes]:
        """The picture `tag` of `chat`, drawn from `picture` when its turn comes: the one
        already drawn or on its way if it has that tag; otherwise a new one, which takes
        the place of the chat's waiting picture (that one is dropped, never drawn)."""
        for jobs in (self._done, self._drawing, self._waiting):
            job = jobs.get(chat)
            if job is not None and job.tag == tag:
                if jobs is self._done and job.future.exception() is not None:
                    del self._done[chat]  # a failure is told once; asked again, it is redrawn
                return job.future
        self._done.pop(chat, None)  # an older picture nobody took: stale
        job = Job(tag, picture)
        old = self._waiting.get(chat)
        if old is not None:
            old.future.cancel()
            self.dropped += 1
        self._waiting[chat] = job  # a replaced one keeps its place in the line
        self.peak = max(self.peak, len(self._waiting))
        self._pump()
        return job.future

    def take(self, chat: Hashable, tag: str) -> None:
        """The table shows the picture `tag` of `chat`: it need not be kept any more."""
        job = self._done.get(chat)
        if job is not None and job.tag == tag:
            del self._done[chat]

    def forget(self, chat: Hashable) -> None:
        """The chat's game is over: its waiting picture is dropped, a drawn one let go."""
        self._done.pop(chat, None)
        job = self._waiting.pop(chat, None)
        if job is not None:
            job.future.cancel()
            self.dropped += 1

    async def ready(
        self,
        chat: Hashable,
        tag: str,
        picture: PictureJob,
        *,
        within: float | None,
        then: Callable[[], None] | None = None,
    ) -> bytes | None:
        """The picture (`latest`) if it is drawn within `within` seconds (None: however
        long it takes), else None, and `then()` is called once it is drawn (or failed):
        unless a newer picture of the chat replaced it first, in which case nobody cares."""
        future = self.latest(chat, tag, picture)
        if within is None or future.done():
            return await future
        await asyncio.wait([future], timeout=within)
        if future.cancelled():  # the chat's game ended meanwhile (`forget`)
            return None
        if future.done():
            return future.result()
        if then is not None:

            def drawn(f: asyncio.Future[bytes]) -> None:
                if not f.cancelled():
                    then()

            future.add_done_callback(drawn)
        return None

    def waiting(self) -> int:
        """Pictures in the line, not handed out yet (at most one per chat)."""
        return len(self._waiting)

    def _capacity(self) -> int:
        alive = sum(1 for w in self._workers if w.alive)
        return alive * self._depth if alive else max(1, self._n_threads)

    def _pump(self) -> None:
        while self._waiting and len(self._drawing) < self._capacity():
            chat, job = self._waiting.popitem(last=False)
            if job.future.done():  # cancelled by nobody? then nothing to draw
                continue
            self._drawing[chat] = job
            task = asyncio.ensure_future(self._draw(chat, job))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _draw(self, chat: Hashable, job: Job) -> None:
        started = asyncio.get_running_loop().time()
        try:
            png = await self.picture(job.picture)
        except asyncio.CancelledError:
            job.future.cancel()
            raise
        except Exception as e:
            if not job.future.done():
                job.future.set_exception(e)
                if chat not in self._waiting:  # told to its chat's worker when it asks
                    self._done[chat] = job
        else:
            self.drawn += 1
            metrics.rendered(job.picture[0], started)  # render time per game
            if not job.future.done():
                job.future.set_result(png)
                if chat not in self._waiting:  # else stale already: its latest is coming
                    self._done[chat] = job
        finally:
            if self._drawing.get(chat) is job:
                del self._drawing[chat]
            self._pump()

    async def close(self) -> None:
        """Stop the render threads and the render processes (waiting for them to exit)."""
        for task in list(self._running):
            task.cancel()
        for job in self._waiting.values():
            job.future.cancel()
        self._waiting.clear()
        self._done.clear()
        if self.drawn or self.dropped:
            log.info(
                "pictures: %d drawn for the tables, %d stale ones dropped, at most %d waiting",
                self.drawn,
                self.dropped,
                self.peak,
            )
        workers, self._workers = self._workers, []
        self._threads.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            await worker.close()
