"""Ephemeral messages (Bot API 10.2) in the fake server, driven by a real aiogram Bot."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)

from fake_telegram import Chat, FakeTelegram, FloodLimit, User
from fake_telegram.ephemeral import UNAVAILABLE, ephemeral_id

ONE_BUTTON = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Ещё", callback_data="more")]]
)


async def register(bot: Bot) -> None:
    commands = [
        BotCommand(command="rules", description="Правила", is_ephemeral=True),
        BotCommand(command="new", description="Новая игра"),
    ]
    await bot.set_my_commands(commands, scope=BotCommandScopeAllGroupChats())


async def incoming(bot: Bot, chat: Chat, user: User, text: str = "/rules") -> Message:
    """`user` sends an ephemeral command; the bot's update for it."""
    await chat.send_ephemeral(user, text)
    updates = await bot.get_updates(offset=-1, timeout=1)
    await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)  # confirm it
    message = updates[-1].message
    assert message is not None
    return message


async def reply(bot: Bot, chat_id: int, to: Message, text: str, **kw: Any) -> Message:
    assert to.from_user is not None and to.ephemeral_message_id is not None
    return await bot.send_message(
        chat_id,
        text,
        ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=to.from_user.id),
        reply_parameters=ReplyParameters(ephemeral_message_id=to.ephemeral_message_id),
        **kw,
    )


async def test_an_ephemeral_command_and_its_reply_are_seen_by_the_asker_alone(
    tg: FakeTelegram, bot: Bot
) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
    chat = tg.group(members=[anna, boris])
    await register(bot)
    command = await incoming(bot, chat, anna)
    assert command.message_id == 0 and command.ephemeral_message_id == 1
    assert command.text == "/rules" and command.from_user and command.from_user.id == anna.id
    assert command.receiver_user is not None and command.receiver_user.id == tg.bot_id
    sent = await reply(
        bot, chat.id, command, "<b>Правила</b>", parse_mode="HTML", reply_markup=ONE_BUTTON
    )
    assert sent.message_id == 0 and sent.ephemeral_message_id == 2
    assert sent.receiver_user is not None and sent.receiver_user.id == anna.id
    assert sent.text == "Правила"  # parse_mode applied as for any message
    # the group's history and Борис see nothing; Аня sees her command and the reply
    assert chat.messages == [] and chat.ephemeral(boris) == []
    seen = chat.ephemeral(anna)
    assert [m.content for m in seen] == ["/rules", "Правила"]
    assert [ephemeral_id(m) for m in seen] == [1, 2] and seen[1].button_texts == ["Ещё"]
    # edited and deleted by its ephemeral id (and the receiver's)
    assert await bot.edit_ephemeral_message_text(
        chat_id=chat.id, receiver_user_id=anna.id, ephemeral_message_id=2, text="Правила, v2"
    )
    assert seen[1].content == "Правила, v2" and seen[1].edit_count == 1
    assert seen[1].buttons == []  # no reply_markup: the keyboard is removed, as usual
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_ephemeral_message_text(
            chat_id=chat.id, receiver_user_id=boris.id, ephemeral_message_id=2, text="x"
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_ephemeral_message_text(
            chat_id=chat.id, receiver_user_id=anna.id, ephemeral_message_id=2, text="Правила, v2"
        )
    assert await bot.delete_ephemeral_message(
        chat_id=chat.id, receiver_user_id=anna.id, ephemeral_message_id=2
    )
    assert [m.content for m in chat.ephemeral(anna)] == ["/rules"]
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_ephemeral_message(
            chat_id=chat.id, receiver_user_id=anna.id, ephemeral_message_id=2
        )


async def test_what_telegram_refuses(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
    chat = tg.group(members=[anna, boris])
    await register(bot)
    with pytest.raises(ValueError, match="not a command the bot registered as ephemeral"):
        await chat.send_ephemeral(anna, "/new")
    command = await incoming(bot, chat, anna)
    # a reply to an ephemeral message must be ephemeral
    with pytest.raises(TelegramBadRequest, match="must be an ephemeral message"):
        await bot.send_message(
            chat.id, "x", reply_parameters=ReplyParameters(ephemeral_message_id=1)
        )
    # ... addressed to the one who sent it
    with pytest.raises(TelegramBadRequest, match="ephemeral message to be replied not found"):
        await bot.send_message(
            chat.id,
            "x",
            ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=boris.id),
            reply_parameters=ReplyParameters(ephemeral_message_id=1),
        )
    # ... and only in answer to something of his
    with pytest.raises(TelegramBadRequest, match="only in reply to an ephemeral message"):
        await bot.send_message(
            chat.id,
            "x",
            ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=anna.id),
        )
    tg.private(anna)  # she may be written to privately, but not ephemerally
    tg.server.started.add(anna.id)
    with pytest.raises(TelegramBadRequest, match="only to group chats"):
        await bot.send_message(
            anna.id,
            "x",
            ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=anna.id),
        )
    # within 15 s of his message
    tg.server.ephemeral.reply_window = 0.0
    with pytest.raises(TelegramBadRequest, match="too old"):
        await reply(bot, chat.id, command, "поздно")
    tg.server.ephemeral.reply_window = 15.0
    # the switch for fallbacks
    tg.server.ephemeral.fail = True
    with pytest.raises(TelegramBadRequest, match=UNAVAILABLE):
        await reply(bot, chat.id, command, "x")
    tg.server.ephemeral.fail = False
    assert (await reply(bot, chat.id, command, "вовремя")).ephemeral_message_id == 2
    assert chat.messages == []


async def test_an_ephemeral_message_for_a_callback_query(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
    chat = tg.group(members=[anna, boris])
    table = await bot.send_message(chat.id, "Стол", reply_markup=ONE_BUTTON)
    record = await chat.tap(anna, chat.message(table.message_id), "Ещё")

    def for_(user: User) -> EphemeralMessageParameters:
        return EphemeralMessageParameters(receiver_user_id=user.id, callback_query_id=record.id)

    with pytest.raises(TelegramBadRequest, match="callback query not found"):
        await bot.send_message(chat.id, "x", ephemeral_message_parameters=for_(boris))
    hand = await bot.send_message(chat.id, "Ваши фишки", ephemeral_message_parameters=for_(anna))
    assert hand.ephemeral_message_id == 1
    assert [m.content for m in chat.ephemeral(anna)] == ["Ваши фишки"]
    assert chat.ephemeral(boris) == [] and len(chat.messages) == 1


async def test_ephemeral_messages_are_outside_the_flood_window() -> None:
    async with FakeTelegram(flood_limit=FloodLimit(count=1, window=30.0)) as tg:
        bot = tg.make_bot()
        try:
            anna = tg.user(1, "Аня")
            chat = tg.group(members=[anna])
            await register(bot)
            await bot.send_message(chat.id, "одно сообщение окна")
            command = await incoming(bot, chat, anna)
            for n in range(3):
                await reply(bot, chat.id, command, f"эфемерное {n}")
            await bot.edit_ephemeral_message_text(
                chat_id=chat.id, receiver_user_id=anna.id, ephemeral_message_id=2, text="правка"
            )
            with pytest.raises(TelegramRetryAfter):
                await bot.send_message(chat.id, "второе в окне")
            assert len(chat.ephemeral(anna)) == 4
        finally:
            await bot.session.close()
