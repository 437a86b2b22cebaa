"""The private hand's presses (bot/service/hands.py): «🀄 Мои фишки» on the table, the
buttons of a player's ephemeral hand in the group, and those of the private-chat
fallback. Every game press still goes through `GameService.play_press` and its checks."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery, Message

from bot.callbacks import PlayCB
from bot.language import user_translator
from bot.presenters.base import HAND
from bot.service import GameService
from bot.service.context import Answer
from bot.service.hands import HandCB, hands_for


async def _press(query: CallbackQuery, service: GameService, chat_id: int, data: PlayCB) -> None:
    """A game press from outside the table message (no table message id to check): an
    ephemeral message of his (his hand, or his copy of the table), or his private chat."""
    try:
        answer = await service.play_press(
            chat_id, query.from_user.id, None, data, hold_picture=True
        )
        msg = query.message
        eid = msg.ephemeral_message_id if isinstance(msg, Message) else None
        if answer.hand and msg is not None and msg.chat.id == chat_id:
            answer = await shown_hand(query, service, data, answer)
        elif answer.moved and eid:  # his copy of the table follows (table_copy.py)
            service.table.copies.ask(chat_id, query.from_user.id, None, eid)
            service.table.kick(chat_id)
        await query.answer(answer.text, show_alert=answer.alert)
    finally:
        service.answered(chat_id)


async def shown_hand(
    query: CallbackQuery, service: GameService, data: PlayCB, answer: Answer
) -> Answer:
    """A press that asks for his hand (ДОМИНА*С: a nest where several of his tiles fit):
    it opens with them, ephemerally (or by the fallback); the press's toast comes first."""
    shown = await hands_for(service.ctx).open(query, data, toast=answer.text)
    if shown is None or query.message is None:
        return answer
    service.table.kick(query.message.chat.id)  # the table follows how he sees his hand
    return shown


async def hand_button(query: CallbackQuery, callback_data: PlayCB, service: GameService) -> None:
    """«🀄 Мои фишки»: his hand ephemerally (or the fallback's popup)."""
    msg = query.message
    if msg is None:
        await query.answer(user_translator(service, query.from_user)("press.old_button"))
        return
    answer = await hands_for(service.ctx).open(query, callback_data)
    if answer is not None:
        service.table.kick(msg.chat.id)  # the table's keyboard follows how he sees his hand
    else:  # not a private-hand game, an old button...: the table's answer
        answer = await service.play_press(
            msg.chat.id, query.from_user.id, msg.message_id or None, callback_data
        )
    await query.answer(answer.text, show_alert=answer.alert)


async def ephemeral_button(
    query: CallbackQuery, callback_data: PlayCB, service: GameService
) -> None:
    """A button of his ephemeral hand in the group."""
    msg = query.message
    assert msg is not None
    await _press(query, service, msg.chat.id, callback_data)


async def private_button(query: CallbackQuery, callback_data: HandCB, service: GameService) -> None:
    """A hand button in his private chat (the fallback): a press in the group's game."""
    data = PlayCB(g=callback_data.g, s=callback_data.s, c=callback_data.c)
    await _press(query, service, callback_data.ch, data)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only); before the
    table's (bot/handlers/play.py), which answers every other PlayCB."""
    router = Router(name="hand")
    router.callback_query.register(hand_button, PlayCB.filter(F.c == HAND))
    router.callback_query.register(
        ephemeral_button, PlayCB.filter(), F.message.ephemeral_message_id
    )
    router.callback_query.register(private_button, HandCB.filter())
    return router
