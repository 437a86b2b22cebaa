"""The one way out: every message the bot sends, edits or deletes goes through `Sender`.

    >>> msg = await sender.send_text(chat_id, "🏁 Кон окончен")          # doctest: +SKIP
    >>> await sender.call(EditMessageText(...))                         # doctest: +SKIP
    >>> await sender.send_text(chat_id, rules, chatter=True)           # doctest: +SKIP

(Sketches, skipped by doctest: they need a bot, a chat and a running event loop;
tests/bot/test_sender_e2e.py and test_flood_e2e.py test the sender on the fake Telegram.)

- **The budget is charged when the request is made.** A new message to a group takes a
  slot of the chat's window (`bot.limits.ChatSendLimiter`) right before its HTTP request,
  after every wait; a request that was refused with 429 takes a new slot when it is
  tried again.
- **429 is waited out.** `TelegramRetryAfter` puts the chat on hold for `retry_after`
  seconds: game messages wait it out and are tried again (at most `attempts` times, and
  never for longer than `longest_wait` at once), nothing else is sent to that chat
  meanwhile. A `latest_wins` call (the table) gets the `TelegramRetryAfter` instead: its
  caller edits in the latest state afterwards rather than an outdated one late.
- **Game first.** `chatter=True` marks a reply to a command (`/rules`, `/help`,
  refusals): it takes a slot only while the window is nearly empty and never waits —
  during a hold or with a busy window it is dropped (None), so it is never queued in
  front of a game message.

Other Telegram errors reach the caller unchanged. Ephemeral messages, private chats and
edits are not counted (see `bot.limits`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import SendMessage, TelegramMethod
from aiogram.types import (
    EphemeralMessageParameters,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)

from bot import metrics
from bot.budget import GlobalBudget, Priority
from bot.limits import ChatSendLimiter, is_group_send, routed

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 4  # tries of one game message through 429s
LONGEST_WAIT = 120.0  # seconds: a longer retry_after gives the message up


def chat_of(method: TelegramMethod[Any]) -> int | None:
    chat_id = getattr(method, "chat_id", None)
    return chat_id if isinstance(chat_id, int) else None


class Sender:
    def __init__(
        self,
        bot: Bot,
        limiter: ChatSendLimiter,
        *,
        attempts: int = ATTEMPTS,
        longest_wait: float = LONGEST_WAIT,
    ) -> None:
        self.bot = bot
        self.limiter = limiter
        self.attempts = attempts
        self.longest_wait = longest_wait
        self._hold: dict[int, float] = {}  # chat -> monotonic time Telegram lets us go on
        self.budget: GlobalBudget | None = None  # the bot-wide budget, when on (bot/app.py)

    def crowded(self) -> bool:
        """Whether a table edit would wait in the bot-wide budget now, behind others."""
        return self.budget is not None and self.budget.backlog(Priority.TABLE) > 0

    def hold_left(self, chat_id: int | None) -> float:
        """Seconds the chat is still on hold after a 429 (0 when it is not)."""
        if chat_id is None:
            return 0.0
        until = self._hold.get(chat_id)
        if until is None:
            return 0.0
        left = until - time.monotonic()
        if left <= 0:
            del self._hold[chat_id]
            return 0.0
        return left

    def _held(self, chat_id: int | None, seconds: float) -> None:
        if chat_id is None:
            return
        now = time.monotonic()
        for chat in [c for c, end in self._hold.items() if end <= now]:
            del self._hold[chat]  # holds that ended in chats not heard from since
        until = now + seconds
        self._hold[chat_id] = max(until, self._hold.get(chat_id, 0.0))

    async def call(
        self,
        method: TelegramMethod[T],
        *,
        chatter: bool = False,
        latest_wins: bool = False,
    ) -> T | None:
        """Make the API call under the chat's budget. None: a chatter reply dropped, or a
        game message given up after repeated 429s (logged)."""
        chat_id = chat_of(method)
        group = is_group_send(method)
        name = method.__api_method__
        for attempt in range(1, self.attempts + 1):
            # an ephemeral reply is outside the group's budget: a hold does not stop it
            hold = 0.0 if chatter and group is None else self.hold_left(chat_id)
            if hold > 0:
                if chatter:
                    log.info("chat %s: on hold after a 429, reply %s dropped", chat_id, name)
                    return None
                if latest_wins:
                    raise TelegramRetryAfter(
                        method=method,
                        message=f"Flood control: the chat is on hold for {hold:.1f}s",
                        retry_after=max(1, math.ceil(hold)),
                    )
                await asyncio.sleep(hold)
                metrics.flood_wait("hold", hold)
            if group is not None:
                if chatter:
                    if not await self.limiter.try_chatter(group):
                        log.info("chat %s: the window is busy, reply %s dropped", group, name)
                        return None
                else:
                    waited = time.monotonic()
                    await self.limiter.acquire(group)  # charged now, right before sending
                    metrics.flood_wait("window", time.monotonic() - waited)
            token = routed.set(True)
            try:
                return await self.bot(method)
            except TelegramRetryAfter as e:
                wait = float(e.retry_after)
                self._held(chat_id, wait)
                if latest_wins:
                    raise
                if chatter:
                    log.info("chat %s: 429 on reply %s, dropped", chat_id, name)
                    return None
                if wait > self.longest_wait or attempt == self.attempts:
                    log.warning(
                        "chat %s: %s given up after %s tries (retry after %ss)",
                        chat_id,
                        name,
                        attempt,
                        e.retry_after,
                    )
                    return None
                log.info("chat %s: flood control, %s again in %ss", chat_id, name, wait)
            finally:
                routed.reset(token)
            await asyncio.sleep(wait)
            metrics.flood_wait("retry_after", wait)
        return None

    async def send_text(
        self,
        chat_id: int,
        text: str,
        *,
        markup: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
        chatter: bool = False,
    ) -> Message | None:
        """A text message (a reply to `reply_to` when it still exists)."""
        reply = (
            ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
            if reply_to
            else None
        )
        method = SendMessage(
            chat_id=chat_id, text=text, reply_markup=markup, reply_parameters=reply
        )
        return await self.call(method, chatter=chatter)

    async def send_ephemeral(
        self,
        chat_id: int,
        user_id: int,
        ephemeral_id: int,
        text: str,
        *,
        markup: InlineKeyboardMarkup | None = None,
    ) -> Message | None:
        """An ephemeral reply (seen by `user_id` alone) to his ephemeral message
        `ephemeral_id`; Telegram takes it within 15 s of his message. Costs no budget."""
        method = SendMessage(
            chat_id=chat_id,
            text=text,
            reply_markup=markup,
            ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=user_id),
            reply_parameters=ReplyParameters(ephemeral_message_id=ephemeral_id),
        )
        return await self.call(method, chatter=True)
