"""/pings: how a player is told it is his turn (bot/service/pings.py).

In the private chat: three buttons, «в группе / в личке / выключить», stored per user.
In a group: `/pings off` and `/pings on` (a chat admin, or the creator of the chat's
game) turn the chat's pings off and on; `/pings` alone says how things are.
"""

from __future__ import annotations

import contextlib

from aiogram import Bot, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.methods import EditMessageText
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.handlers.common import is_chat_admin, is_group
from bot.language import translator_for
from bot.replies import Asked
from bot.service import GameService
from bot.service.pings import MODES, Pings
from bot.storage import StoreUnavailable
from locales import Translator


class PingsCB(CallbackData, prefix="N1"):
    """A player's choice of turn ping: m = group | private | off."""

    m: str


def menu(t: Translator, mode: str) -> tuple[str, InlineKeyboardMarkup]:
    """The private menu: the current choice and a button for each (the chosen one ✓)."""
    rows = [
        [
            InlineKeyboardButton(
                text=("✓ " if m == mode else "") + t(f"pings.button.{m}"),
                callback_data=PingsCB(m=m).pack(),
            )
        ]
        for m in MODES
    ]
    text = t("pings.menu", mode=t(f"pings.mode.{mode}"))
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


def pings_of(service: GameService) -> Pings:
    return service.table.pings


async def pings_command(
    message: Message, command: CommandObject, service: GameService, bot: Bot
) -> None:
    t = await translator_for(service, message.chat, message.from_user)
    user = message.from_user
    if user is None:
        return
    pings = pings_of(service)
    asked = Asked.of(message)
    if not is_group(message.chat):
        await service.store.mark_started(user.id)
        text, markup = menu(t, await pings.user_mode(user.id))
        await service.replies.answer(asked, text, t, topic="pings", markup=markup)
        return
    chat_id = message.chat.id
    wanted = (command.args or "").strip().lower()
    if wanted not in ("on", "off"):
        state = "on" if await pings.chat_on(chat_id) else "off"
        text = t("pings.chat_status", state=t(f"pings.chat_state.{state}"))
        await service.replies.answer(asked, text, t, topic="pings:status")
        return
    rec = await service.store.get(chat_id)
    allowed = (rec is not None and rec.creator == user.id) or (
        message.sender_chat is not None and message.sender_chat.id == chat_id
    )
    if not allowed:
        allowed = await is_chat_admin(bot, chat_id, user.id)
    if not allowed:
        await service.replies.answer(asked, t("pings.chat_not_allowed"), t, topic="pings:no")
        return
    await pings.set_chat(chat_id, wanted == "on")
    text = t("pings.chat_on") if wanted == "on" else t("pings.chat_off")
    await service.replies.answer(asked, text, t, topic=f"pings:{wanted}")


async def pings_button(query: CallbackQuery, callback_data: PingsCB, service: GameService) -> None:
    msg = query.message
    t = await translator_for(service, msg.chat if msg else None, query.from_user)
    if callback_data.m not in MODES or msg is None or is_group(msg.chat):
        await query.answer(t("press.old_button"))
        return
    pings = pings_of(service)
    try:
        await pings.set_user(query.from_user.id, callback_data.m)
    except StoreUnavailable:
        await query.answer(t("error.unavailable"), show_alert=True)
        return
    await query.answer(t("pings.chosen", mode=t(f"pings.mode.{callback_data.m}")))
    text, markup = menu(t, callback_data.m)
    if isinstance(msg, Message):
        with contextlib.suppress(TelegramAPIError):  # "not modified": the same choice again
            await service.sender.call(
                EditMessageText(
                    chat_id=msg.chat.id, message_id=msg.message_id, text=text, reply_markup=markup
                )
            )


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="pings")
    router.message.register(pings_command, Command("pings"))
    router.callback_query.register(pings_button, PingsCB.filter())
    return router
