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
- a ping is a message and costs the group's budget (and its deletion too), so it pays
  for itself: it is sent only once the turn has waited `ping_after_seconds` (8) for
  its player without a press from him — a player at the table presses first, and in
  lively play nobody is pinged; a slow game's turn, or a player whose turn timed out
  before (he was away), is pinged at once (`delay`); the round that sends it is woken
  by `wake` when it is due;
- while the same player stays the one to act (his turn goes on, a roll again) his ping
  stays;
- the ping's chat and message id live in the record (`GameRecord.ping`), so after a
  restart it is still deleted when the turn ends;
- it costs the group's flood budget least of all: sent as chatter (bot/sender.py), it is
  dropped when the window is busy or the chat on hold (and tried again `retry`
  seconds later), never waits in front of the table or a summary, and does not count
  as pushing the table up (bot/bottom.py `passing`); its deletion takes the table's
  share and, when that is spent, waits in the record (`stale:<id>`) for a later round;
  the bot-wide budget sends it after every game call (bot/budget.py, `Priority.LOW`);
- in a slow game (a turn timer of an hour or more: bot/turn_timers.py) the ping says
  when the turn's time runs out, «время выйдет через 24 часа»; before the deadline
  (bot/turn_reminder.py) it is sent anew as the reminder, «⏳ … ваш ход ждёт»;
- a player may choose a private ping (in his private chat with the bot) or none
  (`/pings` there: `user_mode`); a chat's admin may turn pings off in the chat
  (`/pings off`: `chat_on`), a lobby's creator in his game (`GameRecord.pings_off`).

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
from collections.abc import Callable

from aiogram.exceptions import TelegramAPIError, TelegramRetryAfter
from aiogram.methods import DeleteMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import idle, turn_reminder
from bot.bottom import passing
from bot.budget import Priority, urgency
from bot.limits import Paced
from bot.service.computers import is_computer_seat
from bot.service.context import Context
from bot.storage import GameRecord, RecordStatus, StoreUnavailable
from bot.turn_timers import is_slow
from locales import Translator

log = logging.getLogger(__name__)

GROUP, PRIVATE, OFF = "group", "private", "off"  # a player's choice (`user_mode`)
STALE = "stale:"  # a ping's key while it waits to be deleted: "stale:<message id>" -> chat
RETRY_SHARE = 1 / 12  # of the group's window: a ping dropped or not deleted is tried again
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
    def __init__(self, ctx: Context, wake: Callable[[int, float], None]) -> None:
        self.ctx = ctx
        self.wake = wake  # the chat's table round again in so many seconds

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

    def delay(self, rec: GameRecord, user: int) -> float:
        """Seconds the turn of `user` waits for him before he is pinged: none in a slow
        game (he is away by design) or for a player whose turn timed out before (he was
        away); else `ping_after_seconds`, within which a player at the table presses."""
        if is_slow(self.ctx.turn_seconds(rec)) or rec.timeouts.get(user):
            return 0.0
        return self.ctx.settings.ping_after_seconds

    @property
    def retry(self) -> float:
        """Seconds after which a ping dropped under pressure (or not deleted) is tried
        again: 5 s of Telegram's minute."""
        return self.ctx.settings.chat_window_seconds * RETRY_SHARE

    def _sent(self, sent_to: tuple[int, int] | None, chat_id: int, now: int) -> dict[str, int]:
        """The ping's fields after a send: where it is, or (dropped) when to try again."""
        if sent_to is None:
            self.wake(chat_id, self.retry)
            return {"chat": 0, "message": 0, "due": now + int(self.retry * 1000)}
        return {"chat": sent_to[0], "message": sent_to[1], "due": 0}

    async def _sync(self, chat_id: int, rec: GameRecord) -> None:
        want = self.due(rec)
        old = dict(rec.ping)
        live = old.get("user")
        remind = want is not None and turn_reminder.reminded(rec) and rec.turn_deadline
        reminder = int(rec.turn_deadline or 0) if remind else 0  # which deadline it tells
        now = int(self.ctx.clock() * 1000)
        new: dict[str, int] = {}
        again = self.retry  # when a ping not deleted now is tried again
        for key, where in old.items():  # pings not deleted yet (the budget was spent)
            if not key.startswith(STALE):
                continue
            if wait := await self._delete(where, int(key[len(STALE) :])):
                new[key] = where
                again = min(again, wait)
        if live is not None and live == want:
            sent = bool(old.get("message"))
            new.update({k: v for k, v in old.items() if not k.startswith(STALE)})
            if reminder and old.get("reminder") != reminder:
                if wait := await self._delete(old.get("chat", 0), old.get("message", 0)):
                    new[f"{STALE}{old['message']}"] = old["chat"]
                    again = min(again, wait)
                # the reminder comes in the ping's place, notifying him again
                sent_to = await self._send(chat_id, rec, live, reminder=True) or (0, 0)
                new.update(chat=sent_to[0], message=sent_to[1], reminder=reminder, due=0)
            elif not sent and old.get("due"):  # his turn waits for him: ping him once due
                due = old["due"]
                if int(idle.last_active(rec) * 1000) >= old.get("since", 0):
                    new["due"] = 0  # he pressed on his turn: he is at the table
                elif now >= due:
                    new.update(self._sent(await self._send(chat_id, rec, live), chat_id, now))
                else:
                    self.wake(chat_id, (due - now) / 1000)
        else:
            if live is not None:
                chat, message = old.get("chat", 0), old.get("message", 0)
                if wait := await self._delete(chat, message):
                    new[f"{STALE}{message}"] = chat
                    again = min(again, wait)
            if want is not None:
                delay = 0.0 if reminder else self.delay(rec, want)
                new.update(user=want, chat=0, message=0, since=now)
                if delay > 0:
                    new["due"] = now + int(delay * 1000)
                    self.wake(chat_id, delay)
                else:
                    pinged = await self._send(chat_id, rec, want, reminder=bool(reminder))
                    new.update(self._sent(pinged, chat_id, now))
                    if reminder:  # (its reminder is due already: this ping is it)
                        new["reminder"] = reminder
        if any(k.startswith(STALE) for k in new):
            self.wake(chat_id, again)
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
    ) -> tuple[int, int] | None:
        """Ping `user` (or remind him, before a slow turn's deadline): (chat, message id),
        (0, 0) when nobody is to be pinged, None when the ping was dropped under pressure
        (the group's window busy: it is tried again a little later)."""
        if rec.pings_off or not await self.chat_on(chat_id):
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
            return None  # dropped: the window is busy (a game message goes first)
        return chat_id, int(msg.message_id)

    async def _delete(self, chat: int, message: int) -> float:
        """Delete a ping: 0 when done, else the seconds after which to try again (the
        group's budget is spent now: the table's pace, or a 429's hold)."""
        if not chat or not message:
            return 0.0
        try:
            await self.ctx.sender.call(
                DeleteMessage(chat_id=chat, message_id=message), latest_wins=True
            )
        except Paced as e:
            return max(e.wait, 0.001)
        except TelegramRetryAfter as e:
            return float(max(e.retry_after, 1))
        except TelegramAPIError as e:  # deleted by hand already, or too old
            log.info("ping %s in chat %s not deleted: %s", message, chat, e)
        return 0.0
