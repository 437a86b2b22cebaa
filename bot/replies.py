"""Replies to commands — `/rules`, `/help`, `/top`, `/settings`, refusals… — where the
asker asked, at the least cost to the group.

In a group, `Replies.answer` tries in turn:

1. **ephemeral**: the command was sent as an ephemeral message (Bot API 10.2: the bot
   registers `/rules`, `/help`, `/leave`, the memory's commands with `is_ephemeral`), so
   the reply is ephemeral too, seen by the asker alone and outside the group's flood
   budget;
2. **one reply in the group**: a reply to his message, sent as chatter (`Sender` gives it
   a slot only while the group's window is less than half spent; it waits for that at
   most two windows, `PATIENCE`, holding no slot, and is dropped after); while a lobby or
   game runs it is deleted at its end (`on_group_message`: bot/service/clean_chat.py).

A command answered in the asker's private chat left the group with a bare command and
the asker looking for his answer elsewhere (issue 31, point 6): only an answer asked for
from a button (`private_ok`: the full rules under «📖 Полные правила», whose toast says
where they went) may go to his private chat, headed with the group's name, when he has
started the bot (`store.has_started`).

Private and group replies are sent once a while (`repeat` seconds) per chat, member and
topic: a member repeating a command gets no second message (the first one is still
there); an ephemeral command is always answered (it costs nothing and only he sees it).
In a private chat the reply is simply sent. The once-a-while marks are leases in the
store, shared by all instances (a mark in this process stands in while the store is
unreachable); a reply that could not be sent gives its mark back.
"""

from __future__ import annotations

import contextlib
import html
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.types import InlineKeyboardMarkup, Message

from bot.sender import Sender
from bot.storage import Store, StoreUnavailable
from locales import Translator

log = logging.getLogger(__name__)

PATIENCE = 2.0  # group windows a reply may wait for room in before it is dropped

REPEAT_SECONDS = 120.0  # a repeated command within this gets no second reply
LOCAL = "local"  # the token of a once-a-while mark kept in this process


class Delivery(StrEnum):
    """How a reply went out (what `Replies.answer` returns)."""

    DIRECT = "direct"  # in the private chat the command came from
    EPHEMERAL = "ephemeral"
    PRIVATE = "private"
    GROUP = "group"
    REPEATED = "repeated"  # answered a moment ago: nothing sent
    DROPPED = "dropped"  # the group's window had no room for chatter, or a 429


@dataclass(frozen=True)
class Asked:
    """The command a reply answers: where, by whom, and how to reply to it."""

    chat_id: int
    user_id: int | None
    message_id: int | None  # None for an ephemeral command (its message_id is 0)
    ephemeral_id: int | None
    group_title: str | None  # None in a private chat

    @classmethod
    def of(cls, message: Message) -> Asked:
        in_group = message.chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)
        return cls(
            chat_id=message.chat.id,
            user_id=message.from_user.id if message.from_user else None,
            message_id=message.message_id or None,
            ephemeral_id=message.ephemeral_message_id,
            group_title=(message.chat.title or "") if in_group else None,
        )

    @property
    def in_group(self) -> bool:
        return self.group_title is not None


