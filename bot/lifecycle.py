"""Stopping on SIGTERM/SIGINT at any moment: during start-up and during play.

`StopSignals` turns SIGTERM and SIGINT into an event on the loop, installed before any
slow start-up step (Redis, Telegram, the render process), so the bot also stops as PID 1
in a container, where the kernel applies no default action to SIGTERM. `until_stopped`
runs a start-up step unless (or until) a stop comes. On a stop the bot takes no new
updates, lets the updates in flight (`InFlightUpdates`, a Dispatcher outer middleware)
and then the table edits in flight finish, for at most `GRACE` seconds in all, and
exits. A second signal ends the waiting at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from aiogram.types import TelegramObject

log = logging.getLogger("bot")

GRACE = 5.0  # seconds a stop waits for the work in flight (Docker waits 10 before SIGKILL)
SIGNALS = (signal.SIGTERM, signal.SIGINT)
T = TypeVar("T")


class StopSignals:
    """`stop` is set by the first SIGTERM/SIGINT, `hurry` by the second."""

    def __init__(self) -> None:
        self.stop = asyncio.Event()
        self.hurry = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def install(self) -> StopSignals:
        self._loop = asyncio.get_running_loop()
        for sig in SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                self._loop.add_signal_handler(sig, self._received, sig)
        return self

    def remove(self) -> None:
        if self._loop is not None:
            for sig in SIGNALS:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    self._loop.remove_signal_handler(sig)

    def _received(self, sig: signal.Signals) -> None:
        if self.stop.is_set():
            log.info("%s again: stopping now", sig.name)
            self.hurry.set()
            return
        log.info("%s: stopping (the work in flight gets up to %.0f s)", sig.name, GRACE)
        self.stop.set()


async def until_stopped(step: Awaitable[T], stop: asyncio.Event) -> tuple[bool, T | None]:
    """Run `step`; cancel it when `stop` is set first. `(True, result)` or `(False, None)`."""
    task = asyncio.ensure_future(step)
    if stop.is_set():
        task.cancel()
    waiter = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
    if task.done() and not task.cancelled():
        return True, task.result()
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    return False, None


async def wait_some(tasks: set[asyncio.Task[Any]], timeout: float, hurry: asyncio.Event) -> None:
    """Until one of the tasks is done, `timeout` passes or `hurry` is set."""
    if not tasks or timeout <= 0 or hurry.is_set():
        return
    waiter = asyncio.ensure_future(hurry.wait())
    try:
        await asyncio.wait({*tasks, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()


class InFlightUpdates:
    """Dispatcher outer middleware: the updates being handled, to wait for on a stop."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            return await handler(event, data)
        finally:
            if task is not None:
                self._tasks.discard(task)

    def busy(self) -> set[asyncio.Task[Any]]:
        current = asyncio.current_task()
        return {t for t in self._tasks if not t.done() and t is not current}

    async def drain(self, timeout: float, hurry: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (busy := self.busy()) and not hurry.is_set():
            left = deadline - loop.time()
            if left <= 0:
                log.info("stopping: %d update(s) still being handled are dropped", len(busy))
                return
            await wait_some(busy, left, hurry)
