"""/start, /help, /rules."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.handlers.common import is_group
from bot.service import GameService

MESSAGE_LIMIT = 4000


async def start_private(message: Message, service: GameService, bot: Bot) -> None:
    t = service.t()
    if message.from_user is not None:
        await service.store.mark_started(message.from_user.id)
    me = await bot.me()
    kb = None
    if me.username:
        url = f"https://t.me/{me.username}?startgroup=new"
        kb = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text=t("start.add_button"), url=url)]]
        )
    await message.answer(t("start.private"), reply_markup=kb)


async def start_group(message: Message, service: GameService) -> None:
    await message.answer(service.t()("start.group"))


async def help_command(message: Message, service: GameService) -> None:
    t = service.t()
    key = "help.group" if is_group(message.chat) else "help.private"
    await message.answer(t(key))


def split(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    parts: list[str] = []
    current = ""
    for para in text.split("\n\n"):
        candidate = f"{current}\n\n{para}" if current else para
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            parts.append(current)
        while len(para) > limit:
            parts.append(para[:limit])
            para = para[limit:]
        current = para
    if current:
        parts.append(current)
    return parts


async def rules_command(message: Message, command: CommandObject, service: GameService) -> None:
    t = service.t()
    game_id = next(iter(service.presenters))
    if command.args:
        found = service.find_game(command.args)
        if found is None:
            await message.answer(t("rules.unknown"))
            return
        game_id = found
    for part in split(t(f"rules.{game_id}")):
        await message.answer(part)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="help")
    router.message.register(start_private, CommandStart(), F.chat.type == "private")
    router.message.register(start_group, CommandStart())
    router.message.register(help_command, Command("help"))
    router.message.register(rules_command, Command("rules"))
    return router
