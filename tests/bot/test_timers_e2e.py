"""Turn timers and leaving: an absent player is auto-passed, then removed; /leave."""

from __future__ import annotations

import asyncio
import time

from bot.app import App
from bot.config import Settings
from bot.storage import RecordStatus
from fake_telegram import FakeTelegram
from games.seven_tracks import GAME, State, Status
from tests.bot.e2e import (
    engine_state,
    in_group,
    leave_question,
    mover,
    new_lobby,
    open_lobby,
    record,
    running,
    settings_for,
    start_game,
    started_table,
    wait_phase,
)


async def test_absent_players_are_auto_passed_then_removed() -> None:
    async with in_group(
        1301, ["Аня", "Борис"], turn_seconds=0.3, timeouts_before_removal=2
    ) as group:
        _, app, chat, (anna, boris) = group
        lobby = await open_lobby(chat, anna, boris)
        table = await start_game(chat, anna, lobby)
        # nobody presses anything from now on
        removed = await chat.wait_message(lambda m: "выбывает из игры" in m.content, timeout=15)
        assert "2-й раз" in removed.content
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, timeout=10)
        assert "1." in final.content and "2." in final.content
        rec = await record(app, chat)
        assert rec.status == RecordStatus.OVER
        await chat.wait_for(lambda: not table.buttons, 30)
        assert "время вышло —" in table.content or "Игра окончена" in table.content


async def test_leave_during_the_game_the_others_play_on() -> None:
    async with in_group(1401, ["Аня", "Борис", "Вика"]) as (tg, app, chat, users):
        table = await started_table(tg, chat, users, "🎲 Один кубик")
        leaver = mover(table, users)
        assert leaver is not None
        question = await leave_question(chat, leaver)
        await chat.press(leaver, question, "Да, выйти")
        await chat.wait_for(lambda: "выходит из игры" in question.content)
        assert leaver.first_name in question.content
        await tg.settle()
        state = await engine_state(app, chat)
        seat = state.players.index(leaver.id)
        assert state.status[seat] == Status.ELIMINATED
        assert (await record(app, chat)).status == RecordStatus.PLAYING
        # the table follows the stored move in its own time (a worker, a picture)
        await chat.wait_for(lambda: mover(table, users) not in (None, leaver), 30)
        # a stranger's /leave changes nothing
        stranger = tg.user(1499, "Гость")
        sent = await chat.send(stranger, "/leave")
        await chat.wait_message(lambda m: "не участвуете" in m.content, after=sent)


async def test_three_absent_players_are_played_for_and_removed_until_one_is_left() -> None:
    """The table says the bot acted for the absent player; after N timeouts in a row he is
    removed (the others play on); when one player is left the game ends with standings."""
    async with in_group(
        1311, ["Аня", "Борис", "Вика"], turn_seconds=0.6, timeouts_before_removal=2
    ) as (_, app, chat, users):
        lobby = await open_lobby(chat, users[0], *users[1:])
        table = await start_game(chat, users[0], lobby)

        def captions() -> list[str]:
            return [str(caption) for _text, caption, *_ in table.history] + [table.content]

        await chat.wait_for(lambda: any("время вышло —" in c for c in captions()), 10)
        first = await chat.wait_message(lambda m: "выбывает из игры" in m.content, timeout=15)
        rec = await record(app, chat)
        assert rec.status == RecordStatus.PLAYING  # two players left: they play on
        state = await engine_state(app, chat)
        assert sum(s == Status.ELIMINATED for s in state.status) == 1
        second = await chat.wait_message(
            lambda m: "выбывает из игры" in m.content, after=first, timeout=15
        )
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, timeout=10)
        assert "2-й раз" in first.content and "2-й раз" in second.content
        assert "1." in final.content
        rec = await record(app, chat)
        assert rec.status == RecordStatus.OVER and rec.deadline is None


