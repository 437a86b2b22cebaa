"""«🤖 Заменить компьютером» on the message of a player who left (bot/service/computers.py)."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.handlers.common import pressed_on
from bot.language import user_translator
from bot.service import GameService
from bot.service.computers import ReplaceCB


async def replace_button(
    query: CallbackQuery, callback_data: ReplaceCB, service: GameService
) -> None:
    msg = query.message
    if msg is None:
        await query.answer(user_translator(service, query.from_user)("press.old_button"))
        return
    answer = await service.computers.replace_press(
        msg.chat.id, query.from_user.id, pressed_on(query), callback_data
    )
    await query.answer(answer.text, show_alert=answer.alert)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="computers")
    router.callback_query.register(replace_button, ReplaceCB.filter())
    return router
