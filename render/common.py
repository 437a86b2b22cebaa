"""Helpers every game's renderer shares: fonts, palette, text, antialiased shapes, encoding.

Pictures are sent as Telegram photos about 1000 px wide and read on phones at about
360 px, so every helper here leans towards big type, strong contrast and flat colour.

Example:
    >>> img = new_image((200, 80))
    >>> d = ImageDraw.Draw(img)
    >>> w = draw_text(d, (10, 20), "Ходит: Аня", size=28, bold=True)
    >>> 0 < w < 200
    True
    >>> encode_png(img)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
"""

from __future__ import annotations

import io
import math
import struct
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import regex
from PIL import Image, ImageChops, ImageDraw, ImageFont

from render import deflate

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Colour = RGB | RGBA
Point = tuple[float, float]

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

# ---------------------------------------------------------------- palette

INK: RGB = (28, 28, 34)  # text and outlines
INK_SOFT: RGB = (88, 84, 80)  # secondary text
PAPER: RGB = (246, 240, 228)  # picture background
PAPER_DARK: RGB = (226, 214, 192)  # panels on the paper
LINE: RGB = (150, 136, 112)  # thin separators
HIGHLIGHT: RGB = (255, 196, 0)  # "this one": the player to act, available tracks
HIGHLIGHT_SOFT: RGB = (255, 233, 150)
GOOD: RGB = (46, 125, 50)
BAD: RGB = (198, 40, 40)
MUTED: RGB = (150, 146, 140)  # players who are out of play
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (22, 22, 24)

# The seven spectrum colours most games here use, chosen to stay apart from each
# other on a phone screen (orange vs red, light blue vs blue vs violet).
SPECTRUM: dict[str, RGB] = {
    "R": (229, 57, 53),
    "O": (251, 140, 0),
    "Y": (253, 216, 53),
    "G": (67, 160, 71),
    "C": (41, 182, 246),
    "B": (30, 64, 175),
    "V": (142, 36, 170),
}


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend `a` towards `b` by `t` (0 = a, 1 = b)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def with_alpha(c: RGB, alpha: int) -> RGBA:
    return (c[0], c[1], c[2], alpha)


