"""Leaving and ending: `/leave` (a player leaves the lobby at once, the running game
after a confirmation: `leave`, `leave_press`) and `/cancel` (its confirmation,
`request_cancel`, and its press, `cancel_press`; the creator or an admin may end a game,
any member an abandoned one).

Both confirmations go one way: a message with two buttons (`yes_no`); a press of a
question of no game any more drops its buttons (`_question`); the answer replaces the
question's text (`ctx.drop_markup`). The leave question is the asker's alone and
expires after LEAVE_CONFIRM_SECONDS.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import idle
from bot.callbacks import CancelCB, LeaveCB
from bot.replies import Asked
from bot.service.computers import in_play, is_computer_seat
from bot.service.context import Answer, Context
from bot.service.lobby import Lobby, in_charge
from bot.service.moves import Moves
from bot.service.table_worker import TableWorker
from bot.service.timers import Deadlines
from bot.storage import ACTIVE, Conflict, GameRecord, RecordStatus
from games import Event, IllegalAction
from locales import Translator

if TYPE_CHECKING:
    from bot.service.computers import Computers

LEAVE_CONFIRM_SECONDS = 60.0  # a /leave question's buttons work this long


def yes_no(yes: str, yes_data: str, no: str, no_data: str) -> InlineKeyboardMarkup:
    """A confirmation's buttons: yes, no."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=yes, callback_data=yes_data),
                InlineKeyboardButton(text=no, callback_data=no_data),
            ]
        ]
    )


