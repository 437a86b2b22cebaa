"""The one way out: every message the bot sends, edits or deletes goes through `Sender`.

    >>> msg = await sender.send_text(chat_id, "🏁 Кон окончен")          # doctest: +SKIP
    >>> await sender.call(EditMessageText(...))                         # doctest: +SKIP
    >>> await sender.send_text(chat_id, rules, chatter=True)           # doctest: +SKIP

(Sketches, skipped by doctest: they need a bot, a chat and a running event loop;
tests/bot/test_sender_e2e.py and test_flood_e2e.py test the sender on the fake Telegram.)

- **The budget is charged when the request is made.** Every call that shows in a group —
  a new message, an edit, a delete — takes a slot of the group's one window
  (`bot.limits.ChatLimiter`), a new message in a private chat a slot of that chat's,
  right before its HTTP request, after every wait; a request refused with 429 takes a
  new slot when it is tried again.
- **What it may spend.** A game message (`Spend.GAME`: summaries, standings, the lobby,
  the clean-up) waits for a slot; the table (`latest_wins`: `Spend.TABLE`, or with
  `turn` `Spend.TURN`) leaves the game's reserve alone and never waits here: it gets
  `Paced` with the wait, and its worker edits in the latest state then; a reply to a
  command or a ping (`chatter=True`, `Spend.CHATTER`) takes a slot only while the window
  is less than half spent, waits for that at most `patience` seconds holding no slot (a
  ping: not at all), and is dropped (None) after, so it is never queued in front of a
  game message.
- **429 is waited out.** `TelegramRetryAfter` puts the chat on hold for `retry_after`
  seconds: game messages wait it out and are tried again (at most `attempts` times, and
  never for longer than `longest_wait` at once), nothing counted is sent to that chat
  meanwhile. A `latest_wins` call gets the `TelegramRetryAfter` instead: its caller
  edits in the latest state afterwards rather than an outdated one late.
- **Ephemeral messages** are outside the group's budget; their limits are not
  documented, so each member of a chat gets at most one ephemeral call an
  `ephemeral_gap` seconds (`EPHEMERAL_GAP_SECONDS`, 1 s), and never by waiting: a new
  ephemeral message (his hand opened, his copy of the table, each the answer to a press
  of his) and a delete go at once and take the member's slot; an edit (the rounds that
  keep his hand and copy up to date) that comes sooner is not sent (None) and
  `deferred(chat, wait)` asks for a round then, which edits in the latest state. A
  waiting pace (1 s) held answers 6 s at p99 behind a member's own hand and copy edits
  (`python -m bench.pacing`, 5 groups).

Answers to presses are not counted anywhere: they go at once (`bot.budget` paces only
new messages bot-wide). Other Telegram errors reach the caller unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
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
from bot.limits import ChatLimiter, Paced, Spend, is_ephemeral, routed

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 4  # tries of one game message through 429s
LONGEST_WAIT = 120.0  # seconds: a longer retry_after gives the message up
EPHEMERAL_GAP = 1.0  # seconds between two ephemeral calls for one member of a chat (0: off)


def chat_of(method: TelegramMethod[Any]) -> int | None:
    chat_id = getattr(method, "chat_id", None)
    return chat_id if isinstance(chat_id, int) else None


def ephemeral_receiver(method: TelegramMethod[Any]) -> int | None:
    """The member an ephemeral call is for (None: not an ephemeral call)."""
    if not is_ephemeral(method):
        return None
    params = getattr(method, "ephemeral_message_parameters", None)
    user = getattr(params, "receiver_user_id", None) or getattr(method, "receiver_user_id", None)
    return user if isinstance(user, int) else None


class Sender:
    def __init__(
        self,
        bot: Bot,
        limiter: ChatLimiter,
        *,
        attempts: int = ATTEMPTS,
        longest_wait: float = LONGEST_WAIT,
        ephemeral_gap: float = EPHEMERAL_GAP,
    ) -> None:
        self.bot = bot
        self.limiter = limiter
        self.attempts = attempts
        self.longest_wait = longest_wait
        self.ephemeral_gap = ephemeral_gap
        self._hold: dict[int, float] = {}  # chat -> monotonic time Telegram lets us go on
        self._ephemeral_next: dict[tuple[int, int], float] = {}  # (chat, member) -> when
        # told of an ephemeral edit not sent yet (chat, seconds): the table worker's later
        # round (`TableWorker.kick_in`) edits the latest state in then
        self.deferred: Callable[[int, float], None] | None = None

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

    def _pace_ephemeral(self, method: TelegramMethod[Any]) -> bool:
        """At most one ephemeral call a `ephemeral_gap` seconds per member of a chat (see
        the module's text): False when an edit must wait for the member's slot (the
        caller is told to come back, `deferred`); a new message or a delete always goes."""
        if self.ephemeral_gap <= 0:
            return True
        user = ephemeral_receiver(method)
        chat_id = chat_of(method)
        if user is None or chat_id is None:
            return True
        key = (chat_id, user)
        now = time.monotonic()
        if len(self._ephemeral_next) > 4096:  # members not heard from for a while
            self._ephemeral_next = {k: t for k, t in self._ephemeral_next.items() if t > now}
        due = self._ephemeral_next.get(key, 0.0)
        if due > now and method.__api_method__.startswith("editEphemeral"):
            if self.deferred is not None:
                self.deferred(chat_id, due - now)
            return False
        self._ephemeral_next[key] = now + self.ephemeral_gap
        return True

    async def _charge(
        self,
        method: TelegramMethod[Any],
        chat_id: int | None,
        spend: Spend,
        patience: float = 0.0,
    ) -> bool:
        """Take the call's slot of the budget of `chat_id` (`ChatLimiter.charged`, None:
        no budget): False when a reply or a ping is not worth one now (nor within
        `patience` seconds); `Paced` when the table's share is spent."""
        if chat_id is None:
            return self._pace_ephemeral(method)
        name = method.__api_method__
        if chat_id > 0 or spend is Spend.GAME:  # a private chat: a short wait, for all
            waited = time.monotonic()
            await self.limiter.acquire(chat_id, Spend.GAME)
            metrics.flood_wait("window", time.monotonic() - waited)
            return True
        waited = 0.0
        while (wait := await self.limiter.take(chat_id, spend)) > 0:
            if spend.table:
                raise Paced(chat_id, wait)
            if waited + wait > patience:
                log.info("chat %s: the window is busy, reply %s dropped", chat_id, name)
                return False
            await asyncio.sleep(wait)  # a reply waits for room, holding no slot meanwhile
            waited += wait
        return True

    async def call(
        self,
        method: TelegramMethod[T],
        *,
        chatter: bool = False,
        latest_wins: bool = False,
        turn: bool = False,
        patience: float = 0.0,
    ) -> T | None:
        """Make the API call under the chat's budget. None: a chatter reply dropped (no
        room within `patience` seconds), or a game message given up after repeated 429s
        (logged). `latest_wins` (the table):
        `Paced` when its share of the group's window is spent, `TelegramRetryAfter` on a
        hold; its caller edits in the latest state afterwards. `turn`: the table is the
        only place the player to move can see his turn (`Spend.TURN`)."""
        chat_id = chat_of(method)
        charged = self.limiter.charged(method)
        spend = (
            Spend.CHATTER
            if chatter
            else (Spend.TURN if turn else Spend.TABLE)
            if latest_wins
            else Spend.GAME
        )
        name = method.__api_method__
        for attempt in range(1, self.attempts + 1):
            # a hold stops counted calls
            hold = self.hold_left(chat_id) if charged is not None else 0.0
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
            if not await self._charge(method, charged, spend, patience):
                return None
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
        patience: float = 0.0,
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
        return await self.call(method, chatter=chatter, patience=patience)

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