async def test_the_default_turn_timer_is_three_minutes_off_is_allowed_and_the_chat_keeps_it() -> (
    None
):
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1321, "Аня"), tg.user(1322, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg)
        settings = settings.model_copy(
            update={"turn_seconds": Settings.model_fields["turn_seconds"].default}
        )
        assert settings.turn_seconds == 180
        async with running(settings) as app:
            lobby = await open_lobby(chat, anna, boris)
            assert "Время на ход: 3 мин" in lobby.content
            assert "✅ 3 мин" in lobby.button_texts
            await chat.press(anna, lobby, "⏱ без таймера")
            await chat.wait_for(lambda: "Время на ход: без таймера" in lobby.content)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик")
            await tg.settle()
            rec = await record(app, chat)
            assert rec.turn_seconds == 0 and rec.turn_deadline is None and rec.deadline is None
            # the next lobby of this chat starts from the chat's choice
            await chat.send(anna, "/cancel")
            confirm = await chat.wait_message(lambda m: "Завершить" in m.content)
            await chat.press(anna, confirm, "✖ Да, завершить")
            lobby2 = await new_lobby(chat, anna)
            assert "Время на ход: без таймера" in lobby2.content


async def test_deadlines_live_in_redis_fire_once_across_instances_and_outlive_their_setter(
    redis_url: str,
) -> None:
    """Two instances poll the shared deadlines: each due deadline is run by one of them;
    when the instance that set a deadline is gone, the other one fires it."""
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1331, "Аня"), tg.user(1332, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, redis_url, turn_seconds=0.8, timer_poll_seconds=0.05)
        fired: list[tuple[str, float | None]] = []

        def count(app: App, name: str) -> None:
            tick = app.service.tick

            async def counted(chat_id: int) -> None:
                rec = await app.store.get(chat_id)
                fired.append((name, rec.deadline if rec else None))
                await tick(chat_id)

            app.service.tick = counted  # type: ignore[method-assign]

        standby = App(settings)  # another instance: no updates reach it
        count(standby, "standby")
        await standby.startup()
        try:
            async with running(settings) as front:
                count(front, "front")
                lobby = await open_lobby(chat, anna, boris)
                await start_game(chat, anna, lobby)
                for _ in range(200):
                    rec = await record(front, chat)
                    if sum(rec.timeouts.values()) >= 1:
                        break
                    await asyncio.sleep(0.05)
                assert sum(rec.timeouts.values()) == 1
            # the front instance is gone; its deadlines are still kept and fired
            before = sum((await record(standby, chat)).timeouts.values())
            fired_before = len(fired)
            for _ in range(200):
                rec = await record(standby, chat)
                if sum(rec.timeouts.values()) > before:
                    break
                await asyncio.sleep(0.05)
            assert sum(rec.timeouts.values()) == before + 1, rec.timeouts
            assert {name for name, _ in fired[fired_before:]} == {"standby"}
            deadlines = [d for _, d in fired if d is not None]
            assert len(deadlines) == len(set(deadlines)), fired  # none fired twice
        finally:
            await standby.stop()


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once_after_the_restart(
    redis_url: str,
) -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1341, "Аня"), tg.user(1342, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, redis_url, turn_seconds=1.0, timer_poll_seconds=0.1)
        async with running(settings) as app:
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик")
            rec = await record(app, chat)
            assert rec.turn_deadline is not None and not rec.timeouts
            absent = GAME.to_act(State.model_validate_json(rec.state or ""))
            assert absent is not None
        # down until after the deadline
        await asyncio.sleep(max(0.0, rec.turn_deadline - time.time()) + 0.3)
        assert not (await record(app, chat)).timeouts
        # back with a long timer: the turns after the stored deadline don't time out, so a
        # second firing of it would show however slow the machine is
        later = settings.model_copy(update={"turn_seconds": 600.0})
        async with running(later) as app:
            for _ in range(100):
                after = await record(app, chat)
                if after.timeouts:
                    break
                await asyncio.sleep(0.02)
            assert after.timeouts == {absent: 1}
            await chat.wait_for(lambda: "время вышло —" in table.content, 30)
            assert (await record(app, chat)).timeouts.get(absent) == 1  # once
