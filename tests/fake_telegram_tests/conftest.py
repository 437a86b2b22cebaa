"""Fixtures for the fake Telegram tests.

Also puts the repository root on ``sys.path`` so ``tests.fake_telegram`` imports however
pytest is started (``pytest`` or ``python -m pytest``).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from aiogram import Bot  # noqa: E402

from tests.fake_telegram import FakeTelegram  # noqa: E402


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A running fake Telegram (server on a free local port)."""
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    """A real aiogram Bot pointed at the fake server (session closed afterwards)."""
    instance = tg.make_bot()
    try:
        yield instance
    finally:
        await instance.session.close()
