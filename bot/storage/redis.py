"""Redis store: one JSON value per chat, written with compare-and-set (a Lua script).

Besides the games: a sorted set of deadlines (chat -> when its game next needs the bot,
claimed atomically by whichever instance polls first) and a per-chat sliding window of
sent messages (the flood limit, shared by all instances). A connection failure is raised
as `StoreUnavailable`; redis-py reconnects by itself once Redis is back.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar
from urllib.parse import unquote, urlparse

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff
from redis.client import NEVER_DECODE
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage.base import Conflict, GameRecord, StoreUnavailable, next_version
from bot.storage.quarantine import NOTICE_QUIET, RecordCheck, Unreadable, decode, reported

# KEYS[1] the game key; ARGV: expected version, new JSON ('' deletes), ttl seconds.
_CAS = """
local cur = redis.call('GET', KEYS[1])
local expected = tonumber(ARGV[1])
local have = 0
if cur then
  local ok, doc = pcall(cjson.decode, cur)  -- an unreadable value is never `expected`
  if ok and type(doc) == 'table' then have = tonumber(doc['version']) or 0 else have = -2 end
end
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

# An unreadable game value moves to the chat's quarantine list (a value of another type
# is renamed aside), and the notice markers are set, in one step: one caller only moves
# it, and the chat is then told once. KEYS: the game, the quarantine list, the chat's
# notice marker, the game's notice marker ('' when its uid is unknown), the name for a
# value of another type. ARGV: the value read, the quarantine's ttl, NOTICE_QUIET, the
# game marker's ttl. Returns 1 when moved, 0 when the value had changed meanwhile.
_QUARANTINE = """
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then return 0 end
if kind == 'string' then
  if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
  redis.call('RPUSH', KEYS[2], ARGV[1])
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
  redis.call('DEL', KEYS[1])
else
  redis.call('RENAME', KEYS[1], KEYS[5])
  redis.call('EXPIRE', KEYS[5], tonumber(ARGV[2]))
end
redis.call('SET', KEYS[3], '1', 'EX', math.ceil(tonumber(ARGV[3])))
if KEYS[4] ~= '' then redis.call('SET', KEYS[4], '1', 'EX', tonumber(ARGV[4])) end
return 1
"""

# KEYS: the chat's notice marker, the game's; ARGV: NOTICE_QUIET, the game marker's ttl.
_NOTICE = """
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', tonumber(ARGV[2])) then return 0 end
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', math.ceil(tonumber(ARGV[1]))) then
  return 0
end
return 1
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
        self._move_aside: Any = self._redis.register_script(_QUARANTINE)
        self._notice: Any = self._redis.register_script(_NOTICE)
        self.check: RecordCheck | None = None
        self.on_unreadable: Callable[[Unreadable], None] | None = None

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
        key = self._key(chat_id)
        for _ in range(3):  # a value that changed while being moved aside is read again
            try:  # bytes as stored: junk that is not UTF-8 is an unreadable record too
                raw: bytes | None = await self._redis.execute_command(  # type: ignore[no-untyped-call]
                    "GET", key, **{NEVER_DECODE: True}
                )
            except ResponseError as e:
                if "WRONGTYPE" not in str(e):
                    raise
                info = Unreadable(chat_id=chat_id, raw=b"", reason=f"not a string: {e}")
            else:
                if raw is None:
                    return None
                rec = decode(chat_id, raw, self.check)
                if isinstance(rec, GameRecord):
                    return rec
                info = rec
            if await self._quarantine(info):
                return None
        return None

    def _quarantine_key(self, chat_id: int) -> str:
        return f"{self._prefix}:quarantine:{chat_id}"

    async def _quarantine(self, info: Unreadable) -> bool:
        chat = info.chat_id
        aside = self._quarantine_key(chat)
        other = f"{aside}:{time.time_ns()}"
        keys = [
            self._key(chat),
            aside,
            f"{self._prefix}:lost:{chat}",
            f"{self._prefix}:lost:{chat}:{info.uid}" if info.uid else "",
            other,
        ]
        args = [info.raw, self._ttl * 12, NOTICE_QUIET, self._ttl]
        if not int(await self._move_aside(keys=keys, args=args)):
            return False
        wrong_type = info.reason.startswith("not a string")
        reported(info, other if wrong_type else aside, self.on_unreadable)
        return True

    @_guarded
    async def quarantined(self, chat_id: int) -> list[bytes]:
        key = self._quarantine_key(chat_id)
        values: list[bytes] = await self._redis.execute_command(  # type: ignore[no-untyped-call]
            "LRANGE", key, 0, -1, **{NEVER_DECODE: True}
        )
        return list(values)

    @_guarded
    async def claim_notice(self, chat_id: int, uid: str) -> bool:
        keys = [f"{self._prefix}:lost:{chat_id}", f"{self._prefix}:lost:{chat_id}:{uid}"]
        return bool(int(await self._notice(keys=keys, args=[NOTICE_QUIET, self._ttl])))

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
