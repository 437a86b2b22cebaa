"""The cached-layer compositor: a game's picture assembled on its fixed palette from cached
pieces (the fast path), and the very same picture drawn whole in RGB (the reference).

One module, over 400 lines, on purpose: its caches, palette mapping and both drawing
paths (on the palette, whole in RGB) must agree pixel for pixel; the surfaces that
draw on them are apart (`render/surface.py`).

A renderer declares what its pictures are made of, once (a `Compositor`):

- the *field*: the static top of the picture (a board), drawn once per variant (say,
  lanes dimmed or not, or the language of its words); plain paper lies below it;
- *overlays*: RGBA sprites at fixed places over the field that a state may turn on, in
  drawing order (a lit lane);
- *sprites*: RGBA images named by a spec `(kind, *args)` (a tile, a die), drawn once
  (discs, `render.shapes.Disc`, need no declaring);
- its palette: a function fitting it to a few pictures of the game;
- its *scene*: a function saying what the picture of a view is made of (a `Scene`): the
  variant, the overlays on, groups of placed sprites (the sprites whose ink may touch
  are one group: each group is one cached patch), and parts: boxes with a function
  drawing text and flat shapes on a `Surface`, with nothing but the field under them
  (or a flat colour the function names as `bg`).

`draw(view)` writes palette indices straight into a "P" image from caches of index
patches, each made once by drawing in RGB over the field and mapping the result onto the
palette, so its pixels are exactly `draw_rgb(view)`'s mapped onto the palette: mapping a
whole RGB picture costs ~1.5 ms, drawing it ~3 ms, pasting the patches ~1 ms. The
`Surface` is the one drawing code of both: `IndexSurface` pastes cached patches,
`RGBSurface` draws. `render(view)` is the PNG.

Example:
    >>> from PIL import Image
    >>> from render.palette import fit_palette
    >>> from render.shapes import Canvas
    >>> def dot() -> Image.Image:
    ...     c = Canvas((20, 20))
    ...     c.circle((10, 10), 8, fill=(229, 57, 53))
    ...     return c.image()
    >>> def scene(view: int, names: object, language: str) -> Scene:
    ...     def words(s: Surface) -> None:
    ...         s.text((4, 44), str(view), size=12)
    ...     return Scene(height=60, groups=[(comp.place(("dot",), (30, 20)),)],
    ...                  parts=[((0, 40, 60, 60), words)])
    >>> comp = Compositor(width=60, field=lambda _: Image.new("RGB", (60, 40), (236, 226, 206)),
    ...                   sprites={"dot": dot}, scene=scene,
    ...                   palette=lambda: fit_palette([comp.draw_rgb(7)]))
    >>> comp.draw(7).convert("RGB").tobytes() == comp.draw_rgb(7).quantize(
    ...     palette=comp.palette(), dither=Image.Dither.NONE).convert("RGB").tobytes()
    True
    >>> comp.render(7)[:4] == b"\\x89PNG"
    True
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import _lru_cache_wrapper, lru_cache
from typing import Any, Generic, NamedTuple, TypeVar, cast

from PIL import Image, ImageChops, ImageDraw

from locales import DEFAULT_LANGUAGE
from render.colours import PAPER, RGB
from render.png import encode_indexed_png
from render.shapes import Disc, Point, new_image
from render.surface import (
    Box,
    Group,
    IndexSurface,
    Line,
    Patch,
    Placed,
    RGBSurface,
    Spec,
    Surface,
    Under,
    paste,
)
from render.text import text_mask

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

# zlib level of a board's PNG: a few tenths of a ms less than render/png.py's 3, for 2-4 %
# more bytes (a renderer may ask for another)
BOARD_PNG_LEVEL = 2


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


ANY = [0] + [255] * 255  # a `point` table: on wherever there is anything


def ink_mask(sprite: Image.Image) -> Image.Image:
    """A mask, on wherever an RGBA `sprite` has any ink (alpha > 0)."""
    return sprite.getchannel("A").point(ANY).convert("1", dither=Image.Dither.NONE)


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int


class LRU(Generic[K, T]):
    """A least-recently-used cache whose value for a key is made by a function handed to
    `get` (what makes it need not be part of the key)."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.data: OrderedDict[K, T] = OrderedDict()
        self.hits = self.misses = 0

    def get(self, key: K, make: Callable[[], T]) -> T:
        try:
            value = self.data[key]
        except KeyError:
            self.misses += 1
            value = self.data[key] = make()
            if len(self.data) > self.maxsize:
                self.data.popitem(last=False)
            return value
        self.hits += 1
        self.data.move_to_end(key)
        return value

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, self.maxsize, len(self.data))

    def cache_clear(self) -> None:
        self.data.clear()
        self.hits = self.misses = 0


