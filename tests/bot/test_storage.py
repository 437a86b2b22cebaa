"""Stores: one versioned JSON value per chat, compare-and-set on the version."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
from pathlib import Path

import pytest

from bot.app import make_store
from bot.config import Settings
from bot.storage import Conflict, GameRecord, RecordStatus, RedisStore, Store
from bot.storage.leases import kept
from tests.bot.bot_process import free_port
from tests.bot.conftest import OwnRedis


def record(chat_id: int = -100, **kw: object) -> GameRecord:
    base: dict[str, object] = {
        "chat_id": chat_id,
        "uid": "abc123",
        "game_id": "seven_tracks",
        "creator": 1,
        "players": [1, 2],
        "names": {1: "Аня", 2: "Борис"},
    }
    base.update(kw)
    return GameRecord.model_validate(base)


async def test_put_get_round_trip(store: Store) -> None:
    assert await store.get(-100) is None
    saved = await store.put(record(state='{"x": 1}', table_message_id=42), expected=0)
    assert saved.version == 1
    got = await store.get(-100)
    assert got is not None
    assert got == saved
    assert got.names == {1: "Аня", 2: "Борис"}
    assert got.table_message_id == 42


async def test_compare_and_set_refuses_a_stale_version(store: Store) -> None:
    first = await store.put(record(), expected=0)
    second = await store.put(first.model_copy(update={"seq": 5}), expected=first.version)
    assert second.version == 2
    with pytest.raises(Conflict):
        await store.put(first.model_copy(update={"seq": 9}), expected=first.version)
    with pytest.raises(Conflict):
        await store.put(record(), expected=0)  # must not exist
    got = await store.get(-100)
    assert got is not None and got.seq == 5 and got.version == 2


async def test_concurrent_writers_only_one_wins(store: Store) -> None:
    base = await store.put(record(), expected=0)

    async def write(i: int) -> bool:
        try:
            await store.put(base.model_copy(update={"seq": i}), expected=base.version)
        except Conflict:
            return False
        return True

    results = await asyncio.gather(*(write(i) for i in range(10)))
    assert sum(results) == 1
    got = await store.get(-100)
    assert got is not None and got.version == 2


async def test_delete_is_compare_and_set_too(store: Store) -> None:
    saved = await store.put(record(), expected=0)
    with pytest.raises(Conflict):
        await store.delete(-100, expected=saved.version + 1)
    await store.delete(-100, expected=saved.version)
    assert await store.get(-100) is None


async def test_chats_and_started_users(store: Store) -> None:
    await store.put(record(-1), expected=0)
    await store.put(record(-2, status=RecordStatus.PLAYING), expected=0)
    assert sorted(await store.chats()) == [-2, -1]
    assert not await store.has_started(7)
    await store.mark_started(7)
    assert await store.has_started(7)


async def test_a_due_deadline_is_claimed_by_one_caller_and_again_after_its_lease(
    store: Store,
) -> None:
    await store.set_deadline(-1, 100.0)
    await store.set_deadline(-2, 200.0)
    assert await store.claim_due(99.0, lease=30) == []
    # many pollers at once (instances): each due chat goes to exactly one of them
    claims = await asyncio.gather(*(store.claim_due(150.0, lease=30) for _ in range(8)))
    assert sorted(c for claim in claims for c in claim) == [-1]
    assert await store.claim_due(170.0, lease=30) == []  # leased until 180
    # the claimer died without finishing: after the lease someone else gets it
    assert await store.claim_due(181.0, lease=30) == [-1]
    await store.set_deadline(-1, None)
    assert sorted(await store.claim_due(1000.0, lease=30)) == [-2]


async def test_a_lease_is_renewed_by_its_holder_only_and_kept_while_its_work_runs(
    store: Store,
) -> None:
    name = f"lease-{secrets.token_hex(3)}"
    token = await store.lock(name, 0.3)
    assert token is not None and await store.lock(name, 0.3) is None
    assert not await store.renew(name, "another", 30)
    assert await store.renew(name, token, 30)  # 30 s from now
    await asyncio.sleep(0.6)  # past the first TTL
    assert await store.lock(name, 0.3) is None  # still held
    await store.unlock(name, token)
    assert not await store.renew(name, token, 30)  # given back: nothing to renew
    # the work outlasts the TTL (a table's first picture on a slow machine, say): nobody
    # takes the lease meanwhile, and it is given back at the end
    ttl = 2.0
    token = await store.lock(name, ttl)
    assert token is not None
    async with kept(store, name, token, ttl):
        loop = asyncio.get_running_loop()
        end = loop.time() + 2.5 * ttl
        while loop.time() < end:
            await asyncio.sleep(0.25)
            assert await store.lock(name, ttl) is None
    assert await store.lock(name, ttl) is not None


async def test_the_send_window_allows_limit_messages_per_window(store: Store) -> None:
    import time

    now = time.time()
    waits = [await store.reserve_send(-5, now, limit=3, window=0.5) for _ in range(4)]
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert 0 < waits[3] <= 0.5
    assert await store.reserve_send(-6, now, limit=3, window=0.5) == 0.0  # per chat
    await asyncio.sleep(waits[3] + 0.05)
    assert await store.reserve_send(-5, time.time(), limit=3, window=0.5) == 0.0


async def test_windows_of_other_lengths_keep_each_other(store: Store) -> None:
    """A group's window (60 s), a private chat's (3 s) and the table's pace (a few s) live
    side by side: a short window asked for later forgets nothing of a long one (the memory
    store once swept every chat by the window of the call at hand, and a group then got
    429s). With a smaller limit, the wait is until the window is below that limit."""
    import time

    now = time.time()
    for _ in range(3):
        assert await store.reserve_send(-7, now, limit=3, window=60.0) == 0.0
    await asyncio.sleep(0.1)
    assert await store.reserve_send(-8, time.time(), limit=2, window=0.05) == 0.0
    assert await store.reserve_send(-7, time.time(), limit=3, window=60.0) > 50
    assert 50 < await store.reserve_send(-7, time.time(), limit=2, window=60.0) <= 60


async def test_through_sentinel_the_store_finds_the_primary(
    own_redis: OwnRedis, tmp_path: Path
) -> None:
    """REDIS_SENTINELS: the bot asks the Sentinels for the current primary."""
    port = free_port()
    conf = tmp_path / "sentinel.conf"
    conf.write_text(
        f"port {port}\nbind 127.0.0.1\ndir {tmp_path}\n"
        f"sentinel monitor games 127.0.0.1 {own_redis.port} 1\n"
    )
    proc = subprocess.Popen(["redis-server", str(conf), "--sentinel"], stdout=subprocess.DEVNULL)
    try:
        await wait_port(port)
        settings = Settings(
            bot_token="1:x",
            redis_url="redis:///0",
            redis_sentinels=f"127.0.0.1:{port}",
            redis_sentinel_master="games",
            redis_prefix="sentinel-test",
        )
        store = make_store(settings)
        assert isinstance(store, RedisStore)
        try:
            await store.put(record(-7), expected=0)
            await store.set_deadline(-7, 1.0)
            assert await store.claim_due(2.0, lease=5) == [-7]
        finally:
            await store.close()
        direct = RedisStore(own_redis.url, prefix="sentinel-test")
        try:
            got = await direct.get(-7)  # it is the same Redis
            assert got is not None and got.uid == "abc123"
        finally:
            await direct.close()
    finally:
        proc.kill()
        proc.wait()


async def wait_port(port: int) -> None:
    for _ in range(100):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return
    raise RuntimeError(f"nothing listens on {port}")


async def test_keys_of_the_older_untagged_format_are_renamed_once_at_start(
    redis_url: str,
) -> None:
    """Before hash tags (Redis Cluster) the keys read `nastolka:game:-100`; a newer bot
    renames them at start, so no game, quarantined value or deadline is lost."""
    store = RedisStore(redis_url, prefix=f"old-{secrets.token_hex(3)}")
    p, raw = store._prefix, store._redis
    try:
        rec = record(chat_id=-100, version=4)
        await raw.set(f"{p}:game:-100", rec.model_dump_json())
        await raw.rpush(f"{p}:quarantine:-200", "junk")
        await raw.zadd(f"{p}:deadlines", {"-100": 7.0, "-300": 9.0})
        assert await store.get(-100) is None  # not found under today's key
        assert await store.migrate_keys() == 4
        got = await store.get(-100)
        assert got is not None and got.version == 4
        assert await store.quarantined(-200) == [b"junk"]
        assert await store.deadline(-100) == 7.0 and await store.deadline(-300) == 9.0
        assert sorted(await store.claim_due(10.0, 30.0)) == [-300, -100]
        assert await store.migrate_keys() == 0  # once: nothing of the old format is left
        assert [k async for k in raw.scan_iter(match=f"{p}:*") if "{" not in k] == []
    finally:
        await store.close()


async def test_a_write_sent_again_after_its_reply_was_lost_is_done_once(redis_url: str) -> None:
    """The client retries a command whose connection broke (a failover): when the first
    run was applied, the second finds its own value and answers done, not a conflict,
    and the steps are appended once."""
    store = RedisStore(redis_url, prefix=f"again-{secrets.token_hex(3)}")
    try:
        saved = await store.put(record(), expected=0)
        new = saved.model_copy(update={"seq": 7, "version": saved.version + 1})
        key = store.steps_key(-100)
        write = (-100, saved.version, new.model_dump_json(), (key, ["s1", "s2"], False))
        await store._write(*write)
        await store._write(*write)  # the same command again: done
        got = await store.get(-100)
        assert got is not None and got.seq == 7 and got.version == saved.version + 1
        assert await store.client.lrange(key, 0, -1) == ["abc123", "s1", "s2"]
        with pytest.raises(Conflict):  # another write on the old version still conflicts
            await store.put(saved.model_copy(update={"seq": 9}), expected=saved.version)
        await store.delete(-100, expected=got.version)
        await store.delete(-100, expected=got.version)  # a delete sent again: gone is done
    finally:
        await store.close()
