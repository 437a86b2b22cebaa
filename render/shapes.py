"""Antialiased shapes and sprites: `Canvas` (a supersampled layer to draw smooth discs,
polygons and text on), the cached discs games draw (`Disc`, `disc`), and the fast way to
put a sprite on a picture (`paste`).

Example:
    >>> img = new_image((100, 60))
    >>> disc(img, (30.5, 30), 20, (229, 57, 53), INK, 2)
    >>> img.getpixel((30, 30)), img.getpixel((2, 2)) == PAPER
    ((229, 57, 53), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from render.colours import INK, PAPER, RGB, Colour
from render.text import drawable, font

Point = tuple[float, float]


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
            drawable(text, bold),
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


class Disc(NamedTuple):
    """An antialiased disc as a sprite (a hashable spec of it): its centre inside the
    sprite, its radius, colours and outline width, and the sprite's margin `pad` (its
    side is 2·pad + 1). `Disc.at` makes the one for a disc centred anywhere in a picture."""

    cx: float
    cy: float
    radius: float
    fill: RGB
    outline: RGB | None
    width: float
    pad: float

    @staticmethod
    def at(
        centre: Point, radius: float, fill: RGB, outline: RGB | None = None, width: float = 0
    ) -> tuple[Disc, tuple[int, int]]:
        """The disc centred on `centre` and the top-left corner of its sprite: a sprite
        depends only on the disc and where its centre falls inside a pixel."""
        pad = radius + width + 2
        ox, oy = round(centre[0] - pad), round(centre[1] - pad)
        spec = Disc(
            round(centre[0] - ox, 3), round(centre[1] - oy, 3), radius, fill, outline, width, pad
        )
        return spec, (ox, oy)

    def image(self) -> Image.Image:
        """The sprite (RGBA), drawn supersampled."""
        side = round(2 * self.pad) + 1
        c = Canvas((side, side))
        c.circle(
            (self.cx, self.cy), self.radius, fill=self.fill, outline=self.outline, width=self.width
        )
        return c.image()


def disc(
    img: Image.Image,
    centre: Point,
    radius: float,
    fill: RGB,
    outline: RGB | None = None,
    width: float = 0,
) -> None:
    """An antialiased disc, pasted from a cached sprite."""
    spec, (ox, oy) = Disc.at(centre, radius, fill, outline, width)
    core = _disc_sprite(spec)
    w, h = core.size
    img.im.paste(core, (ox, oy, ox + w, oy + h), core)


# Big enough for every game's discs at once (a process draws several games): one evicting
# another's would draw them supersampled again.
@lru_cache(maxsize=768)
def _disc_sprite(spec: Disc) -> Any:
    # Only Pillow's core image is kept: the `Image` around it is not needed to paste it.
    return spec.image().im


def paste_centred(dst: Image.Image, sprite: Image.Image, centre: Point) -> None:
    paste(dst, sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)))
