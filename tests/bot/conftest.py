"""Fixtures of the bot tests: stores (memory always, Redis when TEST_REDIS_URL is set)."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator

import pytest

from bot.storage import MemoryStore, RedisStore, Store

REDIS_URL = os.environ.get("TEST_REDIS_URL")
NO_REDIS = "TEST_REDIS_URL is not set (bash .ci/run starts a Redis and sets it)"


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    if request.param == "memory":
        yield MemoryStore()
        return
    if not REDIS_URL:
        pytest.skip(NO_REDIS)
    s = RedisStore(REDIS_URL, prefix=f"test-{secrets.token_hex(4)}", ttl_seconds=600)
    yield s
    await s.close()


@pytest.fixture
def redis_url() -> str:
    if not REDIS_URL:
        pytest.skip(NO_REDIS)
    return REDIS_URL


@pytest.fixture(params=["memory", "redis"])
def backend(request: pytest.FixtureRequest) -> str | None:
    """The bot's REDIS_URL: None (the in-memory store) or the test Redis."""
    if request.param == "memory":
        return None
    if not REDIS_URL:
        pytest.skip(NO_REDIS)
    return REDIS_URL
