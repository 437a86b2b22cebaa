"""Commands, the lobby, configuration and restarts, against the fake Telegram server."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import subprocess
import sys

import pytest

from bot.storage import RecordStatus
from fake_telegram import FakeTelegram
from tests.bot.e2e import (
    engine_state,
    in_group,
    mover,
    new_lobby,
    record,
    running,
    settings_for,
    start_game,
    started_table,
    wait_phase,
)


def test_without_bot_token_a_clear_message_and_exit_code_2() -> None:
    env = {k: v for k, v in os.environ.items() if k != "BOT_TOKEN"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "BOT_TOKEN" in proc.stderr


def test_an_unreachable_bot_api_is_said_plainly_with_exit_code_1() -> None:
    env = {**os.environ, "BOT_TOKEN": "1:x", "TELEGRAM_API_URL": "http://127.0.0.1:9"}
    env.pop("REDIS_URL", None)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1
    assert "Cannot reach the Telegram Bot API (http://127.0.0.1:9)" in proc.stderr
    assert "Traceback" not in proc.stderr


async def test_start_help_rules_and_the_command_menu() -> None:
    async with in_group(501, ["Аня", "Борис"]) as (tg, _, chat, (anna, boris)):
        private = await tg.start_private(anna)
        hello = await private.wait_message()
        assert "Добавьте меня в группу" in hello.content
        assert any("startgroup" in str(b.get("url")) for row in hello.keyboard for b in row)
        msg = await new_lobby(private, anna)  # solo, against computers (issue 14)
        assert "🤖 Добавить компьютер" in msg.button_texts
        # Аня has started the bot, Борис has not: their /help and /rules in the group are
        # answered where they asked, one reply to each command (bot/replies.py)
        in_private = len(private.bot_messages)
        for user in (anna, boris):
            asked = await chat.send(user, "/help")
            msg = await chat.wait_message(after=asked)
            assert "/new" in msg.content and "/cancel" in msg.content
            assert msg.reply_to is not None and msg.reply_to.message_id == asked.message_id
        asked = await chat.send(anna, "/rules")
        msg = await chat.wait_message(after=asked)
        assert "Семидорожник" in msg.content and "кубик" in msg.content
        assert len(private.bot_messages) == in_private  # nothing in her private chat
        commands = tg.calls("setMyCommands")
        assert commands and any("new" in str(c.params) for c in commands)
        groups = [c for c in commands if "all_group_chats" in str(c.params)]
        assert groups and all(
            {c["command"] for c in call.params["commands"] if c.get("is_ephemeral")}
            == {"rules", "help", "leave", "top", "stats", "history", "notify"}
            for call in groups
        )


async def test_lobby_join_leave_second_new_and_start_rules() -> None:
    async with in_group(601, ["Аня", "<b>Борис</b> & Co", "Вика"]) as group:
        _, app, chat, (anna, boris, vika) = group
        lobby = await new_lobby(chat, anna, "/new семидорожник")
        assert "Начать" not in " ".join(lobby.button_texts)  # one player is not enough
        answer = await chat.press(boris, lobby, contains="Играть")
        assert answer.text == "Вы в игре!"
        await chat.wait_for(lambda: "<b>Борис</b> & Co" in lobby.content)
        answer = await chat.press(boris, lobby, contains="Играть")
        assert answer.text == "Вы уже в игре."
        answer = await chat.press(boris, lobby, contains="До 72")
        assert answer.show_alert  # only the creator changes settings
        await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
        answer = await chat.press(boris, lobby, "▶ Начать")
        assert answer.show_alert and "Аня" in (answer.text or "")
        answer = await chat.press(vika, lobby, contains="Выйти")
        assert answer.text == "Вас нет в списке игроков."
        # a second /new points at the open lobby
        await chat.send(vika, "/new")
        msg = await chat.wait_message()
        assert "уже открыто лобби" in msg.content
        assert msg.reply_to is not None and msg.reply_to.message_id == lobby.message_id
        answer = await chat.press(anna, lobby, contains="Один кон")
        answer = await chat.press(boris, lobby, "⏱ 2 мин")
        assert answer.show_alert  # only the creator
        answer = await chat.press(anna, lobby, "⏱ 2 мин")
        await chat.wait_for(lambda: "Время на ход: 2 мин" in lobby.content)
        assert "✅ 2 мин" in lobby.button_texts
        table = await start_game(chat, anna, lobby)
        for _ in range(500):  # the bot has stored the table's id (a moment after it shows)
            if (await record(app, chat)).table_message_id is not None:
                break
            await asyncio.sleep(0.01)
        await chat.send(vika, "/new")
        msg = await chat.wait_message(lambda m: "уже идёт игра" in m.content)
        assert msg.reply_to is not None and msg.reply_to.message_id == table.message_id
        rec = await record(app, chat)
        assert rec.status == RecordStatus.PLAYING and rec.players == [601, 602]
        assert rec.turn_seconds == 120
        await chat.wait_for(lambda: "<b>Борис</b> & Co" in table.content)
        await chat.send(anna, "/new неизвестная")
        assert "Новая игра" not in (await chat.wait_message()).content


async def test_a_restarted_bot_continues_by_editing_the_same_table(redis_url: str) -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(701, "Аня"), tg.user(702, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users)
        settings = settings_for(tg, redis_url)
        async with running(settings) as app:
            table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
            before = await engine_state(app, chat)
        # a new process: same Redis, same table message
        async with running(settings) as app:
            player = mover(table, users)
            assert player is not None
            answer = await chat.press(player, table, "🎲🎲 Два кубика")
            assert not answer.show_alert
            await wait_phase(chat, table, "▶ Выставить всё")
            after = await engine_state(app, chat)
            assert after.version == before.version + 1
            assert len([m for m in chat.bot_messages if m.photo is not None]) == 1


async def test_webhook_mode() -> None:
    from bot.app import App

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    async with FakeTelegram() as tg:
        anna = tg.user(801, "Аня")
        chat = tg.group(members=[anna])
        settings = settings_for(
            tg,
            webhook_url=f"http://127.0.0.1:{port}",
            webhook_host="127.0.0.1",
            webhook_port=port,
            webhook_secret="s3cret",
        )
        app = App(settings)
        task = asyncio.create_task(app.run_webhook())
        try:
            await tg.wait_for(lambda: tg.calls("setWebhook"), 10)
            await chat.send(anna, "/help")
            msg = await chat.wait_message(timeout=10)
            assert "/new" in msg.content
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def test_no_private_message_on_a_turn_of_a_player_who_started_the_bot() -> None:
    """Issue 31, point 7: a player who started the bot is no longer sent «🀄 Ваш ход! Ваши
    фишки…» in private on each turn — the group ping tells him, his hand is in the group
    (private messages only for private pings, or when his ephemeral hand failed)."""
    async with in_group(901, ["Аня", "Борис"]) as (tg, _app, chat, (anna, boris)):
        pa = await tg.start_private(anna)
        await pa.wait_message()
        greeted = len(pa.all_messages)
        table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
        turns = 0
        for _ in range(12):  # until Аня has had her turn and it is hers again
            player = mover(table, [anna, boris])
            assert player is not None
            turns += player is anna and "🎲 Один кубик" in table.button_texts
            if turns == 2:
                break
            for label in ("🎲 Один кубик", "▶ Выставить всё", "✅ Закончить ход"):
                if label in table.button_texts:
                    await chat.press(player, table, label)
                    await tg.settle()
        assert turns == 2
        await chat.wait_for(lambda: any("ваш ход" in m.content for m in chat.bot_messages), 10)
        assert len(pa.all_messages) == greeted, [m.content for m in pa.all_messages]
        assert not tg.private(boris).all_messages


async def test_english_and_the_in_memory_warning(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot")
    async with in_group(1101, ["Anna"], bot_language="en", language="en") as (_, _, chat, (anna,)):
        await chat.send(anna, "/help")
        msg = await chat.wait_message()
        assert "Commands" in msg.content
        await chat.send(anna, "/new")
        lobby = await chat.wait_message()
        assert "New game" in lobby.content and "🙋 Play" in lobby.button_texts
    assert any("NOT persistent" in r.getMessage() for r in caplog.records)


def test_unreachable_redis_is_a_clear_error() -> None:
    env = dict(os.environ, BOT_TOKEN="1:x", REDIS_URL="redis://127.0.0.1:9/0")
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1
    assert "Redis is unreachable" in proc.stderr
    assert "Traceback" not in proc.stderr
