"""The bot-wide budget: all instances together post at most `rate` new messages a
second (Telegram: about 30 a second to different chats, its FAQ's figure for
broadcasts), fairly between chats, game messages first.

Only new messages count: Telegram has no bot-wide limit on answers to presses, edits
and deletes, and neither does this budget — an answer never waits here behind another
chat's messages (`Priority.of` is None for it), and the living table's edits are paced
by each group's own budget (`bot.limits`). Ephemeral messages are not counted either.

- **Shared through the store.** Each instance says every `HEARTBEAT` seconds that it is
  alive (`Store.alive_instances`) and takes an equal share, `rate / instances`; an
  instance that stops is forgotten after `ALIVE` seconds. No call waits on Redis.
- **A moving second, counted from the answers.** No `WINDOW` (a second and a little
  slack for the clocks) holds more than an instance's share of calls (Telegram counts
  calls in a moving second). A call counts from when it leaves until `WINDOW` after its
  answer came back: Telegram counted it somewhere in between, and however the calls'
  trips differ, no second of Telegram's can then hold more than the share.
- **Joining.** An instance that starts beside running ones sends nothing for `JOIN`
  seconds, until each of them has counted it at its next heartbeat and made room.
- **Game first** (`Priority`): game messages (the table sent anew, summaries,
  standings), then pings and replies to commands (`urgency(Priority.LOW)`). Calls are
  paced evenly over the window (`pace`), `BURST` of them ahead of their pace, so they
  never fill the window in a clump.
- **Fair between chats.** Within a priority, calls are served by start-time fair
  queueing: each chat's next call is stamped one step after its previous one (or after
  the last served stamp, when the chat was quiet), so a busy chat takes turns with quiet
  ones instead of going first with all its calls.

    >>> Priority.of("sendPhoto"), Priority.of("copyMessage")
    (<Priority.GAME: 0>, <Priority.GAME: 0>)
    >>> [Priority.of(m) for m in ("answerCallbackQuery", "editMessageMedia", "deleteMessage")]
    [None, None, None]
    >>> Priority.of("getUpdates") is None  # not a call the budget counts
    True
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from enum import IntEnum
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod

from bot import metrics
from bot.limits import NOT_MESSAGES, POSTS, is_ephemeral
from bot.storage import Store, StoreUnavailable

log = logging.getLogger(__name__)

WINDOW = 1.01  # seconds: Telegram's moving second, and a little for the clocks
BURST = 2  # calls that may leave together, ahead of their pace
HEARTBEAT = 1.0  # seconds between an instance's "alive"
ALIVE = 3.5  # seconds an instance counts as alive after its last "alive"
JOIN = HEARTBEAT + WINDOW + 0.25  # a new instance's wait: the others beat, their windows drain
PRUNE_AT = 10_000  # chats' stamps kept before the quiet ones are dropped


class Priority(IntEnum):
    GAME = 0  # new game messages: the table sent anew, summaries, standings
    LOW = 1  # pings, replies to commands

    @classmethod
    def of(cls, method: str) -> Priority | None:
        """The priority of a call by its method; None for calls the budget doesn't count
        (all but new messages)."""
        if method.startswith(POSTS) and method not in NOT_MESSAGES:
            return cls.GAME
        return None


#: set around a call whose priority is not its method's (a ping, a reply to a command)
priority: ContextVar[Priority | None] = ContextVar("nastolka_send_priority", default=None)


@contextlib.contextmanager
def urgency(level: Priority) -> Iterator[None]:
    """Calls made inside go out with priority `level`."""
    token = priority.set(level)
    try:
        yield
    finally:
        priority.reset(token)


class GlobalBudget(BaseRequestMiddleware):
    """The session middleware that paces every counted call (see the module's text)."""

    def __init__(self, store: Store, rate: float) -> None:
        self.store = store
        self.rate = float(rate)
        self.instance = secrets.token_hex(6)
        self.instances = 1
        self._queue: list[tuple[int, float, int, asyncio.Future[bool]]] = []
        self._seq = itertools.count()
        self._stamp: dict[int | str | None, float] = {}  # chat -> its last call's stamp
        self._prune_at = PRUNE_AT
        self._served = 0.0  # the stamp of the last call served
        self._landed: deque[float] = deque()  # when the answers of the last WINDOW came
        self._flying = 0  # calls let go whose answer has not come yet
        self._joined = 0.0  # monotonic time until which a joining instance sends nothing
        self._paced = 0.0  # the paced calls' clock: one may leave BURST steps before it
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._waiting = [0] * len(Priority)  # calls waiting, per priority

    @property
    def share(self) -> int:
        """Calls this instance may make in a `WINDOW`."""
        return max(1, math.floor(self.rate / self.instances))

    def pace(self) -> float:
        """Seconds between two calls: the share spread evenly over the window."""
        return WINDOW / self.share

    async def start(self) -> None:
        await self._beat()
        if self.instances > 1:  # the others send at their old share until they count us
            self._joined = time.monotonic() + JOIN
        self._tasks = [
            asyncio.create_task(self._heartbeat(), name="budget-heartbeat"),
            asyncio.create_task(self._pump(), name="budget-pump"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        for *_, waiter in self._queue:
            if not waiter.done():
                waiter.set_result(False)  # let the last calls of a stopping bot go
        self._queue.clear()
        self._waiting = [0] * len(Priority)

    async def _beat(self) -> None:
        try:
            alive = await self.store.alive_instances(self.instance, ALIVE)
        except StoreUnavailable:
            return  # keep the last known share
        if alive != self.instances:
            log.info("send budget: %d instances, %.1f calls/s each", alive, self.rate / alive)
        self.instances = max(1, alive)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            await self._beat()

    def _enqueue(self, level: Priority, chat: int | str | None) -> asyncio.Future[bool]:
        stamp = max(self._served, self._stamp.get(chat, 0.0)) + 1.0
        if len(self._stamp) > self._prune_at:  # quiet chats' stamps are below `_served`
            self._stamp = {c: s for c, s in self._stamp.items() if s > self._served}
            self._prune_at = max(PRUNE_AT, 2 * len(self._stamp))  # not again at every call
        self._stamp[chat] = stamp
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (int(level), stamp, next(self._seq), waiter))
        self._waiting[level] += 1
        self._wake.set()
        return waiter

    async def _pump(self) -> None:
        landed = self._landed
        while True:
            while not self._queue:
                self._wake.clear()
                await self._wake.wait()
            level, stamp, _, waiter = self._queue[0]
            if waiter.done():  # a cancelled call gives its place to the next
                heapq.heappop(self._queue)
                self._waiting[level] -= 1
                continue
            now = time.monotonic()
            while landed and now - landed[0] >= WINDOW:
                landed.popleft()
            step = self.pace()
            until = max(now, self._paced - BURST * step)
            until = max(until, self._joined)
            room = self.share
            held = len(landed) + self._flying
            if held >= room:  # full: until enough of it has left (a WINDOW after an answer)
                last = held - room  # the answer whose leaving makes room (none yet: in flight)
                until = max(until, landed[last] + WINDOW) if last < len(landed) else math.inf
            if until <= now:
                heapq.heappop(self._queue)
                self._waiting[level] -= 1
                self._served = max(self._served, stamp)
                self._flying += 1
                self._paced = max(self._paced, now) + step
                waiter.set_result(True)
                continue
            self._wake.clear()  # … or until a more urgent call comes, or an answer
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(None if until == math.inf else until - now):
                    await self._wake.wait()

    def _land(self) -> None:
        """A call let go has its answer (or failed): it leaves the window a WINDOW later."""
        self._flying -= 1
        self._landed.append(time.monotonic())
        self._wake.set()

    @contextlib.asynccontextmanager
    async def turn(self, method: str, chat: int | str | None) -> AsyncIterator[None]:
        """Wait until a call of `method` in `chat` may leave; make it inside (it counts
        until a WINDOW after it returns)."""
        level = Priority.of(method)
        if level is not None and (chosen := priority.get()) is not None:
            level = chosen  # (Priority.GAME is 0: not `or`)
        if level is None or not self._tasks:
            yield
            return
        started = time.monotonic()
        waiter = self._enqueue(level, chat)
        try:
            counted = await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.result():
                self._land()  # let go just as its caller was cancelled
            raise
        waited = time.monotonic() - started
        if waited > 0.05:
            metrics.flood_wait("global", waited)
        try:
            yield
        finally:
            if counted:
                self._land()

    async def wait_turn(self, method: str, chat: int | str | None) -> None:
        """Wait until a call of `method` in `chat` may leave, for a call made at once
        (`turn` around the call itself counts its trip too)."""
        async with self.turn(method, chat):
            pass

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Response[Any]:
        if is_ephemeral(method):  # seen by one member: not a message to the chat
            return await make_request(bot, method)
        async with self.turn(method.__api_method__, getattr(method, "chat_id", None)):
            return await make_request(bot, method)


__all__ = ["GlobalBudget", "Priority", "priority", "urgency"]
