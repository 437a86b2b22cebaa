"""The real aiogram bot, long polling the fake server, driven by simulated users."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from aiogram import Bot

from fake_telegram import CallbackNotAnswered, FakeTelegram
from fake_telegram.server import StoredMessage

from .echo_bot import EchoState, make_echo_dispatcher, png


async def test_commands_reach_the_bot_with_entities(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group(title="Настольщики")
    async with tg.polling(make_echo_dispatcher(EchoState()), bot):
        sent = await chat.send(anna, "/echo привет всем")
        reply = await chat.wait_message()
        assert reply.text == "привет всем"
        assert reply.from_bot and reply.from_user == {**tg.bot_user}
        assert sent.entities == [{"type": "bot_command", "offset": 0, "length": 5}]

        await chat.send(anna, f"/echo@{tg.bot_username} адресно")
        assert (await chat.wait_message()).text == "адресно"

        # a command addressed to another bot is not ours: aiogram's Command filter skips it
        await chat.send(anna, "/echo@other_bot чужое")
        await tg.settle()
        last = chat.last_message()
        assert last is not None and last.text == "адресно"


async def test_lobby_photo_buttons_and_edits(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис", username="boris")
    chat = tg.group()
    state = EchoState()
    async with tg.polling(make_echo_dispatcher(state), bot):
        await chat.send(anna, "/new семидорожник")
        lobby = await chat.wait_message()
        assert lobby.caption == "Лобби семидорожник"
        assert lobby.photo_bytes == png("red")
        assert lobby.buttons[0] == [("Играть", "join"), ("Выйти", "leave")]

        answer = await chat.press(anna, lobby, "Играть")
        assert answer.text == "Вы в игре" and not answer.show_alert
        await chat.wait_for(lambda: lobby.caption == "Лобби: Аня")

        await chat.press(boris, lobby, by_data="join")
        await chat.wait_for(lambda: lobby.caption == "Лобби: Аня, Борис")
        assert lobby.edit_count == 2

        alert = await chat.press(boris, lobby, contains="Мои фишки")
        assert alert.show_alert and alert.text == "Ваши фишки: 3-5, 6-6"

        await chat.press(anna, lobby, "Доска")
        await chat.wait_for(lambda: lobby.photo_bytes == png("blue"))
        assert lobby.caption == "Лобби: Аня, Борис"  # the new media carried the caption
        assert [c.method for c in chat.calls()] == [
            "sendPhoto",
            "answerCallbackQuery",
            "editMessageCaption",
            "answerCallbackQuery",
            "editMessageCaption",
            "answerCallbackQuery",
            "answerCallbackQuery",
            "editMessageMedia",
        ]
        assert len(tg.callbacks) == 4 and all(c.answered for c in tg.callbacks)


async def test_not_modified_reaches_the_bot_as_bad_request(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()
    state = EchoState()
    async with tg.polling(make_echo_dispatcher(state), bot):
        await chat.send(anna, "/new")
        lobby = await chat.wait_message()
        await chat.press(anna, lobby, "Выйти")
        await chat.wait_edit(lobby, since=0)
        await chat.press(anna, lobby, "Выйти")  # nobody joined: the same caption again
        await chat.wait_for(lambda: state.errors)
    assert "message is not modified" in str(state.errors[0])
    assert type(state.errors[0]).__name__ == "TelegramBadRequest"
    assert lobby.edit_count == 1


async def test_callback_answered_twice_is_refused(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()
    state = EchoState()
    async with tg.polling(make_echo_dispatcher(state), bot):
        message = await bot.send_message(chat.id, "старое сообщение")
        stored = chat.message(message.message_id)
        answer = await chat.press(anna, stored, by_data="twice", check=False)
        assert answer.text == "раз"
        await chat.wait_for(lambda: state.errors)
    assert "query is too old" in str(state.errors[0])


async def test_unanswered_callback_is_reported(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()
    async with tg.polling(make_echo_dispatcher(EchoState()), bot):
        message = await bot.send_message(chat.id, "x")
        with pytest.raises(CallbackNotAnswered, match="silent"):
            await chat.press(
                anna, chat.message(message.message_id), by_data="silent", check=False, timeout=0.3
            )


async def test_pressing_a_missing_button_is_a_test_error(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()
    message = await bot.send_message(chat.id, "без кнопок")
    with pytest.raises(LookupError, match="Играть"):
        await chat.press(anna, chat.message(message.message_id), "Играть")


async def test_private_chat_start_and_deep_link(tg: FakeTelegram, bot: Bot) -> None:
    boris = tg.user(2, "Борис")
    async with tg.polling(make_echo_dispatcher(EchoState()), bot):
        private = await tg.follow_link(boris, f"https://t.me/{tg.bot_username}?start=hand_42")
        greeting = await private.wait_message(after=0)
        assert greeting.text == "Привет! payload=hand_42"
        assert private.type == "private" and tg.chat(boris.id) is private


async def test_hostile_updates_are_well_formed(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "<b>Аня</b>")
    group = tg.group(supergroup=False, title="Старая группа", bot_admin=True)
    channel = tg.channel(title="Новости")
    state = EchoState()
    async with tg.polling(make_echo_dispatcher(state), bot):
        await group.send_anonymous("я админ")
        await group.send_as_channel(channel, "я канал")
        await channel.post("пост")
        await tg.push_update(
            {
                "message": {
                    "message_id": 999,
                    "date": 0,
                    "chat": group.state.to_api(),
                    "from": anna.to_api(),
                    "text": "сырой апдейт",
                }
            }
        )
        await tg.wait_for(lambda: len(state.messages) == 4)
        anonymous, as_channel, post, raw = state.messages
        assert anonymous.sender_chat is not None and anonymous.sender_chat.id == group.id
        assert anonymous.from_user is not None and anonymous.from_user.username == (
            "GroupAnonymousBot"
        )
        assert as_channel.sender_chat is not None and as_channel.sender_chat.id == channel.id
        assert post.chat.type == "channel" and post.from_user is None
        assert raw.text == "сырой апдейт"

        supergroup = await group.migrate_to_supergroup(anna)
        await tg.wait_for(lambda: len(state.messages) == 6)
        assert state.messages[4].migrate_to_chat_id == supergroup.id
        assert state.messages[5].migrate_from_chat_id == group.id

        await supergroup.remove_bot(anna)
        await tg.wait_for(lambda: state.member_updates)
        update = state.member_updates[0]
        assert update.new_chat_member.status == "kicked"
        assert update.old_chat_member.status == "administrator"


def text_is(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: m.text == text


async def test_polling_restart_keeps_unconfirmed_updates(tg: FakeTelegram) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()
    await chat.send(anna, "/echo до запуска")  # queued while no bot runs
    for text in ("первый", "второй"):
        bot = tg.make_bot()
        async with tg.polling(make_echo_dispatcher(EchoState()), bot):
            await chat.send(anna, f"/echo {text}")
            await chat.wait_message(text_is(text), after=0)
    assert [m.text for m in chat.bot_messages] == ["до запуска", "первый", "второй"]
    await asyncio.sleep(0)
