"""Game records that can't be played: damaged ones cost only their own chat, and a game
whose record vanished says so once and loses its keyboard (memory and real Redis).

A damaged value (junk bytes, cut JSON, an unknown game, a failing field, a state its
engine can't load) is written straight into the store, as a bad disk, an old version or
an operator could leave it, beside a healthy game in another chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable

import pytest
from redis.asyncio import Redis

from bot.app import App
from bot.config import Settings
from bot.storage import MemoryStore, RecordStatus, RedisStore
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import (
    mover,
    new_lobby,
    open_lobby,
    record,
    running,
    settings_for,
    start_game,
    wait_phase,
)

UNRESTORED = "Игру этого чата не удалось восстановить"
GAME_LOST = "⚠ Эта игра больше не хранится у бота"
LOBBY_LOST = "⚠ Лобби этого чата больше не хранится у бота"
PRESS_GAME_LOST = "Эта игра больше не хранится у бота. Новая игра: /new."
PRESS_LOBBY_LOST = "Это лобби больше не хранится у бота. Открыть новое: /new."


class Backend:
    """The bot's store across restarts: one MemoryStore object, or a Redis prefix (each
    App makes its own RedisStore, as `python -m bot` does); raw writes go around it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.memory = MemoryStore() if settings.redis_url is None else None

    def run(self) -> contextlib.AbstractAsyncContextManager[App]:
        return running(self.settings, store=self.memory)

    async def write_raw(self, chat_id: int, raw: bytes) -> None:
        if self.memory is not None:
            self.memory.put_raw(chat_id, raw)
            return
        assert self.settings.redis_url is not None
        client = Redis.from_url(self.settings.redis_url)
        try:
            tag = RedisStore.tag(chat_id)
            await client.set(f"{self.settings.redis_prefix}:game:{tag}", raw, ex=600)
        finally:
            await client.aclose()

    async def forget(self) -> None:
        """Delete this test's keys (the quarantine lists would otherwise stay a year)."""
        if self.settings.redis_url is None:
            return
        client = Redis.from_url(self.settings.redis_url)
        try:
            async for key in client.scan_iter(match=f"{self.settings.redis_prefix}:*"):
                await client.delete(key)
        finally:
            await client.aclose()


def notices(chat: Chat, text: str) -> list[StoredMessage]:
    return [m for m in chat.bot_messages if text in m.content]


async def told(chat: Chat, text: str, timeout: float = 10) -> None:
    """Wait until the chat has the message (it may have come before this call)."""
    await chat.wait_for(lambda: notices(chat, text), timeout)


def errors_about(caplog: pytest.LogCaptureFixture, chat: Chat) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and f"chat {chat.id}:" in r.getMessage()
    ]


async def started(tg: FakeTelegram, chat: Chat, users: list[User]) -> StoredMessage:
    lobby = await open_lobby(chat, users[0], *users[1:])
    table = await start_game(chat, users[0], lobby)
    await wait_phase(chat, table, "🎲 Один кубик")
    return table


async def press_on(
    tg: FakeTelegram,
    chat: Chat,
    table: StoredMessage,
    users: list[User],
    button: str = "🎲🎲 Два кубика",
    then: str = "▶ Выставить всё",
) -> None:
    """The mover presses `button`, and the table is edited to show `then`."""
    await tg.settle()
    player = mover(table, users)
    assert player is not None
    answer = await chat.press(player, table, button, timeout=10)
    assert not answer.show_alert, answer
    await wait_phase(chat, table, then, timeout=10)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def stores() -> AsyncIterator[Callable[[Settings], Backend]]:
    made: list[Backend] = []

    def make(settings: Settings) -> Backend:
        made.append(Backend(settings))
        return made[-1]

    yield make
    for backend in made:
        await backend.forget()


