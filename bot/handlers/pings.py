"""/pings: how a player is told it is his turn (bot/service/pings.py).

In the private chat: three buttons, «в группе / в личке / выключить», stored per user.
In a group: `/pings off` and `/pings on` turn the pings off and on — a chat admin's in
the chat for good, the creator's of the lobby or game running in his game alone (the
next game pings again); `/pings` alone says how things are.
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
from bot.service.lobby import in_charge
from bot.service.pings import MODES, Pings
from bot.storage import ACTIVE, GameRecord, StoreUnavailable
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
    rec = await service.store.get(chat_id)
    game = rec if rec is not None and rec.status in ACTIVE else None  # the lobby or game on
    chat_on = await pings.chat_on(chat_id)
    if wanted not in ("on", "off"):
        state = "on" if chat_on else "off"
        text = t("pings.chat_status", state=t(f"pings.chat_state.{state}"))
        if chat_on and game is not None and game.pings_off:
            text += "\n" + t("pings.game_status_off")
        await service.replies.answer(asked, text, t, topic="pings:status")
        return
    on = wanted == "on"
    anonymous = message.sender_chat is not None and message.sender_chat.id == chat_id
    if anonymous or await is_chat_admin(bot, chat_id, user.id):  # the chat's switch
        await pings.set_chat(chat_id, on)
        if on and game is not None and game.pings_off:  # and its game's with it
            await set_game(service, game.uid, chat_id, on)
        text = t("pings.chat_on") if on else t("pings.chat_off")
    elif game is not None and in_charge(game, user.id):  # his own game's switch alone
        if on and not chat_on:
            text = t("pings.game_chat_off")  # an admin switched the chat's off
        else:
            await set_game(service, game.uid, chat_id, on)
            text = t("pings.game_on") if on else t("pings.game_off")
    else:
        await service.replies.answer(asked, t("pings.chat_not_allowed"), t, topic="pings:no")
        return
    await service.replies.answer(asked, text, t, topic=f"pings:{wanted}")


async def set_game(service: GameService, uid: str, chat_id: int, on: bool) -> None:
    """The turn pings of the chat's game `uid` on or off (its record's `pings_off`)."""

    def switch(r: GameRecord) -> GameRecord | None:
        if r.uid != uid or r.pings_off is not on:
            return None
        r.pings_off = not on
        return r

    await service.ctx.update(chat_id, switch)


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
