"""/settings: a chat's settings and house rules (bot/service/settings_menu.py).

In a group only its admins (or an anonymous admin writing as the group) open the menu and
press its buttons; anyone else is told so, and nothing changes. In a private chat the
menu holds the user's own defaults: his games with the bot use them, and so do the
lobbies he opens in a group that has no settings of its own.
"""

from __future__ import annotations

import contextlib

from aiogram import Bot, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command
from aiogram.methods import EditMessageText
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import buttons_of, is_chat_admin, is_group
from bot.replies import Asked
from bot.service import GameService
from bot.service.settings_menu import MAIN, SettingsCB


async def settings_command(message: Message, service: GameService, bot: Bot) -> None:
    t = service.t()
    user = message.from_user
    asked = Asked.of(message)
    chat_id = message.chat.id
    group = is_group(message.chat)
    if group:
        anonymous = message.sender_chat is not None and message.sender_chat.id == chat_id
        if not anonymous and (user is None or not await is_chat_admin(bot, chat_id, user.id)):
            await service.replies.answer(
                asked, t("settings.not_admin"), t, topic="settings:not_admin"
            )
            return
    elif user is None or message.chat.type != "private":
        return
    else:
        await service.store.mark_started(user.id)
    text, markup = await service.settings_menu.page(chat_id, group, MAIN, "", t)
    if group:
        await service.ctx.send(chat_id, text, markup=markup)
    else:
        await service.replies.answer(asked, text, t, topic="settings", markup=markup)


async def settings_button(
    query: CallbackQuery, callback_data: SettingsCB, service: GameService, bot: Bot
) -> None:
    t = service.t()
    msg = query.message
    if not isinstance(msg, Message):
        await query.answer(t("press.old_button"))
        return
    menu_prefix = f"{SettingsCB.__prefix__}{SettingsCB.__separator__}"
    if not any(data.startswith(menu_prefix) for data in buttons_of(query)):
        # forged on another message (a lobby, a table): it never becomes the menu
        await query.answer(t("press.old_button"))
        return
    chat_id = msg.chat.id
    group = is_group(msg.chat)
    if group and not await is_chat_admin(bot, chat_id, query.from_user.id):
        await query.answer(t("settings.not_admin"), show_alert=True)
        return
    if not group and chat_id != query.from_user.id:
        await query.answer(t("press.old_button"))
        return
    menu = service.settings_menu
    pressed, page, x = await menu.press(chat_id, group, callback_data, t)
    await query.answer(pressed.text or None, show_alert=pressed.refused)
    text, markup = await menu.page(chat_id, group, page, x, t)
    with contextlib.suppress(TelegramAPIError):  # "not modified": nothing changed
        await service.sender.call(
            EditMessageText(
                chat_id=chat_id, message_id=msg.message_id, text=text, reply_markup=markup
            )
        )


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="settings")
    router.message.register(settings_command, Command("settings"))
    router.callback_query.register(settings_button, SettingsCB.filter())
    return router
