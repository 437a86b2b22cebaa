"""The pipes between the bot and a worker process of its own (the render processes,
`bot/render_worker.py`; the computer players' decisions, `bot/decision_worker.py`).

A frame is a 4-byte big-endian length and that many bytes. The bot sends pickled jobs on
the worker's stdin, each answered by the worker's `run` (`serve`): data that names what
to do (a table's picture: `bot.warm_up.PictureJob`; a decision: `bot.decision_worker.Job`), or
a call, ``(function, args)`` (`call`: the replays' jobs, bot/memory/replay.py). The
worker answers each, in order, with a pickled ``(True, result)`` or ``(False,
exception)`` on its stdout, after a first ``(True, pid)`` frame that says it is ready.

    >>> import io
    >>> read_frame(io.BytesIO(frame(b"abc")))
    b'abc'
    >>> pickle.loads(run_job(pickle.dumps((divmod, (7, 2))), call))
    (True, (3, 1))
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import Any, BinaryIO

HEADER = 4  # bytes of a frame's big-endian length


def frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(HEADER, "big") + payload


def read_frame(stream: BinaryIO) -> bytes | None:
    """One frame's payload, or None at the end of the stream."""
    header = stream.read(HEADER)
    if len(header) < HEADER:
        return None
    size = int.from_bytes(header, "big")
    payload = stream.read(size)
    return payload if len(payload) == size else None


def call(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> Any:
    """A call job's answer: `function(*args)`."""
    fn, args = job
    return fn(*args)


def run_job(payload: bytes, run: Callable[[Any], Any]) -> bytes:
    """A job's answer by `run`, pickled: an exception is sent back to be raised where it
    was asked for (as a RuntimeError with its text when it does not pickle)."""
    try:
        out: tuple[bool, Any] = (True, run(pickle.loads(payload)))
    except Exception as e:
        out = (False, e)
    try:
        return pickle.dumps(out, pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # an exception that does not pickle
        return pickle.dumps((False, RuntimeError(repr(e))), pickle.HIGHEST_PROTOCOL)


def serve(results: BinaryIO, jobs: BinaryIO, run: Callable[[Any], Any]) -> None:
    """The worker's loop: "ready", then every job's answer by `run`, until the bot closes
    the pipe (or is gone); then the process ends at once (no flush of a pipe nobody reads)."""
    try:
        results.write(frame(pickle.dumps((True, os.getpid()))))
        results.flush()
        while (payload := read_frame(jobs)) is not None:
            results.write(frame(run_job(payload, run)))
            results.flush()
    except (BrokenPipeError, ConnectionResetError):  # the bot is gone: nobody to answer
        pass
    os._exit(0)
