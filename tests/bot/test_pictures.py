"""Where pictures are drawn: off the event loop, at a lower CPU priority, and on threads
when the render process is gone."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import games
from bot.pictures import RENDER_NICE, Pictures
from bot.presenters import registry
from bot.warm_up import draw_cold, renderer


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


async def test_the_render_process_ends_when_the_bot_is_killed(tmp_path: Path) -> None:
    script = (
        "import asyncio, sys\n"
        "from bot.pictures import Pictures\n"
        "async def main():\n"
        "    p = Pictures(['seven_tracks'], process=True)\n"
        "    await p.start()\n"
        "    print(await p.draw(os.getpid), flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "import os\n"
        "asyncio.run(main())\n"
    )
    bot = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=Path(__file__).parents[2]
    )
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        assert worker != bot.pid
        os.kill(worker, 0)  # alive
        bot.kill()
        bot.wait()
        for _ in range(100):
            try:
                os.kill(worker, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the render process outlived the bot")
    finally:
        bot.kill()


async def test_a_failing_picture_raises_where_it_was_wanted_and_the_process_stays() -> None:
    p = Pictures([], threads=1, process=True)
    await p.start()
    try:
        with pytest.raises(ZeroDivisionError):
            await p.draw(divmod, 1, 0)
        assert p.in_process
        assert await p.draw(divmod, 7, 2) == (3, 1)
    finally:
        await p.close()


async def test_two_render_processes_share_the_pictures_and_the_survivor_goes_on() -> None:
    p = Pictures([], threads=1, process=True, processes=2)
    await p.start()
    try:
        pids = set(await asyncio.gather(*(p.draw(os.getpid) for _ in range(6))))
        assert len(pids) == 2 and os.getpid() not in pids
        first, second = sorted(pids)
        os.kill(first, signal.SIGKILL)
        assert {await p.draw(os.getpid) for _ in range(3)} == {second}
        os.kill(second, signal.SIGKILL)
        assert await p.draw(os.getpid) == os.getpid()
        assert not p.in_process
    finally:
        await p.close()


async def test_a_table_picture_goes_to_the_render_process_as_data_and_comes_back_the_same() -> None:
    """The job is `(game id, view JSON, names, language)`: no presenter, state or function
    in the pipe; the process's first picture of the game (cold) is the one drawn here."""
    p = registry()["hypnosia"]
    game = games.get("hypnosia")
    state = game.new([1, 2], seed=5)
    state, _ = game.apply(state, game.legal_actions(state)[0])
    key, job = p.table_picture(state, {1: "Аня", 2: "Борис"}, "en")
    assert key == p.picture_key(state, "en")
    assert [type(x) for x in job] == [str, str, dict, str]
    sent = pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
    assert b"presenters" not in sent and b"games" not in sent  # only builtins are pickled
    module = renderer("hypnosia")
    here = draw_cold(module, p.public_view(state), job[2], "en")
    pictures = Pictures(["hypnosia"], threads=1, process=True)
    await pictures.start()
    try:
        assert await pictures.picture(job) == here
    finally:
        await pictures.close()
