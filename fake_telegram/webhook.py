"""Webhook delivery: ``setWebhook``/``deleteWebhook``/``getWebhookInfo``, POSTing the
queued updates to the bot, and running a method the bot returns in its reply."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from .calls import CallMethods
from .records import TelegramError, UpdateRecord, bad_request
from .updates import UpdateMethods
from .wire import Upload, decode_field


class WebhookMethods(UpdateMethods, CallMethods):
    """Updates POSTed to the bot's webhook (up to ``max_connections`` at once)."""

    async def m_setWebhook(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        url = str(params.get("url") or "")
        if not url:
            return await self.m_deleteWebhook(params, uploads)
        if not url.startswith(("http://", "https://")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        await self._stop_webhook_delivery()
        if params.get("drop_pending_updates"):
            self._pending.clear()
        self.webhook_url = url
        self.webhook_secret = params.get("secret_token") or None
        self.webhook_max_connections = max(1, min(100, int(params.get("max_connections") or 40)))
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self.allowed_updates = list(allowed) if allowed else None
        if self._poller is not None and not self._poller.done():
            self._poller.set_exception(
                TelegramError(409, "Conflict: terminated by setWebhook request")
            )
        self._webhook_task = asyncio.create_task(self._deliver_webhooks())
        return True

    async def m_deleteWebhook(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        await self._stop_webhook_delivery()
        self.webhook_url = None
        self.webhook_secret = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    async def m_getWebhookInfo(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        info: dict[str, Any] = {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
            "max_connections": self.webhook_max_connections,
        }
        if self.webhook_last_error:
            info["last_error_date"], info["last_error_message"] = self.webhook_last_error
        if self.allowed_updates:
            info["allowed_updates"] = self.allowed_updates
        return info

    async def _stop_webhook_delivery(self) -> None:
        task, self._webhook_task = self._webhook_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        session, self._webhook_session = self._webhook_session, None
        if session is not None:
            await session.close()

    async def _deliver_webhooks(self) -> None:
        """POST pending updates to the webhook, up to ``max_connections`` at a time, in
        queue order, retrying failures (Telegram keeps an update until a 2xx reply)."""
        session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        self._webhook_session = session
        in_flight: dict[int, asyncio.Task[None]] = {}
        try:
            while True:
                for record in list(self._pending):
                    if len(in_flight) >= self.webhook_max_connections:
                        break
                    if record.update_id in in_flight:
                        continue
                    if not self._allowed(record):
                        self._pending.remove(record)
                        continue
                    task = asyncio.create_task(self._post_update(session, record))
                    in_flight[record.update_id] = task
                    task.add_done_callback(_forget(in_flight, record.update_id))
                self._poll_wakeup.clear()
                waiters: set[asyncio.Future[Any]] = {
                    asyncio.ensure_future(self._poll_wakeup.wait())
                }
                waiters.update(in_flight.values())
                await asyncio.wait(waiters, timeout=1.0, return_when="FIRST_COMPLETED")
                for waiter in waiters:
                    if waiter not in in_flight.values():
                        waiter.cancel()
        finally:
            for task in in_flight.values():
                task.cancel()
            if in_flight:
                await asyncio.gather(*in_flight.values(), return_exceptions=True)

    async def _post_update(self, session: aiohttp.ClientSession, record: UpdateRecord) -> None:
        delay = 0.05
        while self.webhook_url:
            url = self.webhook_url
            headers = {"Content-Type": "application/json"}
            if self.webhook_secret:
                headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook_secret
            record.delivered_at = record.delivered_at or time.monotonic()
            try:
                async with session.post(
                    url, data=json.dumps(record.to_api(), ensure_ascii=False), headers=headers
                ) as response:
                    if 200 <= response.status < 300:
                        await self._webhook_reply(response)
                        record.confirmed_at = time.monotonic()
                        with contextlib.suppress(ValueError):
                            self._pending.remove(record)
                        self._poll_wakeup.set()
                        return
                    self.webhook_last_error = (
                        int(time.time()),
                        f"Wrong response from the webhook: {response.status} {response.reason}",
                    )
            except (aiohttp.ClientError, TimeoutError) as exc:
                self.webhook_last_error = (int(time.time()), f"Connection error: {exc}")
            await asyncio.sleep(delay)
            delay = min(1.0, delay * 2)

    async def _webhook_reply(self, response: aiohttp.ClientResponse) -> None:
        """Execute a method the bot returned in the webhook reply body (aiogram can)."""
        params: dict[str, Any] = {}
        uploads: dict[str, Upload] = {}
        if response.content_type == "application/json":
            body = await response.json(content_type=None)
            if not isinstance(body, dict) or "method" not in body:
                return
            params = dict(body)
        elif response.content_type.startswith("multipart/"):
            reader = aiohttp.MultipartReader.from_response(response)
            while True:
                part = await reader.next()
                if part is None:
                    break
                assert isinstance(part, aiohttp.BodyPartReader)
                name = part.name or ""
                if part.filename:
                    uploads[name] = Upload(part.filename, bytes(await part.read()))
                else:
                    params[name] = decode_field(name, await part.text())
        else:
            return
        method = str(params.pop("method", ""))
        if method:
            await self.execute(method, params, uploads, via_webhook_reply=True)


def _forget(
    in_flight: dict[int, asyncio.Task[None]], update_id: int
) -> Callable[[asyncio.Task[None]], None]:
    def callback(_task: asyncio.Task[None]) -> None:
        in_flight.pop(update_id, None)

    return callback
