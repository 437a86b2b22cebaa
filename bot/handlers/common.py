"""Small helpers shared by the handlers."""

from __future__ import annotations

from aiogram import Bot
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.types import CallbackQuery, Chat, Message, User

from bot.names import stored_name


def display_name(user: User) -> str:
    """The name kept for `user` (`bot.names.stored_name`): cleaned and cut between grapheme
    clusters; "" when blank (shown as «Игрок N»), never his id."""
    return stored_name(user.first_name, user.last_name, user.username)


def is_group(chat: Chat) -> bool:
    return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def plays_here(chat: Chat) -> bool:
    """Games run in groups, and in a private chat with the bot (solo, against computer
    players: bot/service/computers.py)."""
    return is_group(chat) or chat.type == ChatType.PRIVATE


async def is_chat_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except Exception:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.CREATOR)


def buttons_of(query: CallbackQuery) -> list[str]:
    """The callback data of every button of the pressed message, as Telegram has it now
    (none for an inaccessible message: older than 48 hours, or gone)."""
    msg = query.message
    if not isinstance(msg, Message) or msg.reply_markup is None:
        return []
    rows = msg.reply_markup.inline_keyboard
    return [b.callback_data for row in rows for b in row if b.callback_data is not None]


def pressed_on(query: CallbackQuery) -> int | None:
    """The pressed message's id when the pressed button is on it, else None: a forged
    press (data no button of that message carries) or a late one (the message lost that
    button meanwhile) is answered but edits no message (issue 31, point 9)."""
    msg = query.message
    if msg is None or query.data is None or query.data not in buttons_of(query):
        return None
    return msg.message_id
