"""Abandoned lobbies and games, and per-chat memory (hardening points 6 and 10).

The real bot against the fake Telegram server, with the in-memory store and a real
Redis. Long waits (a 30-minute lobby, a game silent for 3 turn timers) are not slept
through: the service's clock is moved forward (`shift`), which the deadline poller, the
lobby's expiry and the staleness checks all read.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.app import App
from bot.storage import GameRecord, MemoryStore, RecordStatus, RedisStore
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import (
    in_group,
    mover,
    new_lobby,
    open_lobby,
    record,
    running,
    settings_for,
    start_game,
    until,
)

MINUTE = 60.0


def shift(app: App, seconds: float) -> None:
    """The bot's clock runs `seconds` ahead of the wall clock from now on."""
    app.service.clock = lambda: time.time() + seconds


def shown_table(chat: Chat, text: str) -> StoredMessage | None:
    """The table message showing `text`: the one first sent, or one sent anew below it
    (the bot moves the table down when its own messages have pushed it up)."""
    return next((m for m in chat.bot_messages if m.photo is not None and text in m.content), None)


async def status_of(app: App, chat: Chat) -> GameRecord | None:
    return await app.store.get(chat.id)


def closed(message: StoredMessage) -> Callable[[], bool]:
    """A `wait_for` condition: `message` has no buttons left."""
    return lambda: not message.buttons


def lobby_expired_text(content: str) -> bool:
    return "Лобби закрыто: никто не нажимал кнопок 30 минут" in content


# ---------------------------------------------------------------- 6a: lobby expiry


async def test_an_untouched_lobby_expires_and_the_chat_may_new_at_once(
    backend: str | None,
) -> None:
    async with FakeTelegram() as tg:
        anna, boris, vika = tg.user(4101, "Аня"), tg.user(4102, "Борис"), tg.user(4103, "Вика")
        chat = tg.group(members=[anna, boris, vika])
        settings = settings_for(tg, backend, timer_poll_seconds=0.1)
        assert settings.lobby_expire_minutes == 30
        async with running(settings) as app:
            lobby = await new_lobby(chat, anna)
            # a press at minute 20 keeps it open past minute 30
            shift(app, 20 * MINUTE)
            answer = await chat.press(boris, lobby, contains="Играть")
            assert answer.text == "Вы в игре!"
            await chat.send(vika, "/cancel")  # neither creator nor admin: it closes by itself
            refusal = await chat.wait_message(lambda m: "закроется само" in m.content)
            assert "ещё 30 минут" in refusal.content
            shift(app, 31 * MINUTE)  # the first deadline comes: moved on, not closed

            async def moved_on() -> bool:  # to 30 minutes after the press
                when = await deadline_of(app, chat)
                return when is not None and when > time.time() + 45 * MINUTE

            await until(moved_on, 10, "the game did not move on")
            assert lobby.buttons and not lobby_expired_text(lobby.content)
            rec = await record(app, chat)
            assert rec.status == RecordStatus.LOBBY
            shift(app, 51 * MINUTE)  # 31 minutes after the last press
            await chat.wait_for(lambda: lobby_expired_text(lobby.content), timeout=10)
            assert lobby.buttons == []
            rec = await record(app, chat)
            assert rec.status == RecordStatus.CANCELLED and rec.end_reason == "expired"
            # a press on the closed lobby is answered, nothing changes
            answer = await chat.press(boris, lobby, check=False, by_data=join_data(rec))
            assert answer.text == "Лобби уже закрыто."
            # and the chat may open a new one at once
            await chat.send(boris, "/new")
            fresh = await chat.wait_message(lambda m: "Новая игра" in m.content, after=lobby)
            assert "Борис — создатель" in fresh.content
            rec = await record(app, chat)
            assert rec.status == RecordStatus.LOBBY and rec.creator == boris.id


async def deadline_of(app: App, chat: Chat) -> float | None:
    """The chat's deadline in the store's shared set (None: it has none)."""
    store = app.store
    if isinstance(store, MemoryStore):
        return store._deadlines.get(chat.id)
    assert isinstance(store, RedisStore)
    return await store.deadline(chat.id)


def join_data(rec: GameRecord) -> str:
    from bot.callbacks import LobbyCB

    return LobbyCB(g=rec.uid, a="join").pack()


async def test_a_lobby_past_its_expiry_never_blocks_new_even_before_its_deadline_fires(
    backend: str | None,
) -> None:
    """The poller may be late (the store was down): `/new` sees the lobby is expired."""
    async with in_group(4111, ["Аня"], backend, timer_poll_seconds=0.1) as (_, app, chat, (anna,)):
        lobby = await new_lobby(chat, anna)
        assert app.service._poller is not None
        app.service._poller.cancel()  # no deadline fires from now on
        shift(app, 31 * MINUTE)
        await chat.send(anna, "/new")
        fresh = await chat.wait_message(lambda m: "Новая игра" in m.content, after=lobby)
        await chat.wait_for(lambda: lobby_expired_text(lobby.content), timeout=10)
        assert lobby.buttons == [] and fresh.buttons


