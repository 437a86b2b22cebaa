"""Redis Cluster (issue 19, point 1): a real local cluster of three primaries with a
replica each, started from `redis-server`; the store keeps each chat's keys in one slot,
spreads the chats and the deadlines over the primaries, and a game goes on through a
primary's failover with nothing acknowledged lost."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from bot.memory.records import RedisBackend
from bot.storage import Conflict, GameRecord, RecordStatus, RedisStore
from fake_telegram import FakeTelegram
from locales import get_translator
from tests.bot.cluster import LocalCluster, available, command
from tests.bot.e2e import changed, data_of, record, running, settings_for
from tests.bot.sea_cross_play import choose, mover, sea_cross_table

pytestmark = pytest.mark.skipif(not available(), reason="redis-server is not installed")

CHATS = [-1_000_000_000 - n for n in range(60)]
CONFLICT = get_translator("ru")("error.conflict")  # «Стол только что изменился…»


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    local = LocalCluster(Path(tmp_path_factory.mktemp("cluster")))
    try:
        local.start()
        yield local
    finally:
        local.stop()


def store_on(cluster: LocalCluster) -> RedisStore:
    return RedisStore(cluster.url, prefix=f"c-{secrets.token_hex(3)}", cluster=True)


async def keys_per_primary(cluster: LocalCluster, prefix: str) -> list[int]:
    counts = []
    for port in cluster.ports:
        node = Redis(port=port, decode_responses=True)
        try:
            if (await command(node, "ROLE"))[0] == "master":
                counts.append(len([k async for k in node.scan_iter(match=f"{prefix}:*")]))
        finally:
            await node.aclose()
    return counts


async def test_each_chat_s_keys_share_a_slot_and_the_chats_spread_over_every_primary(
    cluster: LocalCluster,
) -> None:
    store = store_on(cluster)
    try:
        for chat in CHATS:
            rec = await store.put(GameRecord(chat_id=chat, uid="u", game_id="g", creator=1), 0)
            assert rec.version == 1
            await store.set_deadline(chat, 5.0)
            assert await store.reserve_send(chat, 0.0, 20, 60.0) == 0.0
        assert sorted(await store.chats()) == sorted(CHATS)
        with pytest.raises(Conflict):
            await store.put(GameRecord(chat_id=CHATS[0], uid="u", game_id="g", creator=1), 0)
        # the quarantine script moves a junk value with the chat's four other keys
        await store._redis.set(store._key(CHATS[1]), b"\xff junk")
        assert await store.get(CHATS[1]) is None
        assert await store.quarantined(CHATS[1]) == [b"\xff junk"]
        # the deadlines of every shard are claimed, once
        due = await store.claim_due(10.0, 30.0)
        assert sorted(due) == sorted(CHATS)
        assert await store.claim_due(10.0, 30.0) == []
        counts = await keys_per_primary(cluster, store._prefix)
        assert len(counts) == 3 and all(c > 0 for c in counts), counts
    finally:
        await store.close()


async def test_the_overall_ratings_and_the_all_chats_board_work_on_a_cluster(
    cluster: LocalCluster,
) -> None:
    """The memory's keys of no chat (bot/memory/records.py): a player's overall rating is
    one key of its own, the leaderboard's two sorted sets share a hash tag (its script)."""
    store = store_on(cluster)
    try:
        backend = RedisBackend(store.client, store.prefix)
        players = list(range(1, 21))
        await backend.set_overall(
            "sea_cross", {p: (f'{{"parts":{{}},"p":{p}}}', 600) for p in players}
        )
        got = await backend.overall("sea_cross", players, 600)
        assert sorted(got) == players and got[7] == '{"parts":{},"p":7}'
        scores = {p: (1000 + p, 5.0 + p) for p in players}
        await backend.rank("sea_cross", scores, [20], 600)
        assert await backend.best("sea_cross", 2) == [(19, 1019), (18, 1018)]
        assert await backend.due("sea_cross", 7.0, 10) == [1, 2]
        assert len({key_slot(k.encode()) for k in backend.board_keys("sea_cross")}) == 1
    finally:
        await store.close()


async def test_a_game_plays_on_through_a_primary_failover_and_loses_nothing_acknowledged(
    cluster: LocalCluster,
) -> None:
    witness = store_on(cluster)
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1801, "Аня"), tg.user(1802, "Борис")
        users = {u.full_name: u for u in (anna, boris)}
        chat = tg.group(members=list(users.values()))
        settings = settings_for(tg, redis_url=cluster.url, redis_cluster=True)
        # other chats' records on the same primaries, written before the failover
        kept = {}
        for n in range(30):
            rec = GameRecord(chat_id=-2_000_000 - n, uid="k", game_id="g", creator=1)
            kept[rec.chat_id] = (await witness.put(rec, 0)).version
        try:
            async with running(settings) as app:
                table = await sea_cross_table(chat, anna, boris)
                failed_over = False
                before_failover = 0
                refused_at_failover = 0
                for presses in range(1500):
                    await tg.settle(quiet=0.02)
                    rec = await record(app, chat)
                    if rec.status != RecordStatus.PLAYING:
                        break
                    if presses == 8 and not failed_over:
                        before_failover = rec.version
                        assert isinstance(app.store, RedisStore)
                        await cluster.failover(app.store._key(chat.id))
                        failed_over = True
                        after = await record(app, chat)
                        assert after.version == before_failover  # acknowledged: kept
                    before = data_of(table)
                    answer = await chat.press(
                        mover(table, users), table, choose(table.button_texts)
                    )
                    if answer.text == CONFLICT and failed_over and presses <= 8 + 3:
                        # a write in flight across the switch may be refused (nothing
                        # applied, the player is told to press again): he does
                        refused_at_failover += 1
                        continue
                    assert not answer.show_alert, answer
                    await chat.wait_for(changed(table, before), 30)
                else:
                    raise AssertionError("the game did not end")
                assert failed_over and (await record(app, chat)).version > before_failover
                assert refused_at_failover <= 2, refused_at_failover
                final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table)
                assert "🏆" in final.content
            for chat_id, version in kept.items():
                got = await witness.get(chat_id)
                assert got is not None and got.version == version
        finally:
            await witness.close()
