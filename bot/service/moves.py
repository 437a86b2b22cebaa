"""A running game's moves: a player's press on the table (`play_press`) and what
follows every move, whoever made it (a press, the timer, a start, a leave):
`absorb` takes the engine's new state into the record (its turn timer, narration,
summaries, the end), `changed` (after the record is stored) wakes the table worker,
re-arms the timer and sends the new mover his hand in private.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from pydantic import BaseModel

from bot import idle, metrics, turn_reminder
from bot.memory import steps
from bot.names import shorten
from bot.old_press import OUTDATED, after_own_hand, hand_run, old_press_key
from bot.presenters.base import HAND, Presenter, Refusal
from bot.presenters.buttons import Unknown
from bot.service import computers
from bot.service.context import LOG_LINES, Answer, Context
from bot.service.table_worker import TableWorker
from bot.service.timers import Deadlines
from bot.storage import ACTIVE, Conflict, GameRecord, RecordStatus, StoreUnavailable
from games import IllegalAction
from locales import Translator

log = logging.getLogger(__name__)

# A press whose write lost to another's (compare-and-set) is tried again on the record as
# it is now: the other write was a move (the press is then refused as outdated, by its
# `seq`) or only bookkeeping — another instance's table worker noting what its table
# shows — which must not cost the player his press.
PRESS_TRIES = 3


class Moves:
    def __init__(self, ctx: Context, deadlines: Deadlines, table: TableWorker) -> None:
        self.ctx = ctx
        self.deadlines = deadlines
        self.table = table

    def absorb(
        self,
        rec: GameRecord,
        p: Presenter[Any, Any],
        state: BaseModel,
        ui: BaseModel,
        events: list[Any],
        t: Translator,
    ) -> None:
        """The engine's new `state` (and the table's `ui`) into the record: the timer of
        the decision it awaits, the narration, the summaries, the end."""
        steps.capture(rec, state)  # the steps since the stored state (bot/memory/steps.py)
        rec.state = state.model_dump_json()
        rec.ui = p.dump_ui(ui)
        self._time(rec, p, state)
        computers.pace(rec, p, state, self.ctx.clock(), self.ctx.settings.computer_move_seconds)
        deadlines = [d for d in (rec.turn_deadline,) if d is not None]
        deadlines += computers.due_times(rec)
        reminder = turn_reminder.due_at(rec, self.ctx.turn_seconds(rec))  # a slow turn's
        if reminder is not None and rec.turn_deadline is not None:
            deadlines.append(reminder)
        rec.deadline = min(deadlines) if deadlines else None
        c = self.ctx.table(rec, p, t)
        lines = p.narrate(events, state, c)
        if lines:
            rec.log = (rec.log + lines)[-LOG_LINES:]
        rec.outbox.extend(p.summaries(events, state, c))
        if p.game.is_over(state):
            computers.final_note(rec, t)
            rec.status = RecordStatus.OVER
            rec.deadline = None

    def settle(
        self,
        rec: GameRecord,
        p: Presenter[Any, Any],
        state: BaseModel,
        events: list[Any],
        t: Translator,
        ui: BaseModel | None = None,
    ) -> BaseModel:
        """After a move by anyone (a press, a timer, a computer, a leave, the start): the
        presenter's automatic steps (`advance`), then `absorb`; the state they reach. `ui`:
        the table's state the move left (default: the stored one)."""
        c = self.ctx.table(rec, p, t)
        if ui is not None:
            c = c.but(ui=ui)
        adv = p.advance(state, c)
        ui = c.ui if adv.ui is None else adv.ui
        self.absorb(rec, p, adv.state, ui, [*events, *adv.events], t)
        settled: BaseModel = adv.state
        return settled

    def _time(self, rec: GameRecord, p: Presenter[Any, Any], state: BaseModel) -> None:
        """A new decision gets its timer: the turn timer (the lobby's choice, maybe none),
        or for a simultaneous one («Семидорожник»'s first-move window) the short window,
        always, whose end answers for everyone still silent (bot/service/timers.py)."""
        key = p.game.turn_key(state)
        if key == rec.turn_id:
            return
        rec.turn_id = key
        rec.window = key is not None and p.game.is_simultaneous(state)
        now = self.ctx.clock()
        if rec.window:
            rec.turn_deadline = now + self.ctx.settings.first_move_seconds
            return
        seconds = self.ctx.turn_seconds(rec)
        rec.turn_deadline = now + seconds if key is not None and seconds > 0 else None

    async def changed(self, rec: GameRecord) -> None:
        """A move was stored: the table follows, and the next deadline is set. (Nothing
        is sent to a player's private chat: his turn is pinged, bot/service/pings.py, and
        his hand is in the group, bot/service/hands.py.)"""
        self.table.kick(rec.chat_id)
        await self.deadlines.schedule(rec)

    async def play_press(
        self,
        chat_id: int,
        user: int,
        message_id: int | None,
        data: Any,
        *,
        hold_picture: bool = False,
    ) -> Answer:
        """A press on the table. With `hold_picture` the table worker starts at once but
        draws no picture until the caller says the callback is `answered` (or 1 s)."""
        ctx = self.ctx
        for attempt in range(PRESS_TRIES):
            async with ctx.locks[chat_id]:
                rec = await ctx.store.get(chat_id)
                if rec is None:
                    metrics.press("gone")
                    return Answer(await ctx.lost.vanished(chat_id, message_id, data.g, lobby=False))
                t = ctx.t(rec.language)
                if rec.uid != data.g:
                    metrics.press("old_button")
                    return Answer(t("press.old_button"))
                if rec.status != RecordStatus.PLAYING:
                    metrics.press("game_over")
                    return Answer(t("press.game_over"))
                if message_id is not None and rec.table_message_id not in (None, message_id):
                    metrics.press("table_moved")
                    return Answer(t("press.table_moved"))  # the table was sent anew, below
                if user not in rec.players or computers.is_computer_seat(rec, user):
                    metrics.press("not_in_game")
                    return Answer(t("press.not_in_game"), alert=True)
                self._seen(rec)  # a player's press, even one that changes nothing
                p = ctx.presenter(rec.game_id)
                assert rec.state is not None
                state = p.load(rec.state)
                if data.c == HAND:
                    return Answer(p.hand_popup(state, user, t), alert=True)
                try:
                    pressed = p.parse(data.c)
                except Unknown:
                    metrics.press("outdated")
                    return Answer(t(OUTDATED))  # a button of an older version of the bot
                on_table = message_id is not None
                if (
                    p.versioned(pressed)
                    and data.s != rec.seq
                    and not after_own_hand(rec, user, data.s, on_table)
                ):
                    metrics.press("outdated")
                    return Answer(t(old_press_key(rec, data.s)))  # updating, or out of date
                actor = p.actor(state)
                if actor is not None and actor != user:
                    metrics.press("not_your_turn")
                    return Answer(t("press.not_your_turn", name=rec.name(actor)))
                now = ctx.clock()
                c = ctx.table(rec, p, t, now)
                try:
                    out = p.press(state, user, pressed, c)
                except Refusal as r:
                    metrics.press("refusal")
                    return Answer(r.text, alert=True)
                except IllegalAction as e:
                    metrics.press("illegal")
                    return Answer(p.error_text(e.code, t), alert=True)
                except Exception:
                    log.exception("press %r in chat %s failed", data.c, chat_id)
                    metrics.press("error")
                    return Answer(t("error.internal"), alert=True)
                if not out.changed:
                    metrics.press("unchanged")
                    return Answer(out.toast, alert=out.alert)
                old_json = rec.state
                ui = c.ui if out.ui is None else out.ui
                settled = self.settle(rec, p, out.state, out.events, t, ui)
                rec.timeouts.pop(user, None)  # he is here
                rec.active_at = now
                if out.visible or (rec.state != old_json and p.seq_changes(state, settled)):
                    rec.seq += 1
                    rec.hand_run = hand_run(rec, user, rec.seq - 1, on_table)
                try:
                    rec = await ctx.save(rec)
                except Conflict:  # another instance wrote first: a move, or its bookkeeping
                    metrics.press("conflict")
                    if attempt + 1 < PRESS_TRIES:
                        continue  # the press again, on the record as it is now
                    return Answer(t("error.conflict"), alert=True)
                metrics.press("accepted")
                if hold_picture:
                    self.table.hold(chat_id)
                await self.changed(rec)
                notes = p.private_notes(out.events, settled, user, t)
                text = "\n".join(x for x in [out.toast, *notes] if x) or None
                if text and len(text) > 200:
                    text = shorten(text, len(text), 200)  # between clusters
                return Answer(text, alert=out.alert, moved=True, hand=out.hand)
        raise AssertionError("unreachable")  # the last try returns

    def _seen(self, rec: GameRecord) -> None:
        """A player pressed something: the game is not abandoned. A press that changes
        the game stores the time with it; for the others (his tiles, a refused move) it
        is written in the background, at most about once a minute."""
        ctx = self.ctx
        now = ctx.clock()
        allowed = idle.silence_allowed(rec, ctx.settings, ctx.turn_seconds(rec))
        if now - idle.last_active(rec) < min(60.0, allowed / 4):
            return
        uid = rec.uid

        def touch(r: GameRecord) -> GameRecord | None:
            if r.uid != uid or r.status not in ACTIVE or idle.last_active(r) >= now:
                return None
            r.active_at = now
            return r

        async def write() -> None:
            with contextlib.suppress(StoreUnavailable):  # a courtesy: the next press retries
                await ctx.update(rec.chat_id, touch)

        ctx.spawn(write())
