"""What the parts of a picture draw with, on either of the compositor's two ways: a
`Surface` with text, sprites, stamps, regions and Pillow's flat shapes; `RGBSurface` draws
on an RGB picture (the reference), `IndexSurface` pastes the compositor's cached patches
of palette indices (`render/compositor.py`). The names of what they draw: a box, a
sprite's spec and its place, a group of placed sprites.

Example:
    >>> from PIL import Image
    >>> from render.seven_tracks import PICTURE
    >>> img = Image.new("RGB", (120, 40), (246, 240, 228))
    >>> RGBSurface(img, PICTURE).text((4, 8), "Кон 3", size=20, bg=(246, 240, 228))
    58
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from render.colours import INK, RGB
from render.shapes import Disc, Point
from render.text import fit_text_cached, glyph_mask, stamp_text, text_width

if TYPE_CHECKING:
    from render.compositor import Compositor, Scene

Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive)
Spec = Hashable  # names a sprite: the renderer's `sprite(spec)` draws it
Placed = tuple[Spec, int, int]  # a sprite and its top-left corner in the picture
Group = tuple[Placed, ...]  # sprites drawn together, in order: one patch
Patch = tuple[Any, Any, int, int]  # indices, the mask of ink (Pillow's core images), top-left
Run = tuple[str, int, bool, RGB]  # a piece of a line of text: text, size, bold, fill
Under = tuple[Hashable, tuple[Hashable, ...]]  # the field's variant and the overlays on
Line = tuple[Point, str, int, bool, RGB, str]  # a fitted line: xy, text, size, bold, fill, anchor


def paste(dst: Any, src: Any, xy: tuple[int, int], mask: Any | None) -> None:
    """Pillow's core image `src` onto the core image `dst` at `xy` through `mask` (the
    caches keep core images: no `Image` or palette object around each, and `Image.paste`'s
    checks cost more than pasting a small patch)."""
    x, y = xy
    w, h = src.size
    if mask is None:
        dst.paste(src, (x, y, x + w, y + h))
    else:
        dst.paste(src, (x, y, x + w, y + h), mask)


class Surface:
    """What the parts of a picture draw with, in the picture's coordinates: `RGBSurface`
    draws on an RGB picture, `IndexSurface` pastes cached patches of palette indices.

    Text and sprites are antialiased: their pixels depend on what is under them, which
    is the field (and the overlays on), unless a flat colour `bg` is named (a card, a
    cell drawn for this state). A `stamp` (an opaque sprite) and the flat shapes
    (`rectangle`, `rounded_rectangle`, `line`, `ellipse`: Pillow's, not antialiased)
    depend on nothing under them.
    """

    def __init__(self, comp: Compositor) -> None:
        self.comp = comp

    def text(
        self,
        xy: Point,
        text: str,
        *,
        size: int,
        bold: bool = False,
        fill: RGB = INK,
        anchor: str = "la",
        max_width: int | None = None,
        min_size: int = 14,
        bg: RGB | None = None,
    ) -> int:
        """Like `draw_text` (without a stroke): shrunk, then ellipsized to fit `max_width`.
        Returns the drawn width."""
        if max_width is not None:
            text, size = fit_text_cached(text, size, max_width, bold, min_size)
        self.line_of_text(xy, text, size, bold, fill, anchor, bg)
        return text_width(text, size, bold)

    def runs(
        self,
        xy: tuple[int, int],
        runs: Sequence[Run],
        *,
        max_width: int,
        anchor: str = "ls",
        bg: RGB | None = None,
    ) -> int:
        """Pieces of text of different sizes, weights and colours one after another, each
        starting on a whole pixel (a piece's text is then the same cached image whatever
        precedes it); the line is scaled down in step until it fits `max_width` (sizes
        never below 60 %). Returns the drawn width."""
        scale = 1.0

        def width(k: float) -> int:
            return sum(text_width(t, max(1, round(sz * k)), b) for t, sz, b, _ in runs)

        while scale > 0.6 and width(scale) > max_width:
            scale -= 0.04
        x, y = xy
        for text, size, bold, fill in runs:
            sz = max(1, round(size * scale))
            self.text((x, y), text, size=sz, bold=bold, fill=fill, anchor=anchor, bg=bg)
            x += text_width(text, sz, bold)
        return x - xy[0]

    def texts(self, lines: Sequence[Line], *, bg: RGB) -> None:
        """Lines of text (already fitted) on a flat `bg`, in order, whose ink may touch
        (one patch: a line's antialiasing is blended over the one before)."""
        raise NotImplementedError

    def sprite(self, spec: Spec, centre: Point, *, bg: RGB | None = None) -> None:
        """A sprite centred on `centre`."""
        self.sprites((self.comp.place(spec, centre),), bg=bg)

    def disc(
        self,
        centre: Point,
        radius: float,
        fill: RGB,
        outline: RGB | None = None,
        width: float = 0,
        *,
        bg: RGB | None = None,
    ) -> None:
        """An antialiased disc: the pixels of `render.shapes.disc`."""
        spec, (x, y) = Disc.at(centre, radius, fill, outline, width)
        self.sprites(((spec, x, y),), bg=bg)

    def line_of_text(
        self, xy: Point, text: str, size: int, bold: bool, fill: RGB, anchor: str, bg: RGB | None
    ) -> None:
        """One line of text, already fitted."""
        raise NotImplementedError

    def sprites(self, group: Group, *, bg: RGB | None = None) -> None:
        """Placed sprites, in order (sprites whose ink touches must be drawn together)."""
        raise NotImplementedError

    def region(
        self, key: Hashable, box: Box, paint: Callable[[Image.Image, tuple[int, int]], object]
    ) -> None:
        """Whatever `paint(img, origin)` draws on an RGB `img` whose top-left corner is the
        picture's point `origin`, inside `box`, over the field: one opaque rectangle, so
        nothing else drawn for the state may lie in `box` before it. For much that
        changes together (a figure of tiles: pasting its pieces one by one costs more than
        drawing them); `key` names what it draws (a few are cached)."""
        raise NotImplementedError

    def stamp(self, spec: Spec, xy: tuple[int, int]) -> None:
        """An opaque sprite (RGB, or RGBA with alpha 0 or 255 only) with its top-left
        corner at `xy`: its pixels do not depend on what is under it."""
        raise NotImplementedError

    def rectangle(
        self, box: Box, *, fill: RGB | None = None, outline: RGB | None = None, width: int = 1
    ) -> None:
        """`ImageDraw.rectangle` (corners inclusive)."""
        self.draw.rectangle(box, fill=self.ink(fill), outline=self.ink(outline), width=width)

    def rounded_rectangle(
        self,
        box: Box,
        *,
        radius: int,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        """`ImageDraw.rounded_rectangle` (corners inclusive)."""
        self.draw.rounded_rectangle(
            box, radius=radius, fill=self.ink(fill), outline=self.ink(outline), width=width
        )

    def line(self, points: Sequence[Point], *, fill: RGB, width: int = 1) -> None:
        """`ImageDraw.line`."""
        self.draw.line(list(points), fill=self.ink(fill), width=width)

    def ellipse(self, box: tuple[float, float, float, float], *, fill: RGB) -> None:
        """`ImageDraw.ellipse`, filled."""
        self.draw.ellipse(box, fill=self.ink(fill))

    draw: ImageDraw.ImageDraw

    def ink(self, colour: RGB | None) -> Any:
        """What the flat shapes are drawn with for `colour` on this surface."""
        raise NotImplementedError


class RGBSurface(Surface):
    """Draws on an RGB picture: the reference."""

    def __init__(self, img: Image.Image, comp: Compositor) -> None:
        super().__init__(comp)
        self.img = img
        self.draw = ImageDraw.Draw(img)

    def ink(self, colour: RGB | None) -> Any:
        return colour

    def line_of_text(
        self, xy: Point, text: str, size: int, bold: bool, fill: RGB, anchor: str, bg: RGB | None
    ) -> None:
        stamp_text(self.img, xy, text, size=size, bold=bold, fill=fill, anchor=anchor)

    def texts(self, lines: Sequence[Line], *, bg: RGB) -> None:
        for xy, text, size, bold, fill, anchor in lines:
            stamp_text(self.img, xy, text, size=size, bold=bold, fill=fill, anchor=anchor)

    def sprites(self, group: Group, *, bg: RGB | None = None) -> None:
        for spec, x, y in group:
            sprite = self.comp.sprite(spec)
            self.img.paste(sprite, (x, y), sprite)

    def region(
        self, key: Hashable, box: Box, paint: Callable[[Image.Image, tuple[int, int]], object]
    ) -> None:
        paint(self.img, (0, 0))

    def stamp(self, spec: Spec, xy: tuple[int, int]) -> None:
        sprite = self.comp.sprite(spec)
        self.img.paste(sprite, xy, sprite if sprite.mode == "RGBA" else None)


class IndexSurface(Surface):
    """Pastes onto a "P" image of palette indices; `under` is what lies under the whole
    part (the variant of the field that shows there and the overlays): each piece is
    cached over what lies under it alone."""

    def __init__(self, img: Image.Image, comp: Compositor, scene: Scene, under: Under) -> None:
        super().__init__(comp)
        self.img = img
        self.core = img.im
        self.scene = scene
        self.part_under = under
        # Nothing to tell apart in the part: every piece has the same field under it.
        variant, lit = under
        self.plain = not lit and (variant not in comp.variants or variant == comp.variants[0])
        self.draw = ImageDraw.Draw(img)

    def ink(self, colour: RGB | None) -> Any:
        return None if colour is None else self.comp._index(colour)

    def rounded_rectangle(
        self,
        box: Box,
        *,
        radius: int,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        x0, y0, x1, y1 = box
        pix, mask = self.comp._rounded(x1 - x0, y1 - y0, radius, fill, outline, width)
        paste(self.core, pix, (x0, y0), mask)

    def under(self, box: Box) -> Under:
        return self.part_under if self.plain else self.comp.under(box, self.scene)

    def line_of_text(
        self, xy: Point, text: str, size: int, bold: bool, fill: RGB, anchor: str, bg: RGB | None
    ) -> None:
        x, y = xy
        ix, iy = math.floor(x), math.floor(y)
        fx, fy = x - ix, y - iy
        comp = self.comp
        if bg is not None:
            t = comp._text_on(text, size, bold, anchor, fx, fy, fill, bg)
            if t is not None:
                paste(self.core, t[0], (ix + t[2], iy + t[3]), t[1])
            return
        under = self.part_under
        if not self.plain:  # where the glyphs can be: what `ImageDraw.text` would draw
            mask, (ox, oy) = glyph_mask(text, size, bold, anchor, x - int(x), y - int(y))
            w, h = mask.size
            under = self.under((int(x) + ox, int(y) + oy, int(x) + ox + w, int(y) + oy + h))
        t = comp._text_at(text, size, bold, anchor, ix, iy, fx, fy, fill, *under)
        if t is not None:
            paste(self.core, t[0], (t[2], t[3]), t[1])

    def region(
        self, key: Hashable, box: Box, paint: Callable[[Image.Image, tuple[int, int]], object]
    ) -> None:
        pix = self.comp.region(key, box, *self.under(box), paint)
        paste(self.core, pix, (box[0], box[1]), None)

    def sprites(self, group: Group, *, bg: RGB | None = None) -> None:
        comp = self.comp
        if bg is None:
            pix, mask, x, y = comp.patch(group, *self.under(comp.group_box(group)))
            paste(self.core, pix, (x, y), mask)
            return
        _, x0, y0 = group[0]
        rel = tuple((spec, x - x0, y - y0) for spec, x, y in group)
        pix, mask, x, y = comp._patch_on(rel, bg)
        paste(self.core, pix, (x0 + x, y0 + y), mask)

    def stamp(self, spec: Spec, xy: tuple[int, int]) -> None:
        pix, mask = self.comp._stamp(spec)
        paste(self.core, pix, xy, mask)

    def texts(self, lines: Sequence[Line], *, bg: RGB) -> None:
        if not lines:
            return
        ox, oy = math.floor(lines[0][0][0]), math.floor(lines[0][0][1])
        rel = tuple(((x - ox, y - oy), *rest) for (x, y), *rest in lines)
        patch = self.comp._texts(rel, bg)
        if patch is not None:
            pix, mask, x, y = patch
            paste(self.core, pix, (ox + x, oy + y), mask)
