"""Text on the pictures: the fonts (DejaVu Sans from `render/fonts`, never a system font),
measuring and fitting a line to a width, drawing it, and stamping it from cached glyph
masks (the same pixels as drawing it, a fraction of the time); `clean_text` for names.

Only what the font can draw reaches a picture: every function here measures and draws
`drawable(text)` — a character the font's character map (`cmap`) lacks (an emoji such
as the computers' «🤖», a symbol DejaVu has not) is replaced by a look-alike the font
has (`SUBSTITUTES`: «⤵» → «↴») or left out, never drawn as the missing-glyph box.

Pictures are sent about 1000 px wide and read on phones at about 360 px: type is big.

Example:
    >>> from PIL import Image, ImageDraw
    >>> img = Image.new("RGB", (200, 80), (255, 255, 255))
    >>> w = draw_text(ImageDraw.Draw(img), (10, 20), "Ходит: Аня", size=28, bold=True)
    >>> 0 < w < 200, fit_text("Александра Константиновна", 30, 260, min_size=20)
    (True, ('Александра Констант…', 20))
"""

from __future__ import annotations

import math
import struct
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

import regex
from PIL import Image, ImageDraw, ImageFont

from render.colours import INK, RGB, Colour

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

_GRAPHEME = regex.compile(r"\X")  # an extended grapheme cluster