async def test_the_lobby_expiry_survives_a_restart_and_fires_once_across_instances(
    redis_url: str,
) -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(4121, "Аня")
        chat = tg.group(members=[anna])
        settings = settings_for(tg, redis_url, timer_poll_seconds=0.1)
        async with running(settings):
            lobby = await new_lobby(chat, anna)
        # two new instances on the same Redis (only one may long-poll Telegram)
        other = App(settings)
        await other.startup()
        try:
            async with running(settings) as app:
                shift(other, 31 * MINUTE)
                shift(app, 31 * MINUTE)
                await chat.wait_for(lambda: lobby_expired_text(lobby.content), timeout=15)
                rec = await record(app, chat)
                assert rec.status == RecordStatus.CANCELLED
                await tg.settle(quiet=1.0, timeout=10)  # both pollers polled meanwhile
                edits = [
                    c
                    for c in chat.calls("editMessageText")
                    if c.message_id == lobby.message_id and c.ok
                ]
                assert len(edits) == 1, edits
                assert await deadline_of(app, chat) is None
        finally:
            await other.service.close()
            await other.bot.session.close()
            await other.store.close()


# ---------------------------------------------------------------- 6b: abandoned games


async def test_a_game_silent_for_three_turn_timers_is_ended_by_a_plain_member(
    backend: str | None,
) -> None:
    # Вика: neither player nor admin
    async with in_group(
        4201, ["Аня", "Борис", "Вика"], backend, timer_poll_seconds=0.1, timeouts_before_removal=9
    ) as (_, app, chat, (anna, boris, vika)):
        lobby = await open_lobby(chat, anna, boris)
        assert "Время на ход: 3 мин" in lobby.content
        await start_game(chat, anna, lobby)

        # not abandoned yet: a clear refusal that says when it will be possible
        await chat.send(vika, "/cancel")
        refusal = await chat.wait_message(lambda m: "заброшенной" in m.content)
        assert "создатель или админ" in refusal.content
        assert "ещё 9 минут" in refusal.content
        assert (await record(app, chat)).status == RecordStatus.PLAYING

        shift(app, 10 * MINUTE)  # nobody pressed for more than 3 × 3 minutes
        await chat.send(vika, "/new")
        hint = await chat.wait_message(lambda m: "любой участник" in m.content)
        assert "уже 10 минут" in hint.content and "/cancel" in hint.content

        await chat.send(vika, "/cancel")
        confirm = await chat.wait_message(lambda m: "игра заброшена" in m.content)
        assert "Завершить её?" in confirm.content
        answer = await chat.press(vika, confirm, contains="Да, завершить")
        assert answer.text == "Игра завершена." and not answer.show_alert
        await chat.wait_for(lambda: "Вика завершает заброшенную игру" in confirm.content)
        assert "не нажимал кнопок 10 минут" in confirm.content
        # the table (sent anew at the bottom, if the chatter above pushed it up)
        final = await chat.wait_for(lambda: shown_table(chat, "Игра заброшена и завершена"), 30)
        assert final.buttons == []
        rec = await record(app, chat)
        assert rec.status == RecordStatus.CANCELLED and rec.end_reason == "abandoned"

        await chat.send(vika, "/new")  # the chat is free again
        fresh = await chat.wait_message(lambda m: "Вика — создатель" in m.content)
        assert fresh.buttons


async def test_a_timerless_game_is_abandoned_after_a_day_and_a_press_keeps_it_alive(
    backend: str | None,
) -> None:
    async with in_group(4211, ["Аня", "Борис", "Вика"], backend, timer_poll_seconds=0.1) as group:
        _, app, chat, (anna, boris, vika) = group
        users = [anna, boris]
        lobby = await open_lobby(chat, anna, boris)
        await chat.press(anna, lobby, "⏱ без таймера")
        await chat.wait_for(lambda: "Время на ход: без таймера" in lobby.content)
        table = await start_game(chat, anna, lobby)
        await chat.wait_for(lambda: mover(table, users) is not None, 10)

        shift(app, 23 * 3600)
        await chat.send(vika, "/cancel")
        refusal = await chat.wait_message(lambda m: "заброшенной" in m.content)
        assert "ещё 1 час" in refusal.content

        shift(app, 25 * 3600)
        await chat.send(vika, "/cancel")
        confirm = await chat.wait_message(lambda m: "игра заброшена" in m.content)
        assert "уже 25 часов" in confirm.content
        # meanwhile a player looks at his tiles: he is here, the game is not abandoned
        player = mover(table, users)
        assert player is not None
        before = (await record(app, chat)).active_at
        await chat.press(player, table, "🀄 Мои фишки")

        async def touched() -> bool:
            return (await record(app, chat)).active_at != before

        await until(touched, 10, "not touched")
        answer = await chat.press(vika, confirm, contains="Да, завершить")
        assert answer.text is not None, answer
        assert answer.show_alert and "ещё 24 часа" in answer.text
        assert len(answer.text) <= 200
        rec = await record(app, chat)
        assert rec.status == RecordStatus.PLAYING and table.buttons
        # the creator may end it any time, as before
        await chat.send(anna, "/cancel")
        own = await chat.wait_message(lambda m: "Завершить текущую игру?" in m.content)
        answer = await chat.press(anna, own, contains="Да, завершить")
        assert answer.text == "Игра завершена."
        await chat.wait_for(lambda: shown_table(chat, "Игра завершена досрочно"), 30)


