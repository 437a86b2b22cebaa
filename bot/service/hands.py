"""The private hand in the group: an ephemeral message (Bot API 10.2) per player.

- `open`: «🀄 Мои фишки» sends the presser his hand (bot/hands/: a picture, a caption and,
  on his decision, the buttons that depend on his hand) as an ephemeral message linked to
  his callback query — seen by him alone, outside the group's flood budget. Its id is
  kept in the record (`GameRecord.hands`); an older one of his is deleted.
- `refresh` (the table worker, after every change): each open hand whose content changed
  is edited — the picture only when his tiles changed, else the caption and buttons —
  and none is edited when nothing he sees changed. At the end of the game, or when he
  left it, it is deleted.
- A press that asks for it (ДОМИНА*С: a nest where several of his tiles fit,
  `Outcome.hand`) opens his hand the same way, with the press's toast first.
- **Fallback** when the ephemeral send fails (an old client, a self-hosted Bot API, the
  method refused): the `show_alert` popup of today, plus a private message with the hand
  in words (`HandView.text`) and the same buttons if he has started the bot (edited in
  place later; at the end it says the game is over, without buttons), and the table keeps the
  public choices for him (`public`: ДОМИНА*С shows his tile numbers again), so the game
  stays playable by the table alone. Nothing of his hand reaches anyone else on any path.
- `public`: the table's keyboard without what the private hand of the player to move
  carries (the hand keeper says what, by how he sees his hand: `Shown`).

A computer seat (`bot.service.computers.is_computer_seat`) is never sent a hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import weakref
from typing import Any

from aiogram.exceptions import TelegramAPIError
from aiogram.filters.callback_data import CallbackData
from aiogram.methods import (
    DeleteEphemeralMessage,
    EditEphemeralMessageCaption,
    EditEphemeralMessageMedia,
    EditMessageText,
    SendPhoto,
)
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)
from pydantic import BaseModel

from bot import idle
from bot.callbacks import PlayCB, fits
from bot.hands import HandKeeper, HandView, Shown
from bot.presenters.base import Btn, Presenter
from bot.service.computers import is_computer_seat
from bot.service.context import Answer, Context
from bot.storage import GameRecord, RecordStatus
from bot.table import markup

log = logging.getLogger(__name__)
POPUP_LIMIT = 200  # a callback answer's characters (UTF-16 code units)


class HandCB(CallbackData, prefix="H1"):
    """A hand button in the private chat (the fallback): `ch` is the group, the rest is
    the table's button (`PlayCB`)."""

    ch: int
    g: str
    s: int
    c: str


