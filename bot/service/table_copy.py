"""The mover's own copy of the table: each of his taps shows at once, at no cost to the
group's budget (issue 36, point 3).

A group's table is edited at most about 17 times a minute (`bot.limits`: Telegram's 20
calls a minute per group, less the game's reserve), so in a lively game the player who
acts would see his own taps land seconds late, and tap again on buttons already gone.
Instead, a press that moves the game brings its player, besides the toast, an
**ephemeral copy of the table** shown to him alone in place of the group's table message
(Bot API 10.3: `EphemeralMessageParameters.replace_callback_query_message` for his
callback query): the latest picture, caption and buttons, outside the group's budget. He
builds his turn on it — a press on the copy edits it (`editEphemeralMessage…`) — and
his last move shows there at once too, with the next player named, so he never taps an
old turn's buttons. Everyone else sees the group's table, edited in its own time (latest
wins; a turn change first, `Spend.TURN`: the next player has no copy yet). Once the
group's table has caught up with a copy whose player no longer acts, that copy is
deleted and he sees the group's table again; until then it follows every change.

Where an ephemeral copy can't be sent (an old client, a self-hosted Bot API that refuses
it) the chat is not tried again in this process: the group's table serves, at the
budget's pace. `TABLE_COPY=0` turns the copies off.

The copies live in this process (`live`); a press on a copy names it (its ephemeral
message id), so another instance, or this one after a restart, edits the same copy.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiogram.exceptions import TelegramAPIError
from aiogram.methods import (
    DeleteEphemeralMessage,
    EditEphemeralMessageCaption,
    EditEphemeralMessageMedia,
    SendPhoto,
)
from aiogram.types import EphemeralMessageParameters, InputMediaPhoto

from bot import uploaded
from bot.service.context import Context
from bot.storage import GameRecord, RecordStatus
from bot.table import TableView, clip, markup, photo, text_key

log = logging.getLogger(__name__)


@dataclass
class Ask:
    """A press that moved the game: the callback query (a press on the group's table) or
    the copy it came from (a press on a copy)."""

    query_id: str | None
    copy_id: int | None


@dataclass
class Copy:
    """A copy shown to its player: its ephemeral message id, what it shows."""

    message_id: int
    picture_key: str
    text: str


class TableCopies:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.asked: dict[int, dict[int, Ask]] = {}  # chat -> player -> his last press
        self.live: dict[int, dict[int, Copy]] = {}  # chat -> player -> his copy
        self.off: set[int] = set()  # chats where an ephemeral copy was refused

    def on(self, chat_id: int) -> bool:
        return self.ctx.settings.table_copy and chat_id < 0 and chat_id not in self.off

    def ask(self, chat_id: int, user: int, query_id: str | None, copy_id: int | None) -> None:
        """`user`'s press moved the game: the next round shows him his copy, if his turn
        goes on. `copy_id`: the ephemeral message he pressed (his copy, or his hand)."""
        if self.on(chat_id):
            self.asked.setdefault(chat_id, {})[user] = Ask(query_id, copy_id)

    def showing(self, chat_id: int) -> bool:
        """Whether a copy of the chat's table is shown to anyone."""
        return bool(self.live.get(chat_id))

    def sees(self, chat_id: int, user: int, text: str) -> bool:
        """Whether `user`'s copy shows the table whose `text_key` is `text`."""
        copy = self.live.get(chat_id, {}).get(user)
        return copy is not None and copy.text == text

    def wanted(self, chat_id: int) -> bool:
        """Whether the next round has a copy to show or to take away."""
        return bool(self.asked.get(chat_id)) or self.showing(chat_id)

    async def show(self, chat_id: int, rec: GameRecord, view: TableView, picture: bytes) -> None:
        """The players who pressed since the last round see their copies of the table as
        `view` shows it (sent, or edited): the one still to act builds his turn on it, the
        one whose turn has just passed sees where his last move left the game (and that
        it is no longer his turn) while the group's table waits for its pace."""
        asked = self.asked.pop(chat_id, {})
        live = self.live.setdefault(chat_id, {})
        for user, ask in asked.items():
            if rec.status != RecordStatus.PLAYING:
                continue  # the game is over: the group's table shows the end at once
            copy = live.get(user)
            hand = (rec.hands.get(user) or {}).get("e")
            if copy is None and ask.copy_id is not None and ask.copy_id != hand:
                copy = Copy(ask.copy_id, "", "")  # a copy another instance sent
            if copy is not None:
                if await self._edit(chat_id, user, copy, rec, view, picture) is False:
                    live.pop(user, None)
                else:
                    live[user] = copy  # edited, or edited by a later round (his pace)
            elif ask.query_id is not None:
                sent = await self._send(chat_id, user, ask.query_id, rec, view, picture)
                if sent is not None:
                    live[user] = sent
        # a copy follows what others changed (a timer, a leave, the next player's moves)
        # until the group's table has caught up and it goes (`clear`)
        text = text_key(view, rec.uid, rec.seq)
        for user, copy in list(live.items()):
            behind = user not in asked and copy.text != text
            if behind and await self._edit(chat_id, user, copy, rec, view, picture) is False:
                live.pop(user, None)
        if not live:
            self.live.pop(chat_id, None)

    async def clear(self, chat_id: int, rec: GameRecord | None, actor: int | None) -> None:
        """The group's table is up to date: the copies of players who no longer act go
        (all of them once the game is over)."""
        live = self.live.get(chat_id, {})
        playing = rec is not None and rec.status == RecordStatus.PLAYING
        for user, copy in list(live.items()):
            if playing and user == actor:
                continue
            del live[user]
            method = DeleteEphemeralMessage(
                chat_id=chat_id, receiver_user_id=user, ephemeral_message_id=copy.message_id
            )
            try:
                await self.ctx.sender.call(method)
            except TelegramAPIError as e:  # gone already (he closed it, or a restart)
                log.info("chat %s: the table copy of %s not deleted: %s", chat_id, user, e)
        if not live:
            self.live.pop(chat_id, None)

    def forget(self, chat_id: int) -> None:
        self.asked.pop(chat_id, None)
        self.live.pop(chat_id, None)

    async def _send(
        self,
        chat_id: int,
        user: int,
        query_id: str,
        rec: GameRecord,
        view: TableView,
        picture: bytes,
    ) -> Copy | None:
        known, key = uploaded.for_sender(self.ctx.sender), f"{rec.uid}:{view.picture_key}"
        method = SendPhoto(
            chat_id=chat_id,
            photo=photo(known, key, picture),
            caption=clip(view.caption),
            reply_markup=markup(view.buttons, rec.uid, rec.seq),
            ephemeral_message_parameters=EphemeralMessageParameters(
                receiver_user_id=user,
                callback_query_id=query_id,
                replace_callback_query_message=True,
            ),
        )
        try:
            msg = await self.ctx.sender.call(method)
        except TelegramAPIError as e:
            log.info("chat %s: no table copy (%s); the group's table serves", chat_id, e)
            self.off.add(chat_id)
            return None
        if msg is None or not msg.ephemeral_message_id:
            return None
        known.learn(key, msg)
        return Copy(
            int(msg.ephemeral_message_id), view.picture_key, text_key(view, rec.uid, rec.seq)
        )

    async def _edit(
        self,
        chat_id: int,
        user: int,
        copy: Copy,
        rec: GameRecord,
        view: TableView,
        picture: bytes,
    ) -> bool | None:
        """Bring the copy to `view`: False when it is gone, None when not now (the
        member's ephemeral pace, `bot.sender`: a later round edits it)."""
        text = text_key(view, rec.uid, rec.seq)
        if copy.picture_key == view.picture_key and copy.text == text:
            return True
        kb = markup(view.buttons, rec.uid, rec.seq)
        known, key = uploaded.for_sender(self.ctx.sender), f"{rec.uid}:{view.picture_key}"
        try:
            if copy.picture_key != view.picture_key:
                media = InputMediaPhoto(
                    media=photo(known, key, picture), caption=clip(view.caption)
                )
                sent = await self.ctx.sender.call(
                    EditEphemeralMessageMedia(
                        chat_id=chat_id,
                        receiver_user_id=user,
                        ephemeral_message_id=copy.message_id,
                        media=media,
                        reply_markup=kb,
                    )
                )
            else:
                sent = await self.ctx.sender.call(
                    EditEphemeralMessageCaption(
                        chat_id=chat_id,
                        receiver_user_id=user,
                        ephemeral_message_id=copy.message_id,
                        caption=clip(view.caption),
                        reply_markup=kb,
                    )
                )
        except TelegramAPIError as e:
            if "not modified" in str(e).lower():
                return True
            log.info("chat %s: the table copy of %s is gone: %s", chat_id, user, e)
            return False
        if sent is None:
            return None
        copy.picture_key, copy.text = view.picture_key, text
        return True
