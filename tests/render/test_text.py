"""render/text.py: fonts, fitting, and text stamped from cached glyph masks."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from render.shapes import new_image
from render.text import (
    FONT_DIR,
    clean_text,
    draw_text,
    fit_text,
    font,
    stamp_text,
    text_length,
    text_mask,
    text_width,
)


@pytest.mark.parametrize("anchor", ["la", "ls", "lm", "mm", "ra", "rs"])
@pytest.mark.parametrize("xy", [(150, 60), (150.5, 60.25), (149.3, 61.75), (-3.5, 60.25)])
def test_stamped_text_has_the_pixels_of_drawn_text(anchor: str, xy: tuple[float, float]) -> None:
    drawn = new_image((300, 120))
    draw_text(ImageDraw.Draw(drawn), xy, "Гоша · 17 очков", size=29, anchor=anchor)
    stamped = new_image((300, 120))
    w = stamp_text(stamped, xy, "Гоша · 17 очков", size=29, anchor=anchor)
    assert stamped.tobytes() == drawn.tobytes()
    assert w == text_width("Гоша · 17 очков", 29)
    # a part of the picture drawn alone, placed by `origin`, gets the same pixels
    part = drawn.crop((40, 10, 300, 120))
    alone = new_image(part.size)
    stamp_text(alone, xy, "Гоша · 17 очков", size=29, anchor=anchor, origin=(40, 10))
    assert alone.tobytes() == part.tobytes()


def test_stamped_text_fits_like_drawn_text() -> None:
    long = "Очень длинное имя игрока " * 3
    drawn = new_image((300, 60))
    a = draw_text(ImageDraw.Draw(drawn), (5, 30), long, size=30, max_width=280, anchor="lm")
    stamped = new_image((300, 60))
    b = stamp_text(stamped, (5, 30), long, size=30, max_width=280, anchor="lm")
    assert a == b <= 280
    assert stamped.tobytes() == drawn.tobytes()


def test_text_mask_of_blank_text_is_none() -> None:
    assert text_mask("  ", 30, False, "la", 0.0, 0.0) is None
    mask = text_mask("Аня", 30, True, "la", 0.5, 0.0)
    assert mask is not None and mask[0].mode == "L" and mask[0].getbbox() is not None


def test_text_length_is_the_font_advance() -> None:
    assert text_length("Кон 5", 32, True) == font(32, True).getlength("Кон 5")
    assert text_width("Кон 5", 32, True) == round(text_length("Кон 5", 32, True))


def test_fit_text_shrinks_then_ellipsizes() -> None:
    text, size = fit_text("Коротко", 30, 500)
    assert (text, size) == ("Коротко", 30)
    text, size = fit_text("Очень " * 20, 30, 300, min_size=20)
    assert size == 20 and text.endswith("…")
    assert text_width(text, size) <= 300


def test_fonts_come_from_the_package_and_are_cached() -> None:
    f = font(30, bold=True)
    assert f is font(30, bold=True)
    assert str(FONT_DIR) in str(f.path)


def test_clean_text_drops_what_the_font_cannot_draw() -> None:
    assert clean_text("Аня 🎲") == "Аня"
    assert clean_text("  Ёжик\u200d  Й ") == "Ёжик Й"
    assert clean_text("и\u0306") == "й"
