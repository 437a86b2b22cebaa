"""The first table after a restart does not wait for the renderers' warm-up, and a press
on the table the chat still shows is told the truth («стол обновляется»), not «кнопка
устарела»; only a press of buttons that were really replaced is out of date."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

from bot.warm_up import PictureJob
from fake_telegram import FakeTelegram
from fake_telegram.server import StoredMessage
from games.seven_tracks import GAME, Action, ActionType
from tests.bot.bot_process import BotProcess, game, photos, store_of
from tests.bot.e2e import (
    data_of,
    in_group,
    mover,
    open_lobby,
    photo_of,
    record,
    start_game,
    wait_phase,
)

UPDATING = "Стол обновляется — дождитесь новых кнопок."
OUTDATED = "Кнопка устарела — стол уже обновился."
ROLL = "🎲 Один кубик"
WARMED = "warmed up in"  # the render process logs it when a game's warm-up is done


def data_for(table: StoredMessage, label: str) -> str:
    return next(str(d) for row in table.buttons for t, d in row if t == label)


async def test_a_press_on_the_table_still_shown_is_told_it_is_updating(
    backend: str | None,
) -> None:
    """The table's picture is held back (as when it is drawn slowly): a second press on
    the buttons the chat still shows is told «стол обновляется» and applies nothing; a
    press from buttons that were replaced before is «устарела»; once the edit lands, the
    buttons of the old table are out of date."""
    async with in_group(2601, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        anna, boris = users
        lobby = await open_lobby(chat, anna, boris)
        table = await start_game(chat, anna, lobby)
        await wait_phase(chat, table, ROLL, timeout=10)
        await tg.settle()
        player = mover(table, users)
        assert player is not None
        shown = await record(app, chat)
        assert shown.shown_seq == shown.seq
        one_die = GAME.encode_action(Action(type=ActionType.CHOOSE_DICE, n=1))
        earlier = f"P1:{shown.uid}:{shown.seq - 1}:{one_die}"  # a table replaced before

        pictures = app.service.pictures
        draw = pictures.picture
        release = asyncio.Event()

        async def held(job: PictureJob) -> bytes:
            await release.wait()
            return await draw(job)

        pictures.picture = held  # type: ignore[method-assign]
        pictures.late = 60.0  # no caption-first edit either: the whole edit waits
        before, old_roll = data_of(table), data_for(table, ROLL)
        roll = await chat.press(player, table, ROLL, timeout=10)
        assert "Выпало" in (roll.text or ""), roll
        rolled = await record(app, chat)
        assert rolled.seq == shown.seq + 1 and rolled.shown_seq == shown.seq

        # the chat still shows the old buttons: pressing them is told the truth
        for label in (ROLL, "🎲🎲 Два кубика"):
            answer = await chat.press(player, table, label, timeout=10)
            assert answer.text == UPDATING, answer
        answer = await chat.press(player, table, by_data=earlier, check=False, timeout=10)
        assert answer.text == OUTDATED, answer
        assert data_of(table) == before  # nothing was edited meanwhile
        same = await record(app, chat)
        assert (same.seq, same.state) == (rolled.seq, rolled.state)  # nothing applied

        release.set()
        await chat.wait_for(lambda: data_of(table) != before, 10)
        await tg.settle(quiet=0.3, timeout=10)
        edited = await record(app, chat)
        assert edited.shown_seq == edited.seq == rolled.seq
        answer = await chat.press(player, table, by_data=old_roll, check=False, timeout=10)
        assert answer.text == OUTDATED, answer
        assert all(cb.answered_at is not None for cb in tg.callbacks)


async def test_after_a_restart_the_first_edit_does_not_wait_for_the_warm_up(
    redis_url: str, tmp_path: Path
) -> None:
    """`python -m bot` with its render process, a warm-up made slower than the test
    (NASTOLKA_TEST_WARM_UP_DELAY): the first table and, after a restart, the first edit
    come while no game is warm yet; a double tap after the restart applies once and its
    second press is told «стол обновляется», not «устарела»."""
    prefix = f"restart-{secrets.token_hex(4)}"
    async with FakeTelegram() as tg, store_of(redis_url, prefix) as store:
        anna, boris = tg.user(2701, "Аня"), tg.user(2702, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users)
        bot = BotProcess(
            tg,
            tmp_path / "bot.log",
            REDIS_URL=redis_url,
            REDIS_PREFIX=prefix,
            RENDER_PROCESS="1",
            NASTOLKA_TEST_WARM_UP_DELAY="600",
        )
        await bot.start()
        try:
            await bot.ready(tg, timeout=60)
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)  # drawn cold, in the render process
            await wait_phase(chat, table, ROLL, timeout=15)
            await tg.settle()

            await bot.stop()
            await bot.start()
            await bot.ready(tg, timeout=60)
            player = mover(table, users)
            assert player is not None
            before, state = await game(store, chat)
            shown, photo, old_roll = data_of(table), table.photo, data_for(table, ROLL)
            assert photo is not None
            first = await chat.tap(player, table, ROLL)
            second = await chat.tap(player, table, ROLL)  # a double tap on the shown table
            answers = [await tg.answer_of(r, timeout=30) for r in (first, second)]
            assert "Выпало" in (answers[0].text or ""), answers
            assert answers[1].text == UPDATING, answers
            # the caption and keyboard first (a cold picture may be late), then the picture
            await chat.wait_for(lambda: data_of(table) != shown, 15)
            assert table.edited_at is not None
            print(f"first edit after the restart: {table.edited_at - first.created_at:.2f} s")
            await chat.wait_for(lambda: photo_of(table).file_id != photo.file_id, 15)
            assert WARMED not in bot.text(), bot.text()  # edited before any warm-up

            await tg.settle(quiet=0.3, timeout=10)
            after, state2 = await game(store, chat)
            assert after.seq == before.seq + 1 and state2.version == state.version + 1
            assert after.shown_seq == after.seq
            again = await chat.press(player, table, by_data=old_roll, check=False, timeout=10)
            assert again.text == OUTDATED, again  # that table was really replaced
            assert len(photos(chat)) == 1
        finally:
            await bot.stop()
        assert "Traceback" not in bot.text(), bot.text()
