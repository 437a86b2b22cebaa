"""/start, /help, /rules: answered through `bot.replies` (ephemeral to the asker, else in
his private chat, else one reply in the group), so they never spend the game's budget."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.handlers.common import is_group
from bot.replies import Asked
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
    await service.replies.answer(Asked.of(message), t("start.private"), t, topic="start", markup=kb)


async def start_group(message: Message, service: GameService) -> None:
    t = service.t()
    await service.replies.answer(Asked.of(message), t("start.group"), t, topic="start")


async def help_command(message: Message, service: GameService) -> None:
    t = service.t()
    key = "help.group" if is_group(message.chat) else "help.private"
    await service.replies.answer(Asked.of(message), t(key), t, topic="help")


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
            await service.replies.answer(
                Asked.of(message), t("rules.unknown"), t, topic="rules.unknown"
            )
            return
        game_id = found
    parts = split(t(f"rules.{game_id}"))
    await service.replies.answer(Asked.of(message), parts, t, topic=f"rules:{game_id}")


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="help")
    router.message.register(start_private, CommandStart(), F.chat.type == "private")
    router.message.register(start_group, CommandStart())
    router.message.register(help_command, Command("help"))
    router.message.register(rules_command, Command("rules"))
    return router
