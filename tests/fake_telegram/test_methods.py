"""Bot API methods called by a real aiogram Bot: shapes, stored state and Telegram's errors."""

from __future__ import annotations

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BufferedInputFile,
    ChatMemberAdministrator,
    ChatMemberMember,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)

from fake_telegram import FakeTelegram, FloodLimit

from .echo_bot import png


def keyboard(*pairs: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=t, callback_data=d) for t, d in pairs]]
    )


async def test_get_me_and_commands(tg: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.id == tg.bot_id and me.username == "nastolka_bot" and me.is_bot
    commands = [BotCommand(command="new", description="Новая игра")]
    assert await bot.set_my_commands(commands)
    assert await bot.set_my_commands(
        [BotCommand(command="stop", description="Стоп")], scope=BotCommandScopeAllGroupChats()
    )
    assert [(c.command, c.description) for c in await bot.get_my_commands()] == [
        ("new", "Новая игра")
    ]
    assert [c.command for c in await bot.get_my_commands(scope=BotCommandScopeAllGroupChats())] == [
        "stop"
    ]
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Новая", description="x")])


async def test_send_photo_upload_and_file_id(tg: FakeTelegram, bot: Bot) -> None:
    chat = tg.group()
    picture = png("green", (1000, 500))
    sent = await bot.send_photo(chat.id, BufferedInputFile(picture, "t.png"), caption="Стол")
    assert sent.photo is not None and sent.photo[-1].width == 1000
    assert [(p.width, p.height) for p in sent.photo] == [
        (90, 45),
        (320, 160),
        (800, 400),
        (1000, 500),
    ]
    assert chat.message(sent.message_id).photo_bytes == picture

    again = await bot.send_photo(chat.id, sent.photo[-1].file_id)
    assert chat.message(again.message_id).photo_bytes == picture
    assert (
        again.photo is not None and again.photo[-1].file_unique_id == sent.photo[-1].file_unique_id
    )

    downloaded = await bot.download(sent.photo[-1].file_id)
    assert downloaded is not None and downloaded.read() == picture

    with pytest.raises(TelegramBadRequest, match="wrong file identifier"):
        await bot.send_photo(chat.id, "no-such-file-id")
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await bot.send_photo(chat.id, BufferedInputFile(b"not an image", "x.png"))
    with pytest.raises(TelegramBadRequest, match="caption is too long"):
        await bot.send_photo(chat.id, sent.photo[-1].file_id, caption="я" * 1025)


async def test_edits_of_media_caption_and_markup(tg: FakeTelegram, bot: Bot) -> None:
    chat = tg.group()
    sent = await bot.send_photo(
        chat.id,
        BufferedInputFile(png("red"), "a.png"),
        caption="v1",
        reply_markup=keyboard(("A", "a")),
    )
    stored = chat.message(sent.message_id)

    edited = await bot.edit_message_media(
        chat_id=chat.id,
        message_id=sent.message_id,
        media=InputMediaPhoto(media=BufferedInputFile(png("blue"), "b.png"), caption="v2"),
        reply_markup=keyboard(("B", "b")),
    )
    assert not isinstance(edited, bool) and edited.caption == "v2"
    assert stored.photo_bytes == png("blue") and stored.buttons == [[("B", "b")]]

    await bot.edit_message_caption(
        chat_id=chat.id, message_id=sent.message_id, caption="v3", reply_markup=keyboard(("B", "b"))
    )
    assert stored.caption == "v3" and stored.photo_bytes == png("blue")

    await bot.edit_message_reply_markup(
        chat_id=chat.id, message_id=sent.message_id, reply_markup=keyboard(("C", "c"))
    )
    assert stored.buttons == [[("C", "c")]] and stored.caption == "v3"

    # like Telegram: an edit without reply_markup removes the keyboard
    await bot.edit_message_caption(chat_id=chat.id, message_id=sent.message_id, caption="v4")
    assert stored.buttons == [] and stored.edit_count == 4
    assert [version[1] for version in stored.history] == ["v1", "v2", "v3", "v3"]

    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_caption(chat_id=chat.id, message_id=sent.message_id, caption="v4")
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await bot.edit_message_text(text="x", chat_id=chat.id, message_id=sent.message_id)
    assert stored.edit_count == 4
    assert len(chat.calls("editMessageCaption")) == 3
    assert [c.ok for c in chat.calls("editMessageCaption")] == [True, True, False]


async def test_text_messages_edit_delete_and_unknown_ids(tg: FakeTelegram, bot: Bot) -> None:
    chat = tg.group()
    sent = await bot.send_message(chat.id, "  <b>Ход</b> Ани  ", parse_mode="HTML")
    assert sent.text == "Ход Ани"
    assert sent.entities is not None and sent.entities[0].type == "bold"

    await bot.edit_message_text(text="Ход Бориса", chat_id=chat.id, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(text="Ход Бориса", chat_id=chat.id, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text(text="x", chat_id=chat.id, message_id=12345)

    assert await bot.delete_message(chat.id, sent.message_id)
    assert chat.message(sent.message_id).deleted and chat.messages == []
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(chat.id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text(text="y", chat_id=chat.id, message_id=sent.message_id)

    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(chat.id, "я" * 4097)
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_message(chat.id, "   ")
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message(chat.id, "<script>Вася</script>", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(-42, "x")


async def test_delete_messages_skips_what_it_cannot_delete(tg: FakeTelegram, bot: Bot) -> None:
    """deleteMessages: 1–100 ids; unknown ones, deleted ones and (the bot not an admin) a
    member's message are skipped, and the call still succeeds."""
    anna = tg.user(1, "Аня")
    chat = tg.group(members=[anna])
    mine = [(await bot.send_message(chat.id, f"Отказ {i}")).message_id for i in range(3)]
    hers = await chat.send(anna, "/new")
    await bot.delete_message(chat.id, mine[2])
    assert await bot.delete_messages(chat.id, [*mine, hers.message_id, 9999])
    assert all(chat.message(m).deleted for m in mine)
    assert not hers.deleted and chat.messages == [hers]
    with pytest.raises(TelegramBadRequest, match="MESSAGE_IDS_INVALID"):
        await bot.delete_messages(chat.id, [])
    with pytest.raises(TelegramBadRequest, match="MESSAGE_IDS_INVALID"):
        await bot.delete_messages(chat.id, list(range(1, 102)))


async def test_callback_data_is_limited_to_64_bytes(tg: FakeTelegram, bot: Bot) -> None:
    chat = tg.group()
    ok = "я" * 32  # 64 bytes in UTF-8
    await bot.send_message(chat.id, "ok", reply_markup=keyboard(("x", ok)))
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.send_message(chat.id, "too long", reply_markup=keyboard(("x", ok + "a")))
    assert [m.text for m in chat.messages] == ["ok"]


async def test_answer_callback_query_is_recorded(tg: FakeTelegram, bot: Bot) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()
    sent = await bot.send_message(chat.id, "?", reply_markup=keyboard(("Да", "yes")))
    record = await chat.tap(anna, chat.message(sent.message_id), "Да")
    assert record.data == "yes" and not record.answered
    assert await bot.answer_callback_query(record.id, text="Принято", show_alert=True)
    answer = await tg.answer_of(record)
    assert (answer.text, answer.show_alert) == ("Принято", True)
    assert record.answered_at is not None and answer.latency >= 0
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(record.id, text="again")
    with pytest.raises(TelegramBadRequest, match="query ID is invalid"):
        await bot.answer_callback_query("123")
    assert len(chat.calls("answerCallbackQuery")) == 2  # the unknown query has no chat
    assert len(tg.calls("answerCallbackQuery")) == 3


async def test_flood_limit_gives_retry_after() -> None:
    async with FakeTelegram(flood_limit=FloodLimit(count=3, window=30.0)) as tg:
        flood_bot = tg.make_bot()
        chat = tg.group()
        try:
            for n in range(3):
                await flood_bot.send_message(chat.id, f"#{n}")
            with pytest.raises(TelegramRetryAfter) as raised:
                await flood_bot.send_message(chat.id, "#3")
            assert 1 <= raised.value.retry_after <= 30
            other = tg.group()
            await flood_bot.send_message(other.id, "другой чат не тронут")
        finally:
            await flood_bot.session.close()


async def test_injected_errors(tg: FakeTelegram, bot: Bot) -> None:
    chat = tg.group()
    tg.server.inject_error(
        "sendMessage", 429, "Too Many Requests: retry after 7", retry_after=7, chat_id=chat.id
    )
    with pytest.raises(TelegramRetryAfter) as raised:
        await bot.send_message(chat.id, "x")
    assert raised.value.retry_after == 7
    await bot.send_message(chat.id, "x")  # only once


async def test_private_chats_need_start(tg: FakeTelegram, bot: Bot) -> None:
    boris = tg.user(2, "Борис")
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation"):
        await bot.send_message(boris.id, "Ваши фишки")
    private = await tg.start_private(boris)
    await bot.send_message(boris.id, "Ваши фишки")
    last = private.last_message()
    assert last is not None
    assert last.text == "Ваши фишки"
    tg.block(boris)
    with pytest.raises(TelegramForbiddenError, match="blocked by the user"):
        await bot.send_message(boris.id, "ещё")


async def test_membership_migration_and_removal(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
    group = tg.group(supergroup=False, members=[boris], admins=[anna], bot_admin=True)
    member = await bot.get_chat_member(group.id, boris.id)
    assert isinstance(member, ChatMemberMember)
    admins = await bot.get_chat_administrators(group.id)
    assert {a.user.id for a in admins} == {anna.id, tg.bot_id}
    assert all(isinstance(a, ChatMemberAdministrator) for a in admins)
    info = await bot.get_chat(group.id)
    assert info.type == "group" and info.title == "Настольщики"

    supergroup = await group.migrate_to_supergroup(anna)
    with pytest.raises(TelegramMigrateToChat) as raised:
        await bot.send_message(group.id, "x")
    assert raised.value.migrate_to_chat_id == supergroup.id
    await bot.send_message(supergroup.id, "x")

    await supergroup.remove_bot(anna)
    with pytest.raises(TelegramForbiddenError, match="kicked"):
        await bot.send_message(supergroup.id, "y")
    await supergroup.add_bot(anna)
    await bot.send_message(supergroup.id, "снова здесь")
    assert await bot.leave_chat(supergroup.id)
    with pytest.raises(TelegramForbiddenError, match="not a member"):
        await bot.send_chat_action(supergroup.id, "typing")


async def test_raw_http_json_bodies_and_errors(tg: FakeTelegram, bot: Bot) -> None:
    chat = tg.group()
    base = f"{tg.api_url}/bot{tg.token}"
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{base}/sendMessage", json={"chat_id": chat.id, "text": "json"}) as r:
            body = await r.json()
        assert body["ok"] and body["result"]["text"] == "json"
        assert body["result"]["from"]["id"] == tg.bot_id
        async with http.post(f"{base}/noSuchMethod", json={}) as r:
            assert r.status == 404
            assert await r.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
        async with http.get(f"{tg.api_url}/bot1:wrong/getMe") as r:
            assert r.status == 401
    bad_bot = Bot("1:wrong", session=bot.session)
    with pytest.raises(TelegramUnauthorizedError):
        await bad_bot.get_me()


async def test_unimplemented_methods_are_loud(tg: FakeTelegram, bot: Bot) -> None:
    chat = tg.group()
    with pytest.raises(TelegramNotFound):
        await bot.send_dice(chat.id)
