"""render/deflate.py: every game's picture compressed by ISA-L is a valid PNG with exactly
the pixels of the standard-zlib one, and the standard zlib takes over when ISA-L is missing
or `RENDER_ZLIB=zlib` says so."""

from __future__ import annotations

import importlib
import io
import json
import os
import random
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import games
from render import deflate
from render.colours import INK, SPECTRUM
from render.png import png_scanlines
from render.shapes import disc, new_image
from render.text import stamp_text
from tests.render.pixels import MAX_BYTES

ROOT = Path(__file__).resolve().parents[2]
NAMES = {1: "Аня", 2: "Борис", 3: "Вика", 4: "Гоша"}
GAME_IDS = games.ids()


def views(game_id: str, steps: tuple[int, ...] = (0, 25, 80)) -> list[Any]:
    """Public views of one random 4-player game (fewer if the game wants) after `steps`
    random legal moves."""
    game = games.get(game_id)
    players = list(range(1, min(4, int(getattr(game, "max_players", 4))) + 1))
    rng = random.Random(7)
    state = game.new(players, seed=7)
    out, done = [], 0
    for n in steps:
        while done < n and not game.is_over(state):
            state, _ = game.apply(state, rng.choice(game.legal_actions(state)))
            done += 1
        out.append(game.view(state, None))
    return out


def decoded(png: bytes) -> Image.Image:
    Image.open(io.BytesIO(png)).verify()  # structure and every chunk's CRC, by Pillow
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG" and im.mode == "P"
    im.load()
    return im


isal_only = pytest.mark.skipif(deflate.isal() is None, reason="the isal package is not installed")


@isal_only
def test_isal_is_the_compressor_when_installed_and_nothing_forces_zlib() -> None:
    assert deflate.choose("").name == "isal"
    assert deflate.choose("isal").name == "isal"
    assert deflate.choose("zlib").name == "zlib"


@isal_only
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_games_picture_by_isal_has_the_pixels_of_the_zlib_one(game_id: str) -> None:
    render = importlib.import_module(f"render.{game_id}").render
    for view in views(game_id):
        with deflate.using("isal") as used:
            assert used.name == "isal"
            fast = render(view, NAMES)
        with deflate.using("zlib"):
            plain = render(view, NAMES)
        assert deflate.current() is not used  # put back after the block
        assert fast != plain  # ISA-L wrote this one: the picture goes through render/deflate
        a, b = decoded(fast), decoded(plain)
        assert a.size == b.size
        assert a.tobytes() == b.tobytes()  # the same palette indices...
        assert a.getpalette() == b.getpalette()  # ...of the same palette
        assert a.convert("RGB").tobytes() == b.convert("RGB").tobytes()
        assert len(fast) < MAX_BYTES
        assert len(fast) < 1.25 * len(plain)  # "the same or slightly larger files"


@pytest.mark.parametrize("wanted", ["isal", "zlib"])
@pytest.mark.parametrize("level", [0, 1, 2, 3, 6, 9])
def test_each_compressor_writes_a_zlib_stream_at_any_zlib_level(wanted: str, level: int) -> None:
    if wanted == "isal" and deflate.isal() is None:
        pytest.skip("the isal package is not installed")
    raw = png_scanlines(_indexed())
    with deflate.using(wanted):
        data = deflate.deflate(raw, level)
        assert deflate.crc32(b"IDAT" + data) == zlib.crc32(b"IDAT" + data)
    assert zlib.decompress(data) == raw


def _indexed() -> Image.Image:
    img = new_image((300, 90))
    disc(img, (60.5, 45.25), 30, SPECTRUM["V"], INK, 2)
    stamp_text(img, (110, 20), "Ходит: Аня", size=30, bold=True)
    return img.quantize(colors=64, dither=Image.Dither.NONE)


def test_without_isal_the_standard_zlib_is_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "isal", None)  # `import isal` raises ImportError
    assert deflate.isal() is None
    assert deflate.choose("").name == "zlib"
    assert deflate.choose("isal").name == "zlib"  # asked for by name: zlib, and a warning
    monkeypatch.setenv(deflate.ENV, "zlib")
    assert deflate.choose().name == "zlib"


def test_an_unknown_choice_takes_what_is_installed() -> None:
    expected = "isal" if deflate.isal() is not None else "zlib"
    assert deflate.choose("brotli").name == expected


# A fresh interpreter: the compressor is chosen when render/deflate.py is imported. One
# game is enough there (every game's pixels are compared above); the quickest to draw cold.
PROBED = ["sea_cross"]
PROBE = """
import hashlib, io, json, random, sys
if sys.argv[1] == "hide-isal":
    sys.modules["isal"] = None  # as if the package were not installed
import games
from PIL import Image
from render import deflate
out = {"compressor": deflate.current().name, "pictures": {}}
for game_id in sys.argv[2:]:
    module = __import__(f"render.{game_id}", fromlist=["render"])
    game = games.get(game_id)
    rng = random.Random(7)
    s = game.new([1, 2], seed=7)
    for _ in range(25):
        if game.is_over(s):
            break
        s, _ = game.apply(s, rng.choice(game.legal_actions(s)))
    png = module.render(game.view(s, None), {1: "Аня", 2: "Борис"})
    Image.open(io.BytesIO(png)).verify()
    rgb = Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    out["pictures"][game_id] = {
        "png": hashlib.sha256(png).hexdigest(),
        "bytes": len(png),
        "pixels": hashlib.sha256(rgb).hexdigest(),
    }
print(json.dumps(out))
"""


def probe(mode: str, compressor: str | None = None) -> dict[str, Any]:
    """What a fresh interpreter draws: `mode` "hide-isal" makes `import isal` fail;
    `compressor` is put in `RENDER_ZLIB` (None: the variable is unset)."""
    env = {k: v for k, v in os.environ.items() if k != deflate.ENV}
    if compressor is not None:
        env[deflate.ENV] = compressor
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode, *PROBED],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_without_isal_or_told_zlib_a_fresh_process_draws_the_same_pixels_with_zlib() -> None:
    hidden = probe("hide-isal")
    told = probe("as-is", "zlib")
    default = probe("as-is")
    assert hidden["compressor"] == told["compressor"] == "zlib"
    assert default["compressor"] == ("isal" if deflate.isal() is not None else "zlib")
    assert hidden["pictures"] == told["pictures"]  # byte for byte the same PNGs
    assert set(default["pictures"]) == set(PROBED)
    for game_id, picture in default["pictures"].items():
        plain = hidden["pictures"][game_id]
        assert picture["pixels"] == plain["pixels"], game_id  # the same pixels
        assert picture["bytes"] < 1.25 * plain["bytes"], game_id
        if default["compressor"] == "isal":
            assert picture["png"] != plain["png"], game_id  # and ISA-L wrote them
