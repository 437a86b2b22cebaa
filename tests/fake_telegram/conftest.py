"""Fixtures for the fake Telegram tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot

from fake_telegram import FakeTelegram


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
