"""Telegram's flood limits in the fake server (limits.py), driven by a real aiogram Bot.

Most tests freeze the limits' clock (``server.clock``) and move it on by hand, so they
neither wait nor depend on the machine's speed; one test waits out a real hold.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter
from aiogram.types import (
    BufferedInputFile,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from fake_telegram import CallbackRecord, Chat, FakeBotApi, FakeTelegram, FloodLimit, User
from fake_telegram.ephemeral import REPLACE_EPHEMERAL, REPLACE_NEEDS_QUERY
from fake_telegram.limits import classify
from fake_telegram.state import GROUP_WINDOW_ENV

from .echo_bot import png

SMALL = FloodLimit(count=3, window=1.0)
ONE_BUTTON = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Ещё", callback_data="more")]]
)


class Clock:
    """A clock for the limits that stands still until the test moves it."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@contextlib.asynccontextmanager
async def fake(clock: Clock, **options: Any) -> AsyncIterator[tuple[FakeTelegram, Bot]]:
    """A running fake Telegram with ``options``, its limits on ``clock``, and a bot."""
    async with FakeTelegram(**options) as tg:
        tg.server.clock = clock
        bot = tg.make_bot()
        try:
            yield tg, bot
        finally:
            await bot.session.close()


async def until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait (generously) for a condition that time alone makes true."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


def for_(
    user: User, record: CallbackRecord, *, replace: bool = False
) -> EphemeralMessageParameters:
    return EphemeralMessageParameters(
        receiver_user_id=user.id,
        callback_query_id=record.id,
        replace_callback_query_message=replace or None,
    )


async def pressed(bot: Bot, chat: Chat, user: User) -> tuple[Message, CallbackRecord]:
    """A message of the bot with a button in ``chat``, and ``user``'s press on it."""
    table = await bot.send_message(chat.id, "Стол", reply_markup=ONE_BUTTON)
    return table, await chat.tap(user, chat.message(table.message_id), "Ещё")


# ------------------------------------------------------------------ defaults


async def test_the_limits_are_on_by_default_and_none_turns_them_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(GROUP_WINDOW_ENV, raising=False)
    tg = FakeTelegram()
    assert tg.server.flood_limit == FloodLimit(count=20, window=60.0, deletes=True)
    assert tg.server.private_limit == FloodLimit(count=3, window=3.0)
    assert tg.server.global_limit == FloodLimit(count=30, window=1.0)
    assert tg.server.ephemeral_limit is None
    off = FakeTelegram(flood_limit=None, private_limit=None, global_limit=None)
    limits = (off.server.flood_limit, off.server.private_limit, off.server.global_limit)
    assert limits == (None, None, None)
    assert FakeBotApi("1:x").flood_limit == FloodLimit()
    assert FakeBotApi("1:x", flood_limit=None).flood_limit is None
    # a test suite played faster than a human sets the default group window
    monkeypatch.setenv(GROUP_WINDOW_ENV, "6")
    assert FakeTelegram().server.flood_limit == FloodLimit(count=20, window=6.0)
    assert FakeBotApi("1:x", flood_limit=SMALL).flood_limit == SMALL


# ------------------------------------------------------------------ per group


async def test_a_group_has_one_budget_for_sends_and_edits(clock: Clock) -> None:
    async with fake(clock, flood_limit=FloodLimit()) as (tg, bot):  # 20 calls in any 60 s
        chat, other = tg.group(), tg.group()
        picture = BufferedInputFile(png("green", (40, 30)), "t.png")
        first = await bot.send_message(chat.id, "0", reply_markup=ONE_BUTTON)
        photo = await bot.send_photo(chat.id, picture, caption="фото")
        record = await chat.tap(tg.user(1, "Аня"), chat.message(first.message_id), "Ещё")
        calls = 2
        for n in range(9):  # 18 more, mixed, half a second apart
            clock.now += 0.5
            await bot.send_message(chat.id, f"#{n}")
            await bot.edit_message_text(f"v{n}", chat_id=chat.id, message_id=first.message_id)
            calls += 2
        assert calls == 20 and len(chat.state.counted_times) == 20
        # not counted: chat actions, answers, pins, another chat
        await bot.send_chat_action(chat.id, "typing")
        await bot.answer_callback_query(record.id)
        await bot.send_message(other.id, "другой чат")
        # the 21st: an edit, 4.5 s after the first call → retry after ceil(60 - 4.5) = 56
        clock.now += 0.2
        with pytest.raises(TelegramRetryAfter) as raised:
            await bot.edit_message_caption(
                chat_id=chat.id, message_id=photo.message_id, caption="новая"
            )
        assert raised.value.retry_after == 56
        assert chat.state.flood_refused == 1 and tg.server.flood_refused == 1
        assert len(chat.state.counted_times) == 20 and chat.state.flood_hold_until == clock.now + 56
        assert chat.message(photo.message_id).caption == "фото"  # refused before it ran
        # the reply is Telegram's, to the letter
        clock.now += 10.0
        status, body = await tg.server.execute("sendMessage", {"chat_id": chat.id, "text": "x"})
        assert (status, body) == (
            429,
            {
                "ok": False,
                "error_code": 429,
                "description": "Too Many Requests: retry after 46",
                "parameters": {"retry_after": 46},
            },
        )


