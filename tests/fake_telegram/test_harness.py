"""The simulated-users API itself and the text formatting the server applies."""

from __future__ import annotations

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Update,
)

from fake_telegram import FakeTelegram, FormattingError, apply_formatting

from .echo_bot import png


def test_html_formatting_uses_utf16_offsets() -> None:
    text, entities = apply_formatting("🎲 <b>Ход</b> &lt;Ани&gt;", "HTML")
    assert text == "🎲 Ход <Ани>"
    assert entities == [{"type": "bold", "offset": 3, "length": 3}]  # the die is 2 units
    with pytest.raises(FormattingError, match='Unsupported start tag "script"'):
        apply_formatting("<script>", "HTML")
    with pytest.raises(FormattingError, match="Can't find end tag"):
        apply_formatting("<b>жирный", "HTML")


def test_markdown_formatting() -> None:
    assert apply_formatting("*Ход* \\#1\\.", "MarkdownV2") == (
        "Ход #1.",
        [{"type": "bold", "offset": 0, "length": 3}],
    )
    with pytest.raises(FormattingError, match=r"Character '\.' is reserved"):
        apply_formatting("Счёт 3.5", "MarkdownV2")
    with pytest.raises(FormattingError, match="Can't find end of the entity"):
        apply_formatting("user_name", "Markdown")
    assert apply_formatting("plain *not* parsed", None) == ("plain *not* parsed", [])


async def test_every_helper_update_parses_as_aiogram_update(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris = tg.user(1, "Аня", "anna"), tg.user(2, "Борис", last_name="Б.")
    group = tg.group(supergroup=False, bot_admin=True)  # admins see every message
    channel = tg.channel()
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Ок", callback_data="ok")]]
    )
    sent = await bot.send_message(group.id, "кнопка", reply_markup=markup)
    message = group.message(sent.message_id)
    own = await group.send(anna, "/new@nastolka_bot @boris_b привет", reply_to=message)
    await group.edit(anna, own, "/new исправлено")
    await group.tap(boris, message, "Ок")
    await group.user_joins(boris)
    await group.user_leaves(boris)
    await group.send_anonymous("аноним")
    await group.send_as_channel(channel, "от канала")
    await channel.post("пост")
    new_group = await group.migrate_to_supergroup(anna)
    await new_group.remove_bot(anna)
    await new_group.add_bot(anna, admin=True)
    await tg.start_private(boris, "payload")
    kinds = []
    for record in tg.updates:
        update = Update.model_validate(record.to_api(), context={"bot": bot})
        kinds.append(update.event_type)
    assert kinds == [
        "message",
        "edited_message",
        "callback_query",
        "message",
        "message",
        "message",
        "message",
        "channel_post",
        "message",
        "message",
        "my_chat_member",  # the kicked bot gets no service message about it
        "my_chat_member",
        "message",
        "message",
    ]
    first = tg.updates[0].payload["message"]
    assert first["reply_to_message"]["message_id"] == sent.message_id
    assert [e["type"] for e in first["entities"]] == ["bot_command", "mention"]


async def test_transcript_wait_message_and_stale_buttons(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group(title="Стол")
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Ход", callback_data="v1:move")]]
    )
    sent = await bot.send_message(chat.id, "Ваш ход", reply_markup=markup)
    message = chat.message(sent.message_id)
    await bot.edit_message_reply_markup(chat_id=chat.id, message_id=sent.message_id)
    assert message.buttons == []
    with pytest.raises(LookupError):
        await chat.tap(anna, message, by_data="v1:move")
    stale = await chat.tap(anna, message, by_data="v1:move", check=False)
    assert tg.updates[-1].payload["callback_query"]["data"] == "v1:move"
    assert not stale.answered

    waiter = chat.wait_message(lambda m: "итог" in m.content, timeout=2)
    await bot.send_message(chat.id, "не то")
    await bot.send_message(chat.id, "итог раунда")
    found = await waiter
    assert found.text == "итог раунда"
    assert "[1] 🤖: Ваш ход (edited ×1)" in chat.transcript()
    assert chat.last_message() is found
    assert chat.last_message(from_bot=False) is None
    with pytest.raises(TimeoutError, match="Стол"):
        await chat.wait_message(timeout=0.1)
    with pytest.raises(TimeoutError, match="settle"):  # no bot takes the queued callback
        await tg.settle(timeout=0.1)


async def test_privacy_mode_filters_group_messages(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()  # the bot is a plain member
    said = await bot.send_message(chat.id, "Введите число")
    await chat.send(anna, "просто болтовня")
    await chat.send(anna, "/echo@other_bot чужая команда")
    await chat.send(anna, "/echo моя")
    await chat.send(anna, f"/echo@{tg.bot_username} адресная")
    await chat.send(anna, "7", reply_to=chat.message(said.message_id))
    texts = [u.payload["message"]["text"] for u in tg.updates]
    assert texts == ["/echo моя", f"/echo@{tg.bot_username} адресная", "7"]
    assert len(chat.messages) == 6  # the users still see everything

    private = tg.private(anna)
    await private.send(anna, "привет")  # private chats: everything, and the bot may answer
    await bot.send_message(anna.id, "Здравствуйте")
    assert private.last_message() is not None


async def test_listeners_snapshot_and_file_retention() -> None:
    async with FakeTelegram(keep_files=False) as tg:
        local_bot = tg.make_bot()
        try:
            calls: list[str] = []
            updates: list[str] = []
            remove = tg.server.add_listener(
                on_call=lambda call: calls.append(call.method),
                on_update=lambda record: updates.append(record.type),
            )
            anna = tg.user(1, "Аня")
            chat = tg.group(bot_admin=True)
            first = await local_bot.send_photo(chat.id, BufferedInputFile(png("red"), "a.png"))
            assert first.photo is not None
            old_id = first.photo[-1].file_id
            await local_bot.edit_message_media(
                chat_id=chat.id,
                message_id=first.message_id,
                media=InputMediaPhoto(media=BufferedInputFile(png("blue"), "b.png")),
            )
            await chat.send(anna, "ход")
            remove()
            await local_bot.send_message(chat.id, "после отписки")
            assert calls == ["sendPhoto", "editMessageMedia"]
            assert updates == ["message"]

            # the replaced picture is forgotten (keep_files=False), the current one is served
            with pytest.raises(TelegramBadRequest, match="wrong file identifier"):
                await local_bot.send_photo(chat.id, old_id)
            view = tg.server.snapshot(chat.id)["chats"][0]
            assert [m["from"]["name"] for m in view["messages"]] == [
                tg.bot_user["first_name"],
                "Аня",
                tg.bot_user["first_name"],
            ]
            table = view["messages"][0]
            assert table["edit_count"] == 1 and table["photo"]["width"] == 640
            async with (
                aiohttp.ClientSession() as http,
                http.get(tg.api_url + table["photo"]["url"]) as response,
            ):
                assert response.content_type == "image/png"
                assert await response.read() == png("blue")
        finally:
            await local_bot.session.close()
