"""Text on the pictures: the fonts (DejaVu Sans from `render/fonts`, never a system font),
measuring and fitting a line to a width, drawing it, and stamping it from cached glyph
masks (the same pixels as drawing it, a fraction of the time); `clean_text` for names.

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


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans from `render/fonts` (never a system font), cached per size."""
    return ImageFont.truetype(
        str(FONT_DIR / _FONT_FILES[bold]), size, layout_engine=ImageFont.Layout.BASIC
    )


@lru_cache(maxsize=4096)
def text_length(text: str, size: int, bold: bool = False) -> float:
    """The advance width of `text` in pixels (not rounded), cached."""
    return float(font(size, bold).getlength(text))


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
    return font(size, bold).getmask2(text, "L", anchor=anchor, start=(fx, fy))


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
    """`text` without what DejaVu cannot draw (emoji and other characters outside the
    Basic Multilingual Plane, joiners, variation selectors, control characters), with
    runs of spaces collapsed: "Аня 🎲" -> "Аня". Use it on user-supplied names."""
    kept = [
        ch
        for ch in unicodedata.normalize("NFC", text)
        if ord(ch) <= 0xFFFF
        and unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
        and not 0xFE00 <= ord(ch) <= 0xFE0F
    ]
    return " ".join("".join(kept).split())
