"""The PNG files of the pictures, written here rather than by Pillow: an 8-bit palette
image as one IDAT compressed by `render/deflate.py`, with no metadata, so the same
pixels give the same bytes; `encode_png` and `encode_on_palette` map an RGB picture onto
a palette first.

Example:
    >>> import io
    >>> png = encode_png(Image.new("RGB", (8, 4), (255, 196, 0)))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", Image.open(io.BytesIO(png)).mode
    (True, 'P')
"""

from __future__ import annotations

import struct

from PIL import Image

from render import deflate

PNG_COLOURS = 256
# zlib level of the PNGs: 3 is twice as fast as 6 for ~15 % more bytes (a board stays
# far under Telegram's and our 150 KB budget; Telegram re-encodes photos anyway). ISA-L
# (`render/deflate.py`) takes any level above its 2 as 2.
PNG_LEVEL = 3


def encode_png(
    img: Image.Image, colours: int = PNG_COLOURS, compress_level: int = PNG_LEVEL
) -> bytes:
    """A palette PNG of `img` on a palette of `colours` fitted to this picture, without
    dithering, so flat areas stay flat and text crisp (a game's board goes onto its fixed
    palette instead: `encode_on_palette`). Deterministic: the same pixels give the same
    bytes (no timestamps or other metadata are written).
    """
    indexed = img.convert("RGB").quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    return encode_indexed_png(indexed, compress_level)


# A PNG written here rather than by Pillow: one IDAT compressed by `render/deflate.py`
# (ISA-L when installed, else zlib; memLevel 8 — Pillow uses 9: ~10 % slower, same size),
# no filters (as Pillow does for palette images; "up" and "sub" make these pictures
# 10–20 % bigger and no faster to compress).


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", deflate.crc32(data, deflate.crc32(kind)))
    )


def png_scanlines(indexed: Image.Image) -> bytes:
    """The raw PNG image data of an 8-bit "P" or "L" image: each row behind filter byte 0."""
    w, h = indexed.size
    padded = Image.new(indexed.mode, (w + 1, h), 0)
    padded.paste(indexed, (1, 0))
    return padded.tobytes()


def write_png(
    size: tuple[int, int],
    palette: bytes,
    idat: bytes,
) -> bytes:
    """A palette PNG (8 bits per pixel) from its PLTE entries and its compressed data."""
    ihdr = struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", ihdr),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def encode_indexed_png(indexed: Image.Image, compress_level: int = PNG_LEVEL) -> bytes:
    """PNG bytes of a "P" image (8 bits per pixel, no transparency), e.g. one made by
    `quantize`: the same pixels and palette as Pillow's own PNG of it, sooner. Every PNG
    of a board picture is written here, compressed by `render/deflate.py` (`compress_level`
    is zlib's; ISA-L caps it at its 2). Deterministic: no metadata, the same pixels give
    the same bytes (with the same compressor).
    """
    if indexed.mode != "P":
        raise ValueError(f"a P image is needed, not {indexed.mode}")
    pal = bytes(indexed.getpalette() or [])
    return write_png(indexed.size, pal, deflate.deflate(png_scanlines(indexed), compress_level))


def encode_on_palette(
    img: Image.Image, palette: Image.Image, compress_level: int = PNG_LEVEL
) -> bytes:
    """PNG bytes of `img` mapped onto a fixed `palette` (from `fit_flat_palette`) without
    dithering, written by `encode_indexed_png` (no copy of the picture, less overhead
    than Pillow's PNG)."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    return encode_indexed_png(
        img.quantize(palette=palette, dither=Image.Dither.NONE), compress_level
    )
