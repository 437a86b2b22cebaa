"""render/png.py: the hand-written palette PNG."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from render.colours import PAPER
from render.png import encode_indexed_png, encode_png, png_scanlines
from tests.render.pixels import sample_picture as picture


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out = []
    i = 8
    while i < len(png):
        (n,) = struct.unpack(">I", png[i : i + 4])
        kind, data = png[i + 4 : i + 8], png[i + 8 : i + 8 + n]
        (crc,) = struct.unpack(">I", png[i + 8 + n : i + 12 + n])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        i += 12 + n
    return out


@pytest.mark.parametrize("level", [1, 2, 3, 6])
def test_indexed_png_decodes_to_the_pixels_pillow_writes(level: int) -> None:
    pal = picture().quantize(colors=200, dither=Image.Dither.NONE)
    ours = encode_indexed_png(pal, level)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=level)
    a, b = Image.open(io.BytesIO(ours)), Image.open(buf)
    assert a.format == "PNG" and a.mode == b.mode == "P" and a.size == b.size
    assert a.tobytes() == b.tobytes()
    assert a.getpalette() == b.getpalette()
    assert a.convert("RGB").tobytes() == pal.convert("RGB").tobytes()
    Image.open(io.BytesIO(ours)).verify()  # CRCs and structure, by Pillow


def test_indexed_png_is_a_plain_deterministic_png() -> None:
    pal = picture().quantize(colors=64, dither=Image.Dither.NONE)
    png = encode_indexed_png(pal)
    assert png == encode_indexed_png(pal.copy())
    kinds = [k for k, _ in chunks(png)]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    ihdr = dict(chunks(png))[b"IHDR"]
    assert struct.unpack(">IIBBBBB", ihdr) == (333, 121, 8, 3, 0, 0, 0)
    raw = zlib.decompress(dict(chunks(png))[b"IDAT"])
    assert raw == png_scanlines(pal)
    assert all(raw[y * 334] == 0 for y in range(121))  # filter "none" on every row


def test_indexed_png_wants_a_palette_image() -> None:
    with pytest.raises(ValueError):
        encode_indexed_png(picture())


def test_encode_png_is_deterministic_and_palette_based() -> None:
    im = Image.new("RGB", (120, 60), PAPER)
    a = encode_png(im)
    assert a == encode_png(im.copy())
    assert Image.open(io.BytesIO(a)).mode == "P"
