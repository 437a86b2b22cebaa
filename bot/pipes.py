"""The pipes between the bot and a worker process of its own (the render processes,
`bot/render_worker.py`; the computer players' decisions, `bot/decision_worker.py`).

A frame is a 4-byte big-endian length and that many bytes. The bot sends pickled
``(function, args)`` jobs on the worker's stdin; the worker answers each, in order, with a
pickled ``(True, result)`` or ``(False, exception)`` on its stdout, after a first
``(True, pid)`` frame that says it is ready (`serve`).

    >>> import io
    >>> read_frame(io.BytesIO(frame(b"abc")))
    b'abc'
"""

from __future__ import annotations

import os
import pickle
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


def run_job(payload: bytes) -> bytes:
    """A job's answer, pickled: an exception is sent back to be raised where it was asked
    for (as a RuntimeError with its text when it does not pickle)."""
    try:
        fn, args = pickle.loads(payload)
        out: tuple[bool, Any] = (True, fn(*args))
    except Exception as e:
        out = (False, e)
    try:
        return pickle.dumps(out, pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # an exception that does not pickle
        return pickle.dumps((False, RuntimeError(repr(e))), pickle.HIGHEST_PROTOCOL)


def serve(results: BinaryIO, jobs: BinaryIO) -> None:
    """The worker's loop: "ready", then every job's answer, until the bot closes the pipe
    (or is gone); then the process ends at once (no flush of a pipe nobody reads)."""
    try:
        results.write(frame(pickle.dumps((True, os.getpid()))))
        results.flush()
        while (payload := read_frame(jobs)) is not None:
            results.write(frame(run_job(payload)))
            results.flush()
    except (BrokenPipeError, ConnectionResetError):  # the bot is gone: nobody to answer
        pass
    os._exit(0)
