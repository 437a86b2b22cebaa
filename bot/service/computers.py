"""Computer players at the table: their moves, their pace, and a seat handed to one.

- `pace` (called by `Moves.absorb` for every new state): when a computer seat must act,
  its move is due `COMPUTER_MOVE_SECONDS` (about a second) later — a deadline in the
  shared set like the turn timers (bot/service/timers.py), so it survives a restart; in
  a window open to everyone at once (ДОМИНА… «Семидорожник»'s first move) it is due at
  once, so the window's length tells nothing about its tiles; and when no human left in
  the game has anything to do in it («Гипнозия»'s players out of tokens: the engine's
  `finished`), at once too — the computers play the rest without making them wait. A
  computer seat has no turn timer: it is never timed out, never removed for absence.
- `Computers.tick` (the first thing a due deadline runs) plays it: the seat's view and
  legal actions go to the decision process (bot/decisions.py) — never the state — and
  the chosen action is applied under the chat's lock through the compare-and-set store,
  as a press is. A decision's seed is the game's own for its computers (`ai_seed`, drawn
  at the start; a game stored before it had one draws it before its first decision),
  never the game's seed. All the actions of one computer's turn follow each other at
  once; a run of computer turns does not wake the table worker: the table is edited
  once, when a human is to act (or the game ends), with the narration of the run in its
  caption.
- A human who leaves a running game (bot/service/leaving.py) — with computer players or
  of humans only — while another human plays on leaves his seat `vacated` for
  `REPLACE_SECONDS` (the setting; 0: the engine's `remove` at once, as it was): the leave
  message offers «🤖 Заменить компьютером» to the remaining humans, and one press by any
  of them is their agreement. Pressed, the seat's player id is mapped to a computer of
  REPLACE_LEVEL in the record (the engine sees the same id, its rules are untouched) and
  the game becomes one «с компьютером»; not pressed in time, the engine's `remove` — the
  spec's "Leaving" rule — applies as it did before. Meanwhile the novice plays the seat.
- A game with no human left in play stops (`no_humans`); a game that had computer
  players, or ends while the novice still plays a vacated seat, is marked
  (`with_computers`: never rated, bot/memory/keeper.py) and its final standings say so.
"""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING, Any

from aiogram.filters.callback_data import CallbackData
from aiogram.methods import EditMessageText
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from pydantic import BaseModel

from bot import idle
from bot.decisions import Decisions, make_job, new_ai_seed, seed_for
from bot.presenters.base import Presenter
from bot.service.context import Answer, Context
from bot.storage import ACTIVE, Conflict, GameRecord, RecordStatus
from games import IllegalAction
from games.players import decide, is_computer
from locales import Translator

if TYPE_CHECKING:
    from bot.service.moves import Moves
    from bot.service.timers import Deadlines

log = logging.getLogger(__name__)

REPLACE_LEVEL = "experienced"
INTERIM_LEVEL = "novice"  # plays a vacated seat meanwhile (the timed-out turn's policy)
STEPS = 200  # at most this many computer actions in one tick (a guard)
NO_HUMANS = "no_humans"  # the record's end_reason when no human is left in play


class ReplaceCB(CallbackData, prefix="K1"):
    """«🤖 Заменить компьютером» on a leave message: u = the seat's player id."""

    g: str
    u: int


def is_computer_seat(rec: GameRecord, player: int) -> bool:
    """Whether a computer plays `player`'s seat (a computer's own id, or a human's seat
    handed to one): never timed out, never pinged, never removed for absence."""
    return player in rec.computers or is_computer(player)


def in_play(p: Presenter[Any, Any], state: BaseModel, player: int) -> bool:
    """Whether `player` still plays (a removed or departed player is no longer in the
    game, though he stays in the record's players)."""
    try:
        removed, _ = p.game.remove(state, player)
    except IllegalAction:
        return False
    return removed is not state


def to_act(rec: GameRecord, p: Presenter[Any, Any], state: BaseModel) -> int | None:
    """The computer seat that must act now, or None: the first computer among the
    deciders (at a simultaneous decision, everyone still to answer: «Семидорожник»'s
    first-move window) that has something to do."""
    if p.game.is_over(state):
        return None
    actor = p.actor(state)
    for seat in p.game.deciders(state):
        if seat not in rec.computers or (actor is not None and actor != seat):
            continue
        if p.game.legal_actions_for(state, seat):
            return seat
    return None


