"""`python -m bench.group_memory --redis-url URL`: the Redis memory of the group's memory
(bot/memory/): bytes per recorded game, and per chat after 10,000 recorded games.

Each game is a real one: a whole game of each engine played by its novice policy, its
record (`GameEntry`: players, seed, options, every step, standings) and result line
built as the bot builds them, pushed with the bot's own `RedisBackend` (the last 200
games in full, the last 1000 lines). Redis's `MEMORY USAGE` of the keys is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from typing import Any

import games
from bot.memory.records import FULL, LINES, GameEntry, RedisBackend, ResultLine
from bot.memory.steps import _Start
from bot.storage import RedisStore
from games.players import decide

OPTIONS: dict[str, dict[str, Any]] = {
    "seven_tracks": {"target_score": 144},
    "dominas": {"match_games": 1},
}


def played(game_id: str, seed: int) -> GameEntry:
    g = games.get(game_id)
    players = list(range(101, 101 + max(2, g.min_players)))
    options = OPTIONS.get(game_id)
    state = g.new(players=players, seed=seed, options=options)
    steps = [_Start(players, seed, options).text]
    rng = random.Random(seed)
    for _ in range(20_000):
        if g.is_over(state):
            break
        seat = g.to_act(state)
        legal = g.legal_actions(state)
        if seat is None or not legal:
            state, _ = g.timeout(state)
            steps.append("~t")
            continue
        a = decide(game_id, "novice", g.view(state, seat), legal, rng.randrange(2**31))
        state, _ = g.apply(state, a)
        steps.append(g.encode_action(a))
    result = g.result(state)
    return GameEntry(
        n=0,
        uid="abcdef",
        game_id=game_id,
        ended_at=1.8e9,
        started_at=1.8e9 - 1500,
        standings=[(s.player, s.place, s.score) for s in result.standings],
        option_choice="",
        options=options or {},
        names={p: "Аня Борисовна" for p in players},
        steps=steps,
    )


async def main(url: str, count: int) -> None:
    store = RedisStore(url, prefix="bench-memory", ttl_seconds=86400)
    backend = RedisBackend(store.client, store.prefix)
    r = store.client
    print(f"{'game':<14}{'steps':>7}{'JSON bytes':>12}{'MEMORY USAGE':>14}")
    entries = []
    for n, game_id in enumerate(games.ids()):
        entry = played(game_id, 7 + n)
        entries.append(entry)
        key = f"bench-memory:one:{game_id}"
        await r.set(key, entry.model_dump_json())
        usage = await r.memory_usage(key)
        print(f"{game_id:<14}{entry.length:>7}{len(entry.model_dump_json()):>12}{usage:>14}")
        await r.delete(key)
    chat = -42
    await r.delete(backend.key(chat, "games"), backend.key(chat, "lines"))
    for i in range(count):
        entry = entries[i % len(entries)].model_copy(update={"n": i + 1})
        line = ResultLine(**entry.model_dump(include=set(ResultLine.model_fields)))
        await backend.push_game(chat, entry.model_dump_json(), line.model_dump_json(), 86400)
    full = int(await r.memory_usage(backend.key(chat, "games"), samples=0) or 0)
    lines = int(await r.memory_usage(backend.key(chat, "lines"), samples=0) or 0)
    print(
        f"after {count} games in one chat: {FULL} games in full {full} B, {LINES} lines {lines} B, "
    )
    print(f"per chat {full + lines} B ({(full + lines) / 1e6:.2f} MB), bounded whatever the count")
    await r.delete(backend.key(chat, "games"), backend.key(chat, "lines"))
    await store.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--redis-url", required=True)
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    asyncio.run(main(args.redis_url, args.games))