class Replies:
    def __init__(self, sender: Sender, store: Store, repeat: float = REPEAT_SECONDS) -> None:
        self.sender = sender
        self.store = store
        self.repeat = repeat
        self._local: dict[str, float] = {}  # once-a-while marks while the store is down
        # told of each reply posted in a group (chat, message id): bot/service/clean_chat.py
        self.on_group_message: Callable[[int, int], None] | None = None

    async def answer(
        self,
        asked: Asked,
        parts: str | Sequence[str],
        t: Translator,
        *,
        topic: str,
        private_ok: bool = False,
        reply_to: int | None = None,
        markup: InlineKeyboardMarkup | None = None,
    ) -> Delivery:
        """Answer `asked` with `parts` (one message each; `markup` under the last).
        `topic` names what is answered (e.g. "rules:dominas": a repeat within `repeat`
        seconds is not answered again); `private_ok=True` lets it go to the asker's
        private chat before the group (a press's answer, the press's toast says so);
        `reply_to` replies to that message instead of the command."""
        texts = [parts] if isinstance(parts, str) else list(parts)
        if not asked.in_group:
            await self._direct(asked.chat_id, texts, markup)
            return Delivery.DIRECT
        user = asked.user_id
        eid = asked.ephemeral_id
        if (
            eid is not None
            and user is not None
            and await self._ephemeral(asked, user, eid, texts, markup)
        ):
            return Delivery.EPHEMERAL
        key = f"reply:{asked.chat_id}:{topic}:u{user}"
        mark = await self._once(key)
        if mark is None:
            return Delivery.REPEATED
        if private_ok and user is not None and await self._started(user):
            header = t("reply.private_header", title=html.escape(asked.group_title or ""))
            if await self._private(user, [f"{header}\n\n{texts[0]}", *texts[1:]], markup):
                return Delivery.PRIVATE
        target = reply_to or asked.message_id
        sent = 0
        for i, text in enumerate(texts):
            last = i == len(texts) - 1
            try:
                msg = await self.sender.send_text(
                    asked.chat_id,
                    text,
                    markup=markup if last else None,
                    reply_to=target,
                    chatter=True,
                    patience=self.sender.limiter.window * PATIENCE,
                )
            except TelegramAPIError as e:
                log.warning("reply to %s in %s failed: %s", topic, asked.chat_id, e)
                msg = None
            if msg is None:
                break
            sent += 1
            if self.on_group_message is not None:
                self.on_group_message(asked.chat_id, int(msg.message_id))
        if not sent:
            await self._forget(key, mark)  # nothing went out: the next ask may try again
            return Delivery.DROPPED
        return Delivery.GROUP

    async def _direct(
        self, chat_id: int, texts: list[str], markup: InlineKeyboardMarkup | None
    ) -> None:
        for i, text in enumerate(texts):
            last = i == len(texts) - 1
            try:
                await self.sender.send_text(chat_id, text, markup=markup if last else None)
            except TelegramAPIError as e:
                log.info("reply in private chat %s failed: %s", chat_id, e)
                return

    async def _ephemeral(
        self,
        asked: Asked,
        user: int,
        ephemeral_id: int,
        texts: list[str],
        markup: InlineKeyboardMarkup | None,
    ) -> bool:
        """True when at least the first part went out ephemerally."""
        for i, text in enumerate(texts):
            last = i == len(texts) - 1
            try:
                msg = await self.sender.send_ephemeral(
                    asked.chat_id, user, ephemeral_id, text, markup=markup if last else None
                )
            except TelegramAPIError as e:
                if i:
                    log.info("ephemeral reply in %s cut short: %s", asked.chat_id, e)
                    return True
                log.info("ephemeral reply in %s failed (%s): another way", asked.chat_id, e)
                return False
            if msg is None:
                return i > 0
        return True

    async def _private(
        self, user: int, texts: list[str], markup: InlineKeyboardMarkup | None
    ) -> bool:
        for i, text in enumerate(texts):
            last = i == len(texts) - 1
            try:
                msg = await self.sender.send_text(user, text, markup=markup if last else None)
            except TelegramAPIError as e:  # blocked the bot, or never really started it
                log.info("private reply to %s failed: %s", user, e)
                return i > 0
            if msg is None:
                return i > 0
        return True

    async def _started(self, user: int) -> bool:
        try:
            return await self.store.has_started(user)
        except StoreUnavailable:
            return False

    async def _once(self, key: str) -> str | None:
        """Take the once-a-while mark `key` (its token), or None when it was taken within
        `repeat` seconds."""
        try:
            return await self.store.lock(key, self.repeat)
        except StoreUnavailable:
            now = time.monotonic()
            for k in [k for k, until in self._local.items() if until <= now]:
                del self._local[k]
            if key in self._local:
                return None
            self._local[key] = now + self.repeat
            return LOCAL

    async def _forget(self, key: str, mark: str) -> None:
        if mark == LOCAL:
            self._local.pop(key, None)
            return
        with contextlib.suppress(StoreUnavailable):
            await self.store.unlock(key, mark)