# ---------------------------------------------------------------- 10: per-chat memory


def per_chat_state(app: App) -> dict[str, int]:
    s = app.service
    sizes = {
        "locks": len(s._locks),
        "lobby_locks": len(s._lobby_locks),
        "dirty": len(s._dirty),
        "holds": len(s._holds),
        "workers": len(s._workers),
        "background": len(s._bg),
        "aiogram fsm": len(getattr(app.dp.fsm.storage, "storage", ())),
        "limiter": len(app.limiter._local._sent),
    }
    if isinstance(app.store, MemoryStore):  # the store's own per-chat dicts, in memory
        sizes["store windows"] = len(app.store._sent.keys() - {-1})
        sizes["store deadlines"] = len(app.store._deadlines)
    return {k: v for k, v in sizes.items() if v}


async def test_nothing_stays_in_memory_for_chats_with_nothing_in_progress(
    backend: str | None,
) -> None:
    n = 24
    async with FakeTelegram() as tg:
        settings = settings_for(tg, backend, chat_window_seconds=0.5)
        async with running(settings) as app:
            chats: list[tuple[Chat, User]] = []
            for i in range(n):
                user = tg.user(4300 + i, f"Игрок {i}")
                chats.append((tg.group(members=[user]), user))
            for i, (chat, user) in enumerate(chats):
                if i % 2:  # a short life: a lobby opened and left
                    lobby = await new_lobby(chat, user)
                    await chat.press(user, lobby, contains="Выйти")
                    await chat.wait_for(closed(lobby), 10)
                else:  # a chat that never had a game: refusals and help
                    await chat.send(user, "/leave")
                    await chat.send(user, "/cancel")
                    said = await chat.send(user, "/rules")
                    # a press of a button of no game here (a forged or very old one)
                    await chat.press(user, said, by_data="P1:abcdef:1:CD,,,,,,,2", check=False)
            await tg.settle(quiet=0.3, timeout=20)

            async def empty() -> bool:
                if isinstance(app.store, MemoryStore):  # the flood windows of quiet chats go
                    await app.store.reserve_send(-1, time.time(), 20, 0.5)
                return not per_chat_state(app)

            try:
                await until(empty, 10, "the per-chat state is not empty")
            except AssertionError:
                raise AssertionError(per_chat_state(app)) from None
            for chat, _user in chats:
                rec = await status_of(app, chat)
                assert rec is None or rec.status == RecordStatus.CANCELLED


def test_durations_are_said_in_words_with_russian_plurals() -> None:
    from bot.idle import span
    from locales import get_translator

    ru, en = get_translator("ru"), get_translator("en")
    said = [span(s, ru) for s in (1, 21, 60, 120, 300, 1320, 3600, 5400, 7200, 86400, 86400 * 5)]
    assert said == [
        "1 секунду",
        "21 секунду",
        "1 минуту",
        "2 минуты",
        "5 минут",
        "22 минуты",
        "1 час",
        "1 час 30 минут",
        "2 часа",
        "24 часа",
        "5 дней",
    ]
    assert span(539.2, ru, up=True) == "9 минут" and span(539.2, ru) == "8 минут"
    assert span(3 * 3600, en) == "3 hours" and span(60, en) == "1 minute"


def test_a_record_stored_before_activity_was_tracked_still_loads() -> None:
    from bot.idle import last_active

    old = '{"chat_id": -5, "uid": "abc123", "game_id": "seven_tracks", "creator": 1,'
    old += ' "status": "playing", "updated_at": 1700000000.0}'
    rec = GameRecord.model_validate_json(old)
    assert rec.active_at is None and rec.end_reason is None
    assert last_active(rec) == 1700000000.0  # its last write stands in