# Symbols the pictures' words use that DejaVu lacks, and what stands in for them.
SUBSTITUTES: dict[str, str] = {"⤵": "↴", "⏹": "■", "⬛": "■", "⬜": "□", "✨": "✦"}
_SPACES = regex.compile(r" {2,}")


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from `render/fonts` (never a system font), cached per size."""
    return ImageFont.truetype(
        str(FONT_DIR / _FONT_FILES[bold]), size, layout_engine=ImageFont.Layout.BASIC
    )


def _read_cmap(data: bytes) -> frozenset[int]:
    """The code points a TrueType font maps to a glyph (its `cmap` table: the Unicode
    subtable of format 12, or else of format 4)."""
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for i in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = offset
    base = tables[b"cmap"]
    (subtables,) = struct.unpack_from(">H", data, base + 2)
    found: dict[tuple[int, int], int] = {}
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
        found[platform, encoding] = base + offset
    out: set[int] = set()
    if (3, 10) in found:  # format 12: groups of (first, last, first glyph)
        at = found[3, 10]
        (groups,) = struct.unpack_from(">I", data, at + 12)
        for g in range(groups):
            first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
            out.update(c for c in range(first, last + 1) if glyph + c - first)
        return frozenset(out)
    at = found[3, 1]  # format 4: segments with a delta or a glyph array
    (segs2,) = struct.unpack_from(">H", data, at + 6)
    n = segs2 // 2
    ends = struct.unpack_from(f">{n}H", data, at + 14)
    starts = struct.unpack_from(f">{n}H", data, at + 16 + segs2)
    deltas = struct.unpack_from(f">{n}h", data, at + 16 + 2 * segs2)
    ranges_at = at + 16 + 3 * segs2
    ranges = struct.unpack_from(f">{n}H", data, ranges_at)
    for i in range(n):
        for c in range(starts[i], ends[i] + 1):
            if c == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (c + deltas[i]) & 0xFFFF
            else:
                where = ranges_at + 2 * i + ranges[i] + 2 * (c - starts[i])
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                out.add(c)
    return frozenset(out)


@lru_cache(maxsize=2)
def charset(bold: bool = False) -> frozenset[int]:
    """The code points the font (regular or bold) has a glyph for."""
    return _read_cmap((FONT_DIR / _FONT_FILES[bold]).read_bytes())


def has_glyph(ch: str, bold: bool = False) -> bool:
    """Whether the font draws `ch` (one character) with a glyph of its own, not the box
    of a missing one.

    >>> has_glyph("Ж"), has_glyph("🤖"), has_glyph("⤵", bold=True)
    (True, False, False)
    """
    return ord(ch) in charset(bold)


@lru_cache(maxsize=8192)
def drawable(text: str, bold: bool = False) -> str:
    """`text` as the font can draw it: a character it lacks replaced by its substitute
    (`SUBSTITUTES`) or left out, and the spaces that leaves doubled folded.

    >>> drawable("🤖 Робот-мастер"), drawable("1⤵3", bold=True), drawable("Аня 🎲 и Боря")
    ('Робот-мастер', '1↴3', 'Аня и Боря')
    """
    have = charset(bold)
    if all(ord(ch) in have for ch in text):
        return text
    out = []
    for ch in text:
        if ord(ch) in have or ch == "\n":
            out.append(ch)
        elif SUBSTITUTES.get(ch, "") and all(ord(c) in have for c in SUBSTITUTES[ch]):
            out.append(SUBSTITUTES[ch])
    kept = _SPACES.sub(" ", "".join(out))
    if not text[:1].isspace():
        kept = kept.lstrip(" ")
    if not text[-1:].isspace():
        kept = kept.rstrip(" ")
    return kept


@lru_cache(maxsize=4096)
def text_length(text: str, size: int, bold: bool = False) -> float:
    """The advance width of `text` in pixels (not rounded), cached."""
    return float(font(size, bold).getlength(drawable(text, bold)))


def text_width(text: str, size: int, bold: bool = False) -> int:
    return round(text_length(text, size, bold))


def fit_size(text: str, size: int, max_width: int, bold: bool = False, min_size: int = 14) -> int:
    """The largest size <= `size` (down to `min_size`) at which `text` fits `max_width`."""
    while size > min_size and text_width(text, size, bold) > max_width:
        size -= 1
    return size


def ellipsize(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """`text` cut with "…" so that it fits `max_width` at `size`; the cut falls between
    grapheme clusters (never inside a letter with its marks or an emoji sequence)."""
    if text_width(text, size, bold) <= max_width:
        return text
    clusters = _GRAPHEME.findall(text)
    while clusters and text_width("".join(clusters) + "…", size, bold) > max_width:
        clusters.pop()
    return "".join(clusters).rstrip() + "…"


def fit_text(
    text: str, size: int, max_width: int, bold: bool = False, min_size: int = 14
) -> tuple[str, int]:
    """Shrink down to `min_size`, then ellipsize: the (text, size) to draw."""
    size = fit_size(text, size, max_width, bold, min_size)
    return ellipsize(text, size, max_width, bold), size


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    size: int,
    bold: bool = False,
    fill: Colour = INK,
    anchor: str = "la",
    max_width: int | None = None,
    min_size: int = 14,
    stroke: int = 0,
    stroke_fill: Colour | None = None,
) -> int:
    """Draw one line of text; with `max_width` it is shrunk, then ellipsized to fit.

    `anchor` is Pillow's two-letter anchor ("la" left/ascender, "mm" middle/middle,
    "rs" right/baseline...). Returns the drawn width in pixels.
    """
    if max_width is not None:
        text, size = fit_text(text, size, max_width, bold, min_size)
    text = drawable(text, bold)
    f = font(size, bold)
    draw.text(
        xy, text, font=f, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill
    )
    return round(f.getlength(text))


# Text from cached glyph masks: laying a line out costs 40–150 µs, and pictures redraw
# the same captions, names and numbers over and over.


@lru_cache(maxsize=4096)
def fit_text_cached(
    text: str, size: int, max_width: int, bold: bool, min_size: int
) -> tuple[str, int]:
    """`fit_text`, cached."""
    return fit_text(text, size, max_width, bold, min_size)


# Shared by every game a process draws: room for what four games' caches of 2048 held.
@lru_cache(maxsize=8192)
def glyph_mask(
    text: str, size: int, bold: bool, anchor: str, fx: float, fy: float
) -> tuple[Any, tuple[int, int]]:
    """The coverage mask (Pillow's core image) and offset `ImageDraw.text` draws `text`
    with at a point of fractional part (fx, fy)."""
    return font(size, bold).getmask2(drawable(text, bold), "L", anchor=anchor, start=(fx, fy))


def text_mask(
    text: str, size: int, bold: bool, anchor: str, fx: float, fy: float
) -> tuple[Image.Image, int, int] | None:
    """The "L" coverage mask of one line of `text` (None if it has no ink), and where its
    top-left corner falls relative to the whole pixel of the anchor point, for an
    anchor point (fx, fy) pixels past that whole pixel (0 <= fx, fy < 1).

    The mask is the one `ImageDraw.text` blends: pasting `fill` through it at
    (floor(x) + dx, floor(y) + dy) gives the same pixels as drawing the text at (x, y).
    """
    f = font(size, bold)
    text = drawable(text, bold)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    pad = 2  # a fractional start can move the ink by a pixel
    ox = pad - min(math.floor(left), 0)
    oy = pad - min(math.floor(top), 0)
    w = ox + max(math.ceil(right), 0) + pad
    h = oy + max(math.ceil(bottom), 0) + pad
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).text((ox + fx, oy + fy), text, font=f, fill=255, anchor=anchor)
    box = mask.getbbox()
    if box is None:
        return None
    return mask.crop(box), box[0] - ox, box[1] - oy


def stamp_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    *,
    size: int,
    bold: bool = False,
    fill: RGB = INK,
    anchor: str = "la",
    max_width: int | None = None,
    min_size: int = 14,
    origin: tuple[int, int] = (0, 0),
) -> int:
    """`draw_text` onto an RGB `img` from cached glyph masks (no stroke): the same pixels.

    `xy` is in the coordinates of a bigger picture whose point `origin` is `img`'s
    top-left corner (a part of a picture drawn on its own gets the same pixels).
    Returns the drawn width in pixels, like `draw_text`.
    """
    if max_width is not None:
        text, size = fit_text_cached(text, size, max_width, bold, min_size)
    x, y = xy
    # Split like `ImageDraw.text` (int() and the rest), so the mask is the one it draws.
    ix, iy = int(x), int(y)
    mask, (ox, oy) = glyph_mask(text, size, bold, anchor, x - ix, y - iy)
    w, h = mask.size
    if w and h:
        x0, y0 = ix + ox - origin[0], iy + oy - origin[1]
        # Pillow's core paste: `Image.paste`'s checks cost more than the paste itself.
        img.im.paste(fill, (x0, y0, x0 + w, y0 + h), mask)
    return text_width(text, size, bold)


def clean_text(text: str) -> str:
    """`text` without what DejaVu cannot draw in either weight (emoji, symbols it lacks),
    joiners, variation selectors and control characters, with runs of spaces collapsed:
    "Аня 🎲" -> "Аня", "🤖 Робот-мастер" -> "Робот-мастер". Use it on names."""
    regular, bold = charset(False), charset(True)
    kept = [
        ch
        for ch in unicodedata.normalize("NFC", text)
        if ord(ch) in regular
        and ord(ch) in bold
        and unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
        and not 0xFE00 <= ord(ch) <= 0xFE0F
    ]
    return " ".join("".join(kept).split())
