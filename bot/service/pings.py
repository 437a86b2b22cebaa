"""Turn pings: the player whose turn (or a decision only he can make) begins is told.

One short message in the group mentions him with a real mention (a `tg://user?id=`
link: Telegram notifies him even without a username), «🔔 Аня, ваш ход»; it is deleted
when his turn ends, so the chat does not fill up. `Pings.sync` runs after every round of
the table worker (bot/service/table_worker.py, under the chat's table lease), so a burst
of moves gives at most one ping, for whoever moves in the end:

- the ping goes to the presenter's `actor()`; a window open to all (None), a computer
  seat (`bot.service.computers.is_computer_seat`: a computer, or a human's seat handed
  to one) and a finished game ping nobody (the last ping is
  deleted);
- while the same player stays the one to act (his turn goes on, a roll again) his ping
  stays; one whose turn comes back within `ping_quiet_seconds` of its end is not
  pinged again (he has just played);
- the ping's chat and message id live in the record (`GameRecord.ping`), so after a
  restart it is still deleted when the turn ends;
- it costs the group's flood budget least of all: sent as chatter (bot/sender.py), it is
  dropped when the window is busy or the chat on hold, never waits in front of the table
  or a summary, and does not count as pushing the table up (bot/bottom.py `passing`);
  the bot-wide budget sends it after every game call (bot/budget.py, `Priority.LOW`);
- in a slow game (a turn timer of an hour or more: bot/turn_timers.py) the ping says
  when the turn's time runs out, «время выйдет через 24 часа»; before the deadline
  (bot/turn_reminder.py) it is sent anew as the reminder, «⏳ … ваш ход ждёт»;
- a player may choose a private ping (in his private chat with the bot) or none
  (`/pings` there: `user_mode`); a chat may turn pings off (`/pings off`: `chat_on`).

    >>> mention(42, "Аня <3>")
    '<a href="tg://user?id=42">Аня &lt;3&gt;</a>'
    >>> supergroup_link(-1001234567890, 77)
    'https://t.me/c/1234567890/77'
    >>> supergroup_link(-4321, 77) is None
    True
"""

from __future__ import annotations

import html
import logging

from aiogram.exceptions import TelegramAPIError
from aiogram.methods import DeleteMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import idle, turn_reminder
from bot.bottom import passing
from bot.budget import Priority, urgency
from bot.service.computers import is_computer_seat
from bot.service.context import Context
from bot.storage import GameRecord, RecordStatus, StoreUnavailable
from bot.turn_timers import is_slow
from locales import Translator

log = logging.getLogger(__name__)

GROUP, PRIVATE, OFF = "group", "private", "off"  # a player's choice (`user_mode`)
MODES = (GROUP, PRIVATE, OFF)


def mention(user: int, name: str) -> str:
    """A mention of `user` that notifies him (HTML; the name escaped)."""
    return f'<a href="tg://user?id={user}">{html.escape(name)}</a>'


def supergroup_link(chat_id: int, message_id: int | None) -> str | None:
    """A t.me link to a message of a supergroup (members only), else None."""
    if message_id is None or chat_id > -1_000_000_000_000:
        return None
    return f"https://t.me/c/{-chat_id - 1_000_000_000_000}/{message_id}"


def chat_key(chat_id: int) -> str:
    return f"pings:chat:{chat_id}"


def user_key(user: int) -> str:
    return f"pings:user:{user}"


