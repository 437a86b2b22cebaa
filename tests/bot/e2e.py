"""Helpers of the end-to-end tests: the real bot against the fake Telegram server."""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, NamedTuple

from bot.app import App
from bot.config import Settings
from bot.storage import GameRecord, Store
from fake_telegram import CallbackAnswer, Chat, FakeTelegram, User
from fake_telegram.server import FileRecord, FloodLimit, StoredMessage
from fake_telegram.state import DEFAULT, Default
from games.seven_tracks import State


async def until(check: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    """Wait until `check()` holds — something the bot stores, not a message (those have
    `chat.wait_for`) — re-checked every 20 ms; fails with `what` after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await check():
        assert loop.time() < end, what
        await asyncio.sleep(0.02)


def settings_for(tg: FakeTelegram, redis_url: str | None = None, **kw: Any) -> Settings:
    """The bot's settings for a test against `tg`: its per-group budget the fake's own
    (`tests/conftest.py`: 20 calls per 6 s by default), `kw` over all."""
    values: dict[str, Any] = {
        "bot_token": tg.token,
        "telegram_api_url": tg.api_url,
        "redis_url": redis_url,
        "redis_prefix": f"e2e-{secrets.token_hex(4)}",
        "first_move_seconds": 0.3,
        "ping_after_seconds": 0.0,  # a ping at once (tests/bot/test_pings_e2e.py: the delay)
        # a leaver is removed at once unless a test asks for «🤖 Заменить компьютером»
        # (tests/bot/test_replace_e2e.py, test_computers_e2e.py: replace_seconds=60)
        "replace_seconds": 0.0,
    }
    limit = tg.server.flood_limit  # the bot keeps to the fake's per-group budget
    if limit is not None:
        values["chat_calls_per_minute"] = limit.count
        values["chat_window_seconds"] = limit.window
        values["chat_deletes_counted"] = getattr(limit, "deletes", True)
        # a member's ephemeral pace (1 s a 60 s window) scaled with the window
        values["ephemeral_gap_seconds"] = limit.window / 60.0
    values.update(kw)
    return Settings(**values)


@contextlib.asynccontextmanager
async def running(settings: Settings, store: Store | None = None) -> AsyncIterator[App]:
    """`python -m bot` in-process: the same App, long polling the fake server."""
    app = App(settings, store=store)
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


class Group(NamedTuple):
    """What `in_group` yields: the fake Telegram server, the running bot, the group chat
    and its members (unpacked in the `async with`: `as (tg, app, chat, users)`)."""

    tg: FakeTelegram
    app: App
    chat: Chat
    users: list[User]


@contextlib.asynccontextmanager
async def in_group(
    first_id: int,
    names: Sequence[str],
    redis_url: str | None = None,
    *,
    admins: Sequence[str] = (),
    language: str | None = "ru",
    flood_limit: FloodLimit | Default | None = DEFAULT,
    **settings: Any,
) -> AsyncIterator[Group]:
    """The usual start of an end-to-end test: the fake Telegram server (its own per-group
    budget unless `flood_limit` is given; None: none), users `names` with ids
    `first_id`, `first_id + 1`, … and Telegram's `language`, a group chat of them (those
    named in `admins` its administrators), and the bot running against the server with
    `settings_for(tg, redis_url, **settings)` until the block ends; then, that the bot
    never earned a 429 from the fake's limits."""
    async with FakeTelegram(flood_limit=flood_limit) as tg:
        users = [
            tg.user(first_id + i, name, language_code=language) for i, name in enumerate(names)
        ]
        members = [u for u in users if u.first_name not in admins]
        chat = tg.group(members=members, admins=[u for u in users if u.first_name in admins])
        async with running(settings_for(tg, redis_url, **settings)) as app:
            yield Group(tg, app, chat, users)
        # the bot keeps to Telegram's limits: it never earned a 429 (injected ones aside)
        assert tg.server.flood_refused == 0, "the fake Telegram answered 429"
        assert tg.server.global_refused == 0, "the fake Telegram answered 429 bot-wide"


def counted_calls(chat: Chat) -> list[Any]:
    """The calls that spent the group's budget: new messages, edits and deletes shown in
    the group (not ephemeral ones)."""
    ephemeral = ("ephemeral_message_parameters", "receiver_user_id")
    return [
        c
        for c in chat.calls()
        if c.method.startswith(("send", "edit", "delete"))
        and c.method != "sendChatAction"
        and "Ephemeral" not in c.method
        and not any(c.params.get(k) for k in ephemeral)
    ]


