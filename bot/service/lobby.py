"""The lobby: `/new` opens it (`new_game`), its buttons (`lobby_press`: join, leave, the
game, its length, the turn timer, start), its message (bot/service/lobby_message.py,
edited by `show`), the start of the game (`_start`) and its expiry (`expire`).
"""

from __future__ import annotations

import html
import logging
import secrets
from typing import Any

from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.methods import EditMessageText
from aiogram.types import InlineKeyboardMarkup

from bot import chat_settings, house_rules, idle, turn_timers
from bot.callbacks import LobbyCB
from bot.memory.keeper import memory_of
from bot.presenters.base import Presenter
from bot.replies import Asked
from bot.service import computer_lobby as cpu
from bot.service.context import Answer, Context
from bot.service.lobby_message import (
    GAME_MENU,
    RULES_MENU,
    lobby_markup,
    lobby_text,
    setting_answer,
    timer_choices,
)
from bot.service.moves import Moves
from bot.service.table_worker import TableWorker
from bot.service.timers import Deadlines
from bot.shown import Shown
from bot.storage import ACTIVE, Conflict, GameRecord, RecordStatus
from games import IllegalAction
from games.chance import new_seed
from locales import Translator

log = logging.getLogger(__name__)


def in_charge(rec: GameRecord, user: int) -> bool:
    """Whether `user` runs the lobby (or game) `rec`: its creator while he is in it. One
    who left runs nothing: the next human took over (`Lobby.remove_player`), or, when
    none was left, the next to join does."""
    return user == rec.creator and user in rec.players