class Pings:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------ preferences

    async def chat_on(self, chat_id: int) -> bool:
        """Pings are on in the chat unless someone turned them off there."""
        try:
            return await self.ctx.store.get_pref(chat_key(chat_id)) != OFF
        except StoreUnavailable:
            return True

    async def set_chat(self, chat_id: int, on: bool) -> None:
        await self.ctx.store.set_pref(chat_key(chat_id), None if on else OFF)

    async def user_mode(self, user: int) -> str:
        """The player's choice: GROUP (the default), PRIVATE or OFF."""
        try:
            mode = await self.ctx.store.get_pref(user_key(user))
        except StoreUnavailable:
            return GROUP
        return mode if mode in MODES else GROUP

    async def set_user(self, user: int, mode: str) -> None:
        await self.ctx.store.set_pref(user_key(user), None if mode == GROUP else mode)

    # ------------------------------------------------------------ the ping

    def due(self, rec: GameRecord) -> int | None:
        """Whom the game waits for now, if he is a person to ping."""
        if rec.status != RecordStatus.PLAYING or rec.state is None:
            return None
        p = self.ctx.presenter(rec.game_id)
        actor = p.actor(p.load(rec.state))
        if actor is None or is_computer_seat(rec, actor) or actor not in rec.players:
            return None
        return actor

    async def sync(self, chat_id: int, rec: GameRecord | None) -> None:
        """Bring the chat's ping up to its game (see the module's text). Never fails the
        table worker: a ping is a courtesy."""
        if rec is None:
            return
        try:
            await self._sync(chat_id, rec)
        except StoreUnavailable:
            raise
        except Exception:
            log.exception("turn ping of chat %s failed", chat_id)

    async def _sync(self, chat_id: int, rec: GameRecord) -> None:
        want = self.due(rec)
        old = dict(rec.ping)
        live = old.get("user")
        remind = want is not None and turn_reminder.reminded(rec) and rec.turn_deadline
        reminder = int(rec.turn_deadline or 0) if remind else 0  # which deadline it tells
        now = int(self.ctx.clock() * 1000)
        players = {f"ended:{u}" for u in rec.players}
        new: dict[str, int] = {k: v for k, v in old.items() if k in players}
        if live is not None and live == want:
            if not reminder or old.get("reminder") == reminder:
                return  # his turn goes on: his ping stays
            await self._delete(old)  # the reminder comes in its place, notifying him again
            assert want is not None
            where, message = await self._send(chat_id, rec, want, reminder=True)
            new.update(user=want, chat=where, message=message, reminder=reminder)
            live = want = None  # (nothing more to do below)
        if live is not None:
            await self._delete(old)
            new[f"ended:{live}"] = now  # when his turn ended
        if want is not None:
            quiet = self.ctx.settings.ping_quiet_seconds * 1000
            if now - new.get(f"ended:{want}", -quiet) < quiet:
                new.update(user=want, chat=0, message=0)  # he has just played
            else:
                where, message = await self._send(chat_id, rec, want, reminder=bool(reminder))
                new.update(user=want, chat=where, message=message)
                if reminder:  # (its reminder is due already: this ping is it)
                    new["reminder"] = reminder
        if new == old:
            return
        uid = rec.uid

        def store(r: GameRecord) -> GameRecord | None:
            if r.uid != uid or r.ping == new:
                return None
            r.ping = new
            return r

        await self.ctx.update(chat_id, store)

    def _left(self, rec: GameRecord, t: Translator) -> str | None:
        """A slow turn's time left in words («23 часа»), else None (a fast turn is
        played at one sitting: the ping needs no clock)."""
        if rec.turn_deadline is None or not is_slow(self.ctx.turn_seconds(rec)):
            return None
        return idle.span(rec.turn_deadline - self.ctx.clock(), t, up=True)

    async def _send(
        self, chat_id: int, rec: GameRecord, user: int, *, reminder: bool = False
    ) -> tuple[int, int]:
        """Ping `user` (or remind him, before a slow turn's deadline): (chat, message id),
        or (0, 0) when no ping was sent (dropped under pressure, or nobody is to be
        pinged)."""
        if not await self.chat_on(chat_id):
            return 0, 0
        mode = await self.user_mode(user)
        if mode == OFF:
            return 0, 0
        t = self.ctx.t(rec.language)
        left = self._left(rec, t)
        kind = "remind" if reminder and left is not None else "slow" if left is not None else ""
        if mode == PRIVATE and await self.ctx.store.has_started(user):
            game = t(self.ctx.presenter(rec.game_id).title_key)
            url = supergroup_link(chat_id, rec.table_message_id)
            markup = None
            if url is not None:
                button = InlineKeyboardButton(text=t("ping.to_table"), url=url)
                markup = InlineKeyboardMarkup(inline_keyboard=[[button]])
            try:
                with urgency(Priority.LOW):  # after every game call (bot/budget.py)
                    key = f"ping.{kind}_private" if kind else "ping.private"
                    text = t(key, game=html.escape(game), left=left)
                    msg = await self.ctx.sender.send_text(user, text, markup=markup)
            except TelegramAPIError as e:  # he blocked the bot: the group ping instead
                log.info("private ping to %s failed (%s): in the group", user, e)
            else:
                if msg is not None:
                    return user, int(msg.message_id)
        key = f"ping.{kind}_group" if kind else "ping.group"
        text = t(key, mention=mention(user, rec.name(user)), left=left)
        token = passing.set(True)  # deleted soon: it pushes the table up by nothing
        try:
            with urgency(Priority.LOW):
                msg = await self.ctx.sender.send_text(chat_id, text, chatter=True)
        except TelegramAPIError as e:
            log.info("ping in chat %s failed: %s", chat_id, e)
            msg = None
        finally:
            passing.reset(token)
        if msg is None:
            return 0, 0  # dropped: the window is busy (a game message goes first)
        return chat_id, int(msg.message_id)

    async def _delete(self, ping: dict[str, int]) -> None:
        chat, message = ping.get("chat", 0), ping.get("message", 0)
        if not chat or not message:
            return
        try:
            await self.ctx.sender.call(DeleteMessage(chat_id=chat, message_id=message))
        except TelegramAPIError as e:  # deleted by hand already, or too old
            log.info("ping %s in chat %s not deleted: %s", message, chat, e)
