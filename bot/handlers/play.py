"""The table's buttons, and the catch-all that answers every other callback."""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.types import CallbackQuery

from bot.callbacks import PlayCB
from bot.handlers.hand import shown_hand
from bot.language import user_translator
from bot.service import GameService

log = logging.getLogger(__name__)


async def play_button(query: CallbackQuery, callback_data: PlayCB, service: GameService) -> None:
    msg = query.message
    if msg is None:
        await query.answer(user_translator(service, query.from_user)("press.old_button"))
        return
    # the answer first: the table's picture waits for it (the worker starts at once)
    try:
        answer = await service.play_press(
            msg.chat.id, query.from_user.id, msg.message_id, callback_data, hold_picture=True
        )
        if answer.hand:  # his private hand, opened with what he asked for
            answer = await shown_hand(query, service, callback_data, answer)
        elif answer.moved:  # his own copy of the table (bot/service/table_copy.py)
            service.table.copies.ask(msg.chat.id, query.from_user.id, query.id, None)
            service.table.kick(msg.chat.id)
        await query.answer(answer.text, show_alert=answer.alert)
    finally:
        service.answered(msg.chat.id)


async def unknown_button(query: CallbackQuery, service: GameService) -> None:
    await query.answer(user_translator(service, query.from_user)("press.old_button"))


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="play")
    router.callback_query.register(play_button, PlayCB.filter())
    router.callback_query.register(unknown_button)
    return router
