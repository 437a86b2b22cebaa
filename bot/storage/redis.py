"""Redis store: one JSON value per chat, written with compare-and-set (a Lua script)."""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from bot.storage.base import Conflict, GameRecord, next_version

# KEYS[1] the game key; ARGV: expected version, new JSON ('' deletes), ttl seconds.
_CAS = """
local cur = redis.call('GET', KEYS[1])
local expected = tonumber(ARGV[1])
local have = 0
if cur then have = tonumber(cjson.decode(cur)['version']) or 0 end
if have ~= expected then return have end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
end
return -1
"""


class RedisStore:
    persistent = True

    def __init__(self, url: str, prefix: str = "nastolka", ttl_seconds: int = 30 * 86400) -> None:
        self._redis: Redis = Redis.from_url(url, decode_responses=True)
        self._prefix = prefix
        self._ttl = int(ttl_seconds)
        self._cas: Any = self._redis.register_script(_CAS)

    def _key(self, chat_id: int) -> str:
        return f"{self._prefix}:game:{chat_id}"

    async def ping(self) -> bool:
        return bool(await self._redis.ping())

    async def get(self, chat_id: int) -> GameRecord | None:
        raw = await self._redis.get(self._key(chat_id))
        if raw is None:
            return None
        return GameRecord.model_validate_json(raw)

    async def _write(self, chat_id: int, expected: int, payload: str) -> None:
        result = int(
            await self._cas(keys=[self._key(chat_id)], args=[expected, payload, self._ttl])
        )
        if result != -1:
            raise Conflict(f"chat {chat_id}: version {result}, expected {expected}")

    async def put(self, record: GameRecord, expected: int) -> GameRecord:
        new = next_version(record, expected)
        await self._write(record.chat_id, expected, new.model_dump_json())
        return new

    async def delete(self, chat_id: int, expected: int) -> None:
        await self._write(chat_id, expected, "")

    async def chats(self) -> list[int]:
        out: list[int] = []
        prefix = f"{self._prefix}:game:"
        async for key in self._redis.scan_iter(match=prefix + "*", count=200):
            try:
                out.append(int(key[len(prefix) :]))
            except ValueError:
                continue
        return out

    async def mark_started(self, user_id: int) -> None:
        await self._redis.set(f"{self._prefix}:started:{user_id}", "1", ex=self._ttl * 12)

    async def has_started(self, user_id: int) -> bool:
        return bool(await self._redis.exists(f"{self._prefix}:started:{user_id}"))

    async def close(self) -> None:
        await self._redis.aclose()
