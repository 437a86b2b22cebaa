"""The queue of updates for the bot and ``getUpdates`` (long polling); the webhook
(``webhook.py``) takes updates from the same queue."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .records import TelegramError, UpdateRecord
from .state import ServerState
from .wire import Upload, as_int


class UpdateMethods(ServerState):
    """Queuing updates and handing them to a long poll."""

    def enqueue_update(self, payload: dict[str, Any]) -> UpdateRecord:
        """Queue a raw update (without ``update_id``; one is assigned) for the bot."""
        payload = {k: v for k, v in payload.items() if k != "update_id"}
        kinds = [key for key in payload if key != "update_id"]
        if len(kinds) != 1:
            raise ValueError(f"an update has exactly one payload field, got {kinds}")
        record = UpdateRecord(
            update_id=next(self._update_ids),
            type=kinds[0],
            payload=payload,
            queued_at=time.monotonic(),
        )
        self.updates.append(record)
        self._pending.append(record)
        self._poll_wakeup.set()
        for listener in list(self._update_listeners):
            listener(record)
        return record

    @property
    def undelivered(self) -> int:
        """Queued updates the bot has not been handed yet."""
        return sum(1 for record in self._pending if record.delivered_at is None)

    async def m_getUpdates(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        if self.webhook_url:
            raise TelegramError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = as_int(params.get("offset", 0), "offset")
        limit = max(1, min(100, as_int(params.get("limit", 100), "limit")))
        timeout = max(0.0, float(params.get("timeout", 0) or 0))
        if params.get("allowed_updates") is not None:
            allowed = params["allowed_updates"]
            self.allowed_updates = list(allowed) if allowed else None
        if self._poller is not None and not self._poller.done():
            self._poller.set_exception(
                TelegramError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            )
        loop = asyncio.get_running_loop()
        me: asyncio.Future[None] = loop.create_future()
        self._poller = me
        self.notify(None)
        deadline = loop.time() + timeout
        try:
            while True:
                if offset > 0:
                    self._confirm(offset)
                ready = self._deliverable(limit)
                if ready or self._closing:
                    break
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                self._poll_wakeup.clear()
                waiter: asyncio.Future[Any] = asyncio.ensure_future(self._poll_wakeup.wait())
                watched: set[asyncio.Future[Any]] = {waiter, me}
                await asyncio.wait(watched, timeout=remaining, return_when="FIRST_COMPLETED")
                waiter.cancel()
                if me.done():
                    me.result()  # raises the 409 of a newer poll
        finally:
            if self._poller is me:
                self._poller = None
        now = time.monotonic()
        for record in ready:
            if record.delivered_at is None:
                record.delivered_at = now
        return [record.to_api() for record in ready]

    def _confirm(self, offset: int) -> None:
        now = time.monotonic()
        while self._pending and self._pending[0].update_id < offset:
            self._pending.popleft().confirmed_at = now

    def _allowed(self, record: UpdateRecord) -> bool:
        allowed = self.allowed_updates
        if not allowed:
            return record.type not in {
                "chat_member",
                "message_reaction",
                "message_reaction_count",
            }
        return record.type in allowed

    def _deliverable(self, limit: int) -> list[UpdateRecord]:
        ready: list[UpdateRecord] = []
        dropped: list[UpdateRecord] = []
        for record in self._pending:
            if not self._allowed(record):
                dropped.append(record)
                continue
            ready.append(record)
            if len(ready) >= limit:
                break
        now = time.monotonic()
        for record in dropped:
            self._pending.remove(record)
            record.delivered_at = record.confirmed_at = now  # filtered out, never delivered
        return ready
