"""A newer bot reads every older record: the fixtures of each stored format, one game in
play per game (tests/bot/fixtures/records/, written by its `make.py`), load through both
stores and play on; a record that can't be upgraded is moved aside, never lost
(bot/storage/schema.py)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.presenters import registry
from bot.records import PlayableCheck
from bot.storage import GameRecord, MemoryStore, RecordStatus, RedisStore, Store, schema
from bot.storage.quarantine import Unreadable
from fake_telegram import FakeTelegram
from games.seven_tracks import GAME as SEVEN_TRACKS
from games.seven_tracks import Phase, State
from tests.bot.e2e import running, settings_for

HERE = Path(__file__).parent / "fixtures" / "records"
FIXTURES = sorted(HERE.glob("*.schema*.json"))
PRESENTERS = registry()
WINDOW = "seven_tracks-window.schema1.json"  # «Семидорожник» in its first-move window
# what the steps change (bot/storage/schema.py): 1 → 2 took the window out of the ui
CHANGED = {WINDOW: ("ui", "state", "turn_id", "turn_deadline")}


async def write_raw(store: Store, chat_id: int, raw: bytes) -> None:
    if isinstance(store, MemoryStore):
        store.put_raw(chat_id, raw)
    else:
        assert isinstance(store, RedisStore)
        await store._redis.set(store._key(chat_id), raw)


def test_there_is_a_fixture_of_todays_format_for_every_game() -> None:
    formats = {path.name.split(".")[1] for path in FIXTURES}
    assert "schema0" in formats  # the records written before formats had numbers
    for version in range(schema.SCHEMA):
        assert {f"{g}.schema{version}.json" for g in PRESENTERS} <= {p.name for p in FIXTURES}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
async def test_an_older_record_loads_and_plays_on(store: Store, path: Path) -> None:
    raw = path.read_bytes()
    stored: dict[str, Any] = json.loads(raw)
    chat_id = stored["chat_id"]
    store.check = PlayableCheck(PRESENTERS)
    await write_raw(store, chat_id, raw)

    rec = await store.get(chat_id)
    assert rec is not None, await store.quarantined(chat_id)
    assert rec.schema_version == schema.SCHEMA
    assert rec.status == RecordStatus.PLAYING and rec.state is not None
    same = rec.model_dump(mode="json")
    for key, value in stored.items():
        if key not in ("schema_version", "names", "timeouts", *CHANGED.get(path.name, ())):
            assert same[key] == value, key
    assert {str(k): v for k, v in rec.names.items()} == stored["names"]

    # plays on: the engine takes the stored state and its next move, the store the write
    p = PRESENTERS[rec.game_id]
    state = p.load(rec.state)
    action = p.game.legal_actions(state)[0]
    state, _ = p.game.apply(state, action)
    rec.state, rec.seq = state.model_dump_json(), rec.seq + 1
    written = await store.put(rec, rec.version)
    again = await store.get(chat_id)
    assert again == written and again.state == state.model_dump_json()
    assert again.schema_version == schema.SCHEMA
    assert await store.quarantined(chat_id) == []


def test_a_first_move_window_of_the_older_bot_keeps_its_answer_and_its_deadline() -> None:
    """1 → 2: the window kept its answers not yet applied (`choices`) and its deadline in
    the ui; they become the engine's (Аня's pass, with her seat) and the record's
    decision timer (the window's own deadline, not a new one)."""
    raw = (HERE / WINDOW).read_bytes()
    stored: dict[str, Any] = json.loads(raw)
    window = stored["ui"]["fm"]
    assert window["choices"] == {"1001": "P"}
    before = State.model_validate_json(stored["state"])
    assert before.phase == Phase.FIRST_MOVE and before.fm_decided == [1]

    rec = schema.load(raw)
    assert rec.state is not None
    s = State.model_validate_json(rec.state)
    assert s.phase == Phase.FIRST_MOVE and s.fm_decided == [1, 0]  # Аня (seat 0) passed
    assert SEVEN_TRACKS.deciders(s) == [1003]  # the FM's holder is still to answer
    assert rec.ui == {}
    assert rec.window and rec.turn_id == SEVEN_TRACKS.turn_key(s) == "w1:1:0"
    assert rec.turn_deadline == window["deadline"] == stored["deadline"]


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


def broken_step(data: dict[str, Any]) -> dict[str, Any]:
    raise KeyError("players")


@pytest.mark.parametrize("why", ["newer", "no step", "step fails", "not a number"])
async def test_a_record_that_cant_be_upgraded_is_kept_aside(
    store: Store, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data: dict[str, Any] = json.loads(FIXTURES[0].read_bytes())
    chat_id = data["chat_id"]
    if why == "newer":
        data["schema_version"] = schema.SCHEMA + 1
    elif why == "no step":
        monkeypatch.setattr(schema, "STEPS", {})
    elif why == "step fails":
        monkeypatch.setattr(schema, "STEPS", {0: broken_step})
    else:
        data["schema_version"] = "один"
    raw = json.dumps(data, ensure_ascii=False).encode()
    told: list[Unreadable] = []
    store.check, store.on_unreadable = PlayableCheck(PRESENTERS), told.append
    await write_raw(store, chat_id, raw)
    assert await store.get(chat_id) is None
    assert await store.quarantined(chat_id) == [raw]  # as it was: an operator can restore it
    assert [(u.chat_id, u.uid, u.table_message_id) for u in told] == [
        (chat_id, data["uid"], data["table_message_id"])
    ]


async def test_the_steps_run_in_order_up_to_todays_format(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A future format change, played out: 0 → 1 (as it is) → 2 renames a field back."""

    def rename(data: dict[str, Any]) -> dict[str, Any]:
        data["names"] = data.pop("nicknames")
        return data

    raw = FIXTURES[0].read_bytes()
    data = json.loads(raw)
    data["nicknames"] = data.pop("names")
    data["schema_version"] = 1
    monkeypatch.setattr(schema, "SCHEMA", 2)
    monkeypatch.setattr(schema, "STEPS", {**schema.STEPS, 1: rename})
    rec = schema.load(json.dumps(data))
    assert rec.schema_version == 2
    assert rec.names == GameRecord.model_validate_json(raw).names != {}


async def test_the_bot_resumes_every_older_record_and_plays_on(
    tg: FakeTelegram, backend: str | None
) -> None:
    """Stored by today's bot, read by this one after a restart: each table is sent anew
    (its old message is gone) and the turn timer that was due plays the absent mover's
    turn."""
    settings = settings_for(tg, backend, timer_poll_seconds=0.1, timeouts_before_removal=100)
    store: Store = MemoryStore()
    if backend is not None:
        store = RedisStore(backend, prefix=settings.redis_prefix, ttl_seconds=600)
    now = time.time()
    stored: dict[int, dict[str, Any]] = {}
    chats = {}
    windows = set()
    for path in FIXTURES:
        data = json.loads(path.read_bytes())
        if path.name == WINDOW:
            windows.add(data["chat_id"])
        data["deadline"] = data["turn_deadline"] = now - 1  # the turn ran out while down
        users = [tg.user(int(u), name) for u, name in data["names"].items()]
        chats[data["chat_id"]] = tg.group(data["chat_id"], members=users)
        stored[data["chat_id"]] = data
        await write_raw(store, data["chat_id"], json.dumps(data, ensure_ascii=False).encode())
    if isinstance(store, RedisStore):
        await store.close()
    try:
        async with running(settings, store=store if backend is None else None) as app:
            for chat_id, chat in chats.items():
                table = await chat.wait_message(lambda m: m.photo is not None, after=0, timeout=20)

                async def moved_on(chat_id: int = chat_id) -> GameRecord | None:
                    rec = await app.store.get(chat_id)
                    old = stored[chat_id]
                    return rec if rec is not None and rec.seq > old["seq"] else None

                rec = None
                deadline = time.monotonic() + 20
                while rec is None and time.monotonic() < deadline:
                    rec = await moved_on()
                    if rec is None:
                        await asyncio.sleep(0.05)  # polled until the deadline above
                assert rec is not None, chat.transcript()
                assert rec.status == RecordStatus.PLAYING, chat.transcript()
                assert rec.state != stored[chat_id]["state"]
                assert rec.schema_version == schema.SCHEMA
                if chat_id in windows:  # the window's end: silence is a pass (DESIGN)
                    state = PRESENTERS[rec.game_id].load(rec.state or "")
                    assert isinstance(state, State) and state.phase != Phase.FIRST_MOVE
                else:
                    assert rec.timeouts, chat.transcript()  # the turn was the timer's
                assert table.message_id != stored[chat_id]["table_message_id"]
                assert await app.store.quarantined(chat_id) == []
    finally:
        if backend is not None:
            cleanup = RedisStore(backend, prefix=settings.redis_prefix)
            async for key in cleanup._redis.scan_iter(match=f"{settings.redis_prefix}:*"):
                await cleanup._redis.delete(key)
            await cleanup.close()
