"""In-memory store with the same compare-and-set semantics as Redis (not persistent)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from bot.storage.base import Conflict, GameRecord, moved_steps, next_version
from bot.storage.quarantine import NOTICE_QUIET, RecordCheck, Unreadable, decode, reported


class MemoryStore:
    persistent = False

    def __init__(self, ttl_seconds: float = 30 * 86400) -> None:
        self._data: dict[int, tuple[str | bytes, float]] = {}
        self._quarantine: dict[int, list[bytes]] = {}
        self._notices: dict[str, float] = {}  # marker -> when it expires
        self.check: RecordCheck | None = None
        self.on_unreadable: Callable[[Unreadable], None] | None = None
        self._started: set[int] = set()
        self._prefs: dict[str, str] = {}
        self._deadlines: dict[int, float] = {}
        self._sent: dict[int, list[float]] = {}
        self._swept = 0.0  # when windows of quiet chats were last dropped from `_sent`
        self._longest = 0.0  # the longest window `reserve_send` was asked for
        self._locks: dict[str, tuple[str, float]] = {}
        self._locks_sweep = 64  # at this many leases the expired ones are dropped
        self._ttl = ttl_seconds
        self._steps: dict[int, tuple[str, list[str]]] = {}  # chat -> its game's stored steps

    def _current(self, chat_id: int) -> GameRecord | None:
        item = self._data.get(chat_id)
        if item is None:
            return None
        raw, expires = item
        if expires < time.time():
            del self._data[chat_id]
            return None
        rec = decode(chat_id, raw, self.check)
        if isinstance(rec, GameRecord):
            return rec
        del self._data[chat_id]  # moved aside, as the Redis store does
        self._quarantine.setdefault(chat_id, []).append(rec.raw)
        now = time.time()
        self._notices[f"lost:{chat_id}"] = now + NOTICE_QUIET
        if rec.uid:
            self._notices[f"lost:{chat_id}:{rec.uid}"] = now + self._ttl
        reported(rec, f"the memory store's quarantine of chat {chat_id}", self.on_unreadable)
        return None

    def put_raw(self, chat_id: int, raw: str | bytes) -> None:
        """Store a value as it is (tests: a damaged record, as another writer left it)."""
        self._data[chat_id] = (raw, time.time() + self._ttl)

    async def quarantined(self, chat_id: int) -> list[bytes]:
        return list(self._quarantine.get(chat_id, []))

    async def claim_notice(self, chat_id: int, uid: str) -> bool:
        now = time.time()
        if len(self._notices) > 1000:  # markers expire, as Redis keys do
            self._notices = {k: v for k, v in self._notices.items() if v > now}
        game, chat = f"lost:{chat_id}:{uid}", f"lost:{chat_id}"
        if self._notices.get(game, 0.0) > now:
            return False
        self._notices[game] = now + self._ttl
        if self._notices.get(chat, 0.0) > now:
            return False
        self._notices[chat] = now + NOTICE_QUIET
        return True

    async def get(self, chat_id: int) -> GameRecord | None:
        return self._current(chat_id)

    async def put(self, record: GameRecord, expected: int) -> GameRecord:
        current = self._current(record.chat_id)
        have = current.version if current else 0
        if have != expected:
            raise Conflict(f"chat {record.chat_id}: version {have}, expected {expected}")
        new, pending, fresh = moved_steps(next_version(record, expected))
        uid, stored = self._steps.get(record.chat_id, ("", []))
        if fresh or uid != record.uid:
            stored = []
            self._steps[record.chat_id] = (record.uid, stored)
        stored.extend(pending)
        self._data[record.chat_id] = (new.model_dump_json(), time.time() + self._ttl)
        return new

    async def steps(self, record: GameRecord) -> list[str] | None:
        if record.steps is None:
            return None
        uid, stored = self._steps.get(record.chat_id, ("", []))
        if uid != record.uid:
            stored = []
        if len(stored) != record.steps_stored:
            return None
        return stored + record.steps

    async def delete(self, chat_id: int, expected: int) -> None:
        current = self._current(chat_id)
        have = current.version if current else 0
        if have != expected:
            raise Conflict(f"chat {chat_id}: version {have}, expected {expected}")
        self._data.pop(chat_id, None)

    async def chats(self) -> list[int]:
        now = time.time()  # not parsed here: an unreadable value is met by `get`
        return [c for c, (_, expires) in list(self._data.items()) if expires >= now]

    async def mark_started(self, user_id: int) -> None:
        self._started.add(user_id)

    async def has_started(self, user_id: int) -> bool:
        return user_id in self._started

    async def get_pref(self, key: str) -> str | None:
        return self._prefs.get(key)

    async def set_pref(self, key: str, value: str | None) -> None:
        if value is None:
            self._prefs.pop(key, None)
        else:
            self._prefs[key] = value

    async def expire_prefs(self, keys: list[str], seconds: float | None) -> None:
        return None  # kept for the process's life, shorter than any retention

    async def set_deadline(self, chat_id: int, when: float | None) -> None:
        if when is None:
            self._deadlines.pop(chat_id, None)
        else:
            self._deadlines[chat_id] = when

    async def claim_due(self, now: float, lease: float) -> list[int]:
        due = [c for c, when in self._deadlines.items() if when <= now]
        for c in due:
            self._deadlines[c] = now + lease
        return due

    async def alive_instances(self, instance: str, ttl: float) -> int:
        return 1  # a memory store is never shared: this instance is the only one

    async def reserve_send(self, chat_id: int, now: float, limit: int, window: float) -> float:
        # once a window, the quiet chats' windows go: quiet for the longest window asked
        # for (a group's window and a private chat's, or the table's pace, differ)
        longest = self._longest = max(self._longest, window)
        if not now - longest < self._swept <= now:
            self._sent = {c: ts for c, ts in self._sent.items() if ts and ts[-1] > now - longest}
            self._swept = now
        times = [x for x in self._sent.get(chat_id, []) if x > now - window]
        if len(times) >= limit:  # until enough have left to bring it below `limit`
            self._sent[chat_id] = times
            return max(0.001, times[len(times) - limit] + window - now)
        times.append(now)
        self._sent[chat_id] = times
        return 0.0

    async def lock(self, name: str, ttl: float) -> str | None:
        held = self._locks.get(name)
        now = time.monotonic()
        if held is not None and held[1] > now:
            return None
        if len(self._locks) >= self._locks_sweep:  # expired leases (never given back) go
            self._locks = {k: v for k, v in self._locks.items() if v[1] > now}
            self._locks_sweep = max(64, 2 * len(self._locks))
        token = secrets.token_hex(8)
        self._locks[name] = (token, now + ttl)
        return token

    async def unlock(self, name: str, token: str) -> None:
        held = self._locks.get(name)
        if held is not None and held[0] == token:
            del self._locks[name]

    async def renew(self, name: str, token: str, ttl: float) -> bool:
        held = self._locks.get(name)
        if held is None or held[0] != token or held[1] <= time.monotonic():
            return False
        self._locks[name] = (token, time.monotonic() + ttl)
        return True

    async def close(self) -> None:
        return None
