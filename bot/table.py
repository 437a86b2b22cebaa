"""The living table message: sent once, then edited in place.

`editMessageMedia` when the picture changed, `editMessageCaption` (with the keyboard)
when only the text or the buttons did; "message is not modified" is harmless.
A `RetryAfter` is not retried here: it reaches the table worker, which waits and then
edits in the latest state (an outdated edit is never sent late).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)

from bot.callbacks import PlayCB
from bot.presenters.base import Btn

log = logging.getLogger(__name__)

CAPTION_LIMIT = 1024


@dataclass
class TableView:
    caption: str
    buttons: list[list[Btn]]
    picture_key: str


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
    if len(caption) <= CAPTION_LIMIT:
        return caption
    return caption[: CAPTION_LIMIT - 1] + "…"


def not_modified(e: TelegramBadRequest) -> bool:
    return "not modified" in str(e).lower()


def gone(e: TelegramBadRequest) -> bool:
    text = str(e).lower()
    return any(
        s in text
        for s in ("message to edit not found", "message can't be edited", "message not found")
    )


async def send_table(
    bot: Bot, chat_id: int, view: TableView, picture: bytes, uid: str, seq: int
) -> int:
    msg = await bot.send_photo(
        chat_id,
        BufferedInputFile(picture, filename="table.png"),
        caption=clip(view.caption),
        reply_markup=markup(view.buttons, uid, seq),
    )
    return int(msg.message_id)


async def edit_table(
    bot: Bot,
    chat_id: int,
    message_id: int,
    view: TableView,
    picture: bytes | None,
    uid: str,
    seq: int,
) -> bool:
    """Edit the table; False when the message is gone and must be sent anew."""
    kb = markup(view.buttons, uid, seq)
    try:
        if picture is not None:
            await bot.edit_message_media(
                chat_id=chat_id,
                message_id=message_id,
                media=InputMediaPhoto(
                    media=BufferedInputFile(picture, filename="table.png"),
                    caption=clip(view.caption),
                ),
                reply_markup=kb,
            )
        else:
            await bot.edit_message_caption(
                chat_id=chat_id,
                message_id=message_id,
                caption=clip(view.caption),
                reply_markup=kb,
            )
    except TelegramBadRequest as e:
        if not_modified(e):
            return True
        if gone(e):
            return False
        raise
    return True
