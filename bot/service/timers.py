"""Timers: when something is due (`Deadlines`) and what runs then (`Due.tick`).

`Deadlines` keeps each game's next deadline in the store's shared set: every instance
polls it and the one that claims a due deadline runs the tick, so a timer fires once
and survives a restart. This process also wakes itself up exactly at the deadlines it
set. A game's deadline is its turn timer or its automatic step; an open lobby's
deadline is its expiry (bot/idle.py).

`Due.tick` is what a due deadline runs: the game's automatic steps, the turn timer (an
absent player is auto-passed, and removed after repeated timeouts), a lobby's expiry.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot import idle, turn_reminder
from bot.service.context import LOG_LINES, Context
from bot.storage import Conflict, GameRecord, RecordStatus, StoreUnavailable
from locales import Translator

if TYPE_CHECKING:
    from bot.service.computers import Computers
    from bot.service.lobby import Lobby
    from bot.service.moves import Moves

log = logging.getLogger(__name__)


class Deadlines:
    def __init__(self, ctx: Context, run: Callable[[int], Awaitable[None]]) -> None:
        """`run(chat_id)`: what a claimed deadline runs (the service's `tick`)."""
        self.ctx = ctx
        self.run = run
        self.poller: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.next_deadline: float | None = None  # the earliest one this process set
        self.resync = False  # re-read every game's deadline once the store is back

    async def schedule(self, rec: GameRecord) -> None:
        """Store the game's next deadline in the shared set (see the module's text)."""
        if rec.status == RecordStatus.PLAYING:
            when = rec.deadline
        else:
            when = idle.lobby_expires_at(rec, self.ctx.settings)
        try:
            await self.ctx.store.set_deadline(rec.chat_id, when)
        except StoreUnavailable:
            self.resync = True
            return
        if when is not None and (self.next_deadline is None or when < self.next_deadline):
            self.next_deadline = when
            self.wake.set()

    def start(self) -> None:
        if self.poller is None or self.poller.done():
            self.poller = asyncio.ensure_future(self._poll())

    def stop(self) -> asyncio.Task[None] | None:
        """The poller, taken away (for `close` to cancel and await)."""
        poller, self.poller = self.poller, None
        return poller

    async def _poll(self) -> None:
        ctx = self.ctx
        interval = ctx.settings.timer_poll_seconds
        failing = False
        while True:
            now = ctx.clock()
            try:
                if self.resync:
                    self.resync = False
                    await self._resync()
                due = await ctx.store.claim_due(now, ctx.settings.timer_lease_seconds)
                if failing:
                    log.warning("storage is back: timers run again")
                    failing = False
                    self.resync = True
            except StoreUnavailable as e:
                if not failing:
                    log.warning("timers paused, storage unavailable: %s", e)
                failing = True
                due = []
            except Exception:
                log.exception("deadline poll failed")
                due = []
            for chat_id in due:
                ctx.spawn(self._run_tick(chat_id))
            if self.next_deadline is not None and self.next_deadline <= now:
                self.next_deadline = None
            wait = interval
            if self.next_deadline is not None:
                wait = min(wait, max(0.0, self.next_deadline - ctx.clock()) + 0.01)
            self.wake.clear()
            # asyncio.timeout, not wait_for: on 3.11 wait_for loses a cancellation that
            # comes as the event is set (the poller then never stops, and a stop hangs)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self.wake.wait()

    async def _run_tick(self, chat_id: int) -> None:
        try:
            await self.run(chat_id)
        except StoreUnavailable as e:
            log.warning("timer of chat %s postponed, storage unavailable: %s", chat_id, e)
            self.resync = True
        except Exception:
            log.exception("timer of chat %s failed", chat_id)

    async def _resync(self) -> None:
        for chat_id in await self.ctx.store.chats():
            try:  # one chat's trouble never stops the others' timers
                rec = await self.ctx.store.get(chat_id)
                if rec is not None and rec.game_id in self.ctx.presenters:
                    await self.schedule(rec)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("chat %s: its timer could not be re-armed", chat_id)


def timeout_line(t: Translator, name: str, moved: list[str]) -> str:
    """The table's line for a turn the timer played: whose, and what was played.

    >>> from locales import get_translator
    >>> timeout_line(get_translator("ru"), "Аня", ["Аня захватывает 1 клетку: D3"])
    '⏰ Аня, время вышло — за вас сыграно: Аня захватывает 1 клетку: D3'
    """
    if not moved:
        return t("timer.auto", name=name)
    return t("timer.auto_move", name=name, move="; ".join(moved))


class Due:
    def __init__(self, ctx: Context, deadlines: Deadlines, moves: Moves, lobby: Lobby) -> None:
        self.ctx = ctx
        self.deadlines = deadlines
        self.moves = moves
        self.lobby = lobby
        self.computers: Computers | None = None  # computer players' moves, first

    async def tick(self, chat_id: int) -> None:
        """Run what is due: the turn timer (an absent player's turn is played for him, and
        he is removed after repeated timeouts), the end of a simultaneous decision's window
        (everyone still silent passes), a slow turn's reminder; then the game's
        formalities (`Presenter.advance`)."""
        ctx = self.ctx
        if self.computers is not None and await self.computers.tick(chat_id):
            return  # a computer's move (bot/service/computers.py); the rest at its next tick
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            if rec is not None and rec.status == RecordStatus.LOBBY:
                await self.lobby.expire(rec)
                return
            if rec is None or rec.status != RecordStatus.PLAYING or rec.state is None:
                await ctx.store.set_deadline(chat_id, None)
                return
            p = ctx.presenter(rec.game_id)
            t = ctx.t(rec.language)
            now = ctx.clock()
            state = p.load(rec.state)
            before_actor = p.actor(state)
            events: list[Any] = []
            lines: list[str] = []
            moved: list[str] = []  # what the bot played for him, as the table narrates it
            due = (
                rec.turn_deadline is not None
                and now >= rec.turn_deadline
                and p.game.turn_key(state) == rec.turn_id
            )
            c = ctx.table(rec, p, t, now)
            if due and rec.window:  # a simultaneous decision: silence is a pass (DESIGN)
                state, ev = p.game.timeout_turn(state)
                events.extend(ev)
                rec.turn_id = None
            timed_out = due and not rec.window and before_actor is not None
            if timed_out and before_actor is not None:
                user = before_actor
                name = html.escape(rec.name(user))
                count = rec.timeouts.get(user, 0) + 1
                rec.timeouts[user] = count
                try:
                    out = p.timeout_move(state, user)
                    state = out.state
                    events.extend(out.events)
                    moved = p.narrate(out.events, state, c)
                    lines.append(timeout_line(t, name, moved))
                except Exception:
                    log.exception("auto-move in chat %s failed", chat_id)
                    count = ctx.settings.timeouts_before_removal
                if count >= ctx.settings.timeouts_before_removal and not p.game.is_over(state):
                    state, ev = p.game.remove(state, user)
                    events.extend(ev)
                    rec.outbox.append(t("timer.removed", name=name, n=count))
                rec.turn_id = None  # a new timer for whoever moves now
                rec.reminder_turn = None
            reminded = not due and turn_reminder.due(rec, ctx.turn_seconds(rec), now)
            if reminded:  # the turn ping is sent anew as the reminder (bot/service/pings.py)
                rec.reminder_turn = rec.turn_id
            old_json = rec.state
            old_deadline = rec.deadline
            settled = self.moves.settle(rec, p, state, events, t)
            # the table says the bot acted (last), and what it played (told once)
            rec.log = ([x for x in rec.log if x not in moved] + lines)[-LOG_LINES:]
            changed = rec.state != old_json
            if changed and p.seq_changes(p.load(old_json or ""), settled):
                rec.seq += 1
            elif not changed and rec.deadline == old_deadline and not lines and not reminded:
                await self.deadlines.schedule(rec)  # not due yet (or stale): keep it
                return
            try:
                rec = await ctx.save(rec)
            except Conflict:
                fresh = await ctx.store.get(chat_id)  # someone else moved: his deadline
                if fresh is not None:
                    await self.deadlines.schedule(fresh)
                return
            await self.moves.changed(rec)
