"""The webhook endpoint: only Telegram's updates get in, junk gets a 4xx and one log line.

aiogram's `SimpleRequestHandler` answers 200 to any body and parses it later in a task,
so a body that is not JSON, or not an update, ends in a traceback ("Task exception was
never retrieved"). `UpdateHandler` checks the request first: the secret header (401 when
wrong or missing), the size (aiohttp's 413 over `MAX_BODY`), JSON, nesting depth,
a JSON object with an integer `update_id`, aiogram's `Update` schema — each failure a
400 and one WARNING line (at most one per `LOG_EVERY` seconds, with a count of the rest),
no traceback. A valid update is answered 200 at once and handled in the background,
as before; `close()` leaves the bot's session open (the App closes it after the table
edits in flight).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from pydantic import ValidationError

from bot import lean_json

log = logging.getLogger("bot.webhook")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # bytes; Telegram's updates are a few KB
MAX_DEPTH = 48  # nested objects/arrays; a real update is about a dozen deep
LOG_EVERY = 10.0


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def depth_over(value: Any, limit: int) -> bool:
    """Whether JSON `value` nests deeper than `limit` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def parse_update(body: bytes, bot: Bot) -> Update:
    try:
        data = lean_json.loads(body)  # the pressed message's keyboard is never read
    except (ValueError, RecursionError):
        raise Refused(400, "the body is not JSON") from None
    if depth_over(data, MAX_DEPTH):
        raise Refused(400, f"the JSON nests deeper than {MAX_DEPTH}")
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("update_id"), int)
        or isinstance(data.get("update_id"), bool)
    ):
        raise Refused(400, "not an update (a JSON object with an integer update_id)")
    try:
        return Update.model_validate(data, context={"bot": bot})
    except (ValidationError, ValueError, TypeError, RecursionError) as e:
        where = ""
        if isinstance(e, ValidationError) and e.errors():
            where = " at " + ".".join(str(x) for x in e.errors()[0]["loc"])
        raise Refused(400, f"not a valid update{where}") from None


class QuietBadRequests(logging.Filter):
    """aiohttp logs a request that is not HTTP (a scanner, a wrong port) as an ERROR with a
    traceback; it is one WARNING line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            reason = " ".join(str(exc.message or exc).split())
            said = record.getMessage().replace(
                "Error handling request", "refused a malformed HTTP request"
            )
            record.msg, record.args = "%s: %s (%s)", (said, reason, exc.code)
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_bad_requests() -> None:
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, QuietBadRequests) for f in server_log.filters):
        server_log.addFilter(QuietBadRequests())


class UpdateHandler(SimpleRequestHandler):
    def __init__(
        self, dispatcher: Dispatcher, bot: Bot, secret_token: str | None, **data: Any
    ) -> None:
        super().__init__(
            dispatcher=dispatcher,
            bot=bot,
            handle_in_background=True,
            secret_token=secret_token,
            **data,
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self._logged_at = 0.0
        self._unlogged = 0

    def register(self, app: web.Application, /, path: str, **kwargs: Any) -> None:
        app.router.add_route("POST", path, self.handle, **kwargs)
        quiet_bad_requests()

    async def close(self) -> None:
        """Nothing: the App closes the bot's session after the work in flight."""

    def verify_secret(self, telegram_secret_token: str, bot: Bot) -> bool:
        if self.secret_token:
            given = telegram_secret_token.encode("utf-8", "surrogateescape")
            return secrets.compare_digest(given, self.secret_token.encode())
        return True

    async def handle(self, request: web.Request) -> web.Response:
        try:
            if not self.verify_secret(request.headers.get(SECRET_HEADER, ""), self.bot):
                raise Refused(401, "wrong or missing secret token")
            try:
                body = await request.read()  # the app's client_max_size is MAX_BODY
            except web.HTTPRequestEntityTooLarge:
                raise Refused(413, f"the body is over {MAX_BODY} bytes") from None
            update = parse_update(body, self.bot)
        except Refused as e:
            self._refused(request, e)
            return web.json_response({"ok": False, "description": e.reason}, status=e.status)
        task = asyncio.create_task(self._process(update))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return web.json_response({})

    async def _process(self, update: Update) -> None:
        try:
            result = await self.dispatcher.feed_update(self.bot, update, **self.data)
            if isinstance(result, TelegramMethod):
                await self.dispatcher.silent_call_request(bot=self.bot, result=result)
        except Exception:
            log.exception("update %s failed", update.update_id)

    def _refused(self, request: web.Request, e: Refused) -> None:
        now = time.monotonic()
        if now - self._logged_at < LOG_EVERY:
            self._unlogged += 1
            return
        more = f" ({self._unlogged} more refused since the last line)" if self._unlogged else ""
        self._logged_at, self._unlogged = now, 0
        log.warning(
            "webhook: refused a request from %s: %s (%d)%s",
            request.remote,
            e.reason,
            e.status,
            more,
        )
