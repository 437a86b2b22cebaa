"""A clean chat (issue 16, point 5): at a game's end the bot deletes what served only
during it — refusals it posted in the group, a /leave question answered «Остаться», the
table's older copy, the turn pings — and the chat keeps the lobby, the table's final
picture, the summaries and the standings."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.app import App
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import (
    in_group,
    leave_question,
    new_lobby,
    open_lobby,
    record,
    running,
    settings_for,
    start_game,
    wait_phase,
)


def shift(app: App, seconds: float) -> None:
    """The bot's clock runs `seconds` ahead of the wall clock from now on."""
    app.service.clock = lambda: time.time() + seconds


async def test_at_the_end_of_a_game_the_chat_keeps_only_what_lasts(backend: str | None) -> None:
    async with FakeTelegram() as tg:
        anna, boris, vika = tg.user(16401, "Аня"), tg.user(16402, "Борис"), tg.user(16403, "Вика")
        chat = tg.group(members=[anna, boris, vika])  # Вика watches
        settings = settings_for(
            tg, backend, timer_poll_seconds=0.1, timeouts_before_removal=1, ping_after_seconds=0.0
        )
        async with running(settings) as app:
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик")
            await tg.settle()
            # what serves only during the game: refusals, a question, the table sent anew
            await chat.send(vika, "/leave")
            not_in = await chat.wait_message(lambda m: "не участвуете" in m.content)
            await chat.send(vika, "/new")
            running_game = await chat.wait_message(lambda m: "уже идёт игра" in m.content)
            question = await leave_question(chat, boris)
            await chat.press(boris, question, "Остаться")
            await chat.wait_for(lambda: "остаётся в игре" in question.content)
            await chat.send(anna, "/table")
            moved = await chat.wait_message(lambda m: m.photo is not None, after=table, timeout=30)
            await chat.wait_for(lambda: not table.buttons, timeout=10)
            transient = [not_in, running_game, question, table]
            await tg.settle()
            assert not any(m.deleted for m in transient)
            # the player to move is away: the timer removes him, and the game is over
            shift(app, settings.turn_seconds + 5)
            final = await chat.wait_message(lambda m: "Игра окончена" in m.content, timeout=20)
            await chat.wait_for(lambda: all(m.deleted for m in transient), timeout=10)
            # the turn ping goes too, at the table's next slot of the group's budget
            await chat.wait_for(lambda: not any("ваш ход" in m.content for m in chat.bot_messages))
            await tg.settle(quiet=0.3)
            rec = await record(app, chat)
            assert rec.status == RecordStatus.OVER and rec.transient == []
            lasting = chat.bot_messages
            removed = next(m for m in lasting if "выбывает из игры" in m.content)
            # the lobby, the final table, the summary and the standings: nothing else
            assert lasting == [lobby, moved, removed, final], chat.transcript()
            assert "Итоговые места" in final.content and moved.buttons == []
            delete_calls = chat.calls("deleteMessages")
            assert delete_calls and all(c.ok for c in delete_calls)


async def close_a_lobby(
    tg: FakeTelegram, app: App, chat: Chat, anna: User, vika: User, *, refused: bool
) -> tuple[StoredMessage, StoredMessage, StoredMessage]:
    """Аня opens a lobby, Вика's /leave (or /cancel) is refused in the group, Аня closes the lobby
    (`refused`: Telegram refuses the deletion): the lobby, the refusal, the question."""
    lobby = await new_lobby(chat, anna)
    # a refusal in the group (another one each time: a repeat within minutes gets none)
    await chat.send(vika, "/cancel" if refused else "/leave")
    not_in = await chat.wait_message(lambda m: "закроется" in m.content or "не участ" in m.content)
    await chat.send(anna, "/cancel")
    question = await chat.wait_message(lambda m: "Да, завершить" in " ".join(m.button_texts))
    if refused:  # e.g. the bot lost its rights meanwhile
        tg.server.inject_error("deleteMessages", 400, "Bad Request: CHAT_FORBIDDEN")
    calls = len(chat.calls("deleteMessages"))
    await chat.press(anna, question, contains="Да, завершить")
    await chat.wait_for(lambda: not lobby.buttons)
    await chat.wait_for(lambda: len(chat.calls("deleteMessages")) > calls, 10)
    async with asyncio.timeout(10):
        while (await record(app, chat)).transient:
            await asyncio.sleep(0.05)
    await tg.settle()
    return lobby, not_in, question


async def test_a_closed_lobby_takes_its_refusals_along_and_a_failed_delete_is_let_go(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    async with in_group(16411, ["Аня", "Вика"]) as (tg, app, chat, (anna, vika)):
        lobby, not_in, question = await close_a_lobby(tg, app, chat, anna, vika, refused=False)
        assert not_in.deleted
        assert not question.deleted and not lobby.deleted  # lasting: what happened
        lobby, not_in, question = await close_a_lobby(tg, app, chat, anna, vika, refused=True)
        assert not not_in.deleted  # Telegram refused: it stays, the bot goes on
        assert not question.deleted and not lobby.deleted
    assert any("not deleted" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