def test_what_counts() -> None:
    """Every method that posts a new message is a send; every edit of a message an edit."""
    sends = "sendMessage sendPhoto sendDocument sendMediaGroup sendAnimation sendSticker"
    sends += " sendPoll sendDice sendVideo copyMessage copyMessages forwardMessage"
    assert {classify(method, {}) for method in sends.split()} == {("send", False)}
    edits = "editMessageText editMessageCaption editMessageMedia editMessageReplyMarkup"
    edits += " editMessageLiveLocation editMessageChecklist stopPoll stopMessageLiveLocation"
    assert {classify(method, {}) for method in edits.split()} == {("edit", False)}
    assert {classify(m, {}) for m in ("deleteMessage", "deleteMessages")} == {("delete", False)}
    ephemeral = {"ephemeral_message_parameters": {"receiver_user_id": 1}}
    assert classify("sendPhoto", ephemeral) == ("send", True)
    assert classify("editEphemeralMessageText", {}) == ("edit", True)
    assert classify("deleteEphemeralMessage", {}) == ("delete", True)
    never = "sendChatAction sendMessageDraft answerCallbackQuery pinChatMessage"
    never += " unpinChatMessage deleteMyCommands deleteWebhook getChat getUpdates"
    assert {classify(method, {}) for method in never.split()} == {(None, False)}


async def test_deletes_count_unless_switched_off_and_sends_only(clock: Clock) -> None:
    async with fake(clock, flood_limit=SMALL) as (tg, bot):
        chat = tg.group()
        one = await bot.send_message(chat.id, "1")
        await bot.send_message(chat.id, "2")
        await bot.delete_message(chat.id, one.message_id)
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(chat.id, "3")
    no_deletes = FloodLimit(count=3, window=1.0, deletes=False)
    async with fake(clock, flood_limit=no_deletes) as (tg, bot):
        chat = tg.group()
        two = [await bot.send_message(chat.id, str(n)) for n in range(2)]
        await bot.delete_messages(chat.id, [two[0].message_id])
        await bot.edit_message_text("x", chat_id=chat.id, message_id=two[1].message_id)
        await bot.delete_message(chat.id, two[1].message_id)
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(chat.id, "4")
        assert len(chat.state.counted_times) == 3  # two sends and the edit
    sends_only = FloodLimit(count=3, window=1.0, sends_only=True)
    async with fake(clock, flood_limit=sends_only) as (tg, bot):
        chat = tg.group()
        sent = await bot.send_message(chat.id, "1")
        for n in range(5):
            await bot.edit_message_text(f"v{n}", chat_id=chat.id, message_id=sent.message_id)
        await bot.delete_message(chat.id, sent.message_id)
        await bot.send_message(chat.id, "2")
        await bot.send_message(chat.id, "3")
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(chat.id, "4")
        assert len(chat.state.counted_times) == 3


