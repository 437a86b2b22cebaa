"""The fixed PNG palettes of the pictures: `fit_palette` fits one to a few typical
pictures of a game, `fit_flat_palette` keeps the colours of their flat areas exact.

A game's palette is fitted once (`render/compositor.py` keeps it): mapping a picture onto
a fixed palette takes a couple of milliseconds, fitting one to each picture tens.

Example:
    >>> from PIL import Image
    >>> img = Image.new("RGB", (40, 20), (246, 240, 228))
    >>> img.paste((255, 196, 0), (0, 0, 20, 20))
    >>> pal = fit_flat_palette([img])
    >>> pal.mode, pal.getpalette()[:6]
    ('P', [246, 240, 228, 255, 196, 0])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import cast

from PIL import Image, ImageChops

from render.colours import PAPER
from render.png import PNG_COLOURS


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
