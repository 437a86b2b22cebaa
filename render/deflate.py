"""The compressor inside every board picture's PNG: ISA-L's deflate when it is installed,
Python's standard `zlib` when it is not.

Compressing the palette indices is most of a picture (docs/performance.md: 3.2 of a
«Семидорожник» picture's 4.2 ms was Python's zlib). ISA-L (PyPI `isal`, module
`isal.isal_zlib`, a drop-in for zlib's `compressobj`) does it 5–10 × faster for files
within a few per cent of zlib's at the same level (run 8 there). Either writes a standard
zlib stream, so any PNG reader inflates it to the same bytes: a picture decodes to the same
pixels whichever compressor wrote it.

`RENDER_ZLIB=zlib` in the environment forces the standard zlib (`isal`, or unset, takes
ISA-L when it imports); `using("zlib")` switches for a block of code (tests, the bench).

Example:
    >>> data = bytes(range(256)) * 64
    >>> zlib.decompress(deflate(data, 2)) == data
    True
    >>> standard().name, crc32(b"IEND") == zlib.crc32(b"IEND")
    ('zlib', True)
"""

from __future__ import annotations

import logging
import os
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)

ENV = "RENDER_ZLIB"
# zlib's memLevel for the pictures: 9 (Pillow's) is ~10 % slower for the same size.
MEM_LEVEL = 8


class _Compressor(Protocol):
    def compress(self, data: bytes, /) -> bytes: ...

    def flush(self, mode: int = ..., /) -> bytes: ...


@dataclass(frozen=True)
class Deflate:
    """One zlib-stream compressor and the CRC-32 of the same library.

    `level` is zlib's (1 fastest … 9 smallest). ISA-L has levels 0–3 only, and on our
    pictures its 3 is 3–5 × slower than its 2 for files no smaller, so `max_level` caps
    the level handed to it (0 is Huffman coding only there, not stored blocks).
    """

    name: str
    compressobj: Callable[[int, int, int, int], _Compressor]
    crc32: Callable[[bytes, int], int]
    max_level: int

    def compress(self, data: bytes, level: int) -> bytes:
        """`data` as one zlib stream (32 KB window, memLevel `MEM_LEVEL`)."""
        co = self.compressobj(min(level, self.max_level), zlib.DEFLATED, 15, MEM_LEVEL)
        return co.compress(data) + co.flush()


def standard() -> Deflate:
    """Python's own zlib: always there."""
    return Deflate("zlib", zlib.compressobj, zlib.crc32, 9)


def isal() -> Deflate | None:
    """ISA-L's deflate (PyPI `isal`), or None when it does not import."""
    try:
        from isal import isal_zlib
    except ImportError:
        return None
    return Deflate("isal", isal_zlib.compressobj, isal_zlib.crc32, 2)


def choose(wanted: str | None = None) -> Deflate:
    """The compressor for `wanted` ("isal" or "zlib"; default: `RENDER_ZLIB`, else ISA-L):
    ISA-L unless "zlib" is asked for or ISA-L is missing (then the standard zlib, said in
    the log when ISA-L was asked for by name)."""
    if wanted is None:
        wanted = os.environ.get(ENV, "")
    wanted = wanted.strip().lower()
    if wanted not in ("", "isal", "zlib"):
        log.warning("%s=%s is neither isal nor zlib: choosing by what is installed", ENV, wanted)
    if wanted == "zlib":
        return standard()
    fast = isal()
    if fast is None:
        if wanted == "isal":
            log.warning("%s=isal, but the isal package is not installed: using zlib", ENV)
        return standard()
    return fast


_current = choose()


def current() -> Deflate:
    """The compressor pictures are written with now."""
    return _current


def use(chosen: Deflate) -> Deflate:
    """Write pictures with `chosen` from now on; returns the one used before."""
    global _current
    before, _current = _current, chosen
    return before


@contextmanager
def using(wanted: str) -> Iterator[Deflate]:
    """Pictures written inside the block use `choose(wanted)`; the one before is put back
    afterwards (meant for one thread: tests and the bench)."""
    before = use(choose(wanted))
    try:
        yield _current
    finally:
        use(before)


def deflate(data: bytes, level: int) -> bytes:
    """`data` as one zlib stream at zlib's `level`, by the current compressor."""
    return _current.compress(data, level)


def crc32(data: bytes, value: int = 0) -> int:
    """CRC-32 of `data` (continuing from `value`): the same number from either library."""
    return _current.crc32(data, value)
