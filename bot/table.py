"""The living table message: sent once, then edited in place.

`editMessageMedia` when the picture changed, `editMessageCaption` (with the keyboard)
when only the text or the buttons did — or when the new picture is late (not drawn
within `Pictures.late`, bot/pictures.py): then the caption and keyboard are edited at
once over the old picture, and `editMessageMedia` follows once the picture is drawn
(unless a newer one replaced it meanwhile) — but not while the bot-wide send budget
has calls waiting (`Sender.crowded`): the caption's edit would wait in that line too,
and one edit with the picture costs one call, not two. "message is not modified" is
harmless.
Both go through `bot.sender.Sender` as `latest_wins` calls: a `RetryAfter` is not
retried there but reaches the table worker, which waits and then edits in the latest
state (an outdated edit is never sent late).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass

from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import EditMessageCaption, EditMessageMedia, SendPhoto
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)

from bot import uploaded
from bot.callbacks import PlayCB
from bot.caption_fit import fits, plain_cut
from bot.presenters.base import Btn
from bot.sender import Sender
from bot.uploaded import Uploaded
from bot.warm_up import PictureJob

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024


@dataclass
class TableView:
    caption: str
    buttons: list[list[Btn]]
    picture_key: str
    picture: PictureJob  # the job that draws it (`Presenter.table_picture`)


def markup(buttons: list[list[Btn]], uid: str, seq: int) -> InlineKeyboardMarkup | None:
    rows = [
        [
            InlineKeyboardButton(text=b.text, callback_data=PlayCB(g=uid, s=seq, c=b.code).pack())
            for b in row
        ]
        for row in buttons
        if row
    ]
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def text_key(view: TableView, uid: str, seq: int) -> str:
    payload = json.dumps(
        [view.caption, [[(b.text, b.code) for b in row] for row in view.buttons], uid, seq],
        ensure_ascii=False,
    )
    return hashlib.sha1(payload.encode()).hexdigest()[:16]


def clip(caption: str) -> str:
    """The caption, or (too long by Telegram's count) its plain text cut between grapheme
    clusters: never a cut tag or entity (`table_view` fits it beforehand)."""
    if fits(caption, CAPTION_LIMIT):
        return caption
    return plain_cut(caption, CAPTION_LIMIT)


def not_modified(e: TelegramBadRequest) -> bool:
    return "not modified" in str(e).lower()


def gone(e: TelegramBadRequest) -> bool:
    text = str(e).lower()
    return any(
        s in text
        for s in ("message to edit not found", "message can't be edited", "message not found")
    )


def upload(picture: bytes) -> BufferedInputFile:
    return BufferedInputFile(picture, filename="table.png")


def photo(known: Uploaded, key: str, picture: bytes) -> str | BufferedInputFile:
    """The picture's file_id when Telegram has it already (bot/uploaded.py), else its bytes."""
    return known.get(key) or upload(picture)


async def send_table(
    sender: Sender,
    chat_id: int,
    view: TableView,
    picture: bytes,
    uid: str,
    seq: int,
    *,
    turn: bool = False,
) -> int:
    known, key = uploaded.for_sender(sender), f"{uid}:{view.picture_key}"
    for attempt in (1, 2):  # a file_id refused: the bytes, once
        method = SendPhoto(
            chat_id=chat_id,
            photo=photo(known, key, picture) if attempt == 1 else upload(picture),
            caption=clip(view.caption),
            reply_markup=markup(view.buttons, uid, seq),
        )
        try:
            msg = await sender.call(method, latest_wins=True, turn=turn)
        except TelegramBadRequest as e:
            if (
                attempt == 2
                or isinstance(method.photo, BufferedInputFile)
                or not uploaded.refused(e)
            ):
                raise
            known.drop(key)
            continue
        if msg is None:
            break
        known.learn(key, msg)
        return int(msg.message_id)
    raise RuntimeError(f"the table of chat {chat_id} was not sent")


async def edit_table(
    sender: Sender,
    chat_id: int,
    message_id: int,
    view: TableView,
    picture: bytes | None,
    uid: str,
    seq: int,
    *,
    turn: bool = False,
) -> bool:
    """Edit the table; False when the message is gone and must be sent anew. `turn`: it
    alone shows the player to move his turn (`Sender.call`)."""
    kb = markup(view.buttons, uid, seq)
    try:
        if picture is not None:
            await edit_media(sender, chat_id, message_id, view, picture, kb, uid, turn=turn)
        else:
            await sender.call(
                EditMessageCaption(
                    chat_id=chat_id,
                    message_id=message_id,
                    caption=clip(view.caption),
                    reply_markup=kb,
                ),
                latest_wins=True,
                turn=turn,
            )
    except TelegramBadRequest as e:
        if not_modified(e):
            return True
        if gone(e):
            return False
        raise
    return True


async def edit_media(
    sender: Sender,
    chat_id: int,
    message_id: int,
    view: TableView,
    picture: bytes,
    kb: InlineKeyboardMarkup | None,
    uid: str,
    *,
    turn: bool = False,
) -> None:
    """`editMessageMedia`, by the picture's file_id when Telegram has it (else uploaded)."""
    known, key = uploaded.for_sender(sender), f"{uid}:{view.picture_key}"
    by_id = known.get(key)
    for media in (by_id, upload(picture)):
        if media is None:
            continue
        method = EditMessageMedia(
            chat_id=chat_id,
            message_id=message_id,
            media=InputMediaPhoto(media=media, caption=clip(view.caption)),
            reply_markup=kb,
        )
        try:
            msg = await sender.call(method, latest_wins=True, turn=turn)
        except TelegramBadRequest as e:
            if isinstance(media, str) and uploaded.refused(e):
                known.drop(key)
                continue
            raise
        known.learn(key, msg)
        return
