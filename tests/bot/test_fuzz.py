"""Hostile input: random updates and forged callback data thrown at the real dispatcher.

Strangers, anonymous admins, channels and players of another chat send commands (known,
unknown, addressed to other bots, huge), random text, edits, channel posts, and press
buttons with random or forged data (another chat's game, old versions, malformed codes,
no message at all). Every update must be handled without an error in the log and without
any change to the running game.

The bot and the fake Telegram run on an event loop in a background thread, set up once;
hypothesis drives it from the test thread (each example is a short list of updates).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import secrets
import threading
import time
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.storage import GameRecord
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import open_lobby, settings_for, start_game, wait_phase

T = TypeVar("T")

ANONYMOUS_ADMIN = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
CHANNEL_BOT = {"id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class World:
    """The bot with a running game in `game_chat`, on its own loop in a thread."""

    tg: FakeTelegram
    app: App
    game_chat: Chat
    other_chat: Chat
    channel: Chat
    players: list[User]
    strangers: list[User]
    table: StoredMessage
    other_lobby: StoredMessage
    uid: str
    other_uid: str

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.update_ids = itertools.count(10_000_000)
        self.message_ids = itertools.count(5_000_000)

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def setup(self) -> None:
        self.tg = FakeTelegram()
        await self.tg.start()
        tg = self.tg
        self.players = [tg.user(2101, "Аня"), tg.user(2102, "Борис")]
        self.strangers = [tg.user(2199, "Гость"), tg.user(2198, "Злоумышленник", username="x")]
        self.game_chat = tg.group(members=[*self.players, *self.strangers])
        self.other_chat = tg.group(title="Другой чат", members=[*self.players, *self.strangers])
        self.channel = tg.channel(title="Канал")
        redis = os.environ.get("TEST_REDIS_URL")
        s = settings_for(tg, redis, turn_seconds=0)
        self.app = App(s)
        await self.app.start()
        for user in [*self.players, *self.strangers]:
            private = await tg.start_private(user)
            await private.wait_message()
        lobby = await open_lobby(self.game_chat, *self.players)
        self.table = await start_game(self.game_chat, self.players[0], lobby)
        await wait_phase(self.game_chat, self.table, "🎲 Один кубик")
        await self.other_chat.send(self.strangers[0], "/new")
        self.other_lobby = await self.other_chat.wait_message(lambda m: "Новая игра" in m.content)
        await tg.settle()
        rec = await self.app.store.get(self.game_chat.id)
        other = await self.app.store.get(self.other_chat.id)
        assert rec is not None and other is not None
        self.uid, self.other_uid = rec.uid, other.uid

    async def teardown(self) -> None:
        await self.app.stop()
        await self.tg.stop()

    async def game(self) -> GameRecord:
        rec = await self.app.store.get(self.game_chat.id)
        assert rec is not None
        return rec

    async def feed(self, updates: list[dict[str, Any]]) -> None:
        for update in updates:
            update = {"update_id": next(self.update_ids), **update}
            query = update.get("callback_query")
            if query is not None:
                stored = query.pop("_stored", None)
                if stored is not None and "message" in query:
                    record = self.tg.server.new_callback(
                        stored.chat.id, stored, query["from"], query["data"]
                    )
                    query["id"] = record.id
            await self.app.dp.feed_raw_update(self.app.bot, update)
        await self.tg.settle(quiet=0.02)


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World()
    w.run(w.setup())
    try:
        yield w
    finally:
        w.run(w.teardown())
        w.loop.call_soon_threadsafe(w.loop.stop)
        w.thread.join(5)


# ---------------------------------------------------------------- strategies

texts = st.one_of(
    st.text(max_size=50),
    st.sampled_from(["/new", "/leave", "/cancel", "/stop", "/help", "/rules", "/start"]).flatmap(
        lambda c: st.sampled_from(["", "@nastolka_bot", "@other_bot", " захват", " x" * 40]).map(
            lambda tail: c + tail
        )
    ),
    st.from_regex(r"/[a-z_]{1,20}( .{0,20})?", fullmatch=True),  # unknown commands
    st.integers(4000, 20000).map(lambda n: "/rules " + "я" * n),  # huge
    st.integers(4000, 20000).map(lambda n: "ы" * n),
)
codes = st.sampled_from(  # «Семидорожник»'s table codes (actions and compound codes)
    ["CD,,,,,,,1", "CD,,,,,,,2", "all", "end", "hand", "m.pri", "back", "P7,R", "fmd", "fmp"]
)
seqs = st.integers(-(2**40), 2**40)


def forged(w: World) -> st.SearchStrategy[str]:
    uids = st.sampled_from([w.uid, w.other_uid, "zzzzzz", "", "a" * 40])
    return st.one_of(
        st.text(max_size=70),
        st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
        st.builds(lambda g, s, c: f"P1:{g}:{s}:{c}", uids, seqs, codes | st.text(max_size=10)),
        st.builds(
            lambda g, a, x: f"L1:{g}:{a}:{x}",
            uids,
            st.sampled_from(["join", "leave", "start", "game", "opt", "tmr", "??"]),
            st.text(max_size=8),
        ),
        st.builds(lambda g, a: f"C1:{g}:{a}", uids, st.sampled_from(["yes", "no", ""])),
        st.sampled_from(["P1", "P1:::", "P1:x:y:z", "L1:x", "C1", ":" * 10]),
    )


@st.composite
def an_update(draw: st.DrawFn, w: World) -> dict[str, Any]:
    """One hostile update. In the game's chat only outsiders act; the players act only
    elsewhere (e.g. with the game's button data in another chat)."""
    kind = draw(st.sampled_from(["message", "edited", "anonymous", "channel", "post", "press"]))
    now = int(time.time())
    chats = {
        "game": w.game_chat.state.to_api(),
        "other": w.other_chat.state.to_api(),
    }
    if kind == "post":
        return {
            "channel_post": {
                "message_id": next(w.message_ids),
                "date": now,
                "chat": w.channel.state.to_api(),
                "sender_chat": w.channel.state.to_api(),
                "text": draw(texts),
            }
        }
    where = draw(st.sampled_from(["game", "other", "private"]))
    if where == "game":
        user = draw(st.sampled_from(w.strangers))
    else:
        user = draw(st.sampled_from([*w.players, *w.strangers]))
    chat = (
        {"id": user.id, "type": "private", "first_name": user.first_name}
        if where == "private"
        else chats[where]
    )
    if kind == "press":
        message: dict[str, Any] | None
        choice = draw(st.sampled_from(["table", "other_lobby", "made_up", "none", "gone"]))
        if choice == "table":
            message = w.table.to_api()
        elif choice == "other_lobby":
            message = w.other_lobby.to_api()
        elif choice == "gone":  # an inaccessible (very old) message
            message = {"message_id": 1, "date": 0, "chat": chat}
        elif choice == "made_up":
            message = {
                "message_id": draw(st.integers(1, 10**9)),
                "date": now,
                "chat": chat,
                "from": w.tg.bot_user,
                "text": "🎲",
            }
        else:
            message = None
        if user in w.players and message is not None and message["chat"]["id"] == w.game_chat.id:
            message = w.other_lobby.to_api()  # players press only outside their game's chat
        stored = {"table": w.table, "other_lobby": w.other_lobby}.get(choice)
        if message is not None and message["chat"]["id"] == w.other_chat.id:
            stored = w.other_lobby
        query: dict[str, Any] = {
            "_stored": stored,  # a real message: the server knows the query (answers count)
            "id": secrets.token_hex(8),
            "from": user.to_api(),
            "chat_instance": "fuzz",
            "data": draw(forged(w)),
        }
        if message is None:
            query["inline_message_id"] = secrets.token_hex(6)
        else:
            query["message"] = message
        return {"callback_query": query}
    msg: dict[str, Any] = {
        "message_id": next(w.message_ids),
        "date": now,
        "chat": chat,
        "from": user.to_api(),
        "text": draw(texts),
    }
    if kind == "anonymous" and where != "private":
        msg["from"] = ANONYMOUS_ADMIN
        msg["sender_chat"] = chat
    elif kind == "channel" and where != "private":
        msg["from"] = CHANNEL_BOT
        msg["sender_chat"] = w.channel.state.to_api()
    if kind == "edited":
        msg["edit_date"] = now
        return {"edited_message": msg}
    return {"message": msg}


# ---------------------------------------------------------------- the test


@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_updates_and_forged_callback_data_change_nothing(
    world: World, data: st.DataObject
) -> None:
    updates = data.draw(st.lists(an_update(world), min_size=1, max_size=6))
    collect = Collect()
    logging.getLogger().addHandler(collect)
    try:
        before = world.run(world.game())
        world.run(world.feed(updates))
        after = world.run(world.game())
    finally:
        logging.getLogger().removeHandler(collect)
    assert not collect.records, [r.getMessage() for r in collect.records]
    assert (after.uid, after.status, after.seq, after.state, after.players) == (
        before.uid,
        before.status,
        before.seq,
        before.state,
        before.players,
    )
    # every press on a real message got its answer
    unanswered = [cb for cb in world.tg.callbacks if cb.answered_at is None]
    assert not unanswered, unanswered
