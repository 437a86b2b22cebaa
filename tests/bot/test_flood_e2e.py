"""Flood limits: at most N new messages per window in a group, a burst of taps gives one
edit with the latest state, `RetryAfter` honoured, "not modified" harmless, a deleted
table re-posted."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.app import App
from bot.callbacks import PlayCB
from fake_telegram import CallbackAnswer, Chat, FakeTelegram, User
from fake_telegram.server import FloodLimit, StoredMessage
from tests.bot.e2e import (
    LEAVE_QUESTION,
    data_of,
    in_group,
    leave_question,
    mover,
    record,
    running,
    settings_for,
    started_table,
    wait_phase,
)

EDITS = ("editMessageCaption", "editMessageMedia")


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def press_latest(
    app: App, chat: Chat, user: User, table: StoredMessage, text: str
) -> CallbackAnswer:
    """Press `text` as the latest table shows it (even if its edit has not arrived yet)."""
    rec = await record(app, chat)
    p = app.service.presenter(rec.game_id)
    view = app.service.table_view(rec, p, p.load(rec.state or ""))
    code = next(b.code for row in view.buttons for b in row if b.text == text)
    data = PlayCB(g=rec.uid, s=rec.seq, c=code).pack()
    return await chat.press(user, table, by_data=data, check=False)


async def test_new_messages_in_a_group_stay_within_the_limit_and_none_is_lost(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    # the server answers 429 beyond 5 messages a 0.9 s; the bot keeps to 5 a second
    async with FakeTelegram(flood_limit=FloodLimit(count=5, window=0.9)) as tg:
        anna = tg.user(1601, "Аня")
        chat = tg.group(members=[anna])
        settings = settings_for(tg, chat_calls_per_minute=5, chat_window_seconds=1.0)
        async with running(settings) as app:
            # twelve game messages at once (summaries, notices: what goes through `_send`)
            sends = [app.sender.send_text(chat.id, f"Сообщение {i}") for i in range(12)]
            sent = await asyncio.gather(*sends)
            assert all(m is not None for m in sent)
            await chat.wait_for(lambda: len(chat.bot_messages) >= 12, 10)
            await tg.settle()
        calls = chat.calls("sendMessage")
        assert [c.ok for c in calls] == [True] * 12  # no 429, nothing dropped
        times = sorted(c.time for c in calls)
        for i in range(len(times) - 5):
            assert times[i + 5] - times[i] >= 0.9, times  # never 6 within a window
        assert times[-1] - times[0] >= 1.8
    assert not errors(caplog)


async def rolled_table(
    tg: FakeTelegram, chat: Chat, users: list[User]
) -> tuple[StoredMessage, User]:
    """A started game whose mover has rolled two dice and is placing."""
    table = await started_table(tg, chat, users, "🎲 Один кубик")
    player = mover(table, users)
    assert player is not None
    await chat.press(player, table, "🎲🎲 Два кубика")
    await wait_phase(chat, table, "▶ Выставить всё")
    await tg.settle()
    return table, player


async def test_a_burst_of_taps_gives_one_edit_with_the_latest_state_after_retry_after(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with in_group(1611, ["Аня", "Борис"], turn_seconds=0) as (tg, app, chat, users):
        table, player = await rolled_table(tg, chat, users)
        mark = len(tg.calls())
        for method in EDITS:
            tg.server.inject_error(method, 429, "Too Many Requests: retry after 1", retry_after=1)
        # seven taps while the edit waits out the flood limit
        for label in ["⭐ Приоритет…", "« Назад"] * 3 + ["⭐ Приоритет…"]:
            answer = await press_latest(app, chat, player, table, label)
            assert not answer.show_alert, answer
        await wait_phase(chat, table, "« Назад")
        await tg.settle(quiet=1.5, timeout=10)  # no late edit follows
        edits = [c for c in tg.calls()[mark:] if c.method in EDITS and c.chat_id == chat.id]
        assert any(c.error_code == 429 for c in edits)
        assert len([c for c in edits if c.ok]) == 1, [(c.method, c.ok) for c in edits]
        # the one edit shows the latest state: the priority menu, the current seq
        rec = await record(app, chat)
        assert "« Назад" in table.button_texts
        assert all(f":{rec.seq}:" in str(d) for row in table.buttons for _, d in row)
    assert not errors(caplog)


async def test_not_modified_is_harmless_and_a_deleted_table_is_posted_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with in_group(1621, ["Аня", "Борис"], turn_seconds=0) as (tg, app, chat, users):
        table, player = await rolled_table(tg, chat, users)
        tg.server.inject_error(
            "editMessageCaption",
            400,
            "Bad Request: message is not modified: specified new message content and "
            "reply markup are exactly the same as a current content and reply markup "
            "of the message",
        )
        answer = await chat.press(player, table, "⭐ Приоритет…")
        assert not answer.show_alert
        await tg.wait_for(lambda: any(c.error_code == 400 for c in chat.calls()))
        await tg.settle()
        answer = await press_latest(app, chat, player, table, "« Назад")
        assert not answer.show_alert
        # its labels are on the table already (the menu's edit failed): wait for the
        # edit that carries the stored version, not for a label
        seq = (await record(app, chat)).seq
        await chat.wait_for(lambda: any(f":{seq}:" in (d or "") for d in data_of(table)), 10)
        await wait_phase(chat, table, "▶ Выставить всё")
        answer = await chat.press(player, table, "⭐ Приоритет…")
        await wait_phase(chat, table, "« Назад")
        # someone deletes the table message: the next change posts it again
        table.deleted = True
        answer = await press_latest(app, chat, player, table, "« Назад")
        assert not answer.show_alert
        new_table = await chat.wait_message(lambda m: m.photo is not None, after=table)
        await tg.settle()
        assert (await record(app, chat)).table_message_id == new_table.message_id
        answer = await chat.press(player, new_table, "⭐ Приоритет…")
        assert not answer.show_alert
        await wait_phase(chat, new_table, "« Назад")
    assert not errors(caplog)


async def test_presses_do_not_wait_for_a_message_held_back_by_the_flood_window() -> None:
    async with in_group(1631, ["Аня", "Борис", "Вика"], turn_seconds=0) as (tg, app, chat, users):
        table = await started_table(tg, chat, users, "🎲 Один кубик")
        player = mover(table, users)
        assert player is not None
        leaver = next(u for u in users if u is not player)
        # the window is full for the next 2 seconds
        app.limiter.limit, app.limiter.window = 1, 2.0
        await app.limiter.acquire(chat.id)
        # /leave: its question (a game message) waits for a slot; presses don't
        question = leave_question(chat, leaver, timeout=30)
        answer = await chat.press(player, table, "🎲🎲 Два кубика")
        assert "Выпало" in (answer.text or "")
        assert answer.latency < 1.0
        assert not any(LEAVE_QUESTION in m.content for m in chat.bot_messages)
        asked = await question
        await chat.press(leaver, asked, "Да, выйти")
        await chat.wait_for(lambda: "выходит из игры" in asked.content, 30)
        assert leaver.first_name in asked.content
