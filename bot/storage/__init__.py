"""Game storage: Redis (persistent) or memory (embedded default)."""

from bot.storage.base import ACTIVE, Conflict, GameRecord, RecordStatus, Store, StoreUnavailable
from bot.storage.memory import MemoryStore
from bot.storage.redis import RedisStore

__all__ = [
    "ACTIVE",
    "Conflict",
    "GameRecord",
    "MemoryStore",
    "RecordStatus",
    "RedisStore",
    "Store",
    "StoreUnavailable",
]