def pace(
    rec: GameRecord, p: Presenter[Any, Any], state: BaseModel, now: float, seconds: float
) -> None:
    """Set when the computer's move is due (`computer_due`); a computer seat loses its
    turn timer. Called for every new state, before the record's deadline is taken."""
    seat = to_act(rec, p, state)
    if seat is None:
        rec.computer_due = None
        return
    if p.actor(state) == seat:
        rec.turn_deadline = None  # never timed out
    if rec.computer_due is None:
        watched = p.actor(state) is not None and not humans_finished(rec, p, state)
        rec.computer_due = now + (seconds if watched else 0.0)


def humans_finished(rec: GameRecord, p: Presenter[Any, Any], state: BaseModel) -> bool:
    """Whether every human still in the game can no longer act nor change his result
    (`finished`): then nobody waits for the computers' moves to be shown one by one."""
    humans = [u for u in rec.players if u not in rec.computers and in_play(p, state, u)]
    return bool(humans) and all(p.game.finished(state, u) for u in humans)


def decision_seed(rec: GameRecord, state: BaseModel, seat: int) -> int:
    """The seed of the computer's decision at `seat` in `state`: from the game's seed
    for its computers (`rec.ai_seed`), never from the game's own seed (bot/decisions.py)."""
    return seed_for(rec.ai_seed, int(getattr(state, "version", 0)), seat)


def due_times(rec: GameRecord) -> list[float]:
    """The computers' deadlines for the record's `deadline`: a move, a vacated seat."""
    found = [] if rec.computer_due is None else [rec.computer_due]
    return [*found, *rec.vacated.values()]


def final_note(rec: GameRecord, t: Translator) -> None:
    """The game ended: a computer holding a seat now (a vacated one's novice too) makes it
    a game with computers, and its standings say so."""
    rec.with_computers = rec.with_computers or bool(rec.computers)
    if rec.with_computers and rec.outbox:
        rec.outbox[-1] += "\n" + t("computers.final_note")


