"""The render process: `python -m bot.render_worker <game id>...`, started by bot/pictures.py.

It reads jobs on stdin and writes results on its own copy of stdout, one frame each: a
4-byte big-endian length, then a pickle — a job in, `(True, result)` or `(False,
exception)` out, in the order the jobs came (bot/pipes.py). A table's picture is data,
`(game id, public view as JSON, names, language)` (`bot.warm_up.PictureJob`): drawn by
the game's renderer, `render/<game id>.py` (`bot.warm_up.draw_job`). A replay's jobs are
calls, `(function, args)` (bot/memory/replay.py: they walk a game and hand states and
images from one job to the next). It ends when stdin closes: the bot
stopped, or was killed (the kernel closes the bot's end of the pipe either way).

It says it is ready as soon as what every game needs is imported (the game ids on its
command line only name them): no game is warmed up before its first picture, which
imports its renderer, is drawn cold, and starts its warm-up on a background thread
(bot/warm_up.py), after which the warm-up's temporaries are handed back.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import sys
from typing import Any

from bot import logs
from bot.pictures import lower_priority
from bot.pipes import call, serve
from bot.warm_up import WARMER, draw_job, prepare

log = logging.getLogger("bot.render_worker")


def settle_heap() -> None:
    """After a game's warm-up: its caches leave the collector's view (`gc.freeze`) and
    the warm-up's temporaries go back to the system."""
    gc.collect()
    gc.freeze()
    give_back_memory()


def give_back_memory() -> None:
    """Return the warm-up's freed temporaries to the system (glibc keeps them otherwise:
    tens of MB of RSS per game for images that no longer exist)."""
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def answer(job: Any) -> Any:
    """A picture job (data: a game id first) drawn, or a call's result."""
    return draw_job(job) if isinstance(job[0], str) else call(job)


def main() -> None:
    # Ctrl+C in a terminal reaches the whole process group: the bot decides when we stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to stderr, never into the results
    jobs = sys.stdin.buffer
    logs.setup()  # on stderr, the bot's: LOG_LEVEL and LOG_FORMAT as the bot's (bot/logs.py)
    prepare()  # at the bot's priority: it is starting, nobody waits for answers yet
    lower_priority()  # the pictures (and the warm-up thread it starts) below the bot's
    WARMER.after = settle_heap
    gc.collect()
    gc.freeze()
    log.info("render process %d ready (no game warmed up yet)", os.getpid())
    serve(results, jobs, answer)


if __name__ == "__main__":
    main()
