"""Fixtures of the bot tests: stores (memory always, Redis when TEST_REDIS_URL is set)."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage import MemoryStore, RedisStore, Store
from tests.bot.bot_process import free_port

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
    keys = [k async for k in s.client.scan_iter(match=f"{s.prefix}:*", count=500)]
    for key in keys:  # keys without a TTL (the memory's) do not pile up in the test Redis
        await s.client.delete(key)
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


class OwnRedis:
    """A redis-server of this test alone (append-only, fsync always), to stop and start."""

    def __init__(self, directory: str) -> None:
        self.port = free_port()
        self.dir = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                self.dir,
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        """Gone at once (SIGKILL): what is acknowledged is in the append-only file."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = OwnRedis(str(tmp_path))
    server.start()
    try:
        yield server
    finally:
        server.stop()