class Lobby:
    def __init__(
        self, ctx: Context, deadlines: Deadlines, table: TableWorker, moves: Moves
    ) -> None:
        self.ctx = ctx
        self.deadlines = deadlines
        self.table = table
        self.moves = moves
        self.shown = Shown()  # what each lobby message shows (bot/shown.py)

    async def show(self, rec: GameRecord) -> None:
        """Edit the lobby message to the latest stored record (edits never go backwards),
        unless an edit since `rec` was stored shows it already."""
        ctx = self.ctx
        async with ctx.lobby_locks[rec.chat_id]:
            # an edit since (of this version or a later one) shows it already (bot/shown.py)
            if not self.shown.covers(rec.chat_id, rec.lobby_message_id, rec.seq):
                latest = await ctx.store.get(rec.chat_id)
                if latest is not None and latest.uid == rec.uid:
                    rec = latest
                await self.edit(rec)
        if rec.status == RecordStatus.CANCELLED:
            async with ctx.locks[rec.chat_id]:  # a closed lobby expires no more
                current = await ctx.store.get(rec.chat_id)
                if current is not None and current.uid == rec.uid:
                    await self.deadlines.schedule(current)
            if current is not None and current.uid == rec.uid:
                await ctx.clean_chat.sweep(rec.chat_id, current)  # bot/service/clean_chat.py
            self.table.forget(rec.chat_id)

    async def edit(self, rec: GameRecord) -> None:
        if rec.lobby_message_id is None:
            return
        chat, msg = rec.chat_id, rec.lobby_message_id
        text, markup = lobby_text(self.ctx, rec), lobby_markup(self.ctx, rec)
        if self.shown.same(chat, msg, rec.seq, text, markup):
            return  # it shows this already (an earlier edit had the later presses too)
        try:
            await self.ctx.sender.call(
                EditMessageText(chat_id=chat, message_id=msg, text=text, reply_markup=markup)
            )
            self.shown.remember(chat, msg, rec.seq, text, markup)
        except TelegramBadRequest as e:
            if "not modified" not in str(e).lower():
                log.warning("lobby edit failed in %s: %s", rec.chat_id, e)
            else:
                self.shown.remember(chat, msg, rec.seq, text, markup)
        except TelegramAPIError as e:
            log.warning("lobby edit failed in %s: %s", rec.chat_id, e)

    # ------------------------------------------------------------------ /new

    async def new_game(
        self,
        chat_id: int,
        user: int,
        name: str,
        arg: str,
        language: str | None = None,
        asked: Asked | None = None,
    ) -> None:
        """`/new [game]` in a group. Messages are sent after the chat's lock is released
        (a full flood window may make a send wait; presses must not wait for it). A
        refusal answers `asked` as a reply to a command (bot/replies.py), in the group."""
        ctx = self.ctx
        topic = ""  # a refusal's topic, for the replies' once-a-while
        reply_to: int | None = None
        markup: InlineKeyboardMarkup | None = None
        new: GameRecord | None = None
        prefs = await chat_settings.for_lobby(ctx.store, chat_id, user)  # /settings
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            # a running lobby or game keeps its language (its refusal speaks it); a new
            # one: the chat's setting, else the creator's (bot/language.py)
            running = rec.language if rec and rec.status in ACTIVE else None
            lang = running or prefs.language or language or ctx.settings.bot_language
            t = ctx.t(lang)
            game_id: str | None = next(iter(ctx.presenters))
            if prefs.default_game in ctx.presenters:
                game_id = prefs.default_game
            now = ctx.clock()
            # a lobby past its expiry, or idle long enough to give way (bot/idle.py)
            closing = idle.lobby_gives_way(rec, ctx.settings, now) if rec else None
            expired = rec if closing else None
            if rec is not None and rec.status in ACTIVE and expired is None:
                playing = rec.status == RecordStatus.PLAYING
                reply_to = rec.table_message_id if playing else rec.lobby_message_id
                text = t("new.running_game" if playing else "new.running_lobby")
                when = None if playing else idle.lobby_replaceable_at(rec, ctx.settings)
                if when is not None:  # says when a /new will replace it
                    text = t("new.running_lobby_until", left=idle.span(when - now, t, up=True))
                game_id, topic = None, f"new.running:{reply_to}"  # once per lobby/table
                if idle.abandoned_in(rec, ctx.settings, ctx.turn_seconds(rec), now) <= 0:
                    ago = idle.span(now - idle.last_active(rec), t)
                    key = "new.running_game_abandoned" if playing else "new.running_lobby_abandoned"
                    text = t(key, ago=ago)
                    topic += ":abandoned"  # any member may end it: /cancel
            elif arg.strip():
                game_id = ctx.find_game(arg)
                titles = ", ".join(t(p.title_key) for p in ctx.presenters.values())
                text = t("new.unknown_game", games=html.escape(titles))
                topic = "new.unknown_game"
            if game_id is not None:
                p = ctx.presenter(game_id)
                code, options = house_rules.lobby_options(p, prefs.house_rules.get(game_id, {}))
                timer = rec.turn_seconds if rec else None  # the chat's last choice…
                if timer is not None and turn_timers.is_slow(timer):
                    timer = None  # … unless slow: a game over days is chosen for one game
                new = GameRecord(
                    chat_id=chat_id,
                    uid=secrets.token_hex(3),
                    game_id=game_id,
                    creator=user,
                    players=[user],
                    names={user: name},
                    option_choice=code,
                    options=options,
                    language=lang,
                    seq=1,
                    turn_seconds=timer if prefs.turn_seconds is None else prefs.turn_seconds,
                    active_at=now,
                )
                try:
                    new = await ctx.store.put(new, rec.version if rec else 0)
                    ctx.spawn(memory_of(ctx).lobby_opened(new))  # /notify (bot/memory/)
                    text, markup = lobby_text(self.ctx, new), lobby_markup(self.ctx, new)
                    await self.deadlines.schedule(new)  # the lobby's expiry
                    if expired is not None and closing:  # not closed yet by its deadline: now
                        log.info("chat %s: lobby %s %s by /new", chat_id, expired.uid, closing)
                        ctx.spawn(self.edit(self.expired_copy(expired, closing)))
                except Conflict:
                    new, text, topic = None, t("error.conflict"), ""
        if new is None and topic and asked is not None:
            await ctx.replies.answer(asked, text, t, topic=topic, reply_to=reply_to)
            return
        msg_id = await ctx.send(chat_id, text, markup=markup, reply_to=reply_to)
        if new is None or msg_id is None:
            return
        self.shown.remember(chat_id, msg_id, new.seq, text, markup)
        uid = new.uid

        def remember(r: GameRecord) -> GameRecord | None:
            if r.uid != uid or r.lobby_message_id is not None:
                return None
            r.lobby_message_id = msg_id
            return r

        saved = await ctx.update(chat_id, remember)
        if saved is not None and saved.uid == uid and saved.seq != new.seq:
            ctx.spawn(self.show(saved))  # pressed before the message was known

    # ------------------------------------------------------------------ its buttons

    async def lobby_press(
        self, chat_id: int, user: int, name: str, message_id: int | None, data: LobbyCB
    ) -> Answer:
        ctx = self.ctx
        async with ctx.locks[chat_id]:
            rec = await ctx.store.get(chat_id)
            if rec is None:
                return Answer(await ctx.lost.vanished(chat_id, message_id, data.g, lobby=True))
            t = ctx.t(rec.language)
            if rec.uid != data.g:
                return Answer(t("press.old_button"))
            if rec.status != RecordStatus.LOBBY:
                return Answer(t("press.lobby_closed"))
            if idle.lobby_expired(rec, ctx.settings, ctx.clock()):  # its deadline is late
                await self.expire(rec)
                return Answer(t("press.lobby_closed"))
            rec.active_at = ctx.clock()  # stored with an accepted press only
            look = self.look(rec)  # what the lobby message shows before the press
            p = ctx.presenter(rec.game_id)
            answer = Answer()
            if data.a == "join":
                if user in rec.players:
                    return Answer(t("lobby.already_in"))
                if len(rec.players) >= p.max_players:
                    return Answer(t("lobby.full", max=p.max_players), alert=True)
                rec.players.append(user)
                rec.names[user] = name
                if rec.creator not in rec.players:  # its creator left: the joiner runs it
                    rec.creator = user
                answer = Answer(t("lobby.joined"))
            elif data.a == "leave":
                if user not in rec.players:
                    return Answer(t("lobby.not_in"))
                self.remove_player(rec, user)
                answer = Answer(t("lobby.left"))
            elif data.a in ("game", "opt", "tmr", "menu", "back", "rules", "rule"):
                if not in_charge(rec, user):  # a member who left runs nothing
                    return Answer(t("lobby.only_creator"), alert=True)
                if data.a in ("menu", "back", "rules"):  # a menu opens, or closes
                    menus = {"menu": {GAME_MENU: True}, "rules": {RULES_MENU: True}}
                    rec.ui = menus.get(data.a, {})
                elif data.a == "game":
                    if data.x not in ctx.presenters:
                        return Answer(t("press.old_button"))
                    rec.ui = {}  # picked: the lobby's own keyboard again
                    rec.game_id = data.x
                    p = ctx.presenter(data.x)
                    prefs = await chat_settings.for_lobby(ctx.store, chat_id, rec.creator)
                    rules = prefs.house_rules.get(data.x, {})
                    rec.option_choice, rec.options = house_rules.lobby_options(p, rules)
                elif data.a == "tmr":
                    seconds = next((x for x in timer_choices(self.ctx) if f"{x:g}" == data.x), None)
                    if seconds is None:
                        return Answer(t("press.old_button"))
                    rec.turn_seconds = seconds
                elif data.a == "rule":  # this game's options, not the chat's
                    rule = next((r for r in house_rules.rules_of(p) if r.key == data.x), None)
                    if rule is None or not rec.ui.get(RULES_MENU):
                        return Answer(t("press.old_button"))
                    options = house_rules.cycled(p, rec.options, rule)
                    if not house_rules.valid(p, options):
                        return Answer(t("house.refused"), alert=True)
                    rec.options = options
                else:
                    choice = next((c for c in p.choices() if c.code == data.x), None)
                    if choice is None:
                        return Answer(t("press.old_button"))
                    options = house_rules.with_length(p, rec.options, choice)
                    if not house_rules.valid(p, options):
                        return Answer(t("house.refused"), alert=True)
                    rec.option_choice, rec.options = choice.code, options
                answer = Answer(setting_answer(data.a, t))
            elif data.a in cpu.ACTIONS:
                if not in_charge(rec, user):
                    return Answer(t("lobby.only_creator"), alert=True)
                answer, changed = cpu.press(rec, user, data.a, data.x, p, t)
                if not changed:
                    return answer
            elif data.a == "start":
                if rec.creator not in rec.players:  # computers alone: a human joins first
                    return Answer(t("computers.only_computers"), alert=True)
                if not in_charge(rec, user):
                    return Answer(
                        t("lobby.only_creator_start", name=rec.name(rec.creator)), alert=True
                    )
                least = house_rules.min_players(p, rec.options)
                if not least <= len(rec.players) <= p.max_players:
                    return Answer(t("lobby.need_more", n=least - len(rec.players)), alert=True)
                if (refusal := cpu.start_refusal(rec, t)) is not None:
                    return Answer(refusal, alert=True)
                return await self._start(rec, p, t)
            else:
                return Answer(t("press.old_button"))
            if self.look(rec) == look:  # chosen already: nothing to store, no edit for nothing
                return answer
            rec.seq += 1
            try:
                rec = await ctx.save(rec)
            except Conflict:
                return Answer(t("error.conflict"))
            ctx.spawn(self.show(rec))
            return answer

    def look(self, rec: GameRecord) -> tuple[str, str]:
        """What the lobby message shows of `rec`: its text and keyboard."""
        markup = lobby_markup(self.ctx, rec)
        return lobby_text(self.ctx, rec), "" if markup is None else markup.model_dump_json()

    @staticmethod
    def remove_player(rec: GameRecord, user: int) -> None:
        """`user` leaves the open lobby: the last one out closes it; when the creator
        leaves, the next human becomes the creator (none left: the next to join,
        `lobby_press`; meanwhile nobody runs it: `in_charge`)."""
        rec.players.remove(user)
        if not rec.players:
            rec.status = RecordStatus.CANCELLED
        elif user == rec.creator:
            rec.creator = cpu.next_creator(rec, user)

    def begin(self, rec: GameRecord, p: Presenter[Any, Any], t: Translator, seed: int) -> None:
        """The lobby's game starts in `rec` (not stored yet): its first state, the moves the
        bot makes at once (a roll, a forced move), the turn's timer. Raises IllegalAction
        or ValueError when the lobby's players or options can't start it."""
        state = p.new_state(list(rec.players), seed, dict(rec.options))
        rec.ui = {}  # the lobby's menus end; the table's state begins empty
        rec.seed = seed
        rec.ai_seed = secrets.randbits(64)  # the computers' own (bot/decisions.py seed_for)
        rec.with_computers = bool(rec.computers)
        rec.status = RecordStatus.PLAYING
        rec.seq += 1
        rec.log = []
        self.moves.settle(rec, p, state, [], t)

    async def _start(self, rec: GameRecord, p: Presenter[Any, Any], t: Translator) -> Answer:
        ctx = self.ctx
        try:
            self.begin(rec, p, t, new_seed())  # 128 secret bits (games/chance.py)
        except (IllegalAction, ValueError) as e:
            log.warning("cannot start %s: %s", rec.game_id, e)
            return Answer(t("lobby.cannot_start"), alert=True)
        try:
            rec = await ctx.save(rec)
        except Conflict:
            return Answer(t("error.conflict"))
        ctx.spawn(self.show(rec))
        await self.moves.changed(rec)
        return Answer(t("lobby.starting"))

    # ------------------------------------------------------------------ its expiry

    @staticmethod
    def expired_copy(rec: GameRecord, reason: str = idle.EXPIRED) -> GameRecord:
        """The lobby `rec` as it shows once closed for `reason` (idle.EXPIRED, REPLACED)."""
        update = {"status": RecordStatus.CANCELLED, "end_reason": reason}
        return rec.model_copy(update=update)

    async def expire(self, rec: GameRecord) -> None:
        """The lobby's deadline came (under the chat's lock): it closes if nobody pressed
        a button for LOBBY_EXPIRE_MINUTES (its message says so, without buttons), else
        the deadline moves to the new expiry."""
        ctx = self.ctx
        if not idle.lobby_expired(rec, ctx.settings, ctx.clock()):
            await self.deadlines.schedule(rec)
            return
        rec.status = RecordStatus.CANCELLED
        rec.end_reason = idle.EXPIRED
        rec.seq += 1
        try:
            saved = await ctx.save(rec)
        except Conflict:  # pressed meanwhile on another instance: its expiry then
            fresh = await ctx.store.get(rec.chat_id)
            if fresh is not None:
                await self.deadlines.schedule(fresh)
            return
        log.info("chat %s: lobby %s expired", saved.chat_id, saved.uid)
        await self.deadlines.schedule(saved)  # no deadline any more
        ctx.spawn(self.show(saved))
