"""Redis store: one JSON value per chat, written with compare-and-set (a Lua script).

Besides the games: a sorted set of deadlines (chat -> when its game next needs the bot,
claimed atomically by whichever instance polls first) and a per-chat sliding window of
sent messages (the flood limit, shared by all instances). A connection failure is raised
as `StoreUnavailable`; redis-py reconnects by itself once Redis is back.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar
from urllib.parse import unquote, urlparse

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage.base import Conflict, GameRecord, StoreUnavailable, next_version

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

# KEYS[1] the deadlines zset; ARGV: now, now + lease. Due members move to the lease.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return due
"""

# KEYS[1] the chat's window zset; ARGV: limit, window seconds, a unique member.
# Redis's own clock, so instances with skewed clocks share one window.
_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(window) + 1)
return '0'
"""

# KEYS[1] the lease; ARGV[1] the holder's token: delete only one's own lease.
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# redis-py's asyncio pool *raises* MaxConnectionsError past its limit; a burst (25–50
# games starting at once) lost tables and lobby edits to it. A blocking pool makes a
# command wait up to POOL_TIMEOUT seconds for a free connection instead.
POOL_SIZE = 64
POOL_TIMEOUT = 20.0


class _BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """The Sentinel-managed pool (asks the sentinels for the primary), blocking when full."""


P = ParamSpec("P")
R = TypeVar("R")


def _guarded(
    fn: Callable[P, Coroutine[Any, Any, R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError, OSError) as e:
            raise StoreUnavailable(f"Redis: {e}") from e

    return wrapper


class RedisStore:
    persistent = True

    def __init__(
        self,
        url: str,
        prefix: str = "nastolka",
        ttl_seconds: int = 30 * 86400,
        *,
        sentinels: list[tuple[str, int]] | None = None,
        sentinel_master: str = "mymaster",
    ) -> None:
        """`url` of the Redis; with `sentinels` the current primary of `sentinel_master` is
        asked from them instead (and again after a failover); `url` then gives only the
        database, user and password."""
        options: dict[str, Any] = {
            "decode_responses": True,
            "socket_connect_timeout": 2,
            "socket_timeout": 3,
            "retry": Retry(ExponentialBackoff(cap=0.2, base=0.05), 2),
        }
        self._redis: Redis
        if sentinels:
            parsed = urlparse(url)
            db = int((parsed.path or "/0").lstrip("/") or 0)
            sentinel = Sentinel(  # type: ignore[no-untyped-call]
                sentinels, socket_connect_timeout=2, socket_timeout=3
            )
            self._redis = sentinel.master_for(
                sentinel_master,
                connection_pool_class=_BlockingSentinelPool,
                max_connections=POOL_SIZE,
                timeout=POOL_TIMEOUT,
                db=db,
                username=unquote(parsed.username) if parsed.username else None,
                password=unquote(parsed.password) if parsed.password else None,
                **options,
            )
        else:
            pool = BlockingConnectionPool.from_url(
                url, max_connections=POOL_SIZE, timeout=POOL_TIMEOUT, **options
            )
            self._redis = Redis(connection_pool=pool)
        self._prefix = prefix
        self._ttl = int(ttl_seconds)
        self._cas: Any = self._redis.register_script(_CAS)
        self._claim: Any = self._redis.register_script(_CLAIM)
        self._window: Any = self._redis.register_script(_WINDOW)
        self._unlock: Any = self._redis.register_script(_UNLOCK)

    def _key(self, chat_id: int) -> str:
        return f"{self._prefix}:game:{chat_id}"

    @property
    def _deadlines(self) -> str:
        return f"{self._prefix}:deadlines"

    @_guarded
    async def ping(self) -> bool:
        return bool(await self._redis.ping())

    @_guarded
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

    @_guarded
    async def put(self, record: GameRecord, expected: int) -> GameRecord:
        new = next_version(record, expected)
        await self._write(record.chat_id, expected, new.model_dump_json())
        return new

    @_guarded
    async def delete(self, chat_id: int, expected: int) -> None:
        await self._write(chat_id, expected, "")

    @_guarded
    async def chats(self) -> list[int]:
        out: list[int] = []
        prefix = f"{self._prefix}:game:"
        async for key in self._redis.scan_iter(match=prefix + "*", count=200):
            try:
                out.append(int(key[len(prefix) :]))
            except ValueError:
                continue
        return out

    @_guarded
    async def mark_started(self, user_id: int) -> None:
        await self._redis.set(f"{self._prefix}:started:{user_id}", "1", ex=self._ttl * 12)

    @_guarded
    async def has_started(self, user_id: int) -> bool:
        return bool(await self._redis.exists(f"{self._prefix}:started:{user_id}"))

    @_guarded
    async def set_deadline(self, chat_id: int, when: float | None) -> None:
        if when is None:
            await self._redis.zrem(self._deadlines, str(chat_id))
        else:
            await self._redis.zadd(self._deadlines, {str(chat_id): when})

    @_guarded
    async def claim_due(self, now: float, lease: float) -> list[int]:
        due = await self._claim(keys=[self._deadlines], args=[repr(now), repr(now + lease)])
        out: list[int] = []
        for member in due:
            try:
                out.append(int(member))
            except ValueError:
                continue
        return out

    @_guarded
    async def reserve_send(self, chat_id: int, now: float, limit: int, window: float) -> float:
        member = secrets.token_hex(6)
        key = f"{self._prefix}:sent:{chat_id}"
        return float(await self._window(keys=[key], args=[limit, repr(window), member]))

    @_guarded
    async def lock(self, name: str, ttl: float) -> str | None:
        token = secrets.token_hex(8)
        key = f"{self._prefix}:lock:{name}"
        taken = await self._redis.set(key, token, nx=True, px=max(1, int(ttl * 1000)))
        return token if taken else None

    @_guarded
    async def unlock(self, name: str, token: str) -> None:
        await self._unlock(keys=[f"{self._prefix}:lock:{name}"], args=[token])

    async def close(self) -> None:
        await self._redis.aclose()
