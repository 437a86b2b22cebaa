"""Telegram's flood limit, kept on our side: at most N new messages a minute per group.

The budget is a sliding window per group chat in the store, so several instances of the
bot share it (when the store is unreachable a window in this process stands in). A slot
is taken at the moment a message is actually sent — `bot.sender.Sender` takes it right
before the HTTP request, after any wait — and counts for the window plus a small margin
(`margin`), so a request that takes a moment to reach Telegram still counts for the whole
of Telegram's window. Game messages wait for a slot (`acquire`); replies to commands
(chatter) take one only while the window is nearly empty (`try_chatter`: fewer than
`chatter_limit` messages in it), never wait, and so never hold a slot the game needs.
Ephemeral messages and edits are not counted (the table worker coalesces edits).

`ChatSendLimiter` is also a request middleware of the bot's session: a group send that
did not come through the sender (`routed` unset) is charged as a game message, so no
send escapes the budget.
"""

from __future__ import annotations

import asyncio
import logging
import time
from contextvars import ContextVar
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
CHATTER_SHARE = 0.3  # replies to commands use the window only while it is this empty
MARGIN = 1.0  # seconds a slot outlives the window at most (5% of a short test window)

# Set by the sender around its own requests (already charged): the middleware skips them.
routed: ContextVar[bool] = ContextVar("nastolka_routed_send", default=False)


def is_ephemeral(method: TelegramMethod[Any]) -> bool:
    """An ephemeral message (Bot API 10.2): seen by one member only, outside the budget."""
    return (
        getattr(method, "ephemeral_message_parameters", None) is not None
        or getattr(method, "receiver_user_id", None) is not None
    )


def is_group_send(method: TelegramMethod[Any]) -> int | None:
    """The group chat id when `method` posts a new message there, else None."""
    name = getattr(method, "__api_method__", "")
    if not name.startswith("send") or name in NOT_MESSAGES or is_ephemeral(method):
        return None
    chat_id = getattr(method, "chat_id", None)
    if isinstance(chat_id, int) and chat_id < 0:
        return chat_id
    return None


class ChatSendLimiter(BaseRequestMiddleware):
    def __init__(
        self,
        store: Store,
        limit: int = 20,
        window: float = 60.0,
        chatter_share: float = CHATTER_SHARE,
    ) -> None:
        self.store = store
        self.limit = limit
        self.window = window
        self.chatter_share = chatter_share
        self._local = MemoryStore()

    @property
    def margin(self) -> float:
        return min(MARGIN, 0.05 * self.window)

    @property
    def chatter_limit(self) -> int:
        """Chatter takes a slot only while fewer messages than this are in the window
        (0: never), so the game keeps at least `limit - chatter_limit` slots."""
        return int(self.limit * self.chatter_share)

    async def _reserve(self, chat_id: int, limit: int) -> float:
        window = self.window + self.margin
        try:
            return await self.store.reserve_send(chat_id, time.time(), limit, window)
        except StoreUnavailable:
            return await self._local.reserve_send(chat_id, time.monotonic(), limit, window)

    async def try_chatter(self, chat_id: int) -> bool:
        """Take a slot for a reply to a command if the window is nearly empty; never
        waits. False: the reply is not worth a slot the game may need."""
        limit = self.chatter_limit
        return limit > 0 and await self._reserve(chat_id, limit) <= 0

    async def acquire(self, chat_id: int) -> None:
        """Take a slot for a game message, waiting for one when the window is full."""
        while True:
            wait = await self._reserve(chat_id, self.limit)
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
        chat_id = None if routed.get() else is_group_send(method)
        if chat_id is not None:
            await self.acquire(chat_id)
        return await make_request(bot, method)