async def test_a_group_that_overruns_is_on_hold(clock: Clock) -> None:
    async with fake(clock, flood_limit=SMALL) as (tg, bot):
        chat = tg.group()
        for n in range(3):
            await bot.send_message(chat.id, str(n))
        clock.now += 0.25
        with pytest.raises(TelegramRetryAfter) as raised:
            await bot.send_message(chat.id, "3")
        assert raised.value.retry_after == 1  # ceil(0.75)
        assert chat.state.flood_hold_until == clock.now + 1
        # 1.1 s after the first calls the window has room, but the chat is on hold still
        clock.now += 0.85
        for attempt in range(3):
            with pytest.raises(TelegramRetryAfter) as raised:
                await bot.send_message(chat.id, f"во время паузы {attempt}")
            assert raised.value.retry_after == 1
        assert chat.state.flood_refused == 4 and tg.server.flood_refused == 4
        assert len(chat.state.counted_times) == 3  # refused calls are not counted
        assert [m.text for m in chat.messages] == ["0", "1", "2"]
        clock.now += 0.15  # the hold is over
        await bot.send_message(chat.id, "после паузы")
        assert len(chat.state.counted_times) == 4 and len(chat.state.sent_times) == 1
    async with fake(clock, flood_limit=FloodLimit(count=3, window=1.0, hold=False)) as (tg, bot):
        chat = tg.group()
        for n in range(3):
            await bot.send_message(chat.id, str(n))
        clock.now += 0.25
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(chat.id, "3")
        clock.now += 0.85  # no hold: the window has room
        await bot.send_message(chat.id, "сразу")


async def test_a_real_hold_is_waited_out() -> None:
    async with FakeTelegram(flood_limit=SMALL) as tg:
        bot = tg.make_bot()
        try:
            chat = tg.group()
            for n in range(3):
                await bot.send_message(chat.id, str(n))
            with pytest.raises(TelegramRetryAfter) as raised:
                await bot.send_message(chat.id, "3")
            assert raised.value.retry_after == 1
            await until(lambda: time.monotonic() >= chat.state.flood_hold_until)
            await bot.send_message(chat.id, "после паузы")
            times = chat.state.counted_times
            assert len(times) == 4 and times[-1] - times[0] >= 1.0
        finally:
            await bot.session.close()


async def test_ephemeral_messages_are_not_in_the_group_budget(clock: Clock) -> None:
    async with fake(clock, flood_limit=SMALL) as (tg, bot):
        anna = tg.user(1, "Аня")
        chat = tg.group(members=[anna])
        _, record = await pressed(bot, chat, anna)  # one counted send
        for n in range(4):
            sent = await bot.send_message(
                chat.id, f"э{n}", ephemeral_message_parameters=for_(anna, record)
            )
            assert sent.ephemeral_message_id is not None
            await bot.edit_ephemeral_message_text(
                chat_id=chat.id,
                receiver_user_id=anna.id,
                ephemeral_message_id=sent.ephemeral_message_id,
                text=f"правка {n}",
            )
            await bot.delete_ephemeral_message(
                chat_id=chat.id,
                receiver_user_id=anna.id,
                ephemeral_message_id=sent.ephemeral_message_id,
            )
        await bot.send_message(chat.id, "2")
        await bot.send_message(chat.id, "3")
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(chat.id, "4")
    # the switch: counted like usual messages
    counting = FloodLimit(count=3, window=1.0, count_ephemeral=True)
    async with fake(clock, flood_limit=counting) as (tg, bot):
        anna = tg.user(1, "Аня")
        chat = tg.group(members=[anna])
        _, record = await pressed(bot, chat, anna)
        await bot.send_message(chat.id, "э", ephemeral_message_parameters=for_(anna, record))
        await bot.send_message(chat.id, "2")
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(chat.id, "э", ephemeral_message_parameters=for_(anna, record))


# ------------------------------------------------------------------ private chats


async def test_a_private_chat_takes_about_a_message_a_second(clock: Clock) -> None:
    async with fake(clock) as (tg, bot):  # the default: 3 new messages in any 3 s
        anna = tg.user(1, "Аня")
        private = await tg.start_private(anna)
        sent = [await bot.send_message(anna.id, str(n)) for n in range(3)]
        for n in range(10):  # edits are free
            await bot.edit_message_text(f"v{n}", chat_id=anna.id, message_id=sent[0].message_id)
        await bot.delete_message(anna.id, sent[2].message_id)
        clock.now += 0.5
        with pytest.raises(TelegramRetryAfter) as raised:
            await bot.send_message(anna.id, "четвёртое")
        assert raised.value.retry_after == 3  # ceil(3 - 0.5)
        assert private.state.flood_refused == 1 and len(private.state.counted_times) == 3
        group = tg.group()
        await bot.send_message(group.id, "группа живёт своим окном")
        clock.now += 3.0  # the hold is over, the window has room
        await bot.send_message(anna.id, "через 3 с")
    async with fake(clock, private_limit=None) as (tg, bot):
        anna = tg.user(1, "Аня")
        await tg.start_private(anna)
        for n in range(10):
            await bot.send_message(anna.id, str(n))


