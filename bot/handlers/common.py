"""Small helpers shared by the handlers."""

from __future__ import annotations

from aiogram import Bot
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.types import Chat, User

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
