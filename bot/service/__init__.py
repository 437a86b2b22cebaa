"""The game-agnostic core: `GameService`, a thin façade over its parts.

Serialisation: an asyncio lock per chat in-process, compare-and-set in the store
across processes. A move is stored before it is acknowledged; the table and the
history messages are brought up to date afterwards by one worker per chat
(coalesced: a burst of taps gives one edit with the latest state).

The parts, each a small class sharing one `Context` (store, sender, settings,
presenters, locks; bot/service/context.py):

- lobby.py — `/new`, the lobby's buttons and message, the start, its expiry;
- moves.py — a press on the table, and what follows every move;
- timers.py — the shared deadlines and their poller (`Deadlines`), the tick (`Due`);
- table_worker.py — the table's edits and the summaries, per chat; a closed chat;
- leaving.py — `/leave` and `/cancel`;
- migration.py — a group that became a supergroup.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from aiogram import Bot

from bot.chat_locks import ChatLocks
from bot.config import Settings
from bot.limits import ChatLimiter, chat_limiter
from bot.presenters.base import Presenter
from bot.sender import Sender
from bot.service.computers import Computers
from bot.service.context import Answer, Context, normalise
from bot.service.leaving import Leaving
from bot.service.lobby import Lobby
from bot.service.migration import Migration
from bot.service.moves import Moves
from bot.service.settings_menu import SettingsMenu
from bot.service.table_worker import TableWorker
from bot.service.timers import Deadlines, Due
from bot.storage import RecordStatus, Store, StoreUnavailable

__all__ = ["Answer", "GameService", "normalise"]

log = logging.getLogger(__name__)


class GameService:
    def __init__(
        self,
        bot: Bot,
        store: Store,
        settings: Settings,
        presenters: dict[str, Presenter[Any, Any]],
        limiter: ChatLimiter | None = None,
    ) -> None:
        limiter = limiter or chat_limiter(store, settings)
        sender = Sender(bot, limiter, ephemeral_gap=settings.ephemeral_gap_seconds)
        ctx = self.ctx = Context(bot, store, settings, presenters, sender)
        self.bot, self.store, self.settings, self.presenters = bot, store, settings, presenters
        self.sender = ctx.sender  # every send, edit and delete goes through it
        self.replies = ctx.replies  # replies to commands (bot/replies.py)
        self.pictures = ctx.pictures
        self.lost = ctx.lost
        self.t, self.presenter, self.find_game = ctx.t, ctx.presenter, ctx.find_game

        self.deadlines = Deadlines(ctx, lambda chat_id: self.tick(chat_id))
        self.table = TableWorker(ctx)
        self.moves = Moves(ctx, self.deadlines, self.table)
        self.lobby = Lobby(ctx, self.deadlines, self.table, self.moves)
        self.due = Due(ctx, self.deadlines, self.moves, self.lobby)
        self.leaving = Leaving(ctx, self.deadlines, self.table, self.moves, self.lobby)
        self.migration = Migration(ctx, self.deadlines, self.table, self.lobby)
        self.computers = Computers(ctx, self.deadlines, self.moves)  # computer players
        self.due.computers = self.leaving.computers = self.computers
        self.settings_menu = SettingsMenu(ctx, self.table.pings)  # /settings

        # what the handlers call
        self.new_game, self.lobby_press = self.lobby.new_game, self.lobby.lobby_press
        self.play_press, self.answered = self.moves.play_press, self.table.answered
        self.leave, self.leave_press = self.leaving.leave, self.leaving.leave_press
        self.request_cancel, self.cancel_press = (
            self.leaving.request_cancel,
            self.leaving.cancel_press,
        )
        self.migrate, self.close_chat = self.migration.migrate, self.table.close_chat
        self.start_timers, self.table_view = self.deadlines.start, self.table.table_view

    async def tick(self, chat_id: int) -> None:
        """What a due deadline of the chat runs (bot/service/timers.py)."""
        await self.due.tick(chat_id)

    @property
    def clock(self) -> Callable[[], float]:
        """The time every part reads (tests move it)."""
        return self.ctx.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.ctx.clock = clock

    async def resume(self) -> None:
        """After a restart: finish pending messages, re-sync tables, re-arm timers."""
        for chat_id in await self.store.chats():
            try:  # an unreadable record is moved aside by `get`; nothing else stops the start
                rec = await self.store.get(chat_id)
                if rec is None or rec.game_id not in self.presenters:
                    continue
                if rec.status == RecordStatus.PLAYING or rec.outbox:
                    self.table.kick(chat_id)
                await self.deadlines.schedule(rec)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("chat %s: its game could not be resumed", chat_id)

    async def finish_work(self, timeout: float) -> None:
        """Before `close` on a stop: let the table edits in flight (and the edits and
        messages they still owe) finish, for at most `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while busy := [t for t in (*self._workers.values(), *self._bg) if not t.done()]:
            left = deadline - loop.time()
            if left <= 0:
                return
            await asyncio.wait(busy, timeout=left)  # and then what they started meanwhile

    async def close(self) -> None:
        self.table.cancel_later()
        tasks = [*self._workers.values(), *self._bg]
        poller = self.deadlines.stop()
        if poller is not None:
            tasks.append(poller)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.pictures.close()
        if self.table.views_reused:
            log.info("tables: %d late pictures edited in with their view", self.table.views_reused)
        await self.computers.close()

    # ------------------------------------------------ per-chat state (tests, bench)

    def _kick(self, chat_id: int) -> None:
        self.table.kick(chat_id)

    @property
    def _locks(self) -> ChatLocks:
        return self.ctx.locks

    @property
    def _lobby_locks(self) -> ChatLocks:
        return self.ctx.lobby_locks

    @property
    def _bg(self) -> set[asyncio.Task[Any]]:
        return self.ctx.bg

    @property
    def _dirty(self) -> set[int]:
        return self.table.dirty

    @property
    def _holds(self) -> dict[int, asyncio.Event]:
        return self.table.holds

    @property
    def _workers(self) -> dict[int, asyncio.Task[None]]:
        return self.table.workers

    @property
    def _poller(self) -> asyncio.Task[None] | None:
        return self.deadlines.poller