# ------------------------------------------------------------------ the whole bot


async def test_the_bot_wide_limit_counts_new_messages_only(clock: Clock) -> None:
    async with fake(clock, flood_limit=None, global_limit=SMALL) as (tg, bot):
        anna = tg.user(1, "Аня")
        chats = [tg.group(members=[anna]) for _ in range(5)]
        table, record = await pressed(bot, chats[0], anna)
        await bot.send_message(chats[1].id, "2")
        for n in range(10):  # answers, edits, deletes, chat actions: at any rate
            await bot.edit_message_text(f"v{n}", chat_id=chats[0].id, message_id=table.message_id)
            await bot.send_chat_action(chats[n % 5].id, "typing")
        await bot.answer_callback_query(record.id)
        for n in range(5):  # ephemeral sends are not counted by default
            await bot.send_message(
                chats[0].id, f"э{n}", ephemeral_message_parameters=for_(anna, record)
            )
        third = await bot.send_message(chats[2].id, "3")
        await bot.delete_message(chats[2].id, third.message_id)
        with pytest.raises(TelegramRetryAfter) as raised:
            await bot.send_message(chats[3].id, "4")
        assert raised.value.retry_after == 1
        assert tg.server.global_refused == 1 and len(tg.server.global_flood.counted_times) == 3
        assert tg.server.flood_refused == 0
    counting = FloodLimit(count=3, window=1.0, count_ephemeral=True)
    async with fake(clock, flood_limit=None, global_limit=counting) as (tg, bot):
        anna = tg.user(1, "Аня")
        chat = tg.group(members=[anna])
        _, record = await pressed(bot, chat, anna)
        for n in range(2):
            await bot.send_message(
                chat.id, f"э{n}", ephemeral_message_parameters=for_(anna, record)
            )
        with pytest.raises(TelegramRetryAfter):
            await bot.send_message(chat.id, "э", ephemeral_message_parameters=for_(anna, record))
        assert tg.server.global_refused == 1


# ------------------------------------------------------------------ ephemeral, per receiver


async def test_an_ephemeral_limit_per_receiver_is_a_switch(clock: Clock) -> None:
    one = FloodLimit(count=1, window=1.0)
    async with fake(clock, ephemeral_limit=one) as (tg, bot):
        anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
        chat = tg.group(members=[anna, boris])
        table, record = await pressed(bot, chat, anna)
        sent = await bot.send_message(chat.id, "э", ephemeral_message_parameters=for_(anna, record))
        assert sent.ephemeral_message_id is not None
        with pytest.raises(TelegramRetryAfter) as raised:
            await bot.edit_ephemeral_message_text(
                chat_id=chat.id,
                receiver_user_id=anna.id,
                ephemeral_message_id=sent.ephemeral_message_id,
                text="правка",
            )
        assert raised.value.retry_after == 1
        boris_press = await chat.tap(boris, chat.message(table.message_id), "Ещё")
        await bot.send_message(
            chat.id, "Борису", ephemeral_message_parameters=for_(boris, boris_press)
        )
        assert tg.server.ephemeral_refused == 1
        assert tg.server.ephemeral.flood[(chat.id, anna.id)].refused == 1
        assert len(tg.server.ephemeral.flood[(chat.id, boris.id)].counted_times) == 1
        assert chat.state.counted_times == [1000.0]  # the group counted only the table
        clock.now += 1.0  # the hold is over
        await bot.edit_ephemeral_message_text(
            chat_id=chat.id,
            receiver_user_id=anna.id,
            ephemeral_message_id=sent.ephemeral_message_id,
            text="правка",
        )
    async with fake(clock) as (tg, bot):  # off by default
        anna = tg.user(1, "Аня")
        chat = tg.group(members=[anna])
        _, record = await pressed(bot, chat, anna)
        for n in range(10):
            await bot.send_message(
                chat.id, f"э{n}", ephemeral_message_parameters=for_(anna, record)
            )
        assert tg.server.ephemeral_refused == 0


