"""Small helpers shared by the handlers."""

from __future__ import annotations

from aiogram import Bot
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.types import Chat, User

NAME_LIMIT = 32


def display_name(user: User) -> str:
    name = " ".join(x for x in (user.first_name, user.last_name) if x)
    name = " ".join(name.split())  # no newlines or runs of spaces in captions
    if not name:
        name = user.username or str(user.id)
    return name[:NAME_LIMIT]


def is_group(chat: Chat) -> bool:
    return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def is_chat_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except Exception:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.CREATOR)
