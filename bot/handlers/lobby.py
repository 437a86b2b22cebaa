"""/new and the lobby buttons."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.callbacks import LobbyCB
from bot.handlers.common import display_name, plays_here, pressed_on
from bot.language import translator_for, user_translator
from bot.replies import Asked
from bot.service import GameService


async def new_command(message: Message, command: CommandObject, service: GameService) -> None:
    await open_lobby(message, service, command.args or "")


async def open_lobby(message: Message, service: GameService, arg: str) -> None:
    """`/new [game]` (also `/start new` from a `?startgroup=new` link: bot/deep_links.py)."""
    t = await translator_for(service, message.chat, message.from_user)
    asked = Asked.of(message)
    if not plays_here(message.chat):
        await service.replies.answer(asked, t("new.private"), t, topic="new.private")
        return
    if message.from_user is None or message.from_user.is_bot or message.sender_chat is not None:
        await service.replies.answer(asked, t("new.anonymous"), t, topic="new.anonymous")
        return
    await service.new_game(
        message.chat.id,
        message.from_user.id,
        display_name(message.from_user),
        arg,
        language=t.lang,  # the chat's, else the creator's language (bot/language.py)
        asked=asked,
    )


async def lobby_button(query: CallbackQuery, callback_data: LobbyCB, service: GameService) -> None:
    msg = query.message
    if msg is None:
        await query.answer(user_translator(service, query.from_user)("press.old_button"))
        return
    answer = await service.lobby_press(
        msg.chat.id,
        query.from_user.id,
        display_name(query.from_user),
        pressed_on(query),  # a forged or late press edits no message
        callback_data,
    )
    await query.answer(answer.text, show_alert=answer.alert)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="lobby")
    router.message.register(new_command, Command("new", "game", "play"))
    router.callback_query.register(lobby_button, LobbyCB.filter())
    return router
