"""The game-agnostic core: lobby, presses, timers, the table worker.

Serialisation: an asyncio lock per chat in-process, compare-and-set in the store
across processes. A move is stored before it is acknowledged; the table and the
history messages are brought up to date afterwards by one worker per chat
(coalesced: a burst of taps gives one edit with the latest state).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
)
from aiogram.methods import EditMessageReplyMarkup, EditMessageText
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from pydantic import BaseModel

from bot import idle
from bot.callbacks import CancelCB, LobbyCB
from bot.caption_fit import fit_caption
from bot.chat_locks import ChatLocks
from bot.config import Settings
from bot.limits import ChatSendLimiter
from bot.names import shorten
from bot.old_press import old_press_key
from bot.pictures import Pictures
from bot.presenters.base import Presenter, Refusal
from bot.records import LostGames, PlayableCheck
from bot.replies import Asked, Replies
from bot.sender import Sender
from bot.storage import Conflict, GameRecord, RecordStatus, Store, StoreUnavailable
from bot.table import CAPTION_LIMIT, TableView, edit_table, send_table, text_key
from games import IllegalAction
from locales import Translator, get_translator

log = logging.getLogger(__name__)

LOG_LINES = 3
ANSWER_FIRST = 1.0  # seconds a picture waits for its press's answer, at most
TABLE_LEASE = 5.0  # seconds: one table update; a killed holder delays the next this long
ACTIVE = (RecordStatus.LOBBY, RecordStatus.PLAYING)


@dataclass
class Answer:
    """What to answer a callback query with."""

    text: str | None = None
    alert: bool = False


def normalise(text: str) -> str:
    return text.strip().lower().replace("ё", "е").replace("-", " ").replace("_", " ")


class GameService:
    def __init__(
        self,
        bot: Bot,
        store: Store,
        settings: Settings,
        presenters: dict[str, Presenter],
        limiter: ChatSendLimiter | None = None,
    ) -> None:
        self.bot = bot
        self.store = store
        self.settings = settings
        self.presenters = presenters
        limiter = limiter or ChatSendLimiter(
            store, settings.chat_messages_per_minute, settings.chat_window_seconds
        )
        self.sender = Sender(bot, limiter)  # every send, edit and delete goes through it
        self.replies = Replies(self.sender, store)  # replies to commands (bot/replies.py)
        self.pictures = Pictures(
            presenters,
            threads=settings.render_threads,
            process=settings.render_process,
            processes=settings.render_processes,
        )
        # per chat, only while in use (bot/chat_locks.py): nothing stays for idle chats
        self._locks = ChatLocks()
        self._lobby_locks = ChatLocks()
        self._dirty: set[int] = set()
        self._holds: dict[int, asyncio.Event] = {}  # presses not answered yet
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._bg: set[asyncio.Task[Any]] = set()
        self._poller: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._next_deadline: float | None = None  # the earliest one this process set
        self._rng = random.SystemRandom()
        self.clock: Callable[[], float] = time.time
        # a record that doesn't load is moved aside by the store; the chat is told once
        self.lost = LostGames(
            store, self._send, self._drop_markup, self._spawn, settings.bot_language
        )
        store.check = PlayableCheck(presenters)
        store.on_unreadable = self.lost.unreadable

    # ------------------------------------------------------------------ helpers

    def t(self, lang: str | None = None) -> Translator:
        return get_translator(lang or self.settings.bot_language)

    def presenter(self, game_id: str) -> Presenter:
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

    async def _save(self, rec: GameRecord) -> GameRecord:
        return await self.store.put(rec, rec.version)

    async def _update(
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
            async with self._locks[chat_id]:
                rec = known if known is not None else await self.store.get(chat_id)
                known = None
                if rec is None:
                    return None
                new = change(rec)
                if new is None:
                    return rec
                try:
                    return await self._save(new)
                except Conflict:
                    pass  # another process wrote first
            await asyncio.sleep(0.01)
        return None

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._bg.add(task)
        task.add_done_callback(self._bg.discard)

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
        tasks = [*self._workers.values(), *self._bg]
        if self._poller is not None:
            tasks.append(self._poller)
            self._poller = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.pictures.close()

    # ------------------------------------------------------------------ lobby

    def turn_seconds(self, rec: GameRecord) -> float:
        """This game's turn timer: the lobby's choice, else the bot's default."""
        return self.settings.turn_seconds if rec.turn_seconds is None else rec.turn_seconds

    def timer_choices(self) -> list[float]:
        """The lobby's turn-timer row: 2, 3 (the usual default), 10 minutes and off."""
        minutes = sorted({120.0, 180.0, 600.0, self.settings.turn_seconds} - {0.0})
        return [*minutes, 0.0]

    def timer_label(self, seconds: float, t: Translator) -> str:
        if seconds <= 0:
            return t("lobby.timer_off")
        if seconds % 60 == 0:
            return t("lobby.timer_min", n=int(seconds // 60))
        return t("lobby.timer_sec", n=int(seconds))

    def lobby_text(self, rec: GameRecord) -> str:
        t = self.t(rec.language)
        p = self.presenter(rec.game_id)
        lines = [t("lobby.title", game=html.escape(t(p.title_key)))]
        choice = next((c for c in p.choices() if c.code == rec.option_choice), None)
        if choice is not None:
            lines.append(t("lobby.length", length=t(choice.label_key)))
        lines.append(t("lobby.timer", timer=self.timer_label(self.turn_seconds(rec), t)))
        lines.append(
            t(
                "lobby.players",
                count=len(rec.players),
                min=p.min_players,
                max=p.max_players,
            )
        )
        for i, uid in enumerate(rec.players, 1):
            mark = t("lobby.creator_mark") if uid == rec.creator else ""
            lines.append(f"{i}. {html.escape(rec.name(uid))}{mark}")
        if rec.status == RecordStatus.LOBBY:
            if len(rec.players) < p.min_players:
                lines.append(t("lobby.need_more", n=p.min_players - len(rec.players)))
            else:
                lines.append(t("lobby.can_start", name=html.escape(rec.name(rec.creator))))
        elif rec.status == RecordStatus.PLAYING:
            lines.append(t("lobby.started"))
        elif rec.status == RecordStatus.CANCELLED and rec.end_reason == idle.EXPIRED:
            minutes = self.settings.lobby_expire_minutes
            lines.append(t("lobby.expired", span=idle.span(minutes * 60, t)))
        elif rec.status == RecordStatus.CANCELLED:
            lines.append(t("lobby.cancelled"))
        return "\n".join(lines)

    def lobby_markup(self, rec: GameRecord) -> InlineKeyboardMarkup | None:
        if rec.status != RecordStatus.LOBBY:
            return None
        t = self.t(rec.language)
        p = self.presenter(rec.game_id)
        rows: list[list[InlineKeyboardButton]] = []

        def btn(text: str, a: str, x: str = "") -> InlineKeyboardButton:
            return InlineKeyboardButton(
                text=text, callback_data=LobbyCB(g=rec.uid, a=a, x=x).pack()
            )

        if len(self.presenters) > 1:
            rows.append(
                [
                    btn(("✅ " if gid == rec.game_id else "") + t(q.title_short_key), "game", gid)
                    for gid, q in self.presenters.items()
                ]
            )
        choices = p.choices()
        if len(choices) > 1:
            rows.append(
                [
                    btn(
                        ("✅ " if c.code == rec.option_choice else "") + t(c.label_key),
                        "opt",
                        c.code,
                    )
                    for c in choices
                ]
            )
        current = self.turn_seconds(rec)
        rows.append(
            [
                btn(("✅ " if x == current else "⏱ ") + self.timer_label(x, t), "tmr", f"{x:g}")
                for x in self.timer_choices()
            ]
        )
        rows.append([btn(t("lobby.join"), "join"), btn(t("lobby.leave"), "leave")])
        if p.min_players <= len(rec.players) <= p.max_players:
            rows.append([btn(t("lobby.start"), "start")])
        return InlineKeyboardMarkup(inline_keyboard=rows)

    async def _show_lobby(self, rec: GameRecord) -> None:
        """Edit the lobby message to the latest stored record (edits never go backwards)."""
        async with self._lobby_locks[rec.chat_id]:
            latest = await self.store.get(rec.chat_id)
            if latest is not None and latest.uid == rec.uid:
                rec = latest
            await self._edit_lobby(rec)
        if rec.status == RecordStatus.CANCELLED:
            async with self._locks[rec.chat_id]:  # a closed lobby expires no more
                current = await self.store.get(rec.chat_id)
                if current is not None and current.uid == rec.uid:
                    await self._schedule_timer(current)
            self._forget(rec.chat_id)

    async def _edit_lobby(self, rec: GameRecord) -> None:
        if rec.lobby_message_id is None:
            return
        try:
            await self.sender.call(
                EditMessageText(
                    chat_id=rec.chat_id,
                    message_id=rec.lobby_message_id,
                    text=self.lobby_text(rec),
                    reply_markup=self.lobby_markup(rec),
                )
            )
        except TelegramBadRequest as e:
            if "not modified" not in str(e).lower():
                log.warning("lobby edit failed in %s: %s", rec.chat_id, e)
        except TelegramAPIError as e:
            log.warning("lobby edit failed in %s: %s", rec.chat_id, e)

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
        topic = ""  # a refusal's topic, for the replies' once-a-while
        reply_to: int | None = None
        markup: InlineKeyboardMarkup | None = None
        new: GameRecord | None = None
        async with self._locks[chat_id]:
            rec = await self.store.get(chat_id)
            lang = rec.language if rec else (language or self.settings.bot_language)
            t = self.t(lang)
            game_id: str | None = next(iter(self.presenters))
            now = self.clock()
            expired = rec if rec and idle.lobby_expired(rec, self.settings, now) else None
            if rec is not None and rec.status in ACTIVE and expired is None:
                playing = rec.status == RecordStatus.PLAYING
                reply_to = rec.table_message_id if playing else rec.lobby_message_id
                text = t("new.running_game" if playing else "new.running_lobby")
                game_id, topic = None, f"new.running:{reply_to}"  # once per lobby/table
                if idle.abandoned_in(rec, self.settings, self.turn_seconds(rec), now) <= 0:
                    ago = idle.span(now - idle.last_active(rec), t)
                    key = "new.running_game_abandoned" if playing else "new.running_lobby_abandoned"
                    text = t(key, ago=ago)
                    topic += ":abandoned"  # any member may end it: /cancel
            elif arg.strip():
                game_id = self.find_game(arg)
                titles = ", ".join(t(p.title_key) for p in self.presenters.values())
                text = t("new.unknown_game", games=html.escape(titles))
                topic = "new.unknown_game"
            if game_id is not None:
                p = self.presenter(game_id)
                choices = p.choices()
                new = GameRecord(
                    chat_id=chat_id,
                    uid=secrets.token_hex(3),
                    game_id=game_id,
                    creator=user,
                    players=[user],
                    names={user: name},
                    option_choice=choices[0].code if choices else "",
                    options=dict(choices[0].options) if choices else {},
                    language=lang,
                    seq=1,
                    turn_seconds=rec.turn_seconds if rec else None,  # the chat's last choice
                    active_at=now,
                )
                try:
                    new = await self.store.put(new, rec.version if rec else 0)
                    text, markup = self.lobby_text(new), self.lobby_markup(new)
                    await self._schedule_timer(new)  # the lobby's expiry
                    if expired is not None:  # not closed yet by its deadline: now
                        self._spawn(self._edit_lobby(self._expired_copy(expired)))
                except Conflict:
                    new, text, topic = None, t("error.conflict"), ""
        if new is None and topic and asked is not None:
            await self.replies.answer(
                asked, text, t, topic=topic, private_ok=False, reply_to=reply_to
            )
            return
        msg_id = await self._send(chat_id, text, markup=markup, reply_to=reply_to)
        if new is None or msg_id is None:
            return
        uid = new.uid

        def remember(r: GameRecord) -> GameRecord | None:
            if r.uid != uid or r.lobby_message_id is not None:
                return None
            r.lobby_message_id = msg_id
            return r

        saved = await self._update(chat_id, remember)
        if saved is not None and saved.uid == uid and saved.seq != new.seq:
            self._spawn(self._show_lobby(saved))  # pressed before the message was known

    async def lobby_press(
        self, chat_id: int, user: int, name: str, message_id: int | None, data: LobbyCB
    ) -> Answer:
        async with self._locks[chat_id]:
            rec = await self.store.get(chat_id)
            if rec is None:
                return Answer(await self.lost.vanished(chat_id, message_id, data.g, lobby=True))
            t = self.t(rec.language)
            if rec.uid != data.g:
                return Answer(t("press.old_button"))
            if rec.status != RecordStatus.LOBBY:
                return Answer(t("press.lobby_closed"))
            if idle.lobby_expired(rec, self.settings, self.clock()):  # its deadline is late
                await self._expire_lobby(rec)
                return Answer(t("press.lobby_closed"))
            rec.active_at = self.clock()  # stored with an accepted press only
            p = self.presenter(rec.game_id)
            answer = Answer()
            if data.a == "join":
                if user in rec.players:
                    return Answer(t("lobby.already_in"))
                if len(rec.players) >= p.max_players:
                    return Answer(t("lobby.full", max=p.max_players), alert=True)
                rec.players.append(user)
                rec.names[user] = name
                answer = Answer(t("lobby.joined"))
            elif data.a == "leave":
                if user not in rec.players:
                    return Answer(t("lobby.not_in"))
                rec.players.remove(user)
                answer = Answer(t("lobby.left"))
                if not rec.players:
                    rec.status = RecordStatus.CANCELLED
                elif user == rec.creator:
                    rec.creator = rec.players[0]
            elif data.a in ("game", "opt", "tmr"):
                if user != rec.creator:
                    return Answer(t("lobby.only_creator"), alert=True)
                if data.a == "game":
                    if data.x not in self.presenters:
                        return Answer(t("press.old_button"))
                    rec.game_id = data.x
                    p = self.presenter(data.x)
                    choices = p.choices()
                    rec.option_choice = choices[0].code if choices else ""
                    rec.options = dict(choices[0].options) if choices else {}
                elif data.a == "tmr":
                    seconds = next((x for x in self.timer_choices() if f"{x:g}" == data.x), None)
                    if seconds is None:
                        return Answer(t("press.old_button"))
                    rec.turn_seconds = seconds
                else:
                    choice = next((c for c in p.choices() if c.code == data.x), None)
                    if choice is None:
                        return Answer(t("press.old_button"))
                    rec.option_choice = choice.code
                    rec.options = dict(choice.options)
                answer = Answer(t("lobby.option_set"))
            elif data.a == "start":
                if user != rec.creator:
                    return Answer(
                        t("lobby.only_creator_start", name=rec.name(rec.creator)), alert=True
                    )
                if not p.min_players <= len(rec.players) <= p.max_players:
                    return Answer(
                        t("lobby.need_more", n=p.min_players - len(rec.players)), alert=True
                    )
                return await self._start(rec, p, t)
            else:
                return Answer(t("press.old_button"))
            rec.seq += 1
            try:
                rec = await self._save(rec)
            except Conflict:
                return Answer(t("error.conflict"))
            self._spawn(self._show_lobby(rec))
            return answer

    async def _start(self, rec: GameRecord, p: Presenter, t: Translator) -> Answer:
        seed = self._rng.randrange(1, 2**31)
        try:
            state = p.new_state(list(rec.players), seed, dict(rec.options))
        except (IllegalAction, ValueError) as e:
            log.warning("cannot start %s: %s", rec.game_id, e)
            return Answer(t("lobby.cannot_start"), alert=True)
        now = self.clock()
        adv = p.advance(state, {}, now)
        rec.seed = seed
        rec.status = RecordStatus.PLAYING
        rec.seq += 1
        rec.log = []
        self._absorb(rec, p, adv.state, adv.ui, adv.events, adv.deadline, t)
        try:
            rec = await self._save(rec)
        except Conflict:
            return Answer(t("error.conflict"))
        self._spawn(self._show_lobby(rec))
        await self._changed(rec)
        return Answer(t("lobby.starting"))

    # ------------------------------------------------------------------ play

    def _absorb(
        self,
        rec: GameRecord,
        p: Presenter,
        state: BaseModel,
        ui: dict[str, Any],
        events: list[Any],
        deadline: float | None,
        t: Translator,
    ) -> None:
        names = rec.display_names()
        rec.state = state.model_dump_json()
        rec.ui = ui
        tid = p.turn_id(state)
        if tid != rec.turn_id:
            rec.turn_id = tid
            seconds = self.turn_seconds(rec)
            rec.turn_deadline = self.clock() + seconds if tid is not None and seconds > 0 else None
        deadlines = [d for d in (deadline, rec.turn_deadline) if d is not None]
        rec.deadline = min(deadlines) if deadlines else None
        lines = p.narrate(events, state, names, t)
        if lines:
            rec.log = (rec.log + lines)[-LOG_LINES:]
        rec.outbox.extend(p.summaries(events, state, names, t))
        if p.game.is_over(state):
            rec.status = RecordStatus.OVER
            rec.deadline = None

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
        async with self._locks[chat_id]:
            rec = await self.store.get(chat_id)
            if rec is None:
                return Answer(await self.lost.vanished(chat_id, message_id, data.g, lobby=False))
            t = self.t(rec.language)
            if rec.uid != data.g:
                return Answer(t("press.old_button"))
            if rec.status != RecordStatus.PLAYING:
                return Answer(t("press.game_over"))
            if message_id is not None and rec.table_message_id not in (None, message_id):
                return Answer(t("press.old_button"))
            if user not in rec.players:
                return Answer(t("press.not_in_game"), alert=True)
            self._seen(rec)  # a player's press, even one that changes nothing
            p = self.presenter(rec.game_id)
            assert rec.state is not None
            state = p.load(rec.state)
            if data.c == "hand":
                return Answer(p.hand_popup(state, user, t), alert=True)
            if p.versioned(data.c) and data.s != rec.seq:
                return Answer(t(old_press_key(rec, data.s)))  # updating, or out of date
            actor = p.actor(state)
            if actor is not None and actor != user:
                return Answer(t("press.not_your_turn", name=rec.name(actor)))
            now = self.clock()
            try:
                out = p.press(state, user, data.c, dict(rec.ui), t, now)
            except Refusal as r:
                return Answer(r.text, alert=True)
            except IllegalAction as e:
                return Answer(p.error_text(e.code, t), alert=True)
            except Exception:
                log.exception("press %r in chat %s failed", data.c, chat_id)
                return Answer(t("error.internal"), alert=True)
            if not out.changed:
                return Answer(out.toast, alert=out.alert)
            adv = p.advance(out.state, out.ui, now)
            events = [*out.events, *adv.events]
            before_actor = actor
            old_json = rec.state
            self._absorb(rec, p, adv.state, adv.ui, events, adv.deadline, t)
            rec.timeouts.pop(user, None)  # he is here
            rec.active_at = now
            if out.visible or (rec.state != old_json and p.seq_changes(state, adv.state)):
                rec.seq += 1
            try:
                rec = await self._save(rec)
            except Conflict:
                return Answer(t("error.conflict"), alert=True)
            if hold_picture:
                self._holds.setdefault(chat_id, asyncio.Event())
            await self._changed(rec, before_actor, adv.state)
            notes = p.private_notes(events, adv.state, user, t)
            text = "\n".join(x for x in [out.toast, *notes] if x) or None
            if text and len(text) > 200:
                text = shorten(text, len(text), 200)  # between clusters
            return Answer(text, alert=out.alert)

    def _seen(self, rec: GameRecord) -> None:
        """A player pressed something: the game is not abandoned. A press that changes
        the game stores the time with it; for the others (his tiles, a refused move) it
        is written in the background, at most about once a minute."""
        now = self.clock()
        allowed = idle.silence_allowed(rec, self.settings, self.turn_seconds(rec))
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
                await self._update(rec.chat_id, touch)

        self._spawn(write())

    async def tick(self, chat_id: int) -> None:
        """Run what is due: the game's automatic steps (the first-move window) and the turn
        timer (an absent player is auto-passed, and removed after repeated timeouts)."""
        async with self._locks[chat_id]:
            rec = await self.store.get(chat_id)
            if rec is not None and rec.status == RecordStatus.LOBBY:
                await self._expire_lobby(rec)
                return
            if rec is None or rec.status != RecordStatus.PLAYING or rec.state is None:
                await self.store.set_deadline(chat_id, None)
                return
            p = self.presenter(rec.game_id)
            t = self.t(rec.language)
            now = self.clock()
            state = p.load(rec.state)
            before_actor = p.actor(state)
            events: list[Any] = []
            lines: list[str] = []
            timed_out = (
                rec.turn_deadline is not None
                and now >= rec.turn_deadline
                and p.turn_id(state) == rec.turn_id
                and before_actor is not None
            )
            if timed_out and before_actor is not None:
                user = before_actor
                name = html.escape(rec.name(user))
                count = rec.timeouts.get(user, 0) + 1
                rec.timeouts[user] = count
                try:
                    out = p.timeout_move(state, user)
                    state = out.state
                    events.extend(out.events)
                    lines.append(t("timer.auto", name=name))
                except Exception:
                    log.exception("auto-move in chat %s failed", chat_id)
                    count = self.settings.timeouts_before_removal
                if count >= self.settings.timeouts_before_removal and not p.game.is_over(state):
                    state, ev = p.game.remove(state, user)
                    events.extend(ev)
                    rec.outbox.append(t("timer.removed", name=name, n=count))
                rec.turn_id = None  # a new timer for whoever moves now
            adv = p.advance(state, dict(rec.ui), now)
            events.extend(adv.events)
            old_json = rec.state
            old_deadline = rec.deadline
            self._absorb(rec, p, adv.state, adv.ui, events, adv.deadline, t)
            rec.log = (rec.log + lines)[-LOG_LINES:]  # the table says the bot acted (last)
            changed = rec.state != old_json
            if changed and p.seq_changes(p.load(old_json or ""), adv.state):
                rec.seq += 1
            elif not changed and rec.deadline == old_deadline and not lines:
                await self._schedule_timer(rec)  # not due yet (or stale): keep it
                return
            try:
                rec = await self._save(rec)
            except Conflict:
                fresh = await self.store.get(chat_id)  # someone else moved: his deadline
                if fresh is not None:
                    await self._schedule_timer(fresh)
                return
            await self._changed(rec, before_actor)

    @staticmethod
    def _expired_copy(rec: GameRecord) -> GameRecord:
        update = {"status": RecordStatus.CANCELLED, "end_reason": idle.EXPIRED}
        return rec.model_copy(update=update)

    async def _expire_lobby(self, rec: GameRecord) -> None:
        """The lobby's deadline came (under the chat's lock): it closes if nobody pressed
        a button for LOBBY_EXPIRE_MINUTES (its message says so, without buttons), else
        the deadline moves to the new expiry."""
        if not idle.lobby_expired(rec, self.settings, self.clock()):
            await self._schedule_timer(rec)
            return
        rec.status = RecordStatus.CANCELLED
        rec.end_reason = idle.EXPIRED
        rec.seq += 1
        try:
            saved = await self._save(rec)
        except Conflict:  # pressed meanwhile on another instance: its expiry then
            fresh = await self.store.get(rec.chat_id)
            if fresh is not None:
                await self._schedule_timer(fresh)
            return
        log.info("chat %s: lobby %s expired", saved.chat_id, saved.uid)
        await self._schedule_timer(saved)  # no deadline any more
        self._spawn(self._show_lobby(saved))

    async def _changed(
        self, rec: GameRecord, before_actor: int | None = None, state: BaseModel | None = None
    ) -> None:
        self._kick(rec.chat_id)
        await self._schedule_timer(rec)
        if rec.status == RecordStatus.PLAYING and rec.state is not None:
            p = self.presenter(rec.game_id)
            if state is None:
                state = p.load(rec.state)
            actor = p.actor(state)
            if actor is not None and actor != before_actor:
                self._spawn(self._private_hand(rec, p, state, actor))

    async def _private_hand(
        self, rec: GameRecord, p: Presenter, state: BaseModel, user: int
    ) -> None:
        try:
            if not await self.store.has_started(user):
                return
            text = p.hand_message(state, user, self.t(rec.language))
            if text:
                await self.sender.send_text(user, text)
        except Exception as e:  # a private message is a courtesy; never fail the game
            log.info("private hand to %s failed: %s", user, e)

    async def _schedule_timer(self, rec: GameRecord) -> None:
        """Store the game's next deadline in the shared set (every instance polls it; the
        one that claims a due deadline runs `tick`, so a timer fires once and survives a
        restart). This process also wakes itself up exactly at deadlines it set. An open
        lobby's deadline is its expiry (bot/idle.py)."""
        if rec.status == RecordStatus.PLAYING:
            when = rec.deadline
        else:
            when = idle.lobby_expires_at(rec, self.settings)
        try:
            await self.store.set_deadline(rec.chat_id, when)
        except StoreUnavailable:
            self._resync = True  # re-read every game's deadline once the store is back
            return
        if when is not None and (self._next_deadline is None or when < self._next_deadline):
            self._next_deadline = when
            self._wake.set()

    _resync = False

    def start_timers(self) -> None:
        if self._poller is None or self._poller.done():
            self._poller = asyncio.ensure_future(self._poll_deadlines())

    async def _poll_deadlines(self) -> None:
        interval = self.settings.timer_poll_seconds
        failing = False
        while True:
            now = self.clock()
            try:
                if self._resync:
                    self._resync = False
                    await self._resync_deadlines()
                due = await self.store.claim_due(now, self.settings.timer_lease_seconds)
                if failing:
                    log.warning("storage is back: timers run again")
                    failing = False
                    self._resync = True
            except StoreUnavailable as e:
                if not failing:
                    log.warning("timers paused, storage unavailable: %s", e)
                failing = True
                due = []
            except Exception:
                log.exception("deadline poll failed")
                due = []
            for chat_id in due:
                self._spawn(self._run_tick(chat_id))
            if self._next_deadline is not None and self._next_deadline <= now:
                self._next_deadline = None
            wait = interval
            if self._next_deadline is not None:
                wait = min(wait, max(0.0, self._next_deadline - self.clock()) + 0.01)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def _run_tick(self, chat_id: int) -> None:
        try:
            await self.tick(chat_id)
        except StoreUnavailable as e:
            log.warning("timer of chat %s postponed, storage unavailable: %s", chat_id, e)
            self._resync = True
        except Exception:
            log.exception("timer of chat %s failed", chat_id)

    async def _resync_deadlines(self) -> None:
        for chat_id in await self.store.chats():
            try:  # one chat's trouble never stops the others' timers
                rec = await self.store.get(chat_id)
                if rec is not None and rec.game_id in self.presenters:
                    await self._schedule_timer(rec)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("chat %s: its timer could not be re-armed", chat_id)

    # ------------------------------------------------------------------ table worker

    def answered(self, chat_id: int) -> None:
        """The press's callback is answered: the table worker may draw the picture."""
        hold = self._holds.pop(chat_id, None)
        if hold is not None:
            hold.set()

    async def _after_answer(self, chat_id: int) -> None:
        """Wait (at most ANSWER_FIRST seconds) until a held press has been answered: the
        picture must not compete with the answer for the event loop (and the GIL)."""
        hold = self._holds.get(chat_id)
        if hold is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hold.wait(), ANSWER_FIRST)

    def _kick(self, chat_id: int) -> None:
        self._dirty.add(chat_id)
        task = self._workers.get(chat_id)
        if task is None or task.done():
            self._workers[chat_id] = asyncio.ensure_future(self._work(chat_id))

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
            while chat_id in self._dirty:
                self._dirty.discard(chat_id)
                try:
                    lease = f"table:{chat_id}"
                    token = await self.store.lock(lease, TABLE_LEASE)
                    if token is None:  # another instance is bringing this chat up to date
                        self._dirty.add(chat_id)
                        await asyncio.sleep(0.1)
                        continue
                    try:
                        rec = await self.store.get(chat_id)  # one read for the round
                        ended = rec is None or rec.status not in ACTIVE
                        # the table first: a summary (a new message, which may wait for
                        # the flood window) never holds up the table's edit
                        await self._refresh_table(chat_id, rec)
                        if rec is not None and rec.outbox:
                            await self._flush_outbox(chat_id, rec)
                    finally:
                        with contextlib.suppress(StoreUnavailable):
                            await self.store.unlock(lease, token)
                    failures = outage = 0
                except TelegramRetryAfter as e:
                    log.info("chat %s: flood control, next edit in %ss", chat_id, e.retry_after)
                    self._dirty.add(chat_id)
                    await asyncio.sleep(min(float(e.retry_after), 60.0))
                except StoreUnavailable as e:
                    if not outage:
                        log.warning("table of chat %s waits for the storage: %s", chat_id, e)
                    outage += 1
                    self._dirty.add(chat_id)
                    await asyncio.sleep(min(0.5 * outage, 5.0))
                except TelegramForbiddenError as e:
                    log.info("chat %s: the bot can't write there (%s); game closed", chat_id, e)
                    await self.close_chat(chat_id)
                except Exception:
                    log.exception("table update of chat %s failed", chat_id)
                    failures += 1
                    if failures <= 3:  # a transient failure: try again a little later
                        self._dirty.add(chat_id)
                        await asyncio.sleep(0.5 * failures)
        finally:
            if self._workers.get(chat_id) is asyncio.current_task():
                del self._workers[chat_id]
            if ended and chat_id not in self._dirty:
                self._forget(chat_id)

    def _forget(self, chat_id: int) -> None:
        """The chat's game is over: nothing of it stays in memory. Its locks go by
        themselves once unused (bot/chat_locks.py); a press hold nobody released is let go."""
        hold = self._holds.pop(chat_id, None)
        if hold is not None:
            hold.set()

    async def _flush_outbox(self, chat_id: int, rec: GameRecord | None) -> None:
        if rec is None or not rec.outbox:
            return
        sent = 0
        for text in list(rec.outbox):
            if await self._send(chat_id, text) is None:
                break
            sent += 1

        def drop(r: GameRecord) -> GameRecord | None:
            if not r.outbox:
                return None
            r.outbox = r.outbox[sent:]
            return r

        if sent:
            await self._update(chat_id, drop)

    def table_view(self, rec: GameRecord, p: Presenter, state: BaseModel) -> TableView:
        t = self.t(rec.language)
        over = rec.status != RecordStatus.PLAYING
        extra = "\n\n" + t("cancel.done_caption") if rec.status == RecordStatus.CANCELLED else ""
        if rec.status == RecordStatus.CANCELLED and rec.end_reason == idle.ABANDONED:
            extra = "\n\n" + t("cancel.abandoned_caption")
        names = rec.display_names()
        caption = fit_caption(  # a long caption loses its narration first, then name length
            lambda shown, log_lines: p.caption(state, shown, rec.ui, log_lines, t) + extra,
            lambda width: names if width is None else rec.display_names(width),
            rec.log,
            CAPTION_LIMIT,
            keep=(LOG_LINES, 1, 0),
        )
        buttons = [] if over else p.keyboard(state, rec.ui, names, t)
        return TableView(caption=caption, buttons=buttons, picture_key=p.picture_key(state))

    async def _refresh_table(self, chat_id: int, rec: GameRecord | None) -> None:
        if rec is None or rec.state is None or rec.status == RecordStatus.LOBBY:
            return
        p = self.presenter(rec.game_id)
        state = p.load(rec.state)
        view = self.table_view(rec, p, state)
        tkey = text_key(view, rec.uid, rec.seq)
        names = rec.display_names()
        msg_id = rec.table_message_id
        if msg_id is not None and rec.shown_picture == view.picture_key and rec.shown_text == tkey:
            return
        picture_changed = rec.shown_picture != view.picture_key
        if msg_id is None or picture_changed:
            await self._after_answer(chat_id)
        picture = (
            await self.pictures.draw(p.picture, state, names)
            if (msg_id is None or picture_changed)
            else None
        )
        if msg_id is not None:
            ok = await edit_table(self.sender, chat_id, msg_id, view, picture, rec.uid, rec.seq)
            if not ok:
                msg_id = None
                if picture is None:
                    picture = await self.pictures.draw(p.picture, state, names)
        if msg_id is None:
            if rec.status != RecordStatus.PLAYING:
                return
            assert picture is not None
            msg_id = await send_table(self.sender, chat_id, view, picture, rec.uid, rec.seq)

        uid, seq = rec.uid, rec.seq

        def mark(r: GameRecord) -> GameRecord | None:
            if r.uid != uid:
                return None
            r.table_message_id = msg_id
            r.shown_picture = view.picture_key
            r.shown_text = tkey
            r.shown_seq = seq
            return r

        await self._update(chat_id, mark, known=rec)

    async def resume(self) -> None:
        """After a restart: finish pending messages, re-sync tables, re-arm timers."""
        for chat_id in await self.store.chats():
            try:  # an unreadable record is moved aside by `get`; nothing else stops the start
                rec = await self.store.get(chat_id)
                if rec is None or rec.game_id not in self.presenters:
                    continue
                if rec.status == RecordStatus.PLAYING or rec.outbox:
                    self._kick(chat_id)
                await self._schedule_timer(rec)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("chat %s: its game could not be resumed", chat_id)

    # ------------------------------------------------------------------ migration

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> None:
        """A basic group became a supergroup: the game moves to the new chat id and its
        table is sent there anew (messages of the old chat can't be edited any more)."""
        async with self._locks[old_chat_id], self._locks[new_chat_id]:
            rec = await self.store.get(old_chat_id)
            if rec is None or rec.status not in ACTIVE:
                return
            if await self.store.get(new_chat_id) is not None:
                return
            moved = rec.model_copy(
                update={
                    "chat_id": new_chat_id,
                    "version": 0,
                    "seq": rec.seq + 1,
                    "table_message_id": None,
                    "lobby_message_id": None,
                    "shown_picture": None,
                    "shown_text": None,
                    "shown_seq": None,
                }
            )
            try:
                moved = await self.store.put(moved, 0)
                await self.store.delete(old_chat_id, rec.version)
            except Conflict:
                return
            log.info("game %s moved from chat %s to %s", rec.uid, old_chat_id, new_chat_id)
        if moved.status == RecordStatus.LOBBY:
            msg_id = await self._send(
                new_chat_id, self.lobby_text(moved), markup=self.lobby_markup(moved)
            )

            def remember(r: GameRecord) -> GameRecord | None:
                r.lobby_message_id = msg_id
                return r

            if msg_id is not None:
                await self._update(new_chat_id, remember)
            await self._schedule_timer(moved)  # the lobby's expiry, in the new chat
        else:
            self._kick(new_chat_id)
            await self._schedule_timer(moved)
        await self.store.set_deadline(old_chat_id, None)

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

        rec = await self._update(chat_id, close)
        self._dirty.discard(chat_id)
        await self.store.set_deadline(chat_id, None)
        if rec is not None:
            log.info("chat %s: the bot was removed; game %s closed", chat_id, rec.uid)

    # ------------------------------------------------------------------ leave

    async def leave(self, chat_id: int, user: int, asked: Asked | None = None) -> None:
        """`/leave`: a player leaves the lobby or the running game (the rules' leaving).
        A refusal answers `asked` (the command) as a reply that spares the group."""
        async with self._locks[chat_id]:
            rec = await self.store.get(chat_id)
            t = self.t(rec.language if rec else None)
            absent = rec is None or rec.status not in ACTIVE or user not in rec.players
        if absent:
            await self._refuse(chat_id, t("leave.not_in"), t, asked, "leave.not_in")
            return
        async with self._locks[chat_id]:
            rec = await self.store.get(chat_id)
            if rec is None or rec.status not in ACTIVE or user not in rec.players:
                return  # gone meanwhile
            name = html.escape(rec.name(user))
            if rec.status == RecordStatus.LOBBY:
                rec.players.remove(user)
                if not rec.players:
                    rec.status = RecordStatus.CANCELLED
                elif user == rec.creator:
                    rec.creator = rec.players[0]
                rec.seq += 1
                with contextlib.suppress(Conflict):
                    rec = await self._save(rec)
                    self._spawn(self._show_lobby(rec))
                return
            p = self.presenter(rec.game_id)
            assert rec.state is not None
            state = p.load(rec.state)
            before_actor = p.actor(state)
            state, events = p.game.remove(state, user)
            adv = p.advance(state, dict(rec.ui), self.clock())
            self._absorb(rec, p, adv.state, adv.ui, [*events, *adv.events], adv.deadline, t)
            rec.seq += 1
            try:
                rec = await self._save(rec)
            except Conflict:
                rec = None
            if rec is not None:
                await self._changed(rec, before_actor)
        # outside the lock: a full flood window may make a send wait
        await self._send(chat_id, t("leave.done" if rec else "error.conflict", name=name))

    # ------------------------------------------------------------------ cancel

    async def request_cancel(
        self, chat_id: int, user: int, is_admin: bool, asked: Asked | None = None
    ) -> None:
        """`/cancel`: the confirmation buttons; a refusal answers `asked` sparingly."""
        rec = await self.store.get(chat_id)
        t = self.t(rec.language if rec else None)
        if rec is None or rec.status not in ACTIVE:
            await self._refuse(chat_id, t("cancel.nothing"), t, asked, "cancel.nothing")
            return
        now = self.clock()
        privileged = user == rec.creator or is_admin
        left = idle.abandoned_in(rec, self.settings, self.turn_seconds(rec), now)
        if not privileged and left > 0:  # says when any member may end it
            text = self._until_abandoned(rec, now, t)
            await self._refuse(chat_id, text, t, asked, "cancel.not_allowed")
            return
        kb = InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    InlineKeyboardButton(
                        text=t("cancel.yes"), callback_data=CancelCB(g=rec.uid, a="yes").pack()
                    ),
                    InlineKeyboardButton(
                        text=t("cancel.no"), callback_data=CancelCB(g=rec.uid, a="no").pack()
                    ),
                ]
            ]
        )
        playing = rec.status == RecordStatus.PLAYING
        text = t("cancel.confirm_game" if playing else "cancel.confirm_lobby")
        if not privileged:  # an abandoned game: any member may end it
            key = "cancel.confirm_abandoned" if playing else "cancel.confirm_abandoned_lobby"
            text = t(key, ago=idle.span(now - idle.last_active(rec), t))
        await self._send(chat_id, text, markup=kb)

    def _until_abandoned(self, rec: GameRecord, now: float, t: Translator) -> str:
        """Why a member who is neither the creator nor an admin can't end it yet, and
        when he can (an open lobby: when it closes by itself)."""
        expires = idle.lobby_expires_at(rec, self.settings)
        if expires is not None:
            return t("cancel.lobby_expires", left=idle.span(expires - now, t, up=True))
        left = idle.abandoned_in(rec, self.settings, self.turn_seconds(rec), now)
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
        async with self._locks[chat_id]:
            rec = await self.store.get(chat_id)
            if rec is None:
                return Answer(await self.lost.vanished(chat_id, message_id, data.g, lobby=False))
            t = self.t(rec.language)
            if rec.uid != data.g or rec.status not in ACTIVE:
                self._spawn(self._drop_markup(chat_id, message_id))
                return Answer(t("press.old_button"))
            now = self.clock()
            abandoned = False
            if user != rec.creator and not await is_admin():
                left = idle.abandoned_in(rec, self.settings, self.turn_seconds(rec), now)
                if left > 0:  # a player pressed since the question, or never abandoned
                    return Answer(self._until_abandoned(rec, now, t), alert=True)
                abandoned = True  # any member may end an abandoned game
            if data.a != "yes":
                self._spawn(self._drop_markup(chat_id, message_id, t("cancel.kept")))
                return Answer(t("cancel.kept"))
            was_lobby = rec.status == RecordStatus.LOBBY
            ago = idle.span(now - idle.last_active(rec), t)
            if abandoned:
                rec.end_reason = idle.ABANDONED
            rec.status = RecordStatus.CANCELLED
            rec.deadline = None
            rec.seq += 1
            try:
                rec = await self._save(rec)
            except Conflict:
                return Answer(t("error.conflict"), alert=True)
            await self._schedule_timer(rec)
        who = rec.name(user) if user in rec.players or not name else name
        done = t("cancel.done", name=html.escape(who))
        if abandoned and not was_lobby:  # the chat is told who ended it, and why
            done = t("cancel.done_abandoned", name=html.escape(who), ago=ago)
        self._spawn(self._drop_markup(chat_id, message_id, done))
        if was_lobby:
            self._spawn(self._show_lobby(rec))
        else:
            self._kick(chat_id)
        return Answer(t("cancel.done_toast"))

    async def _drop_markup(
        self, chat_id: int, message_id: int | None, text: str | None = None
    ) -> None:
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

    # ------------------------------------------------------------------ sending

    async def _send(
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

    async def _refuse(
        self, chat_id: int, text: str, t: Translator, asked: Asked | None, topic: str
    ) -> None:
        """A command's refusal: as a reply to `asked` that costs the group nothing where
        Telegram allows it (bot/replies.py); without `asked`, a message in the chat."""
        if asked is None:
            await self._send(chat_id, text)
        else:
            await self.replies.answer(asked, text, t, topic=topic)