def photos_sent(chat: Chat) -> list[Any]:
    """The pictures posted in the group (not the ephemeral ones: hands, table copies)."""
    return [c for c in counted_calls(chat) if c.method == "sendPhoto"]


async def window_empty(chat: Chat, seconds: float) -> None:
    """Until `seconds` have passed since the chat's last counted call (the bot's flood
    window, with its margin, holds none then), by the clock of the calls' log."""
    last = max((c.wall_time for c in counted_calls(chat)), default=0.0)
    while time.time() < last + seconds:
        await asyncio.sleep(0.05)


async def record(app: App, chat: Chat) -> GameRecord:
    rec = await app.store.get(chat.id)
    assert rec is not None
    return rec


async def engine_state(app: App, chat: Chat) -> State:
    rec = await record(app, chat)
    assert rec.state is not None
    return State.model_validate_json(rec.state)


async def new_lobby(chat: Chat, creator: User, command: str = "/new") -> StoredMessage:
    """`creator` sends `command` (`/new`, `/new захват`, …): the lobby the bot opens."""
    await chat.send(creator, command)
    return await chat.wait_message(lambda m: "Новая игра" in m.content)


async def open_lobby(
    chat: Chat, creator: User, *others: User, length: str = "Один кон"
) -> StoredMessage:
    lobby = await new_lobby(chat, creator)
    for user in others:
        answer = await chat.press(user, lobby, contains="Играть")
        assert answer.text == "Вы в игре!", answer
    answer = await chat.press(creator, lobby, contains=length)
    return lobby


async def start_game(chat: Chat, creator: User, lobby: StoredMessage) -> StoredMessage:
    await chat.wait_for(lambda: any("Начать" in x for x in lobby.button_texts))  # the joins
    answer = await chat.press(creator, lobby, contains="Начать")
    assert answer.text == "Поехали!", answer
    # generous: a cold render process needs seconds of CPU on a loaded 2-core machine
    table = await chat.wait_message(lambda m: m.photo is not None, timeout=30)
    return table


async def started_table(
    tg: FakeTelegram, chat: Chat, users: Sequence[User], button: str, length: str = "Один кон"
) -> StoredMessage:
    """`users[0]` opens a lobby, the others join, `users[0]` starts the game: its table, once
    it shows `button` (the first move's) and the bot is idle."""
    lobby = await open_lobby(chat, users[0], *users[1:], length=length)
    table = await start_game(chat, users[0], lobby)
    await wait_phase(chat, table, button)
    await tg.settle()
    return table


def data_of(table: StoredMessage) -> list[str | None]:
    return [b.callback_data for row in table.buttons for b in row]


def changed(table: StoredMessage, before: list[str | None]) -> Callable[[], bool]:
    """A `wait_for` condition: the table's buttons are no longer `before` (`data_of`)."""
    return lambda: data_of(table) != before


def photo_of(message: StoredMessage) -> FileRecord:
    """The message's picture (it has one)."""
    assert message.photo is not None, message
    return message.photo


def shows(message: StoredMessage, text: str) -> Callable[[], bool]:
    """A `wait_for` condition: `message` (as it is edited) contains `text`."""
    return lambda: text in message.content


async def wait_phase(chat: Chat, table: StoredMessage, label: str, timeout: float = 20) -> None:
    await chat.wait_for(lambda: label in table.button_texts, timeout)


def mover(table: StoredMessage, users: list[User]) -> User | None:
    match = re.search(r"Ходит (.+?):", table.content)
    if not match:
        return None
    name = match.group(1).strip()
    return next((u for u in users if u.full_name == name), None)


def refused(answer: CallbackAnswer) -> bool:
    return answer.show_alert


LEAVE_QUESTION = "выйти из игры?"


async def leave_question(chat: Chat, user: User, timeout: float = 5.0) -> StoredMessage:
    """`user` sends /leave in a running game: the bot's question (bot/service/leaving.py)."""
    command = await chat.send(user, "/leave")
    return await chat.wait_message(
        lambda m: LEAVE_QUESTION in m.content, after=command, timeout=timeout
    )
