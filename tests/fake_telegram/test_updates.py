"""Update delivery: long polling semantics and webhook mode with aiogram's aiohttp handler."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest
from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramConflictError
from aiogram.filters import Command
from aiogram.methods import SendMessage
from aiogram.types import Message

from fake_telegram import FakeTelegram

from .echo_bot import EchoState, make_echo_dispatcher


async def _get_updates(http: aiohttp.ClientSession, tg: FakeTelegram, **params: Any) -> Any:
    async with http.post(f"{tg.api_url}/bot{tg.token}/getUpdates", json=params) as response:
        body = await response.json()
    assert body["ok"], body
    return body["result"]


async def test_long_polling_offset_and_timeout(tg: FakeTelegram) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group(bot_admin=True)  # an admin bot gets plain messages despite privacy mode
    async with aiohttp.ClientSession() as http:
        started = time.monotonic()
        poll = asyncio.create_task(_get_updates(http, tg, timeout=5))
        await asyncio.sleep(0.05)
        await chat.send(anna, "/echo раз")
        updates = await poll
        assert time.monotonic() - started < 1.0  # answered as soon as the update was queued
        assert len(updates) == 1
        first = updates[0]
        assert first["message"]["text"] == "/echo раз"
        assert first["message"]["from"]["first_name"] == "Аня"
        assert first["message"]["chat"] == {
            "id": chat.id,
            "type": "supergroup",
            "title": chat.title,
        }

        # not confirmed yet: served again; confirmed by a higher offset
        assert await _get_updates(http, tg, offset=first["update_id"]) == [first]
        await chat.send(anna, "два")
        second = await _get_updates(http, tg, offset=first["update_id"] + 1)
        assert [u["message"]["text"] for u in second] == ["два"]
        assert tg.updates[0].confirmed_at is not None

        # allowed_updates filters what the bot gets (and is remembered)
        await chat.send(anna, "три")
        rest = await _get_updates(
            http, tg, offset=second[0]["update_id"] + 1, allowed_updates=["callback_query"]
        )
        assert rest == []

        started = time.monotonic()
        assert await _get_updates(http, tg, timeout=1) == []
        assert 0.9 <= time.monotonic() - started < 2.0


async def test_webhook_mode(tg: FakeTelegram) -> None:
    anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис")
    chat = tg.group()
    state = EchoState()
    bot = tg.make_bot()
    async with tg.webhook(make_echo_dispatcher(state), bot, secret_token="s3cret") as url:
        assert tg.server.webhook_url == url and tg.server.webhook_secret == "s3cret"
        with pytest.raises(TelegramConflictError, match="webhook is active"):
            await bot.get_updates()

        await chat.send(anna, "/new")
        lobby = await chat.wait_message()
        assert (await chat.press(boris, lobby, "Играть")).text == "Вы в игре"
        await chat.wait_for(lambda: lobby.caption == "Лобби: Борис")

        # a wrong secret makes aiogram refuse the update; Telegram keeps retrying it
        tg.server.webhook_secret = "wrong"
        await chat.send(anna, "/echo после ошибки")
        error = await tg.wait_for(lambda: tg.server.webhook_last_error)
        assert "401" in error[1]
        tg.server.webhook_secret = "s3cret"
        reply = await chat.wait_message(lambda m: m.text == "после ошибки", after=lobby)
        assert reply.from_bot
    assert tg.server.webhook_url is None


async def test_webhook_reply_method_is_executed(tg: FakeTelegram) -> None:
    anna = tg.user(1, "Аня")
    chat = tg.group()
    dp = Dispatcher()

    @dp.message(Command("ping"))
    async def ping(message: Message) -> SendMessage:
        return message.answer("понг")  # returned, not awaited: sent in the webhook reply

    bot = tg.make_bot()
    async with tg.webhook(dp, bot, handle_in_background=False):
        await chat.send(anna, "/ping")
        reply = await chat.wait_message()
    assert reply.text == "понг"
    assert [c.via_webhook_reply for c in chat.calls("sendMessage")] == [True]


async def test_polling_conflict_when_webhook_set(tg: FakeTelegram, bot: Bot) -> None:
    await bot.set_webhook("http://127.0.0.1:9/unused")
    with pytest.raises(TelegramConflictError):
        await bot.get_updates()
    await bot.delete_webhook()
    assert await bot.get_updates(timeout=0) == []


async def test_echo_bot_via_polling_sees_callbacks_in_order(tg: FakeTelegram, bot: Bot) -> None:
    anna, boris, vera = tg.user(1, "Аня"), tg.user(2, "Борис"), tg.user(3, "Вера")
    chat = tg.group()
    state = EchoState()
    async with tg.polling(make_echo_dispatcher(state), bot):
        await chat.send(anna, "/new")
        lobby = await chat.wait_message()
        taps = [await chat.tap(user, lobby, "Играть") for user in (anna, boris, vera)]
        answers = await asyncio.gather(*(tg.answer_of(tap) for tap in taps))
        assert {a.text for a in answers} == {"Вы в игре"}
        await chat.wait_for(lambda: lobby.caption == "Лобби: " + ", ".join(state.players))
        await tg.settle()
    assert sorted(state.players) == ["Аня", "Борис", "Вера"]
    # the handlers ran concurrently: edits that raced to the same caption were refused
    assert lobby.edit_count + len(state.errors) == 3
    assert all("not modified" in str(error) for error in state.errors)
