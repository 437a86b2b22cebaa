"""The table worker: brings a chat's messages up to the stored game.

A move is stored before it is acknowledged; the table (one photo message, edited) and
the game's summaries (the record's outbox) follow afterwards, by one worker per chat,
coalesced: a burst of taps gives one edit with the latest state. `kick` wakes the worker
(`_work`); `_refresh_table` draws and edits the table; `_flush_outbox` sends the
summaries. A press may hold the picture until its callback is answered (`answered`).
`close_chat` closes the game of a chat the bot can't write to any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from aiogram.exceptions import (
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from pydantic import BaseModel

from bot import idle, metrics
from bot.bottom import Bottom, SentMessages
from bot.caption_fit import fit_caption
from bot.limits import Paced
from bot.memory.keeper import memory_of
from bot.presenters.base import Presenter
from bot.service import computers
from bot.service.context import LOG_LINES, Context
from bot.service.hands import hands_for
from bot.service.pings import Pings
from bot.service.table_copy import TableCopies
from bot.storage import ACTIVE, GameRecord, RecordStatus, StoreUnavailable
from bot.storage.leases import Lease, kept
from bot.table import CAPTION_LIMIT, TableView, edit_table, send_table, text_key

log = logging.getLogger(__name__)


class Overtaken(Exception):
    """The round's lease was lost (an event loop stalled past its renewal), or another
    instance sent the chat's first table meanwhile: nothing is written, the round is done
    again on the record as it is now."""


def overtaken(held: Lease | None) -> None:
    if held is not None and held.lost:
        raise Overtaken("the table's lease was lost")


ANSWER_FIRST = 1.0  # seconds a picture waits for its press's answer, at most
TABLE_LEASE = 5.0  # seconds, renewed while an update runs (a killed holder: this long)
# Chats whose round runs at once (the others wait, dirty, holding no lease). Without a
# bound, 1,000 tables asked for together (tests/bot/test_budget_e2e.py) made 1,000 rounds
# hold a lease each while they waited for their pictures and the send budget; drawing
# their views stalled the event loop for seconds, renewals came too late and leases were
# lost (another instance then sent a second table). 64 rounds at once keep the pictures
# and Telegram busy; a round whose group has spent its budget (`Paced`) gives its place up.
ROUNDS = 64
# What the table's view (`table_view`) never reads of a record: what a round writes of the
# table itself, the store's stamps, the timers, the summaries and the turn ping a round
# sends. A record that differs from the last round's in these alone shows the same table.
NOT_SHOWN = frozenset(
    {
        "version",
        "updated_at",
        "table_message_id",
        "shown_picture",
        "shown_text",
        "shown_seq",
        "ping",
        "outbox",
        "deadline",
        "turn_deadline",
        "reminder_turn",
        "active_at",
        "computer_due",
    }
)


def _forget_table(r: GameRecord, uid: str, message_id: int) -> GameRecord | None:
    """The record without its table message `message_id` (deleted by someone)."""
    if r.uid != uid or r.table_message_id != message_id:
        return None
    r.table_message_id = None
    return r


def shown_content(rec: GameRecord) -> str:
    """The record as far as its table's view reads it (all but `NOT_SHOWN`)."""
    return rec.model_dump_json(exclude=set(NOT_SHOWN))


