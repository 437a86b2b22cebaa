"""Turn timers and leaving: an absent player is auto-passed, then removed; /leave."""

from __future__ import annotations

from bot.storage import RecordStatus
from games.seven_tracks import Status
from tests.bot.e2e import (
    engine_state,
    mover,
    open_lobby,
    record,
    running,
    settings_for,
    start_game,
    wait_phase,
)
from tests.fake_telegram import FakeTelegram


async def test_absent_players_are_auto_passed_then_removed() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1301, "Аня"), tg.user(1302, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, turn_seconds=0.3, timeouts_before_removal=2)
        async with running(settings) as app:
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            # nobody presses anything from now on
            removed = await chat.wait_message(lambda m: "выбывает из игры" in m.content, timeout=15)
            assert "2-й раз" in removed.content
            final = await chat.wait_message(lambda m: "Игра окончена" in m.content, timeout=10)
            assert "1." in final.content and "2." in final.content
            rec = await record(app, chat)
            assert rec.status == RecordStatus.OVER
            await chat.wait_for(lambda: not table.buttons, 5)
            assert "не успел" in table.content or "Игра окончена" in table.content


async def test_leave_during_the_game_the_others_play_on() -> None:
    async with FakeTelegram() as tg:
        users = [tg.user(1401, "Аня"), tg.user(1402, "Борис"), tg.user(1403, "Вика")]
        chat = tg.group(members=users)
        async with running(settings_for(tg)) as app:
            lobby = await open_lobby(chat, users[0], *users[1:])
            table = await start_game(chat, users[0], lobby)
            await wait_phase(chat, table, "🎲 Один кубик")
            await tg.settle()
            leaver = mover(table, users)
            assert leaver is not None
            await chat.send(leaver, "/leave")
            msg = await chat.wait_message(lambda m: "выходит из игры" in m.content)
            assert leaver.first_name in msg.content
            await tg.settle()
            state = await engine_state(app, chat)
            seat = state.players.index(leaver.id)
            assert state.status[seat] == Status.ELIMINATED
            assert (await record(app, chat)).status == RecordStatus.PLAYING
            assert mover(table, users) not in (None, leaver)
            # a stranger's /leave changes nothing
            stranger = tg.user(1499, "Гость")
            await chat.send(stranger, "/leave")
            msg = await chat.wait_message()
            assert "не участвуете" in msg.content
