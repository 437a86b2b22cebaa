"""/cancel and /leave, each with its confirmation buttons; migration; the bot removed or
added."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, ChatMemberUpdated, Message

from bot import retention
from bot.callbacks import CancelCB, LeaveCB
from bot.handlers.common import display_name, is_chat_admin, plays_here, pressed_on
from bot.language import translator_for, user_translator
from bot.onboarding import greet, joined, move_greeting
from bot.replies import Asked
from bot.service import GameService


async def only_in_groups(message: Message, service: GameService) -> None:
    t = await translator_for(service, message.chat, message.from_user)
    await service.replies.answer(Asked.of(message), t("new.private"), t, topic="new.private")


async def cancel_command(message: Message, service: GameService, bot: Bot) -> None:
    if not plays_here(message.chat) or message.from_user is None:
        await only_in_groups(message, service)
        return
    user = message.from_user.id
    if message.chat.type == "private":
        admin = True  # his own chat with the bot (a solo game)
    elif message.sender_chat is not None and message.sender_chat.id == message.chat.id:
        admin = True  # an anonymous group admin writes "as the group"
    else:
        admin = await is_chat_admin(bot, message.chat.id, user)
    await service.request_cancel(message.chat.id, user, admin, Asked.of(message))


async def leave_command(message: Message, service: GameService) -> None:
    if not plays_here(message.chat) or message.from_user is None:
        await only_in_groups(message, service)
        return
    await service.leave(message.chat.id, message.from_user.id, Asked.of(message))


async def migrated(message: Message, service: GameService) -> None:
    if message.migrate_to_chat_id is not None:
        await move_greeting(service.store, message.chat.id, message.migrate_to_chat_id)
        await service.migrate(message.chat.id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id is not None:
        await move_greeting(service.store, message.migrate_from_chat_id, message.chat.id)
        await service.migrate(message.migrate_from_chat_id, message.chat.id)


async def bot_membership(event: ChatMemberUpdated, service: GameService) -> None:
    """The bot was removed from a group (kicked or left): that chat's game is closed.
    Added to one: what is kept of it stays (bot/retention.py); its hello, once
    (bot/onboarding.py)."""
    if event.new_chat_member.status in ("kicked", "left"):
        await service.close_chat(event.chat.id)
        await retention.removed(service, event.chat.id)  # kept within the retention
    elif joined(event):
        await retention.back(service, event.chat.id)
        await greet(event, service)


async def cancel_button(
    query: CallbackQuery, callback_data: CancelCB, service: GameService, bot: Bot
) -> None:
    msg = query.message
    if msg is None:
        await query.answer(user_translator(service, query.from_user)("press.old_button"))
        return
    chat_id = msg.chat.id
    user = query.from_user.id

    async def admin() -> bool:
        return await is_chat_admin(bot, chat_id, user)

    answer = await service.cancel_press(  # a forged or late press edits no message
        chat_id, user, pressed_on(query), callback_data, admin, display_name(query.from_user)
    )
    await query.answer(answer.text, show_alert=answer.alert)


async def leave_button(query: CallbackQuery, callback_data: LeaveCB, service: GameService) -> None:
    msg = query.message
    if msg is None:
        await query.answer(user_translator(service, query.from_user)("press.old_button"))
        return
    answer = await service.leave_press(  # a forged or late press edits no message
        msg.chat.id, query.from_user.id, pressed_on(query), callback_data
    )
    await query.answer(answer.text, show_alert=answer.alert)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="admin")
    router.message.register(cancel_command, Command("cancel", "stop"))
    router.message.register(leave_command, Command("leave"))
    router.message.register(migrated, F.migrate_to_chat_id | F.migrate_from_chat_id)
    router.callback_query.register(cancel_button, CancelCB.filter())
    router.callback_query.register(leave_button, LeaveCB.filter())
    router.my_chat_member.register(bot_membership)
    return router
