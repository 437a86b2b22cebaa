"""Both stores: a value that does not load is moved aside once, kept as it was, and the
chat's one notice is claimed once (bot/storage/quarantine.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Conflict, GameRecord, MemoryStore, RedisStore, Store
from bot.storage.quarantine import Unreadable, salvage
from tests.bot.conftest import REDIS_URL

CHAT = -100777


async def write_raw(store: Store, chat_id: int, raw: bytes) -> None:
    if isinstance(store, MemoryStore):
        store.put_raw(chat_id, raw)
    else:
        assert isinstance(store, RedisStore)
        await store._redis.set(store._key(chat_id), raw)


def refuse_chess(rec: GameRecord) -> None:
    if rec.game_id == "chess":
        raise ValueError("unknown game 'chess'")


@pytest.mark.parametrize(
    "raw",
    [
        b"\x00\xff\xfe junk",
        b'{"chat_id": -100777, "uid": "ab12", "version": 3',
        b'{"chat_id": -100777, "uid": "ab12", "game_id": "g", "creator": "nobody"}',
        GameRecord(chat_id=CHAT, uid="ab12", game_id="chess", creator=1, version=2)
        .model_dump_json()
        .encode(),
        b"[1, 2, 3]",
        b"",
    ],
)
async def test_an_unreadable_value_is_kept_aside_and_reads_as_no_game(
    store: Store, raw: bytes
) -> None:
    told: list[Unreadable] = []
    store.check, store.on_unreadable = refuse_chess, told.append
    await write_raw(store, CHAT, raw)
    assert await store.get(CHAT) is None
    assert await store.get(CHAT) is None
    assert [(u.chat_id, u.raw) for u in told] == [(CHAT, raw)]
    assert await store.quarantined(CHAT) == [raw]
    assert await store.chats() == []
    # the chat is free: a new game is written over nothing
    new = await store.put(GameRecord(chat_id=CHAT, uid="cd34", game_id="g", creator=1), 0)
    assert (await store.get(CHAT)) == new
    # the notice was claimed with the move: a press on the old game adds none
    uid = told[0].uid
    assert not await store.claim_notice(CHAT, uid or "ab12")


async def test_two_instances_move_it_aside_once(store: Store) -> None:
    if not isinstance(store, RedisStore):
        pytest.skip("two instances share Redis only")
    assert REDIS_URL is not None
    other = RedisStore(REDIS_URL, prefix=store._prefix)
    told: list[Unreadable] = []
    for s in (store, other):
        s.on_unreadable = told.append
    try:
        await write_raw(store, CHAT, b"\xffjunk")
        results = await asyncio.gather(*(s.get(CHAT) for s in (store, other) for _ in range(5)))
        assert results == [None] * 10
        assert len(told) == 1
        assert await store.quarantined(CHAT) == [b"\xffjunk"]
    finally:
        await other.close()


async def test_a_value_of_another_type_is_renamed_aside(store: Store) -> None:
    if not isinstance(store, RedisStore):
        pytest.skip("only Redis holds values of other types")
    told: list[Unreadable] = []
    store.on_unreadable = told.append
    await store._redis.hset(store._key(CHAT), "a", "b")
    assert await store.get(CHAT) is None
    assert len(told) == 1 and "WRONGTYPE" in told[0].reason
    kept = [k async for k in store._redis.scan_iter(match=f"{store._prefix}:quarantine:*")]
    assert len(kept) == 1 and await store._redis.hgetall(kept[0]) == {"a": "b"}


async def test_compare_and_set_over_junk_is_a_conflict(store: Store) -> None:
    await write_raw(store, CHAT, b"\xff")
    rec = GameRecord(chat_id=CHAT, uid="x", game_id="g", creator=1)
    if isinstance(store, RedisStore):
        with pytest.raises(Conflict):
            await store.put(rec, 0)
    else:  # the memory store meets it on its read: moved aside, then written
        assert (await store.put(rec, 0)).version == 1
        assert await store.quarantined(CHAT) == [b"\xff"]


async def test_the_notice_of_a_lost_game_is_claimed_once_per_game_and_quietly_per_chat(
    store: Store,
) -> None:
    assert await store.claim_notice(CHAT, "g1")
    assert not await store.claim_notice(CHAT, "g1")
    assert not await store.claim_notice(CHAT, "g2")  # the chat was told just now
    assert await store.claim_notice(CHAT - 1, "g1")  # another chat is its own


def test_salvage_reads_what_it_can() -> None:
    info = salvage(b'{"chat_id": -1, "uid": "a1b2c3", "language": "en", "lobby_message_id": 12,')
    assert (info.uid, info.language, info.lobby_message_id, info.table_message_id) == (
        "a1b2c3",
        "en",
        12,
        None,
    )
    assert salvage(b"\x00\xff").uid is None