class Leaving:
    def __init__(
        self,
        ctx: Context,
        deadlines: Deadlines,
        table: TableWorker,
        moves: Moves,
        lobby: Lobby,
    ) -> None:
        self.ctx = ctx
        self.deadlines = deadlines
        self.table = table
        self.moves = moves
        self.lobby = lobby
        self.computers: Computers | None = None  # a seat handed to a computer

    # ------------------------------------------------------------------ /leave

    async def leave(self, chat_id: int, user: int, asked: Asked | None = None) -> None:
        """`/leave`: a player leaves the lobby at once; in a running game he is asked
        first (`leave_press` does it). A refusal answers `asked` (the command) as a reply
        that spares the group."""
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            t = ctx.t(rec.language if rec else None)
            absent = rec is None or rec.status not in ACTIVE or user not in rec.players
        if absent:
            await ctx.refuse(chat_id, t("leave.not_in"), t, asked, "leave.not_in")
            return
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            if rec is None or rec.status not in ACTIVE or user not in rec.players:
                return  # gone meanwhile
            if rec.status == RecordStatus.LOBBY:
                self.lobby.remove_player(rec, user)
                rec.seq += 1
                try:
                    rec = await ctx.save(rec)
                except Conflict:
                    return
                ctx.spawn(self.lobby.show(rec))
                return
            if user in rec.computers or not self._in_play(rec, user):  # left (or removed)
                absent = True
            uid, expires = rec.uid, int(ctx.clock() + LEAVE_CONFIRM_SECONDS)

            def data(a: str) -> str:
                return LeaveCB(g=uid, u=user, e=expires, a=a).pack()

            name = html.escape(rec.name(user))
            span = idle.span(LEAVE_CONFIRM_SECONDS, t)
            text = t("leave.confirm", name=name, span=span)
            kb = yes_no(t("leave.yes"), data("yes"), t("leave.no"), data("no"))
        # outside the lock: a full flood window may make a send wait
        if absent:
            await ctx.refuse(chat_id, t("leave.not_in"), t, asked, "leave.not_in")
        else:  # a question: gone at the game's end, unless he leaves (`keep`)
            ctx.clean_chat.remember(chat_id, await ctx.send(chat_id, text, markup=kb))

    def _in_play(self, rec: GameRecord, user: int) -> bool:
        """Whether `user` still plays the running game (a player who left, or was removed
        by the timer, stays in the record's players, but not in the game's)."""
        p = self.ctx.presenter(rec.game_id)
        assert rec.state is not None
        state = p.load(rec.state)
        try:
            removed, _ = p.game.remove(state, user)
        except IllegalAction:
            return False
        return removed is not state

    async def leave_press(
        self, chat_id: int, user: int, message_id: int | None, data: LeaveCB
    ) -> Answer:
        """A press of the /leave question: only the asker's counts, until it expires."""
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            asked = await self._question(chat_id, message_id, data.g)
            if isinstance(asked, Answer):
                return asked
            rec, t = asked
            name = html.escape(rec.name(data.u))
            if ctx.clock() > data.e:
                ctx.spawn(ctx.drop_markup(chat_id, message_id, t("leave.expired_note", name=name)))
                return Answer(t("leave.expired"), alert=True)
            if user != data.u:
                return Answer(t("leave.not_yours", name=rec.name(data.u)), alert=True)
            if user not in rec.players or user in rec.computers or not self._in_play(rec, user):
                ctx.spawn(ctx.drop_markup(chat_id, message_id))
                return Answer(t("leave.not_in"), alert=True)
            if data.a != "yes":
                ctx.spawn(ctx.drop_markup(chat_id, message_id, t("leave.kept", name=name)))
                return Answer(t("leave.kept_toast"))
            p = ctx.presenter(rec.game_id)
            assert rec.state is not None
            state = p.load(rec.state)
            events: list[Event] = []
            vacated = self.computers is not None and self.computers.vacate(rec, user, state)
            if not vacated:  # else his seat waits for «🤖 Заменить компьютером» a while
                state, events = p.game.remove(state, user)
            elif message_id is not None:  # the question becomes the offer
                rec.offers[user] = message_id
            if user == rec.creator:  # the next human still playing runs it (/cancel, /pings)
                rec.creator = next(
                    (
                        u
                        for u in rec.players
                        if u != user and not is_computer_seat(rec, u) and in_play(p, state, u)
                    ),
                    rec.creator,
                )
            self.moves.settle(rec, p, state, events, t)
            rec.seq += 1
            ctx.clean_chat.keep(rec, message_id)  # the question becomes the notice he left
            try:
                rec = await ctx.save(rec)
            except Conflict:
                return Answer(t("error.conflict"), alert=True)
            await self.moves.changed(rec)
        if vacated and self.computers is not None:
            ctx.spawn(self.computers.show_offer(chat_id, message_id, rec, user, t))
        else:
            ctx.spawn(ctx.drop_markup(chat_id, message_id, t("leave.done", name=name)))
        return Answer(t("leave.done_toast"))

    async def _question(
        self, chat_id: int, message_id: int | None, g: str
    ) -> tuple[GameRecord, Translator] | Answer:
        """The start of every confirmation's press (under the chat's lock): the record
        and its translator, or the answer to a question of no game any more (its buttons
        are dropped)."""
        ctx = self.ctx
        rec = await ctx.store.get(chat_id)
        if rec is None:
            return Answer(await ctx.lost.vanished(chat_id, message_id, g, lobby=False))
        t = ctx.t(rec.language)
        if rec.uid != g or rec.status not in ACTIVE:
            ctx.spawn(ctx.drop_markup(chat_id, message_id))
            return Answer(t("press.old_button"))
        return rec, t

    # ------------------------------------------------------------------ /cancel

    async def request_cancel(
        self, chat_id: int, user: int, is_admin: bool, asked: Asked | None = None
    ) -> None:
        """`/cancel`: the confirmation buttons; a refusal answers `asked` sparingly."""
        ctx = self.ctx
        rec = await ctx.store.get(chat_id)
        t = ctx.t(rec.language if rec else None)
        if rec is None or rec.status not in ACTIVE:
            await ctx.refuse(chat_id, t("cancel.nothing"), t, asked, "cancel.nothing")
            return
        now = ctx.clock()
        privileged = in_charge(rec, user) or is_admin  # a creator who left: no more
        left = idle.abandoned_in(rec, ctx.settings, ctx.turn_seconds(rec), now)
        if not privileged and left > 0:  # says when any member may end it
            text = self._until_abandoned(rec, now, t)
            await ctx.refuse(chat_id, text, t, asked, "cancel.not_allowed")
            return
        kb = yes_no(
            t("cancel.yes"),
            CancelCB(g=rec.uid, a="yes").pack(),
            t("cancel.no"),
            CancelCB(g=rec.uid, a="no").pack(),
        )
        playing = rec.status == RecordStatus.PLAYING
        text = t("cancel.confirm_game" if playing else "cancel.confirm_lobby")
        if not privileged:  # an abandoned game: any member may end it
            key = "cancel.confirm_abandoned" if playing else "cancel.confirm_abandoned_lobby"
            text = t(key, ago=idle.span(now - idle.last_active(rec), t))
        ctx.clean_chat.remember(chat_id, await ctx.send(chat_id, text, markup=kb))

    def _until_abandoned(self, rec: GameRecord, now: float, t: Translator) -> str:
        """Why a member who is neither the creator nor an admin can't end it yet, and
        when he can (an open lobby: when it closes by itself)."""
        ctx = self.ctx
        expires = idle.lobby_expires_at(rec, ctx.settings)
        if expires is not None:
            return t("cancel.lobby_expires", left=idle.span(expires - now, t, up=True))
        left = idle.abandoned_in(rec, ctx.settings, ctx.turn_seconds(rec), now)
        return t("cancel.not_yet_abandoned", left=idle.span(left, t, up=True))

    async def cancel_press(
        self,
        chat_id: int,
        user: int,
        message_id: int | None,
        data: CancelCB,
        is_admin: Callable[[], Awaitable[bool]],
        name: str = "",
    ) -> Answer:
        """`name`: the presser's stored name (an admin outside the game has none here)."""
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            asked = await self._question(chat_id, message_id, data.g)
            if isinstance(asked, Answer):
                return asked
            rec, t = asked
            now = ctx.clock()
            abandoned = False
            if not in_charge(rec, user) and not await is_admin():
                left = idle.abandoned_in(rec, ctx.settings, ctx.turn_seconds(rec), now)
                if left > 0:  # a player pressed since the question, or never abandoned
                    return Answer(self._until_abandoned(rec, now, t), alert=True)
                abandoned = True  # any member may end an abandoned game
            if data.a != "yes":
                ctx.spawn(ctx.drop_markup(chat_id, message_id, t("cancel.kept")))
                return Answer(t("cancel.kept"))
            was_lobby = rec.status == RecordStatus.LOBBY
            ago = idle.span(now - idle.last_active(rec), t)
            if abandoned:
                rec.end_reason = idle.ABANDONED
            rec.status = RecordStatus.CANCELLED
            rec.deadline = None
            rec.seq += 1
            ctx.clean_chat.keep(rec, message_id)  # the question becomes the notice of the end
            try:
                rec = await ctx.save(rec)
            except Conflict:
                return Answer(t("error.conflict"), alert=True)
            await self.deadlines.schedule(rec)
        who = rec.name(user) if user in rec.players or not name else name
        done = t("cancel.done", name=html.escape(who))
        if abandoned and not was_lobby:  # the chat is told who ended it, and why
            done = t("cancel.done_abandoned", name=html.escape(who), ago=ago)
        ctx.spawn(ctx.drop_markup(chat_id, message_id, done))
        if was_lobby:
            ctx.spawn(self.lobby.show(rec))
        else:
            self.table.kick(chat_id)
        return Answer(t("cancel.done_toast"))
