"""Game storage: Redis (persistent) or memory (embedded default)."""

from bot.storage.base import Conflict, GameRecord, RecordStatus, Store, StoreUnavailable
from bot.storage.memory import MemoryStore
from bot.storage.redis import RedisStore

__all__ = [
    "Conflict",
    "GameRecord",
    "MemoryStore",
    "RecordStatus",
    "RedisStore",
    "Store",
    "StoreUnavailable",
]