def luminance(c: RGB) -> float:
    """Relative luminance (WCAG), 0..1."""

    def ch(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else float(((s + 0.055) / 1.055) ** 2.4)

    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def contrast_ink(background: RGB) -> RGB:
    """INK or WHITE, whichever reads better on `background`."""
    lum = luminance(background)
    on_white = (1.05) / (lum + 0.05)
    on_ink = (lum + 0.05) / (luminance(INK) + 0.05)
    return WHITE if on_white > on_ink else INK


# ---------------------------------------------------------------- fonts and text


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
    xy: Point,
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


Run = tuple[str, int, bool, Colour]  # text, size, bold, fill


def draw_runs(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    runs: Sequence[Run],
    *,
    anchor: str = "ls",
    max_width: int | None = None,
) -> int:
    """Draw pieces of text of different sizes, weights and colours one after another.

    `xy` is the left end of the line; `anchor`'s second letter sets the vertical
    reference ("s" baseline, "m" middle...) shared by all pieces. With `max_width` the
    whole line is scaled down in step until it fits (sizes never below 60 %).
    Returns the drawn width.
    """
    scale = 1.0

    def width(k: float) -> int:
        return sum(text_width(t, max(1, round(sz * k)), b) for t, sz, b, _ in runs)

    if max_width is not None:
        while scale > 0.6 and width(scale) > max_width:
            scale -= 0.04
    x, y = xy
    v = anchor[1] if len(anchor) > 1 else "s"
    for text, size, bold, fill in runs:
        sz = max(1, round(size * scale))
        f = font(sz, bold)
        draw.text((x, y), text, font=f, fill=fill, anchor="l" + v)
        x += f.getlength(text)
    return round(x - xy[0])


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
    xy: Point,
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


def plural(n: int, one: str, few: str, many: str) -> str:
    """Russian plural form for `n`: plural(1, "фишка", "фишки", "фишек") == "фишка".
    (The pictures' words count through locales/ now: `t("render.tiles", n=n)`.)"""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


# ---------------------------------------------------------------- antialiased shapes


class Canvas:
    """A supersampled RGBA layer: draw in final-pixel coordinates, get a smooth sprite.

    Pillow draws circles and polygons without antialiasing; drawing them `scale` times
    larger and shrinking the result gives clean edges. `origin` is the final-pixel
    point that becomes the layer's top-left corner, so a sprite cut from a big picture
    can be drawn with the picture's own coordinates.
    """

    def __init__(
        self,
        size: tuple[int, int],
        *,
        origin: Point = (0, 0),
        scale: int = 4,
        background: Colour = (0, 0, 0, 0),
    ) -> None:
        self.size = size
        self.origin = origin
        self.scale = scale
        self.im = Image.new("RGBA", (size[0] * scale, size[1] * scale), background)
        self.draw = ImageDraw.Draw(self.im)

    def _p(self, p: Point) -> tuple[float, float]:
        return ((p[0] - self.origin[0]) * self.scale, (p[1] - self.origin[1]) * self.scale)

    def _w(self, width: float) -> int:
        return max(0, round(width * self.scale))

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        x, y = self._p(centre)
        r = radius * self.scale
        self.draw.ellipse(
            (x - r, y - r, x + r, y + r),
            fill=fill,
            outline=outline if width else None,
            width=self._w(width),
        )

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        pts = [self._p(p) for p in points]
        self.draw.polygon(pts, fill=fill, outline=outline if width else None, width=self._w(width))

    def line(
        self, points: Sequence[Point], fill: Colour, width: float, round_caps: bool = False
    ) -> None:
        pts = [self._p(p) for p in points]
        self.draw.line(pts, fill=fill, width=self._w(width), joint="curve")
        if round_caps:
            for p in (points[0], points[-1]):
                self.circle(p, width / 2, fill=fill)

    def rounded_rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 0,
    ) -> None:
        x0, y0 = self._p((box[0], box[1]))
        x1, y1 = self._p((box[2], box[3]))
        self.draw.rounded_rectangle(
            (x0, y0, x1, y1),
            radius=radius * self.scale,
            fill=fill,
            outline=outline if width else None,
            width=self._w(width),
        )

    def arc(
        self, centre: Point, radius: float, start: float, end: float, fill: Colour, width: float
    ) -> None:
        """An arc of the circle of `radius` (outer edge); degrees, 0 = east, clockwise."""
        x, y = self._p(centre)
        r = radius * self.scale
        self.draw.arc((x - r, y - r, x + r, y + r), start, end, fill=fill, width=self._w(width))

    def text(
        self,
        xy: Point,
        text: str,
        *,
        size: int,
        bold: bool = False,
        fill: Colour = INK,
        anchor: str = "mm",
        stroke: float = 0,
        stroke_fill: Colour | None = None,
    ) -> None:
        self.draw.text(
            self._p(xy),
            text,
            font=font(size * self.scale, bold),
            fill=fill,
            anchor=anchor,
            stroke_width=self._w(stroke),
            stroke_fill=stroke_fill,
        )

    def image(self) -> Image.Image:
        """The layer at final size (RGBA)."""
        return self.im.resize(self.size, Image.Resampling.LANCZOS)


def new_image(size: tuple[int, int], colour: RGB = PAPER) -> Image.Image:
    return Image.new("RGB", size, colour)


