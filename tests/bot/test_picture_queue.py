"""The tables' pictures (`Pictures.latest` / `ready`): at most one waiting per chat,
latest wins, a stale one is never drawn, and a late one is told when it is drawn."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from bot.pictures import Pictures
from bot.warm_up import PictureJob


def job(tag: str) -> PictureJob:
    """A picture job whose "view" is `tag` (drawn by `Board` or `broken`, no renderer)."""
    return ("board", tag, {}, "ru")


class Board:
    """Draws picture jobs (the render thread's `drawer`): blocks until `go` is set and
    records what it drew."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.drawn: list[str] = []

    def __call__(self, picture: PictureJob) -> bytes:
        tag = picture[1]
        self.go.wait(30)
        self.drawn.append(tag)
        return tag.encode()


async def until(check: Callable[[], bool], timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


async def test_a_chats_waiting_picture_is_replaced_by_its_latest_and_never_drawn() -> None:
    board = Board()
    p = Pictures([], threads=1, drawer=board)
    try:
        first = p.latest(1, "a", job("a"))  # handed out at once: the thread is busy
        stale = [p.latest(1, tag, job(tag)) for tag in ("b", "c", "d")]
        latest = p.latest(1, "e", job("e"))
        assert p.waiting() == 1 and p.dropped == 3
        assert all(f.cancelled() for f in stale)
        assert p.latest(1, "e", job("e")) is latest  # the same picture asked again
        board.go.set()
        assert await first == b"a" and await latest == b"e"
        assert board.drawn == ["a", "e"]  # b, c, d were never drawn
    finally:
        board.go.set()
        await p.close()


async def test_the_line_is_one_picture_per_chat_at_most_and_keeps_its_order() -> None:
    board = Board()
    p = Pictures([], threads=1, drawer=board)
    try:
        p.latest("busy", "x", job("x"))
        futures = {}
        for round_ in range(5):
            for chat in range(50):
                tag = f"{chat}.{round_}"
                futures[chat] = p.latest(chat, tag, job(tag))
        assert p.waiting() == 50 and p.peak == 50 and p.dropped == 200
        board.go.set()
        await asyncio.gather(*futures.values())
        # each chat's latest only, in the order the chats first asked
        assert board.drawn == ["x"] + [f"{chat}.4" for chat in range(50)]
    finally:
        board.go.set()
        await p.close()


async def test_a_late_picture_returns_none_then_says_when_it_is_drawn() -> None:
    board = Board()
    p = Pictures([], threads=1, drawer=board)
    told: list[str] = []
    try:
        got = await p.ready(1, "a", job("a"), within=0.05, then=lambda: told.append("a"))
        assert got is None and told == []
        board.go.set()
        await until(lambda: told == ["a"])
        # drawn and kept for the chat's worker until the table shows it
        assert await p.ready(1, "a", job("a"), within=0.05) == b"a"
        p.take(1, "a")
        assert board.drawn == ["a"]
        assert await p.ready(1, "a", job("a"), within=None) == b"a"  # asked anew: redrawn
        assert board.drawn == ["a", "a"]
    finally:
        board.go.set()
        await p.close()


async def test_a_superseded_late_picture_is_not_announced() -> None:
    board = Board()
    p = Pictures([], threads=1, drawer=board)
    told: list[str] = []
    try:
        p.latest("busy", "x", job("x"))
        got = await p.ready(1, "a", job("a"), within=0.01, then=lambda: told.append("a"))
        assert got is None
        newer = p.latest(1, "b", job("b"))  # the chat went on before "a" was drawn
        board.go.set()
        assert await newer == b"b"
        await asyncio.sleep(0.05)
        assert told == [] and board.drawn == ["x", "b"]
    finally:
        board.go.set()
        await p.close()


async def test_a_failed_picture_is_told_once_to_its_chat_then_redrawn() -> None:
    calls: list[str] = []
    go = threading.Event()

    def broken(picture: PictureJob) -> bytes:
        go.wait(30)
        calls.append(picture[1])
        raise ZeroDivisionError

    p = Pictures([], threads=1, drawer=broken)
    try:
        done = asyncio.Event()
        assert await p.ready(1, "a", job("1"), within=0.01, then=done.set) is None
        go.set()
        await asyncio.wait_for(done.wait(), 10)  # a failure is told too
        with pytest.raises(ZeroDivisionError):
            await p.ready(1, "a", job("1"), within=1.0)
        with pytest.raises(ZeroDivisionError):
            await p.ready(1, "a", job("1"), within=None)
        assert len(calls) == 2
    finally:
        go.set()
        await p.close()


async def test_a_forgotten_chat_drops_its_waiting_picture() -> None:
    board = Board()
    p = Pictures([], threads=1, drawer=board)
    try:
        p.latest("busy", "x", job("x"))
        waiting = p.latest(1, "a", job("a"))
        p.forget(1)
        assert waiting.cancelled() and p.waiting() == 0
        assert await p.ready(2, "b", job("b"), within=0.01) is None
        board.go.set()
        await until(lambda: board.drawn == ["x", "b"])
    finally:
        board.go.set()
        await p.close()
