"""The render process: `python -m bot.render_worker <game id>...`, started by bot/pictures.py.

It reads jobs on stdin and writes results on its own copy of stdout, one frame each: a
4-byte big-endian length, then a pickle — `(function, args)` in, `(True, result)` or
`(False, exception)` out, in the order the jobs came. It ends when stdin closes: the bot
stopped, or was killed (the kernel closes the bot's end of the pipe either way).
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
from typing import Any, BinaryIO

from bot.pictures import HEADER, frame, lower_priority, warm_up_renderers


def read_frame(stream: BinaryIO) -> bytes | None:
    """One frame's payload, or None at the end of the stream."""
    header = stream.read(HEADER)
    if len(header) < HEADER:
        return None
    size = int.from_bytes(header, "big")
    payload = stream.read(size)
    return payload if len(payload) == size else None


def run_job(payload: bytes) -> bytes:
    try:
        fn, args = pickle.loads(payload)
        out: tuple[bool, Any] = (True, fn(*args))
    except Exception as e:  # the bot re-raises it where the picture was wanted
        out = (False, e)
    try:
        return pickle.dumps(out, pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # an exception that does not pickle
        return pickle.dumps((False, RuntimeError(repr(e))), pickle.HIGHEST_PROTOCOL)


def give_back_memory() -> None:
    """Return the warm-up's freed temporaries to the system (glibc keeps them otherwise:
    tens of MB of RSS per game for images that no longer exist)."""
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def main() -> None:
    # Ctrl+C in a terminal reaches the whole process group: the bot decides when we stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority()
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to stderr, never into the results
    jobs = sys.stdin.buffer
    warm_up_renderers(sys.argv[1:])
    gc.collect()
    gc.freeze()
    give_back_memory()
    try:
        results.write(frame(pickle.dumps((True, os.getpid()))))  # ready
        results.flush()
        while (payload := read_frame(jobs)) is not None:
            results.write(frame(run_job(payload)))
            results.flush()
    except (BrokenPipeError, ConnectionResetError):  # the bot is gone: nobody to answer
        pass
    os._exit(0)  # no flush of a pipe nobody reads


if __name__ == "__main__":
    main()
