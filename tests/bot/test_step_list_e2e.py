"""A game's steps live out of its hot record (`GameRecord.steps`: only those not stored
yet; the store appends them to the game's own list at each `put`): the record read and
compare-and-set at every press stays small however long the game, and the finished game
still replays exactly from the list (bot/memory/steps.py, bot/storage/)."""

from __future__ import annotations

import random

import pytest

from bot.memory.keeper import memory_of
from bot.memory.records import GameEntry
from bot.memory.steps import start_of
from bot.storage import GameRecord, MemoryStore, RecordStatus, RedisStore
from games.replay import replay
from tests.bot.conftest import REDIS_URL
from tests.bot.e2e import in_group
from tests.bot.memory_play import FAST, play_out, recorded, start


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_the_hot_record_stays_small_and_the_game_still_replays(kind: str) -> None:
    if kind == "redis" and not REDIS_URL:
        pytest.skip("TEST_REDIS_URL is not set")
    url = REDIS_URL if kind == "redis" else None
    async with in_group(2901, ["Аня", "Борис"], redis_url=url, **FAST) as group:
        _, app, chat, (anna, boris) = group
        assert isinstance(app.store, RedisStore if kind == "redis" else MemoryStore)
        players = {anna.id: "Аня", boris.id: "Борис"}
        await start(app, chat.id, "hypnosia", players)
        rec = await play_out(app, chat.id, random.Random(11))
        assert rec.status == RecordStatus.OVER
        [raw] = await recorded(memory_of(app.service.ctx).backend, chat.id)
        entry = GameEntry.model_validate_json(raw)
        assert entry.steps is not None and entry.length > 20
        # the stored record holds none of them: all are in the game's step list
        assert rec.steps == [] and rec.steps_stored == len(entry.steps)
        assert await app.store.steps(rec) == entry.steps
        begin = start_of(entry.steps)
        final = replay("hypnosia", begin["players"], begin["seed"], None, entry.steps[1:])
        assert final.model_dump_json() == rec.state
        hot = len(rec.model_dump_json())
        whole = len(rec.model_copy(update={"steps": entry.steps}).model_dump_json())
        assert hot < whole - 5 * entry.length  # ≥ 5 bytes a step out of the record
        if isinstance(app.store, RedisStore):
            key = app.store.steps_key(chat.id)
            assert await app.store.client.llen(key) == 1 + len(entry.steps)  # uid first
            assert await app.store.client.ttl(key) > 0


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_an_older_record_with_its_steps_inside_moves_them_out_at_its_next_put(
    kind: str,
) -> None:
    store: MemoryStore | RedisStore
    if kind == "redis":
        if not REDIS_URL:
            pytest.skip("TEST_REDIS_URL is not set")
        store = RedisStore(REDIS_URL, prefix=f"test-steps-{random.random()}", ttl_seconds=600)
    else:
        store = MemoryStore()
    old = GameRecord(chat_id=-7, uid="g1", game_id="sea_cross", creator=1, steps=["~n{}", "a"])
    saved = await store.put(old, 0)
    assert saved.steps == [] and saved.steps_stored == 2
    assert await store.steps(saved) == ["~n{}", "a"]
    saved.steps = ["b"]
    saved = await store.put(saved, saved.version)
    assert await store.steps(saved) == ["~n{}", "a", "b"]
    lost = saved.model_copy(update={"steps": None})  # a step not captured: no replay
    saved = await store.put(lost, saved.version)
    assert saved.steps is None and await store.steps(saved) is None
    other = GameRecord(chat_id=-7, uid="g2", game_id="sea_cross", creator=1, steps=["~n{}"])
    saved = await store.put(other, saved.version)  # the chat's next game: a list anew
    assert await store.steps(saved) == ["~n{}"]
    assert await store.steps(old.model_copy(update={"steps": [], "steps_stored": 2})) is None
    if isinstance(store, RedisStore):
        await store.client.delete(store.steps_key(-7))
        await store.delete(-7, saved.version)
        await store.close()
