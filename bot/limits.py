"""Telegram's flood limit, kept on our side: at most N new messages a minute per group.

A request middleware of the bot's session sees every API call; the `send*` methods
(new messages) to a group take a slot of the chat's sliding window first, waiting when
the window is full. The window lives in the store, so several instances of the bot share
it; when the store is unreachable a window in this process stands in.
Edits are not counted here: the table worker coalesces them (one pending edit per chat).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod

from bot.storage import MemoryStore, Store, StoreUnavailable

log = logging.getLogger(__name__)

NOT_MESSAGES = frozenset({"sendChatAction", "sendInvoice"})


def is_group_send(method: TelegramMethod[Any]) -> int | None:
    """The group chat id when `method` posts a new message there, else None."""
    name = getattr(method, "__api_method__", "")
    if not name.startswith("send") or name in NOT_MESSAGES:
        return None
    chat_id = getattr(method, "chat_id", None)
    if isinstance(chat_id, int) and chat_id < 0:
        return chat_id
    return None


class ChatSendLimiter(BaseRequestMiddleware):
    def __init__(self, store: Store, limit: int = 20, window: float = 60.0) -> None:
        self.store = store
        self.limit = limit
        self.window = window
        self._local = MemoryStore()

    async def acquire(self, chat_id: int) -> None:
        while True:
            try:
                wait = await self.store.reserve_send(chat_id, time.time(), self.limit, self.window)
            except StoreUnavailable:
                wait = await self._local.reserve_send(
                    chat_id, time.monotonic(), self.limit, self.window
                )
            if wait <= 0:
                return
            log.info(
                "chat %s: %s messages in %ss already, waiting %.1fs",
                chat_id,
                self.limit,
                self.window,
                wait,
            )
            await asyncio.sleep(wait)

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Response[Any]:
        chat_id = is_group_send(method)
        if chat_id is not None:
            await self.acquire(chat_id)
        return await make_request(bot, method)
