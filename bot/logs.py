"""The log: `LOG_LEVEL` (INFO) and `LOG_FORMAT` (`text`, or `json`: one object a line).

A JSON line holds `ts`, `level`, `logger`, `event` (the message) and, where known,
`chat_id`, `game_id` (the game's short id of its buttons) and `update_id`; `exc` carries
a traceback. The ids come from the update being handled (`UpdateContext`, a middleware
of the dispatcher: tasks it starts inherit them) or from a record's `extra=`.

Secrets are masked in every line by `bot.redact` (its formatter wraps this one). The
bot never logs a message's text or a player's hand: the lines are about ids, methods
and outcomes (tests/bot/test_logs.py plays a game at DEBUG and looks).
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # not at run time: the render and decision processes import this
    # module, and aiogram's types take seconds to import (a first picture waited for it)
    from aiogram.types import TelegramObject, Update

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FIELDS = ("chat_id", "game_id", "update_id")

_context: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "nastolka_log_context", default=None
)


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
        }
        context = _context.get() or {}
        for field in FIELDS:
            value = getattr(record, field, None)
            if value is None:
                value = context.get(field)
            if value is not None:
                out[field] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def choose(level: str | None, fmt: str | None) -> tuple[str, str]:
    """The level and format to use: a value that is not one of them is the default
    (the configuration check says so on its own)."""
    level = (level or "INFO").strip().upper()
    fmt = (fmt or "text").strip().lower()
    return (level if level in LEVELS else "INFO"), (fmt if fmt in FORMATS else "text")


def setup(level: str | None = None, fmt: str | None = None) -> None:
    """Configure the root logger on stderr (LOG_LEVEL and LOG_FORMAT from the environment
    unless given). Called again, it replaces its own handler; a log configured by someone
    else (a test runner) is left alone."""
    level, fmt = choose(
        level if level is not None else os.environ.get("LOG_LEVEL"),
        fmt if fmt is not None else os.environ.get("LOG_FORMAT"),
    )
    root = logging.getLogger()
    ours = [h for h in root.handlers if getattr(h, "nastolka", False)]
    if len(ours) < len(root.handlers):
        return  # someone else configured the log (a test runner): like logging.basicConfig
    handler = logging.StreamHandler(sys.stderr)
    handler.nastolka = True  # type: ignore[attr-defined]
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT))
    for old in ours:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    if level == "DEBUG":
        # third-party chatter that says nothing about the bot (asyncio's selector, Pillow)
        for name in ("asyncio", "PIL"):
            logging.getLogger(name).setLevel(logging.INFO)


def ids_of(update: Update) -> dict[str, Any]:
    out: dict[str, Any] = {"update_id": update.update_id}
    query = update.callback_query
    message = update.message or update.edited_message or update.my_chat_member
    if query is not None:
        if query.message is not None:
            out["chat_id"] = query.message.chat.id
        parts = (query.data or "").split(":")
        if len(parts) > 1 and parts[0] in ("L1", "P1", "C1", "V1"):
            out["game_id"] = parts[1]
    elif message is not None:
        out["chat_id"] = message.chat.id
    return out


class UpdateContext:
    """An outer middleware of the dispatcher: the update's ids on every line it logs."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        from aiogram.types import Update  # loaded already in the bot's process

        if not isinstance(event, Update):
            return await handler(event, data)
        token = _context.set(ids_of(event))
        try:
            return await handler(event, data)
        finally:
            _context.reset(token)
