"""In-memory store with the same compare-and-set semantics as Redis (not persistent)."""

from __future__ import annotations

import secrets
import time

from bot.storage.base import Conflict, GameRecord, next_version


class MemoryStore:
    persistent = False

    def __init__(self, ttl_seconds: float = 30 * 86400) -> None:
        self._data: dict[int, tuple[str, float]] = {}
        self._started: set[int] = set()
        self._deadlines: dict[int, float] = {}
        self._sent: dict[int, list[float]] = {}
        self._locks: dict[str, tuple[str, float]] = {}
        self._ttl = ttl_seconds

    def _current(self, chat_id: int) -> GameRecord | None:
        item = self._data.get(chat_id)
        if item is None:
            return None
        raw, expires = item
        if expires < time.time():
            del self._data[chat_id]
            return None
        return GameRecord.model_validate_json(raw)

    async def get(self, chat_id: int) -> GameRecord | None:
        return self._current(chat_id)

    async def put(self, record: GameRecord, expected: int) -> GameRecord:
        current = self._current(record.chat_id)
        have = current.version if current else 0
        if have != expected:
            raise Conflict(f"chat {record.chat_id}: version {have}, expected {expected}")
        new = next_version(record, expected)
        self._data[record.chat_id] = (new.model_dump_json(), time.time() + self._ttl)
        return new

    async def delete(self, chat_id: int, expected: int) -> None:
        current = self._current(chat_id)
        have = current.version if current else 0
        if have != expected:
            raise Conflict(f"chat {chat_id}: version {have}, expected {expected}")
        self._data.pop(chat_id, None)

    async def chats(self) -> list[int]:
        return [c for c in list(self._data) if self._current(c) is not None]

    async def mark_started(self, user_id: int) -> None:
        self._started.add(user_id)

    async def has_started(self, user_id: int) -> bool:
        return user_id in self._started

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

    async def reserve_send(self, chat_id: int, now: float, limit: int, window: float) -> float:
        times = [x for x in self._sent.get(chat_id, []) if x > now - window]
        if len(times) >= limit:
            self._sent[chat_id] = times
            return max(0.001, times[0] + window - now)
        times.append(now)
        self._sent[chat_id] = times
        return 0.0

    async def lock(self, name: str, ttl: float) -> str | None:
        held = self._locks.get(name)
        now = time.monotonic()
        if held is not None and held[1] > now:
            return None
        token = secrets.token_hex(8)
        self._locks[name] = (token, now + ttl)
        return token

    async def unlock(self, name: str, token: str) -> None:
        held = self._locks.get(name)
        if held is not None and held[0] == token:
            del self._locks[name]

    async def close(self) -> None:
        return None
