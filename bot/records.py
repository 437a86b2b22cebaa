"""Game records that can't be played any more: damaged ones, and ones no longer stored.

`PlayableCheck` is the store's `check` (bot/storage/quarantine.py): a record whose game
the bot doesn't know, or whose state its engine can't load, is unreadable like junk, so
the store moves it aside and every path (resume, timers, presses, `/new`) sees no game.

`LostGames` tells the chat, once:
- a damaged record (`unreadable`, the store's hook): «could not be restored», and the
  keyboards of its table and lobby are removed when their message ids are still legible;
- a press on a table or lobby whose record is gone (Redis emptied, the key deleted or
  expired): the press is answered, the chat gets one notice (a marker in the store keeps
  restarts and other instances from repeating it) and the pressed message loses its
  keyboard, so its buttons don't keep saying «устарела».
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot.presenters.base import Presenter
from bot.storage import GameRecord, RecordStatus, Store
from bot.storage.quarantine import Unreadable
from locales import get_translator

log = logging.getLogger(__name__)

CHECKED_STATES = 4096  # states known to load (hashes), so a state is parsed once


class PlayableCheck:
    """Raises ValueError (or the engine's validation error) for a record the bot can't
    play. A state that loaded once is remembered by its hash: reads stay cheap."""

    def __init__(self, presenters: dict[str, Presenter[Any, Any]]) -> None:
        self.presenters = presenters
        self._loaded: OrderedDict[tuple[str, int], None] = OrderedDict()

    def __call__(self, rec: GameRecord) -> None:
        p = self.presenters.get(rec.game_id)
        if p is None:
            raise ValueError(f"unknown game {rec.game_id!r}")
        if rec.state is None:
            if rec.status == RecordStatus.PLAYING:
                raise ValueError("a game in play without a state")
            return
        key = (rec.game_id, hash(rec.state))
        if key in self._loaded:
            self._loaded.move_to_end(key)
            return
        p.load(rec.state)
        self._loaded[key] = None
        if len(self._loaded) > CHECKED_STATES:
            self._loaded.popitem(last=False)


class LostGames:
    """The notices about a chat's game that can't go on (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        send: Callable[[int, str], Awaitable[int | None]],
        drop_keyboard: Callable[[int, int | None], Awaitable[None]],
        spawn: Callable[[Awaitable[Any]], None],
        language: str,
    ) -> None:
        self.store = store
        self._send = send
        self._drop_keyboard = drop_keyboard
        self._spawn = spawn
        self.language = language

    def unreadable(self, info: Unreadable) -> None:
        """The store moved the chat's record aside (once across instances): tell the chat."""
        self._spawn(self._tell_unreadable(info))

    async def _tell_unreadable(self, info: Unreadable) -> None:
        t = get_translator(info.language or self.language)
        await self._send(info.chat_id, t("lost.unreadable"))
        for message_id in {info.table_message_id, info.lobby_message_id} - {None}:
            await self._drop_keyboard(info.chat_id, message_id)

    async def vanished(self, chat_id: int, message_id: int | None, uid: str, lobby: bool) -> str:
        """A press on a message of game `uid` in a chat that has no record: the answer to
        the press; the chat is told once, and the pressed message loses its keyboard."""
        t = get_translator(self.language)
        if chat_id >= 0:  # games live in groups only: nothing was lost in a private chat
            return t("press.old_button")
        if await self.store.claim_notice(chat_id, uid):
            log.info("chat %s: game %s is no longer stored; the chat is told", chat_id, uid)
            self._spawn(self._send(chat_id, t("lost.lobby" if lobby else "lost.game")))
        self._spawn(self._drop_keyboard(chat_id, message_id))
        return t("press.lobby_lost" if lobby else "press.game_lost")
