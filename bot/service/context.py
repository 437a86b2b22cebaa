"""What every part of the service shares: one `Context` object.

It holds the store, the bot's sender, the settings, the presenters and the per-chat
locks, and the few helpers every part uses: a translator, a record's compare-and-set
(`save`, `update`), background tasks (`spawn`) and the game's plain messages (`send`,
`refuse`, `drop_markup`; every one of them goes through `bot/sender.py`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.methods import EditMessageReplyMarkup, EditMessageText
from aiogram.types import InlineKeyboardMarkup

from bot.chat_locks import ChatLocks
from bot.config import Settings
from bot.memory import steps
from bot.pictures import Pictures
from bot.presenters.base import Presenter, TableCtx
from bot.records import LostGames, PlayableCheck
from bot.replies import Asked, Replies
from bot.sender import Sender
from bot.service.clean_chat import CleanChat
from bot.storage import Conflict, GameRecord, Store
from locales import Translator, get_translator

log = logging.getLogger(__name__)

LOG_LINES = 3  # the table's narration: its last lines


@dataclass
class Answer:
    """What to answer a callback query with."""

    text: str | None = None
    alert: bool = False
    moved: bool = False  # the press moved the game (bot/service/table_copy.py)
    hand: bool = False  # his private hand is to be shown to him now (bot/handlers/hand.py)


def normalise(text: str) -> str:
    return text.strip().lower().replace("ё", "е").replace("-", " ").replace("_", " ")


class Context:
    def __init__(
        self,
        bot: Bot,
        store: Store,
        settings: Settings,
        presenters: dict[str, Presenter[Any, Any]],
        sender: Sender,
    ) -> None:
        self.bot = bot
        self.store = store
        self.settings = settings
        self.presenters = presenters
        self.sender = sender  # every send, edit and delete goes through it
        self.replies = Replies(sender, store)  # replies to commands (bot/replies.py)
        # the game's transient messages, deleted at its end (bot/service/clean_chat.py)
        self.clean_chat = CleanChat(self)
        self.replies.on_group_message = self.clean_chat.remember
        self.pictures = Pictures(
            presenters,
            threads=settings.render_threads,
            process=settings.render_process,
            processes=settings.render_processes,
        )
        # per chat, only while in use (bot/chat_locks.py): nothing stays for idle chats
        self.locks = ChatLocks()
        self.lobby_locks = ChatLocks()
        self.bg: set[asyncio.Task[Any]] = set()
        self.rng = random.SystemRandom()
        self.clock: Callable[[], float] = time.time
        # a record that doesn't load is moved aside by the store; the chat is told once
        self.lost = LostGames(store, self.send, self.drop_markup, self.spawn, settings.bot_language)
        store.check = PlayableCheck(presenters)
        steps.install(presenters)  # every engine step is captured for the replay
        store.on_unreadable = self.lost.unreadable

    def t(self, lang: str | None = None) -> Translator:
        return get_translator(lang or self.settings.bot_language)

    def presenter(self, game_id: str) -> Presenter[Any, Any]:
        return self.presenters[game_id]

    def find_game(self, text: str) -> str | None:
        wanted = normalise(text)
        for gid, p in self.presenters.items():
            names = {normalise(gid), *(normalise(a) for a in p.aliases)}
            names.add(normalise(self.t("ru")(p.title_key)))
            names.add(normalise(self.t("en")(p.title_key)))
            if wanted in names:
                return gid
        return None

    def table(
        self,
        rec: GameRecord,
        p: Presenter[Any, Any],
        t: Translator | None = None,
        now: float | None = None,
    ) -> TableCtx[Any]:
        """What the game's presenter is given beside the state (bot/presenters/base.py):
        the chat's language, the table's state between presses, names, narration, time."""
        t = t or self.t(rec.language)
        now = self.clock() if now is None else now
        return p.context(t, rec.ui, rec.display_names(), rec.log, now)

    def turn_seconds(self, rec: GameRecord) -> float:
        """This game's turn timer: the lobby's choice, else the bot's default. A solo game
        (in the bot's private chat, against computers: its lobby offers no timer) has
        none: nobody waits for its one human."""
        if rec.chat_id > 0:
            return 0.0
        return self.settings.turn_seconds if rec.turn_seconds is None else rec.turn_seconds

    # ------------------------------------------------------------------ records

    async def save(self, rec: GameRecord) -> GameRecord:
        return await self.store.put(rec, rec.version)

    async def update(
        self,
        chat_id: int,
        change: Callable[[GameRecord], GameRecord | None],
        known: GameRecord | None = None,
    ) -> GameRecord | None:
        """Re-read and apply `change` until the compare-and-set succeeds (under the chat's
        lock, so bookkeeping never makes a player's press fail). `known`, a record read
        earlier (and not needed afterwards), is tried first: if nothing was stored since,
        that saves a read."""
        for _ in range(5):
            async with self.locks[chat_id]:
                rec = known if known is not None else await self.store.get(chat_id)
                known = None
                if rec is None:
                    return None
                new = change(rec)
                if new is None:
                    return rec
                try:
                    return await self.save(new)
                except Conflict:
                    pass  # another process wrote first
            await asyncio.sleep(0.01)
        log.warning("chat %s: the record was not updated (written by others 5 times)", chat_id)
        return None

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.bg.add(task)
        task.add_done_callback(self.bg.discard)

    # ------------------------------------------------------------------ sending

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
    ) -> int | None:
        """A game message (a lobby, a summary, a notice of the game) through the sender:
        it waits for a slot of the flood window and out any 429. The message id, or None
        when it could not be sent (logged)."""
        try:
            msg = await self.sender.send_text(chat_id, text, markup=markup, reply_to=reply_to)
        except TelegramAPIError as e:
            log.warning("send to %s failed: %s", chat_id, e)
            return None
        return None if msg is None else int(msg.message_id)

    async def refuse(
        self, chat_id: int, text: str, t: Translator, asked: Asked | None, topic: str
    ) -> None:
        """A command's refusal: as a reply to `asked` that costs the group nothing where
        Telegram allows it (bot/replies.py); without `asked`, a message in the chat."""
        if asked is None:
            self.clean_chat.remember(chat_id, await self.send(chat_id, text))
        else:
            await self.replies.answer(asked, text, t, topic=topic)

    async def drop_markup(
        self, chat_id: int, message_id: int | None, text: str | None = None
    ) -> None:
        """A question's message loses its buttons (and says `text` instead, if given)."""
        if message_id is None:
            return
        try:
            if text:
                await self.sender.call(
                    EditMessageText(chat_id=chat_id, message_id=message_id, text=text)
                )
            else:
                await self.sender.call(
                    EditMessageReplyMarkup(chat_id=chat_id, message_id=message_id)
                )
        except TelegramAPIError:
            pass
