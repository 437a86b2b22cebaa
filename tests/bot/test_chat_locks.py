"""bot/chat_locks.py: one lock per chat, kept only while it is held or awaited."""

from __future__ import annotations

import asyncio
import contextlib

from bot.chat_locks import ChatLocks


async def test_a_chat_lock_serialises_and_is_gone_when_nobody_uses_it() -> None:
    locks = ChatLocks()
    order: list[str] = []
    entered = asyncio.Event()

    async def first() -> None:
        async with locks[1]:
            entered.set()
            order.append("first in")
            await asyncio.sleep(0.01)
            order.append("first out")

    async def second() -> None:
        await entered.wait()
        assert locks[1].locked()
        async with locks[1]:
            order.append("second")

    async with asyncio.timeout(10):
        await asyncio.gather(first(), second())
    assert order == ["first in", "first out", "second"]
    assert len(locks) == 0 and 1 not in locks and locks.get(1) is None
    async with locks[2], locks[3]:  # two chats at once (a migration)
        assert len(locks) == 2
    assert len(locks) == 0


async def test_a_waiter_cancelled_or_a_holder_failing_leaves_nothing_behind() -> None:
    locks = ChatLocks()
    held = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks[7]:
            held.set()
            await release.wait()
            raise RuntimeError("failed inside")

    async def waiter() -> None:
        async with locks[7]:
            raise AssertionError("never entered")

    async with asyncio.timeout(10):
        task = asyncio.ensure_future(holder())
        await held.wait()
        pending = asyncio.ensure_future(waiter())
        await asyncio.sleep(0)
        pending.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pending
        assert len(locks) == 1  # still held
        release.set()
        with contextlib.suppress(RuntimeError):
            await task
    assert len(locks) == 0
