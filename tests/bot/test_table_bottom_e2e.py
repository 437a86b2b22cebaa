"""The living table comes back to the bottom of the chat (play-polish issue 18): when
chatter has pushed it up by `PUSHED_UP` messages its next change is sent anew at the
bottom, and `/table` does it at once. It stays one living table: the old message loses
its buttons, the record's table id moves to the new one, and a press on the old
message is refused truthfully. Against the fake Telegram server."""

from __future__ import annotations

from bot.bottom import PUSHED_UP, Bottom
from fake_telegram.server import StoredMessage
from tests.bot.e2e import data_of, in_group, mover, photos_sent, record, started_table, wait_phase

MOVED = "Эта кнопка устарела: стол теперь ниже, в новом сообщении."


def tables(messages: list[StoredMessage]) -> list[StoredMessage]:
    """The bot's photo messages that still have buttons: the living table(s)."""
    return [m for m in messages if m.photo is not None and m.buttons]


async def test_chatter_pushes_the_table_up_and_its_next_change_comes_at_the_bottom() -> None:
    async with in_group(7601, ["Аня", "Борис"]) as (tg, app, chat, (anna, boris)):
        table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
        player = mover(table, [anna, boris])
        assert player is not None
        tg.privacy_mode = False  # the bot gets every message (as a group admin does)

        # a little chatter: the table is still in view, it is edited in place
        for i in range(PUSHED_UP - 1):
            await chat.send(boris if i % 2 else anna, f"болтаем {i}")
        await tg.settle()
        old_data = data_of(table)
        answer = await chat.press(player, table, "⭐ Приоритет…")
        assert not answer.show_alert
        await wait_phase(chat, table, "« Назад")
        await tg.settle()
        assert len(photos_sent(chat)) == 1

        # one message more: the next change is sent anew, at the bottom
        said = await chat.send(boris, "а что на столе?")
        answer = await chat.press(player, table, "« Назад")
        assert not answer.show_alert
        new = await chat.wait_message(lambda m: m.photo is not None, after=said, timeout=10)
        await chat.wait_for(lambda: not table.buttons, 10)
        await wait_phase(chat, new, "⭐ Приоритет…")
        await tg.settle()
        assert (await record(app, chat)).table_message_id == new.message_id
        assert tables(chat.bot_messages) == [new]
        assert chat.messages[-1] is new
        assert len(photos_sent(chat)) == 2
        # a press on the old message (an old client still shows its buttons)
        answer = await chat.press(player, table, by_data=old_data[0], check=False)
        assert answer.text == MOVED
        # the new one lives on: edited in place again
        answer = await chat.press(player, new, "⭐ Приоритет…")
        assert not answer.show_alert
        await wait_phase(chat, new, "« Назад")
        await tg.settle()
        assert len(photos_sent(chat)) == 2
        assert all(c.answered for c in tg.callbacks)


async def test_unseen_chatter_is_counted_by_the_next_message_id_the_bot_sees() -> None:
    # privacy mode: the members' chatter is not delivered
    async with in_group(7701, ["Аня", "Борис"]) as (tg, _, chat, (anna, boris)):
        table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
        player = mover(table, [anna, boris])
        assert player is not None
        for i in range(PUSHED_UP):
            await chat.send(boris, f"болтаем {i}")
        await tg.settle()
        assert not [u for u in tg.updates if "болтаем" in str(u.payload)]
        # a command comes through: its id says how far down the chat is now
        command = await chat.send(boris, "/help")
        await tg.settle()
        answer = await chat.press(player, table, "⭐ Приоритет…")
        assert not answer.show_alert
        new = await chat.wait_message(lambda m: m.photo is not None, after=command, timeout=10)
        await chat.wait_for(lambda: not table.buttons, 10)
        await wait_phase(chat, new, "« Назад")
        assert tables(chat.bot_messages) == [new]


async def test_table_command_brings_it_down_at_once_and_says_when_there_is_nothing_to_do() -> None:
    async with in_group(7801, ["Аня", "Борис"]) as (tg, app, chat, (anna, boris)):
        await chat.send(anna, "/table")
        reply = await chat.wait_message()
        assert reply.content == "Сейчас в этом чате не идёт игра. Новая — /new."
        table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
        player = mover(table, [anna, boris])
        assert player is not None
        old_data = data_of(table)

        command = await chat.send(boris, "/table")
        new = await chat.wait_message(lambda m: m.photo is not None, after=command)
        await chat.wait_for(lambda: not table.buttons, 10)
        await tg.settle()
        assert data_of(new) == old_data  # the same table: the same buttons
        assert (await record(app, chat)).table_message_id == new.message_id
        assert chat.messages[-1] is new and tables(chat.bot_messages) == [new]
        answer = await chat.press(player, table, by_data=old_data[0], check=False)
        assert answer.text == MOVED
        answer = await chat.press(player, new, "⭐ Приоритет…")
        assert not answer.show_alert
        await wait_phase(chat, new, "« Назад")

        # an ephemeral /table with nothing posted since: it is at the bottom already
        waiter = chat.wait_ephemeral(anna, timeout=10)
        await chat.send_ephemeral(anna, "/table", check=False)
        said = await waiter
        assert said.content == "Стол и так внизу — это последнее сообщение чата."
        await tg.settle()
        assert len(photos_sent(chat)) == 2
        menus = [call.params["commands"] for call in tg.calls("setMyCommands")]
        assert all("table" in {c["command"] for c in menu} for menu in menus)


def test_a_basic_group_counts_the_messages_seen_a_supergroup_reads_the_ids() -> None:
    bottom = Bottom(after=3)
    basic, supergroup = -4001, -1004000000001
    for chat in (basic, supergroup):
        bottom.seen(chat, 50)  # no table known: nothing kept
        assert not bottom.wanted(chat, 10) and len(bottom) == (0 if chat == basic else 1)
        bottom.shown(chat, 10)
        bottom.seen(chat, 9)  # older than the table
        bottom.seen(chat, 30)
        assert bottom.below(chat, 10) == (1 if chat == basic else 20)
    assert not bottom.wanted(basic, 10) and bottom.wanted(supergroup, 10)
    bottom.seen(basic, 31)
    bottom.seen(basic, 32)
    assert bottom.wanted(basic, 10)
    bottom.shown(basic, 33)  # sent anew: nothing below it
    assert not bottom.wanted(basic, 33) and bottom.at_bottom(basic, 33)
    bottom.ask(basic)  # /table with nothing below: nothing to do
    assert not bottom.wanted(basic, 33)
    bottom.seen(basic, 34)
    assert bottom.wanted(basic, 33)
    bottom.forget(basic)
    bottom.forget(supergroup)
    assert len(bottom) == 0
    small = Bottom(limit=2)
    for chat in (-1, -2, -3):
        small.shown(chat, 1)
    assert len(small) == 2 and not small.at_bottom(-1, 1)
