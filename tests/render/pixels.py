"""What the picture tests read pictures with."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render.colours import HIGHLIGHT, INK, SPECTRUM
from render.shapes import disc, new_image
from render.text import draw_text

MAX_BYTES = 150 * 1024  # a board picture's budget


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    return im.convert("RGB")


def px(im: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    p = im.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(p, tuple)
    return (int(p[0]), int(p[1]), int(p[2]))


def grey(im: Image.Image, xy: tuple[int, int]) -> float:
    """The value of a pixel of a one-band ("L") picture."""
    p = im.getpixel(xy)
    assert isinstance(p, int | float)
    return p


def rgb_colours(im: Image.Image) -> list[tuple[int, int, int]]:
    """The colours of an RGB picture (`getcolors`), each once; none when over 65536."""
    found: list[tuple[int, int, int]] = []
    for _, c in im.getcolors(1 << 16) or []:
        assert isinstance(c, tuple)
        found.append((int(c[0]), int(c[1]), int(c[2])))
    return found


def near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 14) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def sample_picture() -> Image.Image:
    """An RGB picture with flat areas, antialiased shapes and text."""
    img = new_image((333, 121))
    d = ImageDraw.Draw(img)
    draw_text(d, (10, 10), "Ходит: Аня", size=30, bold=True)
    disc(img, (260.5, 60.25), 40, SPECTRUM["V"], INK, 2)
    d.rounded_rectangle((5, 70, 200, 115), radius=12, fill=HIGHLIGHT)
    return img
