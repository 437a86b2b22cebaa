"""The static field of «Семидорожник» (the board, the lit lanes) is drawn once per
machine and read back from lossless files: the very same pixels, so every picture is
byte for byte the one drawn without the files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

import render.seven_tracks as st
from render.filecache import CACHE_ENV

PICTURE = st.PICTURE


def forget() -> None:
    PICTURE.field.cache_clear()
    PICTURE.overlay.cache_clear()
    st.FILES.folder.cache_clear()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    forget()
    yield tmp_path
    forget()


def pieces() -> list[Image.Image]:
    out = [PICTURE.field(False), PICTURE.field(True)]
    lit = [("lane", k) for k in range(1, 7)] + [("centre",)]
    return out + [PICTURE.overlay(item)[0] for item in lit]


def test_the_files_hold_the_same_pixels_as_the_drawing(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = pieces()  # drawn, and stored
    files = sorted(p.name for p in cache.rglob("*.png"))
    assert len(files) == 9, files
    forget()
    read = pieces()  # read back from the files
    for a, b in zip(drawn, read, strict=True):
        assert (a.mode, a.size) == (b.mode, b.size)
        assert a.tobytes() == b.tobytes()
    monkeypatch.setenv(CACHE_ENV, "0")  # no files at all: drawn, the same again
    forget()
    assert st.FILES.folder() is None
    for a, b in zip(drawn, pieces(), strict=True):
        assert a.tobytes() == b.tobytes()


def test_a_torn_file_is_drawn_anew(cache: Path) -> None:
    board = PICTURE.field(False)
    (path,) = cache.rglob("board-normal.png")
    path.write_bytes(path.read_bytes()[:1000])
    forget()
    assert PICTURE.field(False).tobytes() == board.tobytes()
    forget()
    assert PICTURE.field(False).tobytes() == board.tobytes()  # and stored whole again


def test_an_unwritable_folder_only_costs_the_drawing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    forget()
    try:
        assert PICTURE.field(True).size[0] == st.WIDTH
    finally:
        forget()