def units(text: str) -> int:
    """Telegram's length of `text`: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def shown_as(rec: GameRecord, user: int | None) -> Shown:
    """How `user` sees his hand now (by the record)."""
    entry = rec.hands.get(user) if user is not None else None
    if entry is None:
        return Shown.NONE
    return Shown.EPHEMERAL if entry.get("e") else Shown.FALLBACK


def private_markup(
    buttons: list[list[Btn]], chat_id: int, uid: str, seq: int
) -> InlineKeyboardMarkup | None:
    rows = []
    for row in buttons:
        out = []
        for b in row:
            data = HandCB(ch=chat_id, g=uid, s=seq, c=b.code).pack()
            if fits(data):
                out.append(InlineKeyboardButton(text=b.text, callback_data=data))
        if out:
            rows.append(out)
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


class Hands:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def _keeper(self, rec: GameRecord | None) -> HandKeeper | None:
        """The hand keeper of the record's game (None: no record, or no hidden hands)."""
        if rec is None or rec.game_id not in self.ctx.presenters:
            return None
        return self.ctx.presenter(rec.game_id).hand_keeper()

    # ------------------------------------------------------------ the table's keyboard

    def public(
        self, rec: GameRecord, p: Presenter[Any, Any], state: BaseModel, buttons: list[list[Btn]]
    ) -> list[list[Btn]]:
        kept = p.hand_keeper()
        if kept is None or not buttons:
            return buttons
        return kept.public(state, buttons, shown_as(rec, p.actor(state)))

    # ------------------------------------------------------------ «🀄 Мои фишки»

    async def open(
        self, query: CallbackQuery, data: PlayCB, toast: str | None = None
    ) -> Answer | None:
        """Send the presser his hand ephemerally (or by the fallback). None: not a press
        this part answers (an old button, another game...): the table's usual path does.
        `toast`: what the press that asked for his hand said (ДОМИНА*С: the tiles that
        fit the nest he pressed), put before the answer's own words."""
        ctx = self.ctx
        msg = query.message
        user = query.from_user.id
        if msg is None:
            return None
        chat_id = msg.chat.id
        rec = await ctx.store.get(chat_id)
        kept = self._keeper(rec)
        if (
            rec is None
            or kept is None
            or rec.uid != data.g
            or rec.status != RecordStatus.PLAYING
            or rec.state is None
            or user not in rec.players
            or is_computer_seat(rec, user)
            or (msg.message_id and rec.table_message_id not in (None, msg.message_id))
        ):
            return None
        t = ctx.t(rec.language)
        p = ctx.presenter(rec.game_id)
        state = p.load(rec.state)
        view = kept.view(state, user, self.ctx.table(rec, self.ctx.presenter(rec.game_id), t))
        if view is None:
            return None
        old = rec.hands.get(user) or {}
        eid = await self._send(chat_id, user, query.id, view, rec)
        if eid is not None:
            if old.get("e"):
                await self._delete(chat_id, user, int(old["e"]))
            await self._keep(rec, user, {"e": eid, "k": view.key(rec.seq), "p": view.picture_key})
            told = "\n".join(x for x in (toast, t("hand.opened")) if x)
            return Answer(told if units(told) <= POPUP_LIMIT else t("hand.opened"))
        if old.get("e"):  # an older one would no longer be kept up to date
            await self._delete(chat_id, user, int(old["e"]))
        entry: dict[str, Any] = {"e": None, "k": view.key(rec.seq), "p": view.picture_key}
        mid = old.get("m")
        if await ctx.store.has_started(user):
            mid = await self._private(chat_id, user, view, rec, mid)
        if mid:
            entry["m"] = mid
        await self._keep(rec, user, entry)
        popup = p.hand_popup(state, user, t)  # with his numbers, now on the table
        told = f"{toast}\n{popup}" if toast else popup
        return Answer(told if units(told) <= POPUP_LIMIT else popup, alert=True)

    async def _send(
        self, chat_id: int, user: int, query_id: str, view: HandView, rec: GameRecord
    ) -> int | None:
        try:
            png = await asyncio.to_thread(view.picture)
            method = SendPhoto(
                chat_id=chat_id,
                photo=BufferedInputFile(png, filename="hand.png"),
                caption=view.caption,
                reply_markup=markup(view.buttons, rec.uid, rec.seq),
                ephemeral_message_parameters=EphemeralMessageParameters(
                    receiver_user_id=user, callback_query_id=query_id
                ),
            )
            sent = await self.ctx.sender.call(method, chatter=True)
        except TelegramAPIError as e:
            log.info("chat %s: the ephemeral hand of %s failed: %s", chat_id, user, e)
            return None
        if sent is None or not sent.ephemeral_message_id:
            return None
        return int(sent.ephemeral_message_id)

    async def _private(
        self, chat_id: int, user: int, view: HandView, rec: GameRecord, mid: int | None
    ) -> int | None:
        """The fallback's private message: the hand in words and the same buttons."""
        text = view.text or view.caption
        kb = private_markup(view.buttons, chat_id, rec.uid, rec.seq)
        sender = self.ctx.sender
        try:
            if mid:
                with contextlib.suppress(TelegramAPIError):
                    method = EditMessageText(
                        chat_id=user, message_id=mid, text=text, reply_markup=kb
                    )
                    if await sender.call(method, chatter=True) is not None:
                        return mid
            sent = await sender.send_text(user, text, markup=kb, chatter=True)
        except TelegramAPIError as e:
            log.info("private hand to %s failed: %s", user, e)
            return None
        return None if sent is None else int(sent.message_id)

    # ------------------------------------------------------------ keeping it up to date

    async def refresh(self, chat_id: int, rec: GameRecord | None) -> None:
        """Edit every open hand of the chat whose content changed; delete them at the end."""
        if rec is None or not rec.hands:
            return
        try:
            await self._refresh(chat_id, rec)
        except Exception:  # a private hand never stops the table
            log.exception("chat %s: the private hands were not brought up to date", chat_id)

    async def _refresh(self, chat_id: int, rec: GameRecord) -> None:
        kept = self._keeper(rec)
        over = rec.status != RecordStatus.PLAYING or rec.state is None or kept is None
        changes: dict[int, dict[str, Any] | None] = {}
        state: BaseModel | None = None
        if not over:
            assert rec.state is not None and kept is not None
            state = self.ctx.presenter(rec.game_id).load(rec.state)
        t = self.ctx.t(rec.language)
        c = self.ctx.table(rec, self.ctx.presenter(rec.game_id), t)
        for user, entry in list(rec.hands.items()):
            view = None
            if state is not None and kept is not None and user in rec.players:
                view = kept.view(state, user, c)
            if view is None:
                gone = "hand.private_over" if over else "hand.private_gone"
                title = t(self.ctx.presenter(rec.game_id).title_key)
                await self._remove(chat_id, user, entry, t(gone, game=title))
                changes[user] = None
                continue
            new = await self._update(chat_id, user, entry, view, rec)
            if new is not entry:
                changes[user] = new
        if changes:
            await self._apply(rec, changes)

    async def _update(
        self,
        chat_id: int,
        user: int,
        entry: dict[str, Any],
        view: HandView,
        rec: GameRecord,
    ) -> dict[str, Any] | None:
        key = view.key(rec.seq)
        if key == entry.get("k"):
            return entry  # nothing he sees changed: no edit
        eid = entry.get("e")
        if eid:
            done = await self._edit(chat_id, user, int(eid), view, entry.get("p"), rec)
            if done is None:
                return entry  # not sent now (a 429): tried again at the next change
            if not done:
                return None  # he no longer has it: «🀄 Мои фишки» opens a new one
        elif entry.get("m"):
            mid = await self._private(chat_id, user, view, rec, entry.get("m"))
            entry = {**entry, "m": mid}
        return {**entry, "k": key, "p": view.picture_key}

    async def _edit(
        self,
        chat_id: int,
        user: int,
        eid: int,
        view: HandView,
        shown_picture: str | None,
        rec: GameRecord,
    ) -> bool | None:
        """True: edited; False: the message is gone; None: not sent now."""
        kb = markup(view.buttons, rec.uid, rec.seq)
        method: EditEphemeralMessageMedia | EditEphemeralMessageCaption
        if shown_picture != view.picture_key:
            png = await asyncio.to_thread(view.picture)
            media = InputMediaPhoto(
                media=BufferedInputFile(png, filename="hand.png"), caption=view.caption
            )
            method = EditEphemeralMessageMedia(
                chat_id=chat_id,
                receiver_user_id=user,
                ephemeral_message_id=eid,
                media=media,
                reply_markup=kb,
            )
        else:
            method = EditEphemeralMessageCaption(
                chat_id=chat_id,
                receiver_user_id=user,
                ephemeral_message_id=eid,
                caption=view.caption,
                reply_markup=kb,
            )
        try:
            return await self.ctx.sender.call(method, chatter=True) is not None or None
        except TelegramAPIError as e:
            if "not modified" in str(e).lower():
                return True
            log.info("chat %s: the ephemeral hand of %s is gone: %s", chat_id, user, e)
            return False

    async def _remove(self, chat_id: int, user: int, entry: dict[str, Any], gone: str) -> None:
        """His hand is gone (the game is over, or he left it): the ephemeral message is
        deleted, the private one says `gone` instead, without buttons."""
        if entry.get("e"):
            await self._delete(chat_id, user, int(entry["e"]))
        if entry.get("m"):
            await self.ctx.drop_markup(user, int(entry["m"]), html.escape(gone, quote=False))

    async def _delete(self, chat_id: int, user: int, eid: int) -> None:
        method = DeleteEphemeralMessage(
            chat_id=chat_id, receiver_user_id=user, ephemeral_message_id=eid
        )
        with contextlib.suppress(TelegramAPIError):
            await self.ctx.sender.call(method, chatter=True)

    async def _keep(self, rec: GameRecord, user: int, entry: dict[str, Any]) -> None:
        # he looked at his hand: the game is not abandoned (bot/idle.py), like any press
        await self._apply(rec, {user: entry}, check=False, seen_at=self.ctx.clock())

    async def _apply(
        self,
        rec: GameRecord,
        changes: dict[int, dict[str, Any] | None],
        check: bool = True,
        seen_at: float | None = None,
    ) -> None:
        uid = rec.uid
        seen = {u: (rec.hands.get(u) or {}).get("e") for u in changes}

        def change(r: GameRecord) -> GameRecord | None:
            if r.uid != uid:
                return None
            if seen_at is not None and idle.last_active(r) < seen_at:
                r.active_at = seen_at
            for user, new in changes.items():
                if check and (r.hands.get(user) or {}).get("e") != seen[user]:
                    continue  # reopened meanwhile: that one is newer
                if new is None:
                    r.hands.pop(user, None)
                else:
                    r.hands[user] = new
            return r

        await self.ctx.update(rec.chat_id, change)


_HANDS: weakref.WeakKeyDictionary[Context, Hands] = weakref.WeakKeyDictionary()


def hands_for(ctx: Context) -> Hands:
    """The chat hands part of a service (one per `Context`)."""
    found = _HANDS.get(ctx)
    if found is None:
        found = _HANDS[ctx] = Hands(ctx)
    return found