class TableWorker:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.dirty: set[int] = set()
        self.holds: dict[int, asyncio.Event] = {}  # presses not answered yet
        self.workers: dict[int, asyncio.Task[None]] = {}
        # how far chatter has pushed each table up (bot/bottom.py): the bot's own sends
        self.bottom = Bottom()
        self.pings = Pings(ctx, self.kick_in)  # the turn ping, after the table and summaries
        self.copies = TableCopies(ctx)  # the mover's own copy of the table
        ctx.sender.deferred = self.kick_in  # an ephemeral edit held by a member's pace
        self._later: dict[int, asyncio.TimerHandle] = {}  # chats with a round due later
        self.rounds = asyncio.Semaphore(ROUNDS)
        # a chat whose picture came late (its caption and keyboard edited first): the view
        # of that round, by the record's content; the picture's round edits it unchanged
        # instead of drawing the caption and keyboard again. Only while a picture is due.
        self.late_views: dict[int, tuple[str, TableView]] = {}
        # who was to move when the chat's table last showed (this process's rounds)
        self.shown_actor: dict[int, int | None] = {}
        self.views_reused = 0
        ctx.bot.session.middleware(SentMessages(self.bottom))

    def hold(self, chat_id: int) -> None:
        """The next picture of the chat waits until the press is `answered` (or 1 s)."""
        self.holds.setdefault(chat_id, asyncio.Event())

    def answered(self, chat_id: int) -> None:
        """The press's callback is answered: the table worker may draw the picture."""
        hold = self.holds.pop(chat_id, None)
        if hold is not None:
            hold.set()

    async def _after_answer(self, chat_id: int) -> None:
        """Wait (at most ANSWER_FIRST seconds) until a held press has been answered: the
        picture must not compete with the answer for the event loop (and the GIL)."""
        hold = self.holds.get(chat_id)
        if hold is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ANSWER_FIRST):  # not wait_for: see timers.py
                    await hold.wait()

    def kick_in(self, chat_id: int, seconds: float) -> None:
        """A round of the chat in `seconds` (a ping due then), unless one is due sooner."""
        loop = asyncio.get_running_loop()
        at = loop.time() + seconds
        handle = self._later.get(chat_id)
        if handle is not None and not handle.cancelled() and handle.when() <= at + 0.05:
            return
        if handle is not None:
            handle.cancel()

        def due() -> None:
            if self._later.get(chat_id) is handle_now:
                del self._later[chat_id]
            self.kick(chat_id)

        handle_now = self._later[chat_id] = loop.call_at(at, due)

    def cancel_later(self) -> None:
        """No round comes later (the service closes)."""
        for handle in self._later.values():
            handle.cancel()
        self._later.clear()

    def kick(self, chat_id: int) -> None:
        metrics.table_kicked(chat_id)  # the table is behind the game from now
        self.dirty.add(chat_id)
        task = self.workers.get(chat_id)
        if task is None or task.done():
            self.workers[chat_id] = asyncio.ensure_future(self._work(chat_id))

    async def _work(self, chat_id: int) -> None:
        """Bring the chat's messages up to the stored game. Taps during a slow edit only
        mark the chat dirty, so a burst gives one more edit with the latest state; after a
        `RetryAfter` the latest state is edited in (never the outdated one). A lease in the
        store lets one instance at a time do it, so with several instances a pending
        message is sent once and an older picture never lands over a newer one."""
        failures = 0
        outage = 0
        ended = False
        try:
            while chat_id in self.dirty:
                self.dirty.discard(chat_id)
                try:
                    async with self.rounds:  # a few chats at a time (ROUNDS)
                        done = await self._round(chat_id)
                    if done is None:  # another instance is bringing this chat up to date
                        self.dirty.add(chat_id)
                        await asyncio.sleep(0.1)
                        continue
                    ended = done
                    failures = outage = 0
                except Overtaken as e:
                    log.info("chat %s: %s; again", chat_id, e)
                    self.dirty.add(chat_id)
                except Paced as e:  # the group's budget: the latest state once it has room
                    # (a round then; a press meanwhile still shows on its mover's copy)
                    metrics.flood_wait("window", e.wait)
                    self.kick_in(chat_id, min(e.wait, 60.0))
                except TelegramRetryAfter as e:
                    log.info("chat %s: flood control, next edit in %ss", chat_id, e.retry_after)
                    self.dirty.add(chat_id)
                    await asyncio.sleep(min(float(e.retry_after), 60.0))
                except (StoreUnavailable, TelegramNetworkError, TelegramServerError) as e:
                    # the storage or Telegram out of reach: the round is not at fault, and
                    # the table is brought up to date once they answer (never given up)
                    if not outage:
                        what = "the storage" if isinstance(e, StoreUnavailable) else "Telegram"
                        log.warning("table of chat %s waits for %s: %s", chat_id, what, e)
                    outage += 1
                    self.dirty.add(chat_id)
                    await asyncio.sleep(min(0.5 * outage, 5.0))
                except TelegramForbiddenError as e:
                    log.info("chat %s: the bot can't write there (%s); game closed", chat_id, e)
                    await self.close_chat(chat_id)
                except Exception:
                    log.exception("table update of chat %s failed", chat_id)
                    failures += 1
                    if failures <= 3:  # a transient failure: try again a little later
                        self.dirty.add(chat_id)
                        await asyncio.sleep(0.5 * failures)
        finally:
            if self.workers.get(chat_id) is asyncio.current_task():
                del self.workers[chat_id]
            if ended and chat_id not in self.dirty:
                self.forget(chat_id)

    @contextlib.asynccontextmanager
    async def _lent(self) -> AsyncIterator[None]:
        """The round's place (`ROUNDS`) lent to a waiting round while this one, an edit,
        only waits for its press's answer and its picture (at most `pictures.late`): a
        wait is no CPU. Held through those waits, 64 places each waiting 0.25 s for a
        late picture capped the tables at under 250 rounds a second, and at 1,000 games
        on one core the edits fell seconds behind (`docs/performance.md`, run 18). A
        chat's first table keeps its place while its picture is drawn: the pictures pace
        a burst of first tables (see ROUNDS). Only in a round (`_work` holds a place); a
        round cancelled while it waits to take its place back is the service closing."""
        self.rounds.release()
        try:
            yield
        finally:
            await self.rounds.acquire()

    async def _round(self, chat_id: int) -> bool | None:
        """One round under the chat's lease: whether its game has ended (None: another
        instance holds the lease, bringing the chat up to date)."""
        store = self.ctx.store
        lease = f"table:{chat_id}"
        token = await store.lock(lease, TABLE_LEASE)
        if token is None:
            return None
        async with kept(store, lease, token, TABLE_LEASE) as held:
            since = metrics.table_since(chat_id)  # behind since (the lag)
            rec = await store.get(chat_id)  # one read for the round
            # what costs no budget first: the mover's own copy and the private hands (a
            # round the group's window holds back ends at the table: `Paced`)
            view = await self._copy(chat_id, rec)
            await hands_for(self.ctx).refresh(chat_id, rec)
            # the table before the summaries: a summary (a new message, which may wait for
            # the flood window) never holds up the table's edit
            await self._refresh_table(chat_id, rec, held, view)
            if self.copies.showing(chat_id):  # the table shows it: copies of others go
                await self.copies.clear(chat_id, rec, self._actor(rec))
            metrics.table_lag(since, rec)
            if rec is not None and rec.outbox:
                await self._flush_outbox(chat_id, rec)
            await self.pings.sync(chat_id, rec)
            await self.ctx.clean_chat.sweep(chat_id, rec)  # the game is over
            await computers.close_offers(self.ctx, chat_id, rec)
        return rec is None or rec.status not in ACTIVE

    def _actor(self, rec: GameRecord | None) -> int | None:
        if rec is None or rec.state is None or rec.status != RecordStatus.PLAYING:
            return None
        p = self.ctx.presenter(rec.game_id)
        return p.actor(p.load(rec.state))

    async def _copy(self, chat_id: int, rec: GameRecord | None) -> TableView | None:
        """Show the players who moved their copies of the table (bot/service/table_copy.py):
        the view drawn for them, which the group's table shows too (None: none drawn)."""
        if not self.copies.wanted(chat_id):
            return None
        if rec is None or rec.state is None or rec.status != RecordStatus.PLAYING:
            self.copies.asked.pop(chat_id, None)
            return None
        p = self.ctx.presenter(rec.game_id)
        state = p.load(rec.state)
        view = self.table_view(rec, p, state)
        await self._after_answer(chat_id)
        async with self._lent():  # a wait for the picture is no CPU
            picture = await self.ctx.pictures.ready(
                chat_id,
                view.picture_key,
                view.picture,
                within=self.ctx.pictures.late,  # late: the group's table goes first
                then=lambda: self.kick(chat_id),
            )
        if picture is not None:
            await self.copies.show(chat_id, rec, view, picture)
        return view

    def forget(self, chat_id: int) -> None:
        """The chat's game is over: nothing of it stays in memory. Its locks go by
        themselves once unused (bot/chat_locks.py); a press hold nobody released is let go."""
        self.bottom.forget(chat_id)
        metrics.forget_chat(chat_id)  # (a round due later still comes: a ping to delete)
        hold = self.holds.pop(chat_id, None)
        if hold is not None:
            hold.set()
        self.ctx.pictures.forget(chat_id)  # a picture still waiting is not drawn
        self.copies.forget(chat_id)
        self.late_views.pop(chat_id, None)
        self.shown_actor.pop(chat_id, None)

    async def _flush_outbox(self, chat_id: int, rec: GameRecord | None) -> None:
        if rec is None or not rec.outbox:
            return
        sent = 0
        outbox = await memory_of(self.ctx).standings(rec)  # + the ratings (bot/memory/)
        for text in outbox:
            if await self.ctx.send(chat_id, text) is None:
                break
            sent += 1

        def drop(r: GameRecord) -> GameRecord | None:
            if not r.outbox:
                return None
            r.outbox = r.outbox[sent:]
            return r

        if sent:
            await self.ctx.update(chat_id, drop)

    def table_view(self, rec: GameRecord, p: Presenter[Any, Any], state: BaseModel) -> TableView:
        t = self.ctx.t(rec.language)
        over = rec.status != RecordStatus.PLAYING
        extra = "\n\n" + t("cancel.done_caption") if rec.status == RecordStatus.CANCELLED else ""
        if rec.status == RecordStatus.CANCELLED and rec.end_reason == idle.ABANDONED:
            extra = "\n\n" + t("cancel.abandoned_caption")
        c = self.ctx.table(rec, p, t)
        names = c.names
        caption = fit_caption(  # a long caption loses its narration first, then name length
            lambda shown, log_lines: p.caption(state, c.but(names=shown, log=log_lines)) + extra,
            lambda width: dict(names) if width is None else rec.display_names(width),
            rec.log,
            CAPTION_LIMIT,
            keep=(LOG_LINES, 1, 0),
        )
        buttons = [] if over else p.keyboard(state, c)
        buttons = hands_for(self.ctx).public(rec, p, state, buttons)  # bot/service/hands.py
        # the board's words in the chat's language; its view taken once for key and job
        key, picture = p.table_picture(state, names, rec.language)
        return TableView(caption=caption, buttons=buttons, picture_key=key, picture=picture)

    async def _refresh_table(
        self,
        chat_id: int,
        rec: GameRecord | None,
        held: Lease | None = None,
        drawn: TableView | None = None,
    ) -> None:
        """Bring the group's table to `rec` (`drawn`: its view, if this round drew it)."""
        if rec is None or rec.state is None or rec.status == RecordStatus.LOBBY:
            return
        ctx = self.ctx
        p = ctx.presenter(rec.game_id)
        pending = self.late_views.pop(chat_id, None)
        content = None if pending is None else shown_content(rec)  # only to compare
        state = p.load(rec.state)
        if pending is not None and pending[0] == content:
            view = pending[1]  # the late picture's round: the view is the same
            self.views_reused += 1
        else:
            view = drawn or self.table_view(rec, p, state)
        tkey = text_key(view, rec.uid, rec.seq)
        actor = p.actor(state) if rec.status == RecordStatus.PLAYING else None
        turn = self._turn(chat_id, rec, actor, tkey)
        msg_id = rec.table_message_id
        # pushed up by chatter (or asked down by /table): sent anew at the bottom of the
        # chat, and the old message loses its buttons (bot/bottom.py)
        playing = rec.status == RecordStatus.PLAYING
        moved = None
        if msg_id is not None and playing and self.bottom.wanted(chat_id, msg_id):
            moved, msg_id = msg_id, None
        if msg_id is not None and rec.shown_picture == view.picture_key and rec.shown_text == tkey:
            return
        picture_changed = rec.shown_picture != view.picture_key
        picture: bytes | None = None
        if msg_id is None or picture_changed:
            # the chat's latest picture (a stale one still waiting is dropped): a new
            # message needs it, an edit waits for it `pictures.late` seconds at most —
            # unless the group's budget is half spent: every edit spends it, and a caption
            # first, then the picture would be two calls for one
            split = msg_id is not None and (chat_id > 0 or ctx.sender.limiter.roomy(chat_id))
            # an edit's short wait: another round goes on meanwhile
            async with self._lent() if split else contextlib.nullcontext():
                await self._after_answer(chat_id)
                picture = await ctx.pictures.ready(
                    chat_id,
                    view.picture_key,
                    view.picture,
                    within=ctx.pictures.late if split else None,
                    then=lambda: self.kick(chat_id),
                )
        # late: the caption and keyboard now (the old picture stays), the picture in a
        # later round, once drawn (`then` kicks the worker)
        late = msg_id is not None and picture_changed and picture is None
        if late:
            self.late_views[chat_id] = (content or shown_content(rec), view)
        if msg_id is not None:
            if late and rec.shown_text == tkey:
                return  # the caption and keyboard are shown; the picture is on its way
            overtaken(held)
            ok = await edit_table(
                ctx.sender, chat_id, msg_id, view, picture, rec.uid, rec.seq, turn=turn
            )
            if not ok:  # gone: sent anew (this round, or the next if this one is paced)
                gone_id, msg_id = msg_id, None
                late = False
                await ctx.update(chat_id, lambda r: _forget_table(r, rec.uid, gone_id))
                if picture is None:
                    picture = await ctx.pictures.ready(
                        chat_id, view.picture_key, view.picture, within=None
                    )
        if msg_id is None:
            if rec.status != RecordStatus.PLAYING:
                return
            assert picture is not None
            overtaken(held)
            if moved is None and rec.table_message_id is None:  # a first table: not twice
                now = await ctx.store.get(chat_id)
                if now is not None and now.uid == rec.uid and now.table_message_id is not None:
                    raise Overtaken(f"chat {chat_id}: its table was sent meanwhile")
            msg_id = await send_table(
                ctx.sender, chat_id, view, picture, rec.uid, rec.seq, turn=turn
            )
        if not late:
            ctx.pictures.take(chat_id, view.picture_key)

        uid, seq = rec.uid, rec.seq

        def mark(r: GameRecord) -> GameRecord | None:
            if r.uid != uid:
                return None
            r.table_message_id = msg_id
            if not late:
                r.shown_picture = view.picture_key
            r.shown_text = tkey
            r.shown_seq = seq
            return r

        await ctx.update(chat_id, mark, known=rec)
        self.shown_actor[chat_id] = actor
        self.bottom.shown(chat_id, msg_id)
        if moved is not None:
            await ctx.drop_markup(chat_id, moved)
            ctx.clean_chat.remember(chat_id, moved)  # an older copy: gone at the game's end

    def _turn(self, chat_id: int, rec: GameRecord, actor: int | None, tkey: str) -> bool:
        """Whether the player to move waits for this edit of the table (`Spend.TURN`): it
        alone can show him where the game is — he has no copy of his own showing it (his
        turn has just come, or he moved from his hand, which can't bring a copy); or the
        game is over, or everyone may act and the table did not say so yet."""
        if rec.status != RecordStatus.PLAYING:
            return True
        if actor is None:
            return self.shown_actor.get(chat_id, 0) is not None
        return not self.copies.sees(chat_id, actor, tkey)

    async def close_chat(self, chat_id: int) -> None:
        """The bot was removed from the chat (or may not write there): its lobby or game
        is closed quietly (nothing can be sent there any more)."""

        def close(r: GameRecord) -> GameRecord | None:
            if r.status not in ACTIVE:
                return None
            r.status = RecordStatus.CANCELLED
            r.deadline = None
            r.outbox = []
            r.seq += 1
            return r

        rec = await self.ctx.update(chat_id, close)
        self.dirty.discard(chat_id)
        await self.ctx.store.set_deadline(chat_id, None)
        if rec is not None:
            log.info("chat %s: the bot was removed; game %s closed", chat_id, rec.uid)
