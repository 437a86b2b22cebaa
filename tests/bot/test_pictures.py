"""Where pictures are drawn: off the event loop, at a lower CPU priority, and on threads
when the render process is gone."""

from __future__ import annotations

import os
import signal
import threading

from bot.pictures import RENDER_NICE, Pictures


def _my_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


async def test_render_threads_draw_at_a_lower_priority_than_the_event_loop() -> None:
    loop_nice = _my_nice()
    p = Pictures([], threads=1)
    try:
        assert await p.draw(_my_nice) == min(loop_nice + RENDER_NICE, 19)
        assert _my_nice() == loop_nice  # the loop's own thread is untouched
    finally:
        await p.close()


async def test_render_process_draws_at_a_lower_priority_and_threads_take_over_when_it_dies() -> (
    None
):
    p = Pictures(["seven_tracks"], threads=1, process=True)
    await p.start()
    try:
        assert p.in_process
        pid = await p.draw(os.getpid)
        assert pid != os.getpid()
        assert await p.draw(os.getpriority, os.PRIO_PROCESS, 0) == min(_my_nice() + RENDER_NICE, 19)
        os.kill(pid, signal.SIGKILL)
        assert await p.draw(os.getpid) == os.getpid()  # this press's picture still comes
        assert not p.in_process
    finally:
        await p.close()
