"""`python -m bench.records [--redis-url URL] [-n N]`: what reading a game record costs now
that every read checks the record can be played (bot/records.py `PlayableCheck`).

Printed per store (memory; Redis when a URL is given or TEST_REDIS_URL is set), in µs per
`get` of one mid-game «Семидорожник» record, beside the baseline from the same run — the
old read, `GameRecord.model_validate_json` of the same value:

- `no check`: the store's read with the quarantine guard, no `check` installed;
- `check, known state`: the bot's case (the state was loaded before: a hash lookup);
- `check, new state`: a state never seen (its engine parses it once).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable

from bot.config import Settings
from bot.presenters import registry
from bot.records import PlayableCheck
from bot.storage import GameRecord, MemoryStore, RecordStatus, RedisStore, Store
from locales import get_translator

CHAT = -4242


def mid_game_record() -> GameRecord:
    presenters = registry(Settings(bot_token="1:bench"))
    p = presenters["seven_tracks"]
    state = p.new_state([1, 2, 3, 4], 7, dict(p.choices()[0].options))
    adv = p.advance(state, p.context(get_translator("ru"), {}, now=time.time()))
    return GameRecord(
        chat_id=CHAT,
        uid="bench1",
        game_id="seven_tracks",
        status=RecordStatus.PLAYING,
        creator=1,
        players=[1, 2, 3, 4],
        names={1: "Аня", 2: "Борис", 3: "Вика", 4: "Гоша"},
        state=adv.state.model_dump_json(),
        log=["Аня выставила оранжевую на дорожку 2"] * 3,
    )


async def per_call(fn: Callable[[], Awaitable[object]], n: int) -> float:
    """Median of 5 rounds of `n` calls, µs per call."""
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            await fn()
        rounds.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(rounds)


async def measure(name: str, store: Store, rec: GameRecord, raw: str, n: int) -> None:
    presenters = registry(Settings(bot_token="1:bench"))
    await store.put(rec, 0)

    async def old_read() -> object:
        return GameRecord.model_validate_json(raw)

    async def read() -> object:
        got = await store.get(CHAT)
        assert got is not None
        return got

    baseline = await per_call(old_read, n)
    store.check = None
    plain = await per_call(read, n)
    store.check = PlayableCheck(presenters)
    await read()
    known = await per_call(read, n)

    fresh_checks = [PlayableCheck(presenters) for _ in range(5 * n)]

    async def read_new() -> object:
        store.check = fresh_checks.pop()
        return await read()

    new = await per_call(read_new, n)
    store.check = None
    print(f"{name:<8} baseline (old parse only) {baseline:7.1f} µs")
    print(f"{'':<8} get, no check             {plain:7.1f} µs")
    print(f"{'':<8} get, check, known state   {known:7.1f} µs  (+{known - plain:.1f})")
    print(f"{'':<8} get, check, new state     {new:7.1f} µs  (+{new - plain:.1f})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", default=os.environ.get("TEST_REDIS_URL"))
    parser.add_argument("-n", type=int, default=400, help="reads per round")
    args = parser.parse_args()
    rec = mid_game_record()
    raw = rec.model_copy(update={"version": 1}).model_dump_json()
    print(f"one record: {len(raw)} bytes; µs per read (median of 5 rounds of {args.n})")
    await measure("memory", MemoryStore(), rec, raw, args.n)
    if args.redis_url:
        store = RedisStore(args.redis_url, prefix=f"bench-{secrets.token_hex(4)}", ttl_seconds=60)
        try:
            await measure("redis", store, rec, raw, args.n)
        finally:
            current = await store.get(CHAT)
            if current is not None:
                await store.delete(CHAT, current.version)
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
