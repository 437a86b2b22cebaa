"""The mover's own copy of the table (issue 36, point 3; bot/service/table_copy.py): his
taps show at once on an ephemeral copy shown in place of the group's table, at no cost
to the group's budget; his last move shows there too, the next player named, and once
the group's table shows the turn the copy goes and he sees the group's table again.
Under Telegram's real limits (the tests' default)."""

from __future__ import annotations

import time

from fake_telegram import Chat, StoredMessage, User
from tests.bot.e2e import counted_calls, data_of, in_group, mover, started_table


def copy_of(chat: Chat, user: User, table: StoredMessage) -> StoredMessage | None:
    """The copy of the table `user` sees in its place, if any."""
    seen = chat.seen_by(user, table)
    return None if seen is table else seen


async def test_the_mover_builds_his_turn_on_his_copy_and_the_group_sees_the_turn() -> None:
    async with in_group(5301, ["Аня", "Борис", "Вика"], table_copy=True, turn_seconds=0) as (
        tg,
        app,
        chat,
        users,
    ):
        table = await started_table(tg, chat, users, "🎲 Один кубик")
        who = mover(table, users)
        assert who is not None
        spent = len(counted_calls(chat))

        # a press on the group's table: his copy takes its place, showing the dice
        answer = await chat.press(who, table, "🎲🎲 Два кубика")
        assert not answer.show_alert, answer
        copy = await chat.wait_for(lambda: copy_of(chat, who, table), 30)
        await chat.wait_for(lambda: "▶ Выставить всё" in copy.button_texts, 30)
        assert copy.photo is not None and "Ходит" in copy.content
        for other in users:
            if other is not who:
                assert copy_of(chat, other, table) is None  # the others see the group's

        # he builds his turn on the copy: each tap shows on it
        before = data_of(copy)
        answer = await chat.press(who, copy, "▶ Выставить всё")
        assert not answer.show_alert, answer
        await chat.wait_for(lambda: data_of(copy) != before, 30)
        # the group's table has spent its pace for a while (as in a lively game)
        app.limiter._due[chat.id] = time.monotonic() + 10.0
        answer = await chat.press(who, copy, "✅ Закончить ход")
        assert not answer.show_alert, answer

        # his turn has passed: his copy shows it at once, naming the next player, while
        # the group's table waits for its slot
        await chat.wait_for(lambda: mover(copy, users) not in (None, who), 30)
        assert mover(table, users) is who
        # then the group's table shows it and his copy is gone
        await chat.wait_for(lambda: mover(table, users) == mover(copy, users), 30)
        await chat.wait_for(lambda: copy_of(chat, who, table) is None, 30)
        assert copy.deleted
        await tg.settle()
        # the copy cost the group nothing: no ephemeral call is counted, no 429
        assert not [c for c in chat.calls() if c.error_code == 429]
        group_calls = counted_calls(chat)[spent:]
        assert not [c for c in group_calls if "ephemeral" in str(c.params)]


async def test_where_ephemeral_messages_fail_the_group_table_serves() -> None:
    async with in_group(5311, ["Аня", "Борис"], table_copy=True, turn_seconds=0) as (
        tg,
        _app,
        chat,
        users,
    ):
        table = await started_table(tg, chat, users, "🎲 Один кубик")
        tg.server.ephemeral.fail = True
        who = mover(table, users)
        assert who is not None
        before = data_of(table)
        answer = await chat.press(who, table, "🎲🎲 Два кубика")
        assert not answer.show_alert, answer
        await chat.wait_for(lambda: data_of(table) != before, 30)  # the group's table
        await tg.settle()
        assert copy_of(chat, who, table) is None
        answer = await chat.press(who, table, "▶ Выставить всё")
        assert not answer.show_alert, answer