# ------------------------------------------------------------------ replace_callback_query_message


async def test_an_ephemeral_message_in_place_of_the_pressed_one(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
    chat = tg.group(members=[anna, boris])
    sent, record = await pressed(bot, chat, anna)
    table = chat.message(sent.message_id)
    assert chat.seen_by(anna, table) is table
    copy = await bot.send_message(
        chat.id,
        "Ваши фишки",
        ephemeral_message_parameters=for_(anna, record, replace=True),
        reply_markup=ONE_BUTTON,
    )
    assert copy.ephemeral_message_id is not None
    seen = chat.seen_by(anna, table)
    assert seen is not table and seen.content == "Ваши фишки"
    assert seen.extra["replaces_message_id"] == table.message_id
    assert chat.seen_by(boris, table) is table and chat.messages == [table]
    # the fake's note is not a field of Telegram's Message
    result = tg.calls("sendMessage")[-1].result
    assert isinstance(result, dict) and "replaces_message_id" not in result
    # an edit shows in place too; deleting the copy shows the original again
    await bot.edit_ephemeral_message_text(
        chat_id=chat.id,
        receiver_user_id=anna.id,
        ephemeral_message_id=copy.ephemeral_message_id,
        text="v2",
        reply_markup=ONE_BUTTON,
    )
    assert chat.seen_by(anna, table).content == "v2"
    # a press on the copy comes from an ephemeral message: it is edited, never replaced
    from_copy = await chat.tap(anna, seen, "Ещё")
    assert from_copy.ephemeral_message_id == copy.ephemeral_message_id
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_message(
            chat.id, "x", ephemeral_message_parameters=for_(anna, from_copy, replace=True)
        )
    assert refused.value.message == f"Bad Request: {REPLACE_EPHEMERAL}"
    beside = await bot.send_message(
        chat.id, "рядом", ephemeral_message_parameters=for_(anna, from_copy)
    )
    assert (
        "replaces_message_id" not in chat.ephemeral(anna)[-1].extra and beside.ephemeral_message_id
    )
    assert await bot.delete_ephemeral_message(
        chat_id=chat.id, receiver_user_id=anna.id, ephemeral_message_id=copy.ephemeral_message_id
    )
    assert chat.seen_by(anna, table) is table
    # pressing the original is what it always was
    answer_record = await chat.tap(anna, table, "Ещё")
    assert (
        answer_record.message_id == table.message_id and answer_record.ephemeral_message_id is None
    )


async def test_what_replace_callback_query_message_needs(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
    chat = tg.group(members=[anna, boris])
    _, record = await pressed(bot, chat, anna)
    with pytest.raises(TelegramBadRequest, match="callback query not found"):  # not his press
        await bot.send_message(
            chat.id, "x", ephemeral_message_parameters=for_(boris, record, replace=True)
        )
    other = tg.group(members=[anna])
    with pytest.raises(TelegramBadRequest, match="callback query not found"):  # another chat's
        await bot.send_message(
            other.id, "x", ephemeral_message_parameters=for_(anna, record, replace=True)
        )
    tg.server.ephemeral.reply_window = 0.0
    with pytest.raises(TelegramBadRequest, match="the callback query is too old"):
        await bot.send_message(
            chat.id, "x", ephemeral_message_parameters=for_(anna, record, replace=True)
        )
    tg.server.ephemeral.reply_window = 15.0
    # a reply to an ephemeral message has no callback query: nothing to replace
    command = await chat.send_ephemeral(anna, "/rules", check=False)
    status, body = await tg.server.execute(
        "sendMessage",
        {
            "chat_id": chat.id,
            "text": "x",
            "ephemeral_message_parameters": {
                "receiver_user_id": anna.id,
                "replace_callback_query_message": True,
            },
            "reply_parameters": {"ephemeral_message_id": command.extra["ephemeral_message_id"]},
        },
    )
    assert (status, body["description"]) == (400, f"Bad Request: {REPLACE_NEEDS_QUERY}")
