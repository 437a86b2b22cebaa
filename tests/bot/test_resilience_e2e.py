"""Telegram misbehaving: flood control, a deleted table message. No game is lost."""

from __future__ import annotations

from tests.bot.e2e import mover, open_lobby, record, running, settings_for, start_game, wait_phase
from tests.fake_telegram import FakeTelegram


async def test_flood_control_and_a_deleted_table_lose_nothing() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1001, "Аня"), tg.user(1002, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users)
        async with running(settings_for(tg)) as app:
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик")
            await tg.settle()

            # 429 on the next edit: the bot waits and the table still catches up
            for method in ("editMessageMedia", "editMessageCaption"):
                tg.server.inject_error(
                    method, 429, "Too Many Requests: retry after 1", retry_after=1
                )
            player = mover(table, users)
            assert player is not None
            answer = await chat.press(player, table, "🎲🎲 Два кубика")
            assert not answer.show_alert
            await wait_phase(chat, table, "▶ Выставить всё", timeout=10)

            # the table message disappears: a new table is sent and stored
            for method in ("editMessageMedia", "editMessageCaption"):
                tg.server.inject_error(method, 400, "Bad Request: message to edit not found")
            answer = await chat.press(player, table, "⭐ Приоритет…")
            assert not answer.show_alert
            new_table = await chat.wait_message(lambda m: m.photo is not None, after=table)
            await tg.settle()
            rec = await record(app, chat)
            assert rec.table_message_id == new_table.message_id
            # the old message's buttons are out of date now; the new ones work
            answer = await chat.press(player, table, "🂠 Мои фишки")
            assert answer.text == "Эта кнопка устарела."
            answer = await chat.press(player, new_table, "« Назад")
            assert not answer.show_alert
            await wait_phase(chat, new_table, "▶ Выставить всё")


async def test_a_group_upgraded_to_a_supergroup_keeps_its_game() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1501, "Аня"), tg.user(1502, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users, supergroup=False)
        async with running(settings_for(tg)) as app:
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик")
            await tg.settle()
            old = await record(app, chat)
            new_chat = await chat.migrate_to_supergroup(anna)
            new_table = await new_chat.wait_message(lambda m: m.photo is not None, timeout=10)
            await tg.settle()
            assert await app.store.get(chat.id) is None
            moved = await record(app, new_chat)
            assert moved.uid == old.uid and moved.state == old.state
            assert moved.table_message_id == new_table.message_id
            player = mover(new_table, users)
            assert player is not None
            answer = await new_chat.press(player, new_table, "🎲🎲 Два кубика")
            assert not answer.show_alert
            await wait_phase(new_chat, new_table, "▶ Выставить всё")