def paste(dst: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Alpha-composite an RGBA `sprite` onto `dst` (RGB or RGBA, both in memory, not
    lazily opened files) with its top-left corner at `xy`."""
    x, y = xy
    # Pillow's core paste: `Image.paste`'s checks cost as much as pasting a small sprite.
    dst.im.paste(sprite.im, (x, y, x + sprite.width, y + sprite.height), sprite.im)


# A cached RGBA sprite ready to paste: Pillow's core image, its offset and its size.
Layer = tuple[Any, int, int, int, int]


def make_layer(sprite: Image.Image, ox: int, oy: int) -> Layer:
    """An RGBA `sprite` cut to what it covers, placed at (ox, oy)."""
    box = sprite.getchannel("A").getbbox() or (0, 0, 1, 1)
    sprite = sprite.crop(box)
    return sprite.im, ox + box[0], oy + box[1], sprite.width, sprite.height


def blit(img: Image.Image, piece: Layer, origin: tuple[int, int] = (0, 0)) -> None:
    """Alpha-composite `piece` onto `img`, its offset counted from `origin`."""
    core, ox, oy, w, h = piece
    x, y = origin[0] + ox, origin[1] + oy
    img.im.paste(core, (x, y, x + w, y + h), core)


# Room for every game's boxes (three games kept 128 each).
@lru_cache(maxsize=512)
def _box_sprite(
    w: int, h: int, radius: int, fill: RGB, outline: RGB | None, width: int, bg: RGB
) -> Any:
    im = Image.new("RGB", (w + 1, h + 1), bg)
    ImageDraw.Draw(im).rounded_rectangle(
        (0, 0, w, h), radius=radius, fill=fill, outline=outline, width=width
    )
    return im.im


def round_box(
    img: Image.Image,
    box: tuple[int, int, int, int],
    radius: int,
    fill: RGB,
    outline: RGB | None = None,
    width: int = 1,
    bg: RGB = PAPER,
) -> None:
    """`ImageDraw.rounded_rectangle` on a plain `bg`, copied from a cached picture of it
    (the same pixels, a fraction of the time)."""
    x0, y0, x1, y1 = box
    img.im.paste(
        _box_sprite(x1 - x0, y1 - y0, radius, fill, outline, width, bg), (x0, y0, x1 + 1, y1 + 1)
    )


def disc(
    img: Image.Image,
    centre: Point,
    radius: float,
    fill: RGB,
    outline: RGB | None = None,
    width: float = 0,
) -> None:
    """An antialiased disc, pasted from a cached sprite."""
    pad = radius + width + 2
    ox, oy = round(centre[0] - pad), round(centre[1] - pad)
    # A sprite depends only on the disc and where its centre falls inside a pixel.
    core, w, h = _disc_sprite(
        round(centre[0] - ox, 3), round(centre[1] - oy, 3), radius, fill, outline, width, pad
    )
    img.im.paste(core, (ox, oy, ox + w, oy + h), core)


# Big enough for every game's discs at once (a process draws several games): one evicting
# another's would draw them supersampled again.
@lru_cache(maxsize=768)
def _disc_sprite(
    cx: float,
    cy: float,
    radius: float,
    fill: RGB,
    outline: RGB | None,
    width: float,
    pad: float,
) -> tuple[Any, int, int]:
    side = round(2 * pad) + 1
    c = Canvas((side, side))
    c.circle((cx, cy), radius, fill=fill, outline=outline, width=width)
    # Only Pillow's core image is kept: the `Image` around it is not needed to paste it.
    return c.image().im, side, side


def paste_centred(dst: Image.Image, sprite: Image.Image, centre: Point) -> None:
    paste(dst, sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)))


# ---------------------------------------------------------------- encoding

PNG_COLOURS = 256
# zlib level of the PNGs: 3 is twice as fast as 6 for ~15 % more bytes (a board stays
# far under Telegram's and our 150 KB budget; Telegram re-encodes photos anyway). ISA-L
# (`render/deflate.py`) takes any level above its 2 as 2.
PNG_LEVEL = 3


def fit_palette(images: Sequence[Image.Image], colours: int = PNG_COLOURS) -> Image.Image:
    """A palette (a mode "P" image) fitted to all of `images` stacked together.

    A renderer builds it once from a few typical pictures of its game and passes it to
    `encode_png`: mapping onto a fixed palette takes a couple of milliseconds, while
    fitting a palette to each picture takes tens, and a colour that covers only a few
    pixels of one picture (a single violet tile) is no longer merged into its neighbour.
    """
    width = max(im.width for im in images)
    montage = Image.new("RGB", (width, sum(im.height for im in images)), PAPER)
    y = 0
    for im in images:
        montage.paste(im.convert("RGB"), (0, y))
        y += im.height
    fitted = montage.quantize(
        colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    # Only the palette is needed: keep it on one pixel, not on the megabytes of montage.
    holder = Image.new("P", (1, 1))
    holder.putpalette(fitted.getpalette() or [])
    return holder


# A colour covering at least this many pixels of flat area (equal to its right and lower
# neighbours) in the palette's pictures gets an exact entry (up to FLAT_COLOURS of them);
# the rest of the palette is fitted to the other pixels: edges and antialiasing.
FLAT_PIXELS = 50
FLAT_COLOURS = 96


def fit_flat_palette(
    pictures: Iterable[Image.Image],
    colours: int = PNG_COLOURS,
    flat_pixels: int = FLAT_PIXELS,
    flat_colours: int = FLAT_COLOURS,
) -> Image.Image:
    """Like `fit_palette`, but the colours of the pictures' flat areas are entries of their
    own: a fitted entry is the average of a bucket of colours, so a pale fill next to the
    paper would come out as the paper, and a player's colour a few levels off. Only the
    colour counts of each picture are kept, not a montage of them all (a picture is
    5 MB, and fitting a palette to a montage of ten takes over 100 MB more)."""
    flat_counts: Counter[tuple[int, int, int]] = Counter()
    other: Counter[tuple[int, int, int]] = Counter()
    for im in pictures:
        rgb = im.convert("RGB")
        flat = None
        for dx, dy in ((1, 0), (0, 1)):
            diff = ImageChops.difference(rgb, ImageChops.offset(rgb, dx, dy))
            r, g, b = diff.split()
            same = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 0 if v else 255)
            flat = same if flat is None else ImageChops.darker(flat, same)
        assert flat is not None
        rgba = rgb.convert("RGBA")
        rgba.putalpha(flat)
        for n, c in rgba.getcolors(1 << 18) or []:  # more colours than a board has
            r_, g_, b_, a_ = cast(tuple[int, int, int, int], c)
            (flat_counts if a_ else other)[(r_, g_, b_)] += n
    popular = sorted(flat_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:flat_colours]
    exact = [c for c, n in popular if n >= flat_pixels]
    rest = colours - len(exact)
    # the other pixels, as one row with each colour as often as it occurs
    row = b"".join(bytes(c) * n for c, n in sorted(other.items()))
    fitted = fit_palette([Image.frombytes("RGB", (len(row) // 3, 1), row)], rest).getpalette()
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in exact for v in c] + (fitted or [])[: 3 * rest])
    return pal


def encode_png(
    img: Image.Image,
    palette: Image.Image | None = None,
    colours: int = PNG_COLOURS,
    compress_level: int = PNG_LEVEL,
) -> bytes:
    """A palette PNG of `img` without dithering, so flat areas stay flat and text crisp.

    With `palette` (from `fit_palette`) the colours are mapped onto it, otherwise a
    palette of `colours` is fitted to this picture. Deterministic: the same pixels give
    the same bytes (no timestamps or other metadata are written).
    """
    rgb = img.convert("RGB")
    if palette is not None:
        pal = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        pal = rgb.quantize(
            colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    return encode_indexed_png(pal, compress_level)


# A PNG written here rather than by Pillow: one IDAT compressed by `render/deflate.py`
# (ISA-L when installed, else zlib; memLevel 8 — Pillow uses 9: ~10 % slower, same size),
# no filters (as Pillow does for palette images; "up" and "sub" make these pictures
# 10–20 % bigger and no faster to compress).
PNG_MEM_LEVEL = deflate.MEM_LEVEL


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


def encode_jpeg(img: Image.Image, quality: int = 88) -> bytes:
    """JPEG for photographic content; for flat board art `encode_png` is smaller and crisper."""
    buf = io.BytesIO()
    img.convert("RGB").save(buf, format="JPEG", quality=quality, optimize=True, subsampling=0)
    return buf.getvalue()
