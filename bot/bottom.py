"""How far up the chat the living table has been pushed (play-polish issue 18).

A bot can't move a message: when chatter has pushed the table up, its next change sends
it anew at the bottom (and the old message loses its buttons; bot/service/table_worker.py).
`Bottom` counts what the bot knows was posted in a chat since its table:

- the bot's own new messages there (summaries, notices, replies: `SentMessages`, a
  session middleware, sees every `send*` that went out);
- the members' messages the bot receives (`SeenMessages`, on the first router): commands
  and replies to it, or everything when privacy mode is off or the bot is an admin.

In a supergroup message ids count up through every message, so the newest id seen says
how many messages there are below the table, the unseen ones included; in a basic group
(where ids are not the chat's own) the messages seen are counted instead.

Only chats whose table the worker has shown are tracked (at most `LIMIT`), and a chat
is forgotten with its game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response
from aiogram.types import Message, TelegramObject

from bot.limits import is_group_send

PUSHED_UP = 5  # messages below the table after which its next change sends it anew
LIMIT = 20_000  # chats tracked at most (the oldest goes first)

# Set around a send that pushes nothing up: a turn ping, deleted when the turn ends
# (bot/service/pings.py). Its message id is skipped in a supergroup's count too.
passing: ContextVar[bool] = ContextVar("nastolka_passing_send", default=False)


def supergroup(chat_id: int) -> bool:
    return chat_id <= -1_000_000_000_000


@dataclass
class _Chat:
    table: int  # the table's message id
    newest: int  # the newest message id seen in the chat
    below: int = 0  # messages seen below the table
    passing: int = 0  # the bot's passing messages (turn pings) below the table


class Bottom:
    def __init__(self, after: int = PUSHED_UP, limit: int = LIMIT) -> None:
        self.after = after
        self.limit = limit
        self._chats: dict[int, _Chat] = {}
        self._asked: set[int] = set()  # chats whose table was asked down (/table)

    def shown(self, chat_id: int, table_id: int) -> None:
        """The chat's table is the message `table_id` (sent or edited just now)."""
        entry = self._chats.get(chat_id)
        if entry is not None and entry.table == table_id:
            return
        if entry is None and len(self._chats) >= self.limit:
            self._chats.pop(next(iter(self._chats)))
        newest = max(table_id, entry.newest if entry is not None else 0)
        self._chats[chat_id] = _Chat(table=table_id, newest=newest)
        self._asked.discard(chat_id)

    def seen(self, chat_id: int, message_id: int) -> None:
        """A message `message_id` was posted in the chat (by the bot or a member)."""
        entry = self._chats.get(chat_id)
        if entry is None or message_id <= entry.table:
            return
        entry.below += 1
        entry.newest = max(entry.newest, message_id)

    def passed(self, chat_id: int, message_id: int) -> None:
        """The bot posted a passing message `message_id` (a turn ping): not counted."""
        entry = self._chats.get(chat_id)
        if entry is not None and message_id > entry.table:
            entry.passing += 1
            entry.newest = max(entry.newest, message_id)

    def below(self, chat_id: int, table_id: int) -> int:
        """How many messages are known to be below the table `table_id`."""
        entry = self._chats.get(chat_id)
        if entry is None or entry.table != table_id:
            return 0
        if supergroup(chat_id):
            return max(entry.below, entry.newest - entry.table - entry.passing)
        return entry.below

    def at_bottom(self, chat_id: int, table_id: int) -> bool:
        """Is the table `table_id` known to be the chat's last message?"""
        entry = self._chats.get(chat_id)
        return entry is not None and entry.table == table_id and not self.below(chat_id, table_id)

    def ask(self, chat_id: int) -> None:
        """`/table`: the next refresh sends the table anew, whatever is below it."""
        self._asked.add(chat_id)

    def wanted(self, chat_id: int, table_id: int) -> bool:
        """Should the table `table_id` be sent anew at the bottom?"""
        if chat_id in self._asked:
            return not self.at_bottom(chat_id, table_id)
        return self.below(chat_id, table_id) >= self.after

    def forget(self, chat_id: int) -> None:
        self._chats.pop(chat_id, None)
        self._asked.discard(chat_id)

    def __len__(self) -> int:
        return len(self._chats) + len(self._asked)


class SentMessages(BaseRequestMiddleware):
    """Session middleware: each new message the bot posted in a group is `seen`."""

    def __init__(self, bottom: Bottom) -> None:
        self.bottom = bottom

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Response[Any]:
        result: Any = await make_request(bot, method)  # the method's result, in fact
        if is_group_send(method) is not None:
            for msg in result if isinstance(result, list) else [result]:
                if isinstance(msg, Message) and msg.message_id and passing.get():
                    self.bottom.passed(msg.chat.id, msg.message_id)
                elif isinstance(msg, Message) and msg.message_id:
                    self.bottom.seen(msg.chat.id, msg.message_id)
        return result  # type: ignore[no-any-return]


class SeenMessages(BaseMiddleware):
    """Router middleware (outer, on messages): each message the bot receives is `seen`
    (an ephemeral one, id 0, is seen by its sender alone and pushes nothing up)."""

    def __init__(self, bottom: Callable[[dict[str, Any]], Bottom | None]) -> None:
        self.bottom = bottom

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Message) and event.message_id and event.chat.id < 0:
            bottom = self.bottom(data)
            if bottom is not None:
                bottom.seen(event.chat.id, event.message_id)
        return await handler(event, data)