def _cache(maxsize: int, fn: Callable[..., T]) -> _lru_cache_wrapper[T]:
    """`fn` behind an LRU cache of `maxsize` (a cache of its own per compositor)."""
    return lru_cache(maxsize=maxsize)(fn)


@dataclass(frozen=True)
class Scene:
    """What one state's picture is made of (see the module's docstring): `parts` are
    (box, paint) with everything `paint` draws on its `Surface` inside `box`."""

    height: int
    variant: Hashable = None
    lit: tuple[Hashable, ...] = ()
    groups: Sequence[Group] = ()
    parts: Sequence[tuple[Box, Callable[[Surface], object]]] = ()


class Compositor:
    """One game's pictures: its field, overlays, sprites and palette, the caches of their
    pieces, and the two ways of drawing a `Scene`.

    `field(variant)` draws the field of a variant (an RGB image `width` wide);
    `variants` lists those that differ only in places, the usual one first (a piece that
    looks the same over another as over it is made once, over it). A sprite's spec and
    an overlay's item are tuples `(kind, *args)`: `sprites[kind](*args)` draws the RGBA
    sprite, `overlays[kind](*args)` the overlay and where it goes ((sprite, (x, y))).
    `palette()` fits the palette. Each is called once (and may read what it draws from a
    `render.filecache.FileCache`): the cached pieces are `field(variant)`,
    `overlay(item)`, `sprite(spec)` and `palette()`. `scene(view, names, language)`
    says what a view's picture is made of: `draw`, `draw_rgb` and `render` take views.
    """

    def __init__(
        self,
        *,
        width: int,
        field: Callable[[Hashable], Image.Image],
        sprites: Mapping[str, Callable[..., Image.Image]],
        palette: Callable[[], Image.Image],
        scene: Callable[[Any, Mapping[int, str] | None, str], Scene],
        variants: Sequence[Hashable] = (),
        overlays: Mapping[str, Callable[..., tuple[Image.Image, tuple[int, int]]]] = {},
        png_level: int = BOARD_PNG_LEVEL,
        paper: RGB = PAPER,
        sprite_cache: int = 128,
    ) -> None:
        self.width = width
        self.variants = tuple(variants)
        self.png_level = png_level
        self.paper = paper
        self._overlays = dict(overlays)
        self._sprites = dict(sprites)
        self._fit_palette = palette
        self.scene = scene
        # The pieces, drawn (supersampled) once each.
        self.field = _cache(max(2, len(self.variants)), field)
        self.overlay = _cache(256, self._overlay)
        self.sprite = _cache(sprite_cache, self._make_sprite)
        self.palette = _cache(1, self._fit_palette)
        # What the fast path pastes, each mapped onto the palette once.
        self._palette_bytes = _cache(1, lambda: bytes(self.palette().getpalette() or []))
        self._index = _cache(64, self._make_index)
        self._coverage_lut = _cache(64, self._make_coverage_lut)
        self._text_on = _cache(2048, self._make_text_on)
        self._text_at = _cache(1024, self._make_text_at)
        self._background = _cache(8, self._make_background)
        self._ground = _cache(4096, self._make_ground)
        self._placed = _cache(4096, self._make_placed)
        self.group_box = _cache(4096, self._make_group_box)
        self._regions: LRU[tuple[Hashable, Box, Hashable, tuple[Hashable, ...]], Image.Image] = LRU(
            8
        )
        self._patches: LRU[tuple[Group, bytes], tuple[Image.Image, Image.Image]] = LRU(4096)
        self._group_mask = _cache(2048, self._make_group_mask)
        self._patch_on = _cache(1024, self._make_patch_on)
        self._stamp = _cache(512, self._make_stamp)
        self._rounded = _cache(256, self._make_rounded)
        self._texts = _cache(256, self._make_texts)
        self._lit_patch = _cache(512, self._make_lit_patch)
        self._lit_mask = _cache(256, lambda item: ink_mask(self.overlay(item)[0]))
        self._lit_box = _cache(256, self._make_lit_box)
        self._ink_box = _cache(sprite_cache, self._make_ink_box)
        self._ink_mask = _cache(sprite_cache, lambda spec: ink_mask(self.sprite(spec)))
        self._canonical = _cache(1024, self._make_canonical)

    # ---------------------------------------------------------------- the pieces

    def _overlay(self, item: Hashable) -> tuple[Image.Image, tuple[int, int]]:
        kind, *args = cast(tuple[Any, ...], item)
        return self._overlays[kind](*args)

    def _make_sprite(self, spec: Spec) -> Image.Image:
        if isinstance(spec, Disc):
            return spec.image()
        kind, *args = cast(tuple[Any, ...], spec)
        return self._sprites[kind](*args)

    def place(self, spec: Spec, centre: Point) -> Placed:
        """`spec`'s sprite centred on `centre` (rounded as `paste_centred` does)."""
        w, h = self.sprite(spec).size
        return spec, round(centre[0] - w / 2), round(centre[1] - h / 2)

    def at(self, spec: Spec, origin: tuple[int, int]) -> Placed:
        """`spec`'s sprite placed by its own offset from `origin` (`info["origin"]` of the
        sprite: a layer cut to its ink keeps where it was; none: its top-left corner)."""
        ox, oy = self.sprite(spec).info.get("origin", (0, 0))
        return spec, origin[0] + ox, origin[1] + oy

    def _make_group_box(self, group: Group) -> Box:
        """Where a group's sprites are, in the picture."""
        boxes = [(x, y, *self.sprite(spec).size) for spec, x, y in group]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[0] + b[2] for b in boxes),
            max(b[1] + b[3] for b in boxes),
        )

    def _make_ink_box(self, spec: Spec) -> Box:
        """Where a sprite has any ink, in the sprite."""
        return self.sprite(spec).getchannel("A").getbbox() or (0, 0, 0, 0)

    def touching(self, groups: Sequence[Group]) -> list[Group]:
        """`groups` of sprites (each drawn together) merged where their ink meets, at one
        remove or more: each merged group keeps the drawing order, the groups come in the
        order of their first member. Sprites whose ink never shares a pixel may be pasted
        in any order, each over the field."""
        n = len(groups)
        boxes = []
        for group in groups:
            inks = [self._ink_box(spec) for spec, _, _ in group]
            boxes.append(
                (
                    min(x + b[0] for (_, x, _), b in zip(group, inks, strict=True)),
                    min(y + b[1] for (_, _, y), b in zip(group, inks, strict=True)),
                    max(x + b[2] for (_, x, _), b in zip(group, inks, strict=True)),
                    max(y + b[3] for (_, _, y), b in zip(group, inks, strict=True)),
                )
            )
        parent = list(range(n))  # union-find: the first member of each one's group

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        active: list[int] = []  # a sweep from left to right
        for i in sorted(range(n), key=lambda k: boxes[k][0]):
            active = [j for j in active if boxes[j][2] > boxes[i][0]]
            for j in active:
                ri, rj = root(i), root(j)
                if ri != rj and meets(boxes[i], boxes[j]) and self._inks_meet(groups[i], groups[j]):
                    parent[max(ri, rj)] = min(ri, rj)
            active.append(i)
        out: dict[int, list[Placed]] = {}
        for i, group in enumerate(groups):
            out.setdefault(root(i), []).extend(group)
        return [tuple(g) for g in out.values()]

    def _inks_meet(self, a: Group, b: Group) -> bool:
        """Whether two groups of sprites have ink on a common pixel."""
        box_a, box_b = self.group_box(a), self.group_box(b)
        x0, y0 = max(box_a[0], box_b[0]), max(box_a[1], box_b[1])
        x1, y1 = min(box_a[2], box_b[2]), min(box_a[3], box_b[3])
        if x0 >= x1 or y0 >= y1:
            return False
        masks = []
        for group, box in ((a, box_a), (b, box_b)):
            rel = tuple((spec, x - box[0], y - box[1]) for spec, x, y in group)
            masks.append(
                self._group_mask(rel).crop((x0 - box[0], y0 - box[1], x1 - box[0], y1 - box[1]))
            )
        return ImageChops.logical_and(masks[0], masks[1]).getbbox() is not None

    def _make_lit_box(self, item: Hashable) -> Box:
        """Where an overlay's sprite has any ink, in the picture."""
        sprite, (x, y) = self.overlay(item)
        b = sprite.getchannel("A").getbbox() or (0, 0, 0, 0)
        return x + b[0], y + b[1], x + b[2], y + b[3]

    def lit_under(self, box: Box, lit: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
        """The overlays of `lit` that reach into `box`."""
        if not lit:
            return ()
        return tuple(item for item in lit if meets(box, self._lit_box(item)))

    def _make_canonical(self, box: Box, variant: Hashable) -> Hashable:
        """The usual variant (the first) where its field looks in `box` as `variant`'s
        does (a piece there is cached once for both), else `variant`."""
        if variant not in self.variants or variant == self.variants[0]:
            return variant
        usual, field = self.field(self.variants[0]), self.field(variant)
        if box[1] >= field.height:
            return self.variants[0]
        box = (box[0], box[1], box[2], min(box[3], field.height))
        same = usual.crop(box).tobytes() == field.crop(box).tobytes()
        return self.variants[0] if same else variant

    def under(self, box: Box, scene: Scene) -> Under:
        """What lies under `box` in `scene`: the variant that shows there and the overlays."""
        return self._canonical(box, scene.variant), self.lit_under(box, scene.lit)

    # ---------------------------------------------------------------- RGB

    def rgb_base(self, box: Box, variant: Hashable, lit: tuple[Hashable, ...]) -> Image.Image:
        """The RGB picture under `box` before anything of a state but overlays is drawn."""
        x0, y0, x1, y1 = box
        img = new_image((x1 - x0, y1 - y0), self.paper)
        field = self.field(variant)
        if y0 < field.height:
            img.paste(field.crop((x0, y0, x1, min(y1, field.height))), (0, 0))
        for item in lit:
            sprite, (x, y) = self.overlay(item)
            img.paste(sprite, (x - x0, y - y0), sprite)
        return img

    def draw_whole(self, scene: Scene) -> Image.Image:
        """The picture of `scene` drawn whole as an RGB image: what `assemble` puts
        together on the palette from cached pieces, and what the palette is fitted to."""
        img = self.rgb_base((0, 0, self.width, scene.height), scene.variant, scene.lit)
        for group in scene.groups:
            for spec, x, y in group:
                sprite = self.sprite(spec)
                img.paste(sprite, (x, y), sprite)
        surface = RGBSurface(img, self)
        for _, paint in scene.parts:
            paint(surface)
        return img

    # ---------------------------------------------------------------- on the palette

    def indices(self, img: Image.Image) -> Image.Image:
        """An RGB image mapped onto the palette: a "P" image of palette indices."""
        return img.quantize(palette=self.palette(), dither=Image.Dither.NONE)

    def _make_index(self, colour: RGB) -> int:
        return self.indices(new_image((1, 1), colour)).tobytes()[0]

    def _make_coverage_lut(self, fill: RGB, bg: RGB) -> list[int]:
        """The palette index of `fill` over `bg` at each text coverage 0..255, blended the
        way Pillow blends text."""
        img = new_image((256, 1), bg)
        img.paste(fill, (0, 0, 256, 1), Image.frombytes("L", (256, 1), bytes(range(256))))
        return list(self.indices(img).tobytes())

    def _make_text_on(
        self,
        text: str,
        size: int,
        bold: bool,
        anchor: str,
        fx: float,
        fy: float,
        fill: RGB,
        bg: RGB,
    ) -> Patch | None:
        """A line of text on a flat `bg` as indices, the mask of its ink and its offset from
        the anchor's whole pixel (see `text_mask`)."""
        m = text_mask(text, size, bold, anchor, fx, fy)
        if m is None:
            return None
        mask, dx, dy = m
        pix = Image.frombytes("P", mask.size, mask.point(self._coverage_lut(fill, bg)).tobytes())
        return pix.im, mask.point(ANY).im, dx, dy

    def _make_text_at(
        self,
        text: str,
        size: int,
        bold: bool,
        anchor: str,
        ix: int,
        iy: int,
        fx: float,
        fy: float,
        fill: RGB,
        variant: Hashable,
        lit: tuple[Hashable, ...],
    ) -> Patch | None:
        """A line of text over the field at (ix + fx, iy + fy) as indices, the mask of its
        ink and its top-left corner in the picture."""
        m = text_mask(text, size, bold, anchor, fx, fy)
        if m is None:
            return None
        mask, dx, dy = m
        x0, y0 = ix + dx, iy + dy
        rgb = self.rgb_base((x0, y0, x0 + mask.width, y0 + mask.height), variant, lit)
        rgb.paste(fill, (0, 0, *mask.size), mask)
        return self.indices(rgb).im, mask.point(ANY).im, x0, y0

    def _make_background(self, height: int, variant: Hashable) -> Image.Image:
        """The empty picture of a height, as palette indices."""
        return self.indices(self.rgb_base((0, 0, self.width, height), variant, ()))

    def _make_ground(self, box: Box, variant: Hashable, lit: tuple[Hashable, ...]) -> bytes:
        """A digest of the pixels under `box` (patches over equal grounds are shared)."""
        return hashlib.blake2b(self.rgb_base(box, variant, lit).tobytes(), digest_size=16).digest()

    def patch(self, group: Group, variant: Hashable, lit: tuple[Hashable, ...]) -> Patch:
        """Sprites over the field (with the overlays `lit`) as palette indices, the mask of
        their ink and the top-left corner: pasting one is a few microseconds, compositing
        and mapping the sprites a hundred. Cached where they are, and made once for all
        places by the sprites' places relative to each other and the pixels under them (a
        token on any white cell is one patch)."""
        return self._placed(group, variant, lit)

    def _make_placed(self, group: Group, variant: Hashable, lit: tuple[Hashable, ...]) -> Patch:
        box = self.group_box(group)
        x0, y0 = box[0], box[1]
        rel = tuple((spec, x - x0, y - y0) for spec, x, y in group)

        def make() -> tuple[Any, Any]:
            rgb = self.rgb_base(box, variant, lit)
            for spec, x, y in rel:
                sprite = self.sprite(spec)
                rgb.paste(sprite, (x, y), sprite)
            return self.indices(rgb).im, self._group_mask(rel).im

        pix, mask = self._patches.get((rel, self._ground(box, variant, lit)), make)
        return pix, mask, x0, y0

    def region(
        self,
        key: Hashable,
        box: Box,
        variant: Hashable,
        lit: tuple[Hashable, ...],
        paint: Callable[[Image.Image, tuple[int, int]], object],
    ) -> Image.Image:
        """What `paint` draws in `box` over the field (with the overlays `lit`), as the
        palette indices of the whole box; `key` names what it draws."""

        def make() -> Any:
            rgb = self.rgb_base(box, variant, lit)
            paint(rgb, (box[0], box[1]))
            return self.indices(rgb).im

        return self._regions.get((key, box, variant, lit), make)

    def _make_group_mask(self, group: Group) -> Image.Image:
        """Where a group of sprites has ink (shared by its patches over different fields)."""
        box = self.group_box(group)
        mask = Image.new("1", (box[2] - box[0], box[3] - box[1]), 0)
        for spec, x, y in group:
            mask.paste(255, (x - box[0], y - box[1]), self._ink_mask(spec))
        return mask

    def _make_patch_on(self, group: Group, bg: RGB) -> Patch:
        """Sprites on a flat `bg` as palette indices, the mask of their ink and the
        top-left corner (placed relative to the first sprite: cached wherever it is)."""
        box = self.group_box(group)
        rgb = new_image((box[2] - box[0], box[3] - box[1]), bg)
        for spec, x, y in group:
            sprite = self.sprite(spec)
            rgb.paste(sprite, (x - box[0], y - box[1]), sprite)
        return self.indices(rgb).im, self._group_mask(group).im, box[0], box[1]

    def _make_texts(self, lines: tuple[Line, ...], bg: RGB) -> Patch | None:
        """Lines of text on a flat `bg`, in order, as palette indices, the mask of their ink
        and its top-left corner (relative to the lines' places)."""
        masks = []
        for (x, y), text, size, bold, fill, anchor in lines:
            ix, iy = math.floor(x), math.floor(y)
            found = text_mask(text, size, bold, anchor, x - ix, y - iy)
            if found is not None:
                masks.append((found[0], ix + found[1], iy + found[2], fill))
        if not masks:
            return None
        x0 = min(x for _, x, _, _ in masks)
        y0 = min(y for _, _, y, _ in masks)
        x1 = max(x + m.width for m, x, _, _ in masks)
        y1 = max(y + m.height for m, _, y, _ in masks)
        rgb = new_image((x1 - x0, y1 - y0), bg)
        ink = Image.new("L", rgb.size, 0)
        for mask, x, y, fill in masks:
            box = (x - x0, y - y0, x - x0 + mask.width, y - y0 + mask.height)
            rgb.paste(fill, box, mask)
            ink.paste(255, box, mask.point(ANY))
        return self.indices(rgb).im, ink.im, x0, y0

    def _make_rounded(
        self, w: int, h: int, radius: int, fill: RGB | None, outline: RGB | None, width: int
    ) -> tuple[Any, Any]:
        """A rounded rectangle (0, 0, w, h) in palette indices and the mask of its pixels:
        Pillow draws it the same wherever it is (it costs ~20 µs to draw, 2 to paste)."""
        pix, mask = Image.new("P", (w + 1, h + 1)), Image.new("L", (w + 1, h + 1))
        index = self._index
        ImageDraw.Draw(pix).rounded_rectangle(
            (0, 0, w, h),
            radius=radius,
            fill=None if fill is None else index(fill),
            outline=None if outline is None else index(outline),
            width=width,
        )
        ImageDraw.Draw(mask).rounded_rectangle(
            (0, 0, w, h),
            radius=radius,
            fill=None if fill is None else 255,
            outline=None if outline is None else 255,
            width=width,
        )
        return pix.im, mask.convert("1", dither=Image.Dither.NONE).im

    def _make_stamp(self, spec: Spec) -> tuple[Any, Any]:
        """An opaque sprite as palette indices and the mask of where it is drawn (None:
        everywhere)."""
        sprite = self.sprite(spec)
        if sprite.mode != "RGBA":
            return self.indices(sprite.convert("RGB")).im, None
        alpha = sprite.getchannel("A")
        assert not any(alpha.histogram()[1:255]), f"{spec!r} is not opaque"
        return self.indices(sprite.convert("RGB")).im, alpha.convert(
            "1", dither=Image.Dither.NONE
        ).im

    def _make_lit_patch(
        self, item: Hashable, variant: Hashable, under: tuple[Hashable, ...]
    ) -> tuple[Any, Any]:
        """An overlay over the field and the overlays `under` it."""
        sprite, (x, y) = self.overlay(item)
        rgb = self.rgb_base((x, y, x + sprite.width, y + sprite.height), variant, (*under, item))
        return self.indices(rgb).im, self._lit_mask(item).im

    def group_patch(self, group: Group, scene: Scene) -> Patch:
        """The cached patch of a group of sprites as `scene` shows it."""
        return self.patch(group, *self.under(self.group_box(group), scene))

    def lit_patch(self, i: int, scene: Scene) -> tuple[Any, Any]:
        """The cached patch of the `i`-th overlay of `scene` over what is under it."""
        item = scene.lit[i]
        box = self._lit_box(item)
        variant = self._canonical(box, scene.variant)
        return self._lit_patch(item, variant, self.lit_under(box, scene.lit[:i]))

    def assemble(self, scene: Scene) -> Image.Image:
        """The picture of `scene` as a "P" image on the palette: exactly
        `draw_whole(scene)` mapped onto `palette()`, assembled from cached pieces (text
        patches are cached by their text, so by language too)."""
        img = self._background(scene.height, scene.variant).copy()
        for i, item in enumerate(scene.lit):
            pix, mask = self.lit_patch(i, scene)
            paste(img.im, pix, self.overlay(item)[1], mask)
        for group in scene.groups:
            pix, mask, x, y = self.group_patch(group, scene)
            paste(img.im, pix, (x, y), mask)
        for box, paint in scene.parts:
            paint(IndexSurface(img, self, scene, self.under(box, scene)))
        img.putpalette(self._palette_bytes())
        return img

    def encode(self, img: Image.Image) -> bytes:
        """PNG bytes of a picture made by `draw` (or of any RGB picture, mapped onto the
        palette)."""
        if img.mode != "P":
            img = img.convert("RGB").quantize(palette=self.palette(), dither=Image.Dither.NONE)
        return encode_indexed_png(img, self.png_level)

    # ---------------------------------------------------------------- a game's entry points

    def draw(
        self, view: Any, names: Mapping[int, str] | None = None, *, language: str = DEFAULT_LANGUAGE
    ) -> Image.Image:
        """The picture of the public `view` as a "P" image on the game's palette (see
        `render` for the bytes): exactly `draw_rgb` mapped onto `palette()`, assembled from
        cached pieces. `names` maps player ids to display names (a missing one is shown as
        "Игрок N", N = seat + 1); its words are in `language` (locales/: `render.*`)."""
        return self.assemble(self.scene(view, names, language))

    def draw_rgb(
        self, view: Any, names: Mapping[int, str] | None = None, *, language: str = DEFAULT_LANGUAGE
    ) -> Image.Image:
        """The picture of `view` drawn whole as an RGB image (see `draw`)."""
        return self.draw_whole(self.scene(view, names, language))

    def render(
        self, view: Any, names: Mapping[int, str] | None = None, *, language: str = DEFAULT_LANGUAGE
    ) -> bytes:
        """PNG bytes of the table picture of `view` (see `draw`): the same view, names and
        language give the same bytes."""
        return self.encode(self.draw(view, names, language=language))

    # ---------------------------------------------------------------- warming up

    def warm(
        self,
        backgrounds: Iterable[tuple[int, Hashable]] = (),
        lit: Iterable[tuple[Hashable, tuple[Hashable, ...]]] = (),
        groups: Iterable[tuple[Group, Hashable, tuple[Hashable, ...]]] = (),
    ) -> None:
        """Build the palette, the empty pictures `backgrounds` ((height, variant)), the
        patches of the overlays `lit` ((variant, overlays on)) and of the sprite `groups`
        ((group, variant, overlays on)), so that the pictures a game usually shows cost
        milliseconds."""
        self.palette()
        for height, variant in backgrounds:
            self._background(height, variant)
        for variant, on in lit:
            scene = Scene(height=0, variant=variant, lit=on)
            for i in range(len(on)):
                self.lit_patch(i, scene)
        for group, variant, on in groups:
            self.group_patch(group, Scene(height=0, variant=variant, lit=on))

    def scratch(self, size: tuple[int, int], variant: Hashable = None) -> IndexSurface:
        """A surface on an empty picture of `size` over the field of `variant` and no
        overlay: what parts draw there fills the caches of their pieces (a warm-up)."""
        scene = Scene(height=size[1], variant=variant)
        return IndexSurface(Image.new("P", size), self, scene, (variant, ()))

    def drawn(self) -> int:
        """How many pieces were drawn from scratch (supersampled): the field, overlays and
        sprites (a test checks that a warm renderer draws none for a new state)."""
        return sum(c.cache_info().misses for c in (self.field, self.overlay, self.sprite))

    def caches(self) -> list[_lru_cache_wrapper[Any] | LRU[Any, Any]]:
        """Every cache of this compositor."""
        return [v for v in vars(self).values() if isinstance(v, _lru_cache_wrapper | LRU)]

    def clear(self) -> None:
        """Forget every cached piece (tests: the bytes do not depend on the caches)."""
        for cache in self.caches():
            cache.cache_clear()