async def test_damaged_records_cost_only_their_own_chat(
    tg: FakeTelegram,
    backend: str | None,
    stores: Callable[[Settings], Backend],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    anna, boris = tg.user(3001, "Аня"), tg.user(3002, "Борис")
    users = [anna, boris]
    healthy, junk, cut = (tg.group(members=users) for _ in range(3))
    unknown, invalid, bad_state = (tg.group(members=users) for _ in range(3))
    store = stores(settings_for(tg, backend, turn_seconds=0))

    async with store.run() as app:
        table = await started(tg, healthy, users)
        junk_table = await started(tg, junk, users)
        cut_table = await started(tg, cut, users)
        await tg.settle()
        template = await record(app, cut)
    elsewhere = {"table_message_id": None, "lobby_message_id": None}

    def like_cut(chat: Chat, **changes: object) -> bytes:
        update = {"chat_id": chat.id, **elsewhere, **changes}
        return template.model_copy(update=update).model_dump_json().encode()

    raws = {
        junk.id: b"\x00\xff\xfe\x80 not a record at all",
        cut.id: template.model_dump_json().encode()[:-40],  # its table id is still legible
        unknown.id: like_cut(unknown, game_id="chess"),
        invalid.id: b'{"chat_id": %d, "uid": "abc", "players": "everyone"}' % invalid.id,
        bad_state.id: like_cut(bad_state, state='{"round": "first"}'),
    }
    broken = [junk, cut, unknown, invalid, bad_state]
    for chat in broken:
        await store.write_raw(chat.id, raws[chat.id])

    async with store.run() as app:  # it starts: the damage costs only those chats
        for chat in broken:
            await told(chat, UNRESTORED)
            assert "/new" in notices(chat, UNRESTORED)[0].content
        # the healthy game plays on
        await press_on(tg, healthy, table, users)
        for chat in broken:
            assert await app.store.get(chat.id) is None
            assert await app.store.quarantined(chat.id) == [raws[chat.id]]
            assert len(errors_about(caplog, chat)) == 1, errors_about(caplog, chat)
        assert not errors_about(caplog, healthy)
        # the cut record still named its table: the keyboard is gone
        await cut.wait_for(lambda: not cut_table.buttons, timeout=10)
        # junk named nothing: its old table's press is answered, and the chat isn't told twice
        answer = await junk.press(anna, junk_table, "🀄 Мои фишки", timeout=10)
        assert answer.text == PRESS_GAME_LOST
        await junk.wait_for(lambda: not junk_table.buttons, timeout=10)
        # each chat is free for /new
        for chat in broken:
            await chat.send(anna, "/new")
            await told(chat, "Новая игра")
        await tg.settle()
        rec = await record(app, junk)
        assert rec.status == RecordStatus.LOBBY and rec.uid != template.uid

    async with store.run():  # a restart repeats no notice
        await press_on(tg, healthy, table, users, "⭐ Приоритет…", "« Назад")
        await tg.settle(quiet=0.5)
    for chat in broken:
        assert len(notices(chat, UNRESTORED)) == 1, chat.transcript()
        assert not notices(chat, GAME_LOST), chat.transcript()


async def test_a_vanished_game_and_lobby_tell_the_chat_once_and_lose_their_keyboards(
    tg: FakeTelegram, backend: str | None, stores: Callable[[Settings], Backend]
) -> None:
    anna, boris = tg.user(3101, "Аня"), tg.user(3102, "Борис")
    users = [anna, boris]
    game_chat, lobby_chat = tg.group(members=users), tg.group(members=users)
    store = stores(settings_for(tg, backend, turn_seconds=0))

    async with store.run() as app:
        table = await started(tg, game_chat, users)
        lobby = await new_lobby(lobby_chat, anna)
        await tg.settle()
        old_data = next(d for d in (b.callback_data for b in table.buttons[0]) if d)
        for chat in (game_chat, lobby_chat):  # Redis emptied, the key deleted or expired
            rec = await record(app, chat)
            await app.store.delete(chat.id, rec.version)

        answer = await game_chat.press(boris, table, "🀄 Мои фишки", timeout=10)
        assert answer.text == PRESS_GAME_LOST
        await told(game_chat, GAME_LOST)
        await game_chat.wait_for(lambda: not table.buttons, timeout=10)
        answer = await lobby_chat.press(boris, lobby, contains="Играть", timeout=10)
        assert answer.text == PRESS_LOBBY_LOST
        await told(lobby_chat, LOBBY_LOST)
        await lobby_chat.wait_for(lambda: not lobby.buttons, timeout=10)
        # a stale client presses the old button again: answered, no second notice
        answer = await game_chat.press(anna, table, by_data=old_data, check=False, timeout=10)
        assert answer.text == PRESS_GAME_LOST
        await tg.settle()

    async with store.run():  # nor after a restart
        answer = await game_chat.press(anna, table, by_data=old_data, check=False, timeout=10)
        assert answer.text == PRESS_GAME_LOST
        await game_chat.send(anna, "/new")
        await told(game_chat, "Новая игра")
        await tg.settle(quiet=0.5)
    assert len(notices(game_chat, GAME_LOST)) == 1, game_chat.transcript()
    assert len(notices(lobby_chat, LOBBY_LOST)) == 1, lobby_chat.transcript()


async def test_a_record_damaged_while_running_is_met_by_the_timer_a_press_and_new(
    tg: FakeTelegram,
    backend: str | None,
    stores: Callable[[Settings], Backend],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    anna, boris = tg.user(3201, "Аня"), tg.user(3202, "Борис")
    users = [anna, boris]
    timed, pressed, renewed, healthy = (tg.group(members=users) for _ in range(4))
    settings = settings_for(
        tg, backend, turn_seconds=2, timer_poll_seconds=0.1, timeouts_before_removal=100
    )
    store = stores(settings)

    async with store.run() as app:
        await started(tg, timed, users)
        pressed_table = await started(tg, pressed, users)
        table = await started(tg, healthy, users)
        await renewed.send(anna, "/new")
        await renewed.wait_message(lambda m: "Новая игра" in m.content)
        await tg.settle()
        rec = await record(app, renewed)
        await store.write_raw(
            renewed.id, rec.model_copy(update={"game_id": "chess"}).model_dump_json().encode()
        )
        await store.write_raw(timed.id, b"\xff" * 40)  # its turn timer is due in 2 s
        await store.write_raw(pressed.id, b'{"chat_id": %d, "uid": "' % pressed.id)
        healthy_mover = mover(table, users)

        # the due deadline meets it: the chat is told, the timer doesn't come back
        await told(timed, UNRESTORED, timeout=15)
        # a press meets it: answered, and one notice only
        answer = await pressed.press(anna, pressed_table, "🀄 Мои фишки", timeout=10)
        assert answer.text == PRESS_GAME_LOST
        await told(pressed, UNRESTORED)
        # /new meets it: the chat is told and gets its lobby
        await renewed.send(anna, "/new")
        await told(renewed, UNRESTORED)
        await renewed.wait_for(lambda: len(notices(renewed, "Новая игра")) == 2, timeout=10)
        # the healthy game's timer still runs: the turn is played for the absent mover
        await healthy.wait_for(lambda: mover(table, users) not in (None, healthy_mover), 15)
        await asyncio.sleep(1.0)  # several timer polls: nothing more for the damaged chats
        await tg.settle()
        for chat in (timed, pressed, renewed):
            assert len(notices(chat, UNRESTORED)) == 1, chat.transcript()
            assert not notices(chat, GAME_LOST), chat.transcript()
            assert len(errors_about(caplog, chat)) == 1, errors_about(caplog, chat)
        assert await app.store.quarantined(timed.id) == [b"\xff" * 40]