class Computers:
    def __init__(self, ctx: Context, deadlines: Deadlines, moves: Moves) -> None:
        self.ctx = ctx
        self.deadlines = deadlines
        self.moves = moves
        self.decisions = Decisions()
        self.running: set[int] = set()  # chats whose computers this process is playing

    async def close(self) -> None:
        await self.decisions.close()

    # ------------------------------------------------------------------ their moves

    async def tick(self, chat_id: int) -> bool:
        """Play what is due of the computers (a vacated seat's end, computer moves):
        True when the tick was theirs (nothing else of the record is due now)."""
        if chat_id in self.running:  # its deadline, claimed again while they play: theirs
            return True
        self.running.add(chat_id)
        try:
            acted = await self._play(chat_id)
        finally:
            self.running.discard(chat_id)
        if not acted:
            # not theirs: the turn timer's tick goes on and re-arms the deadline itself (an
            # earlier re-arm here put a due deadline back for another instance to claim)
            return False
        fresh = await self.ctx.store.get(chat_id)  # the claimed deadline: the real one again
        if fresh is not None:
            await self.deadlines.schedule(fresh)
        return True

    async def _play(self, chat_id: int) -> bool:
        ctx = self.ctx
        acted = False
        for _ in range(STEPS):
            rec = await ctx.store.get(chat_id)
            if rec is None or rec.status != RecordStatus.PLAYING or rec.state is None:
                return acted
            now = ctx.clock()
            if any(until <= now for until in rec.vacated.values()):
                await self._end_vacated(chat_id, rec.version)
                acted = True
                continue
            if rec.computer_due is None or rec.computer_due > now:
                break
            p = ctx.presenter(rec.game_id)
            state = p.load(rec.state)
            seat = to_act(rec, p, state)
            if seat is None:
                break
            if not any(in_play(p, state, u) for u in rec.players if u not in rec.computers):
                await self._stop(chat_id, rec.version)
                return True
            if not rec.ai_seed:  # a record of a game started before it had one
                rec = await self._give_ai_seed(chat_id, rec)
                if rec is None:
                    return acted
                continue
            level = rec.computers[seat]
            view = p.game.view(state, seat)
            legal = p.game.legal_actions_for(state, seat)
            seed = decision_seed(rec, state, seat)
            job = make_job(rec.game_id, level, view, legal, seed)
            try:  # off the event loop, and outside the chat's lock
                code = await self.decisions.decide(job)
            except Exception:
                log.exception("chat %s: the decision process failed; the novice plays", chat_id)
                code = p.game.encode_action(decide(rec.game_id, "novice", view, legal, seed))
            acted = True
            if not await self._apply(chat_id, rec.version, seat, code):
                break
        return acted

    async def _give_ai_seed(self, chat_id: int, known: GameRecord) -> GameRecord | None:
        """Draw the computers' seed of a game stored without one, and store it with the
        record (before its first decision, so every decision of the game has it)."""

        def give(rec: GameRecord) -> GameRecord | None:
            if rec.ai_seed:
                return None  # drawn meanwhile (another instance): that one stays
            rec.ai_seed = new_ai_seed()
            return rec

        return await self.ctx.update(chat_id, give, known)

    async def _apply(self, chat_id: int, version: int, seat: int, code: str) -> bool:
        """Apply the computer's action if nothing moved meanwhile; False otherwise."""
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            if rec is None or rec.version != version or rec.state is None:
                return False
            p = ctx.presenter(rec.game_id)
            t = ctx.t(rec.language)
            state = p.load(rec.state)
            legal = p.game.legal_actions_for(state, seat)
            if not legal:
                return False
            action = p.game.decode_action(code)
            if action not in legal:
                log.warning(
                    "chat %s: a computer chose %r, not legal; the first is played", chat_id, code
                )
                action = legal[0]
            now = ctx.clock()
            before_actor = p.actor(state)
            moved, events = p.game.apply(state, action)
            rec.computer_due = None  # paced anew for the next computer (`pace`)
            settled = self.moves.settle(rec, p, moved, events, t)
            same_turn = (
                before_actor == seat
                and to_act(rec, p, settled) == seat
                and p.game.turn_key(settled) == p.game.turn_key(state)
            )
            if same_turn:  # the rest of its turn: at once
                rec.computer_due = now
                rec.deadline = now if rec.deadline is None else min(rec.deadline, now)
            if p.seq_changes(state, settled):
                rec.seq += 1
            try:
                rec = await ctx.save(rec)
            except Conflict:
                return False
            if rec.status == RecordStatus.PLAYING and to_act(rec, p, settled) is not None:
                await self.deadlines.schedule(rec)  # the run goes on: no table edit yet
            else:
                await self.moves.changed(rec)
            return True

    async def _stop(self, chat_id: int, version: int) -> None:
        """No human plays any more: the game stops (computers never play alone)."""
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            if rec is None or rec.version != version:
                return
            t = ctx.t(rec.language)
            rec.status = RecordStatus.CANCELLED
            rec.end_reason = NO_HUMANS
            rec.deadline = rec.computer_due = None
            rec.outbox.append(t("computers.no_humans"))
            rec.seq += 1
            try:
                rec = await ctx.save(rec)
            except Conflict:
                return
            await self.deadlines.schedule(rec)
            self.moves.table.kick(chat_id)

    # ------------------------------------------------------------------ a vacated seat

    def vacate(self, rec: GameRecord, user: int, state: BaseModel) -> bool:
        """`user` leaves the running game: his seat waits for «🤖 Заменить компьютером»
        when another human plays on (True), else he is removed at once (False)."""
        seconds = self.ctx.settings.replace_seconds
        if seconds <= 0:  # no offer: he leaves as he always did
            return False
        p = self.ctx.presenter(rec.game_id)
        others = [u for u in rec.players if u != user and u not in rec.computers]
        if not any(in_play(p, state, u) for u in others):
            return False
        rec.vacated[user] = self.ctx.clock() + seconds
        rec.computers[user] = INTERIM_LEVEL
        rec.computer_due = None  # `pace` sets it if the seat must act now
        return True

    def offer(self, rec: GameRecord, user: int, t: Translator) -> tuple[str, InlineKeyboardMarkup]:
        """The leave message with its one button."""
        button = InlineKeyboardButton(
            text=t("computers.replace"), callback_data=ReplaceCB(g=rec.uid, u=user).pack()
        )
        span = idle.span(self.ctx.settings.replace_seconds, t, up=True)
        text = t("computers.left_offer", name=html.escape(rec.name(user)), span=span)
        return text, InlineKeyboardMarkup(inline_keyboard=[[button]])

    async def show_offer(
        self, chat_id: int, message_id: int | None, rec: GameRecord, user: int, t: Translator
    ) -> None:
        if message_id is None:
            return
        text, markup = self.offer(rec, user, t)
        await self.ctx.sender.call(
            EditMessageText(chat_id=chat_id, message_id=message_id, text=text, reply_markup=markup)
        )

    async def replace_press(
        self, chat_id: int, user: int, message_id: int | None, data: ReplaceCB
    ) -> Answer:
        """«🤖 Заменить компьютером»: any human still playing agrees for the others.
        `message_id`: the pressed message, None when the pressed button is not on it (a
        forged or late press: bot/handlers/common.py `pressed_on`). Only a press of the
        seat's own offer replaces; a late, doubled or forged one is answered and edits no
        message (the offer was closed already by what made it late)."""
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            t = ctx.t(rec.language if rec else None)
            if rec is None or rec.uid != data.g or rec.status != RecordStatus.PLAYING:
                return Answer(t("press.old_button"))
            name = html.escape(rec.name(data.u))
            if data.u not in rec.vacated:
                if rec.computers.get(data.u) == REPLACE_LEVEL:  # a double tap: done already
                    return Answer(t("computers.replaced_already", robot=rec.name(data.u)))
                return Answer(t("computers.too_late_toast"), alert=True)
            if message_id is None or rec.offers.get(data.u) != message_id:
                return Answer(t("press.old_button"))  # not his offer's button
            p = ctx.presenter(rec.game_id)
            assert rec.state is not None
            state = p.load(rec.state)
            if user == data.u or is_computer_seat(rec, user) or not in_play(p, state, user):
                return Answer(t("computers.replace_not_yours"), alert=True)
            del rec.vacated[data.u]
            rec.offers.pop(data.u, None)
            rec.computers[data.u] = REPLACE_LEVEL
            rec.names[data.u] = t(f"computers.name.{REPLACE_LEVEL}")
            rec.with_computers = True
            rec.timeouts.pop(data.u, None)
            self.moves.settle(rec, p, state, [], t)
            rec.seq += 1
            try:
                rec = await ctx.save(rec)
            except Conflict:
                return Answer(t("error.conflict"), alert=True)
            await self.moves.changed(rec)
        done = t("computers.replaced", name=name, robot=html.escape(rec.name(data.u)))
        ctx.spawn(ctx.drop_markup(chat_id, message_id, done))
        return Answer(t("computers.replaced_toast"))

    async def _end_vacated(self, chat_id: int, version: int) -> None:
        """Nobody pressed «🤖 Заменить компьютером» in time: the engine removes him."""
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            if rec is None or rec.version != version or rec.state is None:
                return
            p = ctx.presenter(rec.game_id)
            t = ctx.t(rec.language)
            now = ctx.clock()
            state = p.load(rec.state)
            events = []
            closed: list[tuple[int, str]] = []  # the offers that lose their button
            for user, until in list(rec.vacated.items()):
                if until <= now:
                    del rec.vacated[user]
                    rec.computers.pop(user, None)
                    if (message_id := rec.offers.pop(user, None)) is not None:
                        name = html.escape(rec.name(user))
                        closed.append((message_id, t("computers.too_late", name=name)))
                    state, ev = p.game.remove(state, user)
                    events.extend(ev)
            rec.computer_due = None
            self.moves.settle(rec, p, state, events, t)
            rec.seq += 1
            try:
                rec = await ctx.save(rec)
            except Conflict:
                return
            await self.moves.changed(rec)
        for message_id, text in closed:
            ctx.spawn(ctx.drop_markup(chat_id, message_id, text))


async def close_offers(ctx: Context, chat_id: int, rec: GameRecord | None) -> None:
    """The game is over while a seat still waited for «🤖 Заменить компьютером»: the
    offer loses its button and says how the seat was played to the end."""
    if rec is None or rec.status in ACTIVE or not rec.offers:
        return
    t = ctx.t(rec.language)
    offers = dict(rec.offers)
    for user, message_id in offers.items():
        name = html.escape(rec.name(user))
        await ctx.drop_markup(chat_id, message_id, t("computers.offer_ended", name=name))
    uid = rec.uid

    def clear(r: GameRecord) -> GameRecord | None:
        if r.uid != uid or not r.offers:
            return None
        r.offers = {u: m for u, m in r.offers.items() if offers.get(u) != m}
        return r

    await ctx.update(chat_id, clear)
