"""Two long pollers on one token: detected, said once, and this instance stops.

Telegram answers a getUpdates while another one is waiting with `409 Conflict: terminated
by other getUpdates request`, so two instances polling with one token take turns failing
for ever (aiogram retries with a back-off and logs an error every time). `ConflictGuard`
is a request middleware of the bot's session that sees every getUpdates: it retries a
conflict itself (aiogram never sees it, so no error line per retry), and when the conflict
persists — at least `CONFLICTS` of them, none more than `QUIET` apart, for `limit` seconds —
it says once which instance should go, sets `tripped` and holds the poll until polling is
stopped (`App.run_polling` then exits with code 3).

Which one goes: the newcomer. An instance that had polled without conflict for `limit`
seconds before the conflicts began was there first; it waits `INCUMBENT_FACTOR` times
longer (the newcomer is gone by then, unless it is a version that never stops). Two
started at the same moment are both newcomers: each waits a random 1-2 × `limit`, so
usually one goes and the other, no longer in conflict, stays. A restart that overlaps the
old process's last poll gives a conflict or two, which is fine.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramConflictError
from aiogram.methods import GetUpdates, Response, TelegramMethod

log = logging.getLogger("bot.polling")

CONFLICTS = 3  # at least this many conflicts in a streak
QUIET = 30.0  # seconds without a conflict end a streak
INCUMBENT_FACTOR = 6.0
RETRY = 1.0  # seconds between a conflict and the next poll (plus up to 20% jitter)
EXIT_CODE = 3


class PollingConflict(RuntimeError):
    """Raised by `App.run_polling` once this instance decided to go (already logged)."""


class ConflictGuard(BaseRequestMiddleware):
    def __init__(
        self,
        limit: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.limit = limit
        self.clock = clock
        self.rng = rng or random.Random()
        self.tripped = asyncio.Event()
        self.verdict: str | None = None
        self._first_poll: float | None = None
        self._streak_start = 0.0
        self._last: float | None = None
        self._count = 0
        self._patience = 0.0

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Response[Any]:
        if not isinstance(method, GetUpdates):
            return await make_request(bot, method)
        if self._first_poll is None:
            self._first_poll = self.clock()
        while True:
            try:
                return await make_request(bot, method)
            except TelegramConflictError as e:
                verdict = self.conflict(e.message)
                if verdict is not None:
                    self.verdict = verdict
                    log.error("%s", verdict)
                    self.tripped.set()
                    await asyncio.Event().wait()  # until polling is stopped (cancelled)
                await asyncio.sleep(RETRY * (1 + 0.2 * self.rng.random()))

    def conflict(self, message: str) -> str | None:
        """Count one conflict; the line to say (once) when this instance should go."""
        now = self.clock()
        first = self._first_poll if self._first_poll is not None else now
        if self._last is None or now - self._last > QUIET:
            self._streak_start, self._count = now, 0
            incumbent = self._streak_start - first >= self.limit
            self._patience = self.limit * (INCUMBENT_FACTOR if incumbent else 1 + self.rng.random())
            log.info("getUpdates: conflict with another request for this token (%s)", message)
        self._last = now
        self._count += 1
        if self._count < CONFLICTS or now - self._streak_start < self._patience:
            return None
        if "webhook" in message.lower():
            return (
                "Polling conflict: a webhook is set for this token (another instance runs in "
                "webhook mode?); this instance stops. Run every instance in webhook mode, or "
                "stop the webhook instance (then deleteWebhook) and start this one again."
            )
        if self._streak_start - first >= self.limit:
            who = "it started after this one and does not stop, so this one stops"
        else:
            who = "it was polling before this one started, so this one stops"
        return (
            "Polling conflict: another instance is polling Telegram with this BOT_TOKEN "
            f"({who}). Stop one of them, or use webhook mode (WEBHOOK_URL) to run "
            "several instances."
        )
