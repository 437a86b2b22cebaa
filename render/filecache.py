"""Pictures drawn once per machine and kept on disk: a renderer's static pieces (a board,
its lit lanes) as lossless PNG files, read back in milliseconds after a restart instead of
drawn anew in most of a second.

The files live in `NASTOLKA_RENDER_CACHE` (default ~/.cache/nastolka; "0" turns it off),
in a folder named after a hash of everything that draws them (the renderer's module, the
colours, shapes and text it draws with, the fonts, Pillow's version): the very same
pixels, or a new folder. A folder that cannot be written only costs the drawing.

Example:
    >>> folder = FileCache("seven_tracks", [__file__]).folder()
    >>> folder is None or folder.name.startswith("seven_tracks-")
    True
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import PIL
from PIL import Image

CACHE_ENV = "NASTOLKA_RENDER_CACHE"
HERE = Path(__file__).resolve().parent
# What every stored piece is drawn with besides its renderer's own module.
DRAWN_WITH = tuple(HERE / f"{name}.py" for name in ("colours", "shapes", "text"))


class FileCache:
    """The stored pieces of one renderer: `name` names its folder, `sources` are the files
    that draw them besides `DRAWN_WITH` and the fonts."""

    def __init__(self, name: str, sources: Sequence[str | Path]) -> None:
        self.name = name
        self.sources = [Path(s) for s in sources]
        # Read once; `folder.cache_clear()` reads the environment again (tests).
        self.folder = lru_cache(maxsize=1)(self._folder)

    def _folder(self) -> Path | None:
        raw = os.environ.get(CACHE_ENV)
        if raw is not None and raw.strip() in ("", "0"):
            return None
        try:
            if raw:
                base = Path(raw)
            else:
                home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
                base = Path(home) / "nastolka"
            digest = hashlib.sha1(PIL.__version__.encode())
            for f in (*self.sources, *DRAWN_WITH, *sorted((HERE / "fonts").glob("*"))):
                digest.update(f.name.encode())
                digest.update(f.read_bytes())
        except (OSError, RuntimeError):  # no home, an unreadable file: no file cache
            return None
        return base / f"{self.name}-{digest.hexdigest()[:16]}"

    def get(self, name: str, make: Callable[[], Image.Image]) -> Image.Image:
        """`make()`, or the same image as it was stored by an earlier `make()` on this
        machine."""
        folder = self.folder()
        if folder is None:
            return make()
        path = folder / f"{name}.png"
        try:
            with Image.open(path) as f:
                f.load()
                return f.copy()
        except Exception:  # absent, unreadable, torn: drawn (and stored) anew
            pass
        img = make()
        tmp = path.with_name(f"{name}.{os.getpid()}.tmp")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            img.save(tmp, "PNG", compress_level=1)
            os.replace(tmp, path)  # whole or not at all, for the other processes
        except OSError:  # read-only, full, not a folder: only this drawing is lost
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
        return img
