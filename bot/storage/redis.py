"""Redis store: one JSON value per chat, written with compare-and-set (a Lua script).

Besides the games: sorted sets of deadlines (chat -> when its game next needs the bot,
claimed atomically by whichever instance polls first) and a per-chat sliding window of
sent messages (the flood limit, shared by all instances). A connection failure is raised
as `StoreUnavailable`; redis-py reconnects by itself once Redis is back.

One Redis, a Sentinel-managed primary or a Redis (or Valkey) Cluster (`cluster=True`):
every key of a chat carries the chat's id as a hash tag (``nastolka:game:{-100123}``), so
each script touches one slot, and the deadlines are spread over `DEADLINE_SHARDS` sorted
sets of their own tags, so no slot is hot. Keys of the older untagged format are renamed
once at start (`migrate_keys`).

    >>> RedisStore.tag(-100123)
    '{-100123}'
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar
from urllib.parse import unquote, urlparse

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff
from redis.client import NEVER_DECODE
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.storage import redis_scripts as lua
from bot.storage.base import Conflict, GameRecord, StoreUnavailable, moved_steps, next_version
from bot.storage.quarantine import NOTICE_QUIET, RecordCheck, Unreadable, decode, reported

# redis-py's asyncio pool *raises* MaxConnectionsError past its limit; a burst (25–50
# games starting at once) lost tables and lobby edits to it. A blocking pool makes a
# command wait up to POOL_TIMEOUT seconds for a free connection instead.
POOL_SIZE = 64
POOL_TIMEOUT = 20.0
# A cluster client keeps a pool per node and raises past its size instead of waiting.
CLUSTER_POOL_SIZE = 512

DEADLINE_SHARDS = 16  # sorted sets of deadlines, each of its own slot in a cluster


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
        cluster: bool = False,
    ) -> None:
        """`url` of the Redis; with `sentinels` the current primary of `sentinel_master` is
        asked from them instead (and again after a failover); `url` then gives only the
        database, user and password. With `cluster`, `url` is one node of a Redis Cluster
        (the client learns the others and follows failovers and resharding)."""
        options: dict[str, Any] = {
            "decode_responses": True,
            "socket_connect_timeout": 2,
            "socket_timeout": 3,
            "retry": Retry(ExponentialBackoff(cap=0.2, base=0.05), 2),
        }
        self._redis: Redis | RedisCluster
        self.cluster = cluster
        if cluster:
            self._redis = RedisCluster.from_url(url, max_connections=CLUSTER_POOL_SIZE, **options)
        elif sentinels:
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
        self._cas: Any = self._redis.register_script(lua.CAS)
        self._claim: Any = self._redis.register_script(lua.CLAIM)
        self._window: Any = self._redis.register_script(lua.WINDOW)
        self._unlock: Any = self._redis.register_script(lua.UNLOCK)
        self._renew: Any = self._redis.register_script(lua.RENEW)
        self._alive: Any = self._redis.register_script(lua.ALIVE)
        self._move_aside: Any = self._redis.register_script(lua.QUARANTINE)
        self._notice: Any = self._redis.register_script(lua.NOTICE)
        self.check: RecordCheck | None = None
        self.on_unreadable: Callable[[Unreadable], None] | None = None

    @property
    def client(self) -> Redis | RedisCluster:
        """The Redis client (bot/memory/records.py keeps its keys with it)."""
        return self._redis

    @property
    def prefix(self) -> str:
        return self._prefix

    @staticmethod
    def tag(chat_id: int) -> str:
        """The hash tag of a chat's keys: a cluster keeps them all in one slot."""
        return f"{{{chat_id}}}"

    def _key(self, chat_id: int) -> str:
        return f"{self._prefix}:game:{self.tag(chat_id)}"

    def deadline_key(self, chat_id: int) -> str:
        """The sorted set of deadlines that holds `chat_id`'s (one of `DEADLINE_SHARDS`)."""
        return self._deadline_shard(chat_id % DEADLINE_SHARDS)

    def _deadline_shard(self, n: int) -> str:
        return f"{self._prefix}:deadlines:{{d{n}}}"

    @_guarded
    async def ping(self) -> bool:
        return bool(await self._redis.ping())

    @_guarded
    async def get(self, chat_id: int) -> GameRecord | None:
        key = self._key(chat_id)
        for _ in range(3):  # a value that changed while being moved aside is read again
            try:  # bytes as stored: junk that is not UTF-8 is an unreadable record too
                raw: bytes | None = await self._redis.execute_command(
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
        return f"{self._prefix}:quarantine:{self.tag(chat_id)}"

    def _lost_key(self, chat_id: int, uid: str = "") -> str:
        marker = f"{self._prefix}:lost:{self.tag(chat_id)}"
        return f"{marker}:{uid}" if uid else marker

    async def _quarantine(self, info: Unreadable) -> bool:
        chat = info.chat_id
        aside = self._quarantine_key(chat)
        other = f"{aside}:{time.time_ns()}"
        keys = [
            self._key(chat),
            aside,
            self._lost_key(chat),
            self._lost_key(chat, info.uid or "-"),
            other,
        ]
        args = [info.raw, self._ttl * 12, NOTICE_QUIET, self._ttl, "1" if info.uid else "0"]
        if not int(await self._move_aside(keys=keys, args=args)):
            return False
        wrong_type = info.reason.startswith("not a string")
        reported(info, other if wrong_type else aside, self.on_unreadable)
        return True

    @_guarded
    async def quarantined(self, chat_id: int) -> list[bytes]:
        key = self._quarantine_key(chat_id)
        values: list[bytes] = await self._redis.execute_command(
            "LRANGE", key, 0, -1, **{NEVER_DECODE: True}
        )
        return list(values)

    @_guarded
    async def claim_notice(self, chat_id: int, uid: str) -> bool:
        keys = [self._lost_key(chat_id), self._lost_key(chat_id, uid)]
        return bool(int(await self._notice(keys=keys, args=[NOTICE_QUIET, self._ttl])))

    def steps_key(self, chat_id: int) -> str:
        """The step list of the chat's game (`GameRecord.steps`): the game's uid, then
        its steps; the chat's next game starts it anew (one list per chat at most, as
        there is one record)."""
        return f"{self._prefix}:steps:{self.tag(chat_id)}"

    async def _write(
        self,
        chat_id: int,
        expected: int,
        payload: str,
        steps: tuple[str, list[str], bool] | None = None,
    ) -> None:
        keys, args = [self._key(chat_id)], [expected, payload, self._ttl]
        if steps is not None:  # (the step list's key, the steps to append, anew)
            key, pending, fresh = steps
            keys.append(key)
            args += ["1" if fresh else "0", len(pending), *pending]
        result = int(await self._cas(keys=keys, args=args))
        if result != -1:
            raise Conflict(f"chat {chat_id}: version {result}, expected {expected}")

    @_guarded
    async def put(self, record: GameRecord, expected: int) -> GameRecord:
        new, pending, fresh = moved_steps(next_version(record, expected))
        if fresh:
            pending = [record.uid, *pending]
        key = self.steps_key(record.chat_id)
        await self._write(record.chat_id, expected, new.model_dump_json(), (key, pending, fresh))
        return new

    @_guarded
    async def steps(self, record: GameRecord) -> list[str] | None:
        if record.steps is None:
            return None
        if not record.steps_stored:
            return list(record.steps)
        stored = [str(x) for x in await self._redis.lrange(self.steps_key(record.chat_id), 0, -1)]
        if stored[:1] != [record.uid] or len(stored) - 1 != record.steps_stored:
            return None  # expired, or the chat's next game began: no replay, not a wrong one
        return stored[1:] + record.steps

    @_guarded
    async def delete(self, chat_id: int, expected: int) -> None:
        await self._write(chat_id, expected, "")

    @_guarded
    async def chats(self) -> list[int]:
        out: list[int] = []
        prefix = f"{self._prefix}:game:{{"
        async for key in self._redis.scan_iter(match=prefix + "*}", count=200):
            try:
                out.append(int(key[len(prefix) : -1]))
            except ValueError:
                continue
        return out

    @_guarded
    async def migrate_keys(self) -> int:
        """Rename the keys of the older, untagged format (``nastolka:game:-100123``, its
        quarantine and notice markers, the one sorted set of deadlines) to today's; run at
        start, safe to run by several instances at once. Returns the keys moved. A cluster
        never held the old format (its scripts would have failed), so it has none."""
        done = f"{self._prefix}:{{keys}}:tagged"  # set once renamed: later starts skip the scan
        if self.cluster or await self._redis.exists(done):
            return 0
        moved = 0
        for kind in ("game", "quarantine", "lost"):
            head = f"{self._prefix}:{kind}:"
            async for key in self._redis.scan_iter(match=head + "*", count=500):
                chat, sep, rest = key[len(head) :].partition(":")
                if chat.startswith("{") or not chat.lstrip("-").isdigit():
                    continue
                new = f"{head}{self.tag(int(chat))}{sep}{rest}"
                with contextlib.suppress(ResponseError):  # gone: another instance took it
                    if not await self._redis.renamenx(key, new):
                        await self._redis.delete(key)  # today's key was written since
                    moved += 1
        old = f"{self._prefix}:deadlines"
        if await self._redis.type(old) == "zset":
            entries: Any = await self._redis.zrange(old, 0, -1, withscores=True)
            for member, score in entries:
                with contextlib.suppress(ValueError):
                    shard = self.deadline_key(int(member))
                    await self._redis.zadd(shard, {member: score}, nx=True)
                    moved += 1
            await self._redis.delete(old)
        await self._redis.set(done, "1")
        return moved

    @_guarded
    async def mark_started(self, user_id: int) -> None:
        await self._redis.set(f"{self._prefix}:started:{user_id}", "1", ex=self._ttl * 12)

    @_guarded
    async def has_started(self, user_id: int) -> bool:
        return bool(await self._redis.exists(f"{self._prefix}:started:{user_id}"))

    @_guarded
    async def get_pref(self, key: str) -> str | None:
        raw = await self._redis.get(f"{self._prefix}:pref:{key}")
        return None if raw is None else (raw.decode() if isinstance(raw, bytes) else str(raw))

    @_guarded
    async def set_pref(self, key: str, value: str | None) -> None:
        name = f"{self._prefix}:pref:{key}"
        if value is None:
            await self._redis.delete(name)
        else:
            await self._redis.set(name, value, ex=self._ttl * 12)

    @_guarded
    async def expire_prefs(self, keys: list[str], seconds: float | None) -> None:
        for key in keys:
            name = f"{self._prefix}:pref:{key}"
            if seconds is None:
                await self._redis.expire(name, self._ttl * 12)
                continue
            left = await self._redis.ttl(name)  # -2: none, -1: no expiry
            if left == -1 or left > seconds:
                await self._redis.expire(name, max(1, int(seconds)))

    @_guarded
    async def set_deadline(self, chat_id: int, when: float | None) -> None:
        key = self.deadline_key(chat_id)
        if when is None:
            await self._redis.zrem(key, str(chat_id))
        else:
            await self._redis.zadd(key, {str(chat_id): when})

    @_guarded
    async def deadline(self, chat_id: int) -> float | None:
        """When `chat_id`'s game next needs the bot (None: no deadline)."""
        score = await self._redis.zscore(self.deadline_key(chat_id), str(chat_id))
        return None if score is None else float(score)

    @_guarded
    async def claim_due(self, now: float, lease: float) -> list[int]:
        args = [repr(now), repr(now + lease)]
        shards = await asyncio.gather(
            *(
                self._claim(keys=[self._deadline_shard(n)], args=args)
                for n in range(DEADLINE_SHARDS)
            )
        )
        out: list[int] = []
        for member in (m for due in shards for m in due):
            try:
                out.append(int(member))
            except ValueError:
                continue
        return out

    @_guarded
    async def alive_instances(self, instance: str, ttl: float) -> int:
        key = f"{self._prefix}:instances"
        return int(await self._alive(keys=[key], args=[instance, repr(ttl)]))

    @_guarded
    async def reserve_send(self, chat_id: int, now: float, limit: int, window: float) -> float:
        member = secrets.token_hex(6)
        key = f"{self._prefix}:sent:{self.tag(chat_id)}"
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

    @_guarded
    async def renew(self, name: str, token: str, ttl: float) -> bool:
        key = f"{self._prefix}:lock:{name}"
        return bool(await self._renew(keys=[key], args=[token, max(1, int(ttl * 1000))]))

    async def close(self) -> None:
        await self._redis.aclose()
