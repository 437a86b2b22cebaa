"""Per-chat asyncio locks that exist only while someone holds or waits for them.

    locks = ChatLocks()
    async with locks[chat_id]:   # created on entry, dropped when the last user leaves
        ...
    len(locks)                   # chats whose lock is held or awaited right now

A lock nobody holds or waits for carries no state, so dropping it loses nothing; the
dict never keeps one entry per chat ever seen (a refusal in a chat without a game, a
finished game), which kept the bot's memory growing with the number of chats.
"""

from __future__ import annotations

import asyncio
from types import TracebackType


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holders and waiters


class ChatLock:
    """`async with locks[chat_id]:` — one use of the chat's lock (a fresh handle each
    time `locks[chat_id]` is read; the lock itself is shared)."""

    __slots__ = ("_entry", "_key", "_owner")

    def __init__(self, owner: ChatLocks, key: int) -> None:
        self._owner = owner
        self._key = key
        self._entry: _Entry | None = None

    def locked(self) -> bool:
        entry = self._owner._entries.get(self._key)
        return entry is not None and entry.lock.locked()

    async def __aenter__(self) -> None:
        entries = self._owner._entries
        entry = entries.get(self._key)
        if entry is None:
            entry = entries[self._key] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while waiting
            self._release_use(entry)
            raise
        self._entry = entry

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        entry, self._entry = self._entry, None
        assert entry is not None
        entry.lock.release()
        self._release_use(entry)

    def _release_use(self, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and self._owner._entries.get(self._key) is entry:
            del self._owner._entries[self._key]


class ChatLocks:
    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __getitem__(self, key: int) -> ChatLock:
        return ChatLock(self, key)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def get(self, key: int) -> ChatLock | None:
        """The chat's lock while it is in use, else None (nothing to drop)."""
        return ChatLock(self, key) if key in self._entries else None
