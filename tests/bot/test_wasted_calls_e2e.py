"""No wasted calls (issue 19): the bot never sends an edit that would change nothing.

Presses that come together in a lobby each start an edit to the latest lobby; the first
of them already shows the later presses, so the others must not be sent at all
(bot/shown.py) — before, each earned «message is not modified».
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import RecordStatus
from bot.warm_up import PictureJob
from fake_telegram import FakeTelegram
from fake_telegram.server import ApiCall
from tests.bot.bot_process import hold
from tests.bot.e2e import (
    data_of,
    new_lobby,
    open_lobby,
    record,
    running,
    settings_for,
    shows,
    start_game,
)
from tests.bot.sea_cross_play import choose, mover, sea_cross_table


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def not_modified(calls: list[ApiCall]) -> list[ApiCall]:
    return [c for c in calls if not c.ok and "not modified" in (c.description or "")]


async def test_presses_together_in_a_lobby_send_no_edit_that_changes_nothing(
    tg: FakeTelegram,
) -> None:
    users = [tg.user(4100 + i, name) for i, name in enumerate(["Аня", "Борис", "Вера", "Глеб"])]
    chats = [tg.group(members=users) for _ in range(4)]
    async with running(settings_for(tg)):
        lobbies = []
        for chat in chats:
            await chat.send(users[0], "/new")
            lobbies.append(await chat.wait_message(lambda m: "Новая игра" in m.content))
        # in every chat three players join at once, then the creator picks options fast
        await asyncio.gather(
            *(
                chat.press(user, lobby, contains="Играть")
                for chat, lobby in zip(chats, lobbies, strict=True)
                for user in users[1:]
            )
        )
        for chat, lobby in zip(chats, lobbies, strict=True):
            await chat.wait_for(shows(lobby, "Глеб"), timeout=10)
            await chat.wait_for(shows(lobby, "Вера"), timeout=10)
        await tg.settle(quiet=0.3)
        edits = tg.server.calls_of("editMessageText")
        assert edits, "the lobbies were edited"
        assert not_modified(edits) == [], [c.description for c in not_modified(edits)]
        for lobby in lobbies:
            assert all(name in lobby.content for name in ("Аня", "Борис", "Вера", "Глеб"))


def uploads(call: ApiCall) -> bool:
    return any(key.startswith("<upload:") for key in call.params)


async def test_a_picture_telegram_has_is_sent_by_its_file_id(tg: FakeTelegram) -> None:
    """`/table` sends the table anew at the bottom, its picture unchanged: by the file_id
    Telegram gave the first upload (bot/uploaded.py), not uploaded again."""
    anna, boris = tg.user(4201, "Аня"), tg.user(4202, "Борис")
    chat = tg.group(members=[anna, boris])
    async with running(settings_for(tg, first_move_seconds=0)):
        lobby = await open_lobby(chat, anna, boris)
        table = await start_game(chat, anna, lobby)
        await tg.settle(quiet=0.3)
        assert table.photo is not None
        before = len(tg.server.upload_digests)
        await chat.send(anna, "/table")
        again = await chat.wait_message(lambda m: m.photo is not None, after=table, timeout=10)
        await tg.settle(quiet=0.3)
        assert again.photo is not None and again.photo.file_id == table.photo.file_id
        assert again.photo.data == table.photo.data  # the same picture, shown twice
        sends = [c for c in tg.server.calls_of("sendPhoto") if c.ok]
        assert len(sends) == 2 and not uploads(sends[-1]), sends[-1].params
        assert len(tg.server.upload_digests) == before
        assert sum(tg.server.upload_digests.values()) == before


async def test_the_lobby_of_a_started_game_is_edited_once_though_the_game_moved_on(
    tg: FakeTelegram,
) -> None:
    """Lobby presses just before «Начать» each start an edit of the lobby; the first to
    run after the start shows «Игра началась». By the time the next one runs, the game
    has moved on (a move on the table: a new `seq`), but the lobby looks the same — it
    must not be edited again (before: «message is not modified», 4 of 360 lobby edits of
    `python -m bench.e2e --variants computers` at 100 games, whose computers move at once)."""
    anna, boris, vera = (tg.user(4301 + i, n) for i, n in enumerate(["Аня", "Борис", "Вера"]))
    users = {u.full_name: u for u in (anna, boris, vera)}
    chat = tg.group(members=list(users.values()))
    async with running(settings_for(tg, turn_seconds=0)) as app:
        await chat.send(anna, "/new морской крест")
        lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
        await chat.press(boris, lobby, contains="Играть")
        await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
        with hold(tg, "editMessageText") as first:
            await chat.press(anna, lobby, contains="10 мин")  # its edit waits in Telegram
            await asyncio.wait_for(first.arrived.wait(), 10)
            await chat.press(vera, lobby, contains="Играть")  # its edit queues behind
            answer = await chat.press(anna, lobby, "▶ Начать")  # … and so does this one's
            assert answer.text == "Поехали!", answer
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=30)
            with hold(tg, "editMessageText") as second:
                first.release.set()  # the timer's edit lands; the join's shows the start
                await asyncio.wait_for(second.arrived.wait(), 10)
                started = await record(app, chat)
                assert started.status == RecordStatus.PLAYING
                await tg.settle(quiet=0.2, timeout=30)
                who = mover(table, users)
                answer = await chat.press(who, table, choose(table.button_texts))
                assert not answer.show_alert, answer
                assert (await record(app, chat)).seq > started.seq  # the game moved on
        await chat.wait_for(shows(lobby, "Игра началась"), timeout=10)
        await tg.settle(quiet=0.3, timeout=30)
        edits = tg.server.calls_of("editMessageText")
        assert not_modified(edits) == [], [c.params.get("text") for c in not_modified(edits)]
        assert lobby.button_texts == [] and "Вера" in lobby.content


async def test_with_the_group_budget_half_spent_a_late_picture_is_one_edit(
    tg: FakeTelegram,
) -> None:
    """A picture drawn late lets the caption and keyboard through first (a second edit
    brings the picture, tests/bot/test_headroom_e2e.py) — but not once the group's budget
    is half spent (`ChatLimiter.roomy`): every edit spends it, so the table waits for its
    picture and is edited once (two calls for one change would halve the table's pace)."""
    anna, boris = tg.user(4401, "Аня"), tg.user(4402, "Борис")
    users = {u.full_name: u for u in (anna, boris)}
    chat = tg.group(members=[anna, boris])
    async with running(settings_for(tg, turn_seconds=0)) as app:
        table = await sea_cross_table(chat, anna, boris)
        await tg.settle(quiet=0.3, timeout=30)
        pictures, draw = app.service.pictures, app.service.pictures.picture
        drawing = asyncio.Event()
        release = asyncio.Event()

        async def held(job: PictureJob) -> bytes:
            drawing.set()
            await release.wait()
            return await draw(job)

        pictures.picture = held  # type: ignore[method-assign]
        app.sender.limiter.roomy = lambda chat_id: False  # type: ignore[method-assign]
        before, edits = data_of(table), len(chat.calls())
        answer = await chat.press(mover(table, users), table, choose(table.button_texts))
        assert not answer.show_alert, answer
        await asyncio.wait_for(drawing.wait(), 10)
        done, _ = await asyncio.wait(
            {asyncio.ensure_future(chat.wait_for(lambda: data_of(table) != before, 30))},
            timeout=4 * pictures.late,
        )
        assert not done, "the caption was edited before its picture"
        release.set()
        await chat.wait_for(lambda: data_of(table) != before, 30)
        await tg.settle(quiet=0.3, timeout=30)
        calls = [c.method for c in chat.calls()[edits:] if c.method.startswith("edit")]
        assert calls == ["editMessageMedia"], calls


async def test_a_choice_already_made_in_the_lobby_costs_no_edit(tg: FakeTelegram) -> None:
    """Every edit spends the group's budget (issue 36.2): pressing the length or the
    timer the lobby already has answers, and edits nothing (before: «not modified»)."""
    anna = tg.user(4501, "Аня")
    chat = tg.group(members=[anna])
    async with running(settings_for(tg)):
        lobby = await new_lobby(chat, anna)
        await tg.settle(quiet=0.3, timeout=30)
        edits = len(tg.server.calls_of("editMessageText"))
        for label in ("Один кон", "3 мин"):
            answer = await chat.press(anna, lobby, contains=label)
            assert not answer.show_alert, answer
        await tg.settle(quiet=0.3, timeout=30)
        assert len(tg.server.calls_of("editMessageText")) == edits
