"""render/common.py: the hand-written palette PNG and the cached text."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from render import common


def picture() -> Image.Image:
    """An RGB picture with flat areas, antialiased shapes and text."""
    img = common.new_image((333, 121))
    d = ImageDraw.Draw(img)
    common.draw_text(d, (10, 10), "Ходит: Аня", size=30, bold=True)
    common.disc(img, (260.5, 60.25), 40, common.SPECTRUM["V"], common.INK, 2)
    d.rounded_rectangle((5, 70, 200, 115), radius=12, fill=common.HIGHLIGHT)
    return img


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out = []
    i = 8
    while i < len(png):
        (n,) = struct.unpack(">I", png[i : i + 4])
        kind, data = png[i + 4 : i + 8], png[i + 8 : i + 8 + n]
        (crc,) = struct.unpack(">I", png[i + 8 + n : i + 12 + n])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        i += 12 + n
    return out


@pytest.mark.parametrize("level", [1, 2, 3, 6])
def test_indexed_png_decodes_to_the_pixels_pillow_writes(level: int) -> None:
    pal = picture().quantize(colors=200, dither=Image.Dither.NONE)
    ours = common.encode_indexed_png(pal, level)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=level)
    a, b = Image.open(io.BytesIO(ours)), Image.open(buf)
    assert a.format == "PNG" and a.mode == b.mode == "P" and a.size == b.size
    assert a.tobytes() == b.tobytes()
    assert a.getpalette() == b.getpalette()
    assert a.convert("RGB").tobytes() == pal.convert("RGB").tobytes()
    Image.open(io.BytesIO(ours)).verify()  # CRCs and structure, by Pillow


def test_indexed_png_is_a_plain_deterministic_png() -> None:
    pal = picture().quantize(colors=64, dither=Image.Dither.NONE)
    png = common.encode_indexed_png(pal)
    assert png == common.encode_indexed_png(pal.copy())
    kinds = [k for k, _ in chunks(png)]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    ihdr = dict(chunks(png))[b"IHDR"]
    assert struct.unpack(">IIBBBBB", ihdr) == (333, 121, 8, 3, 0, 0, 0)
    raw = zlib.decompress(dict(chunks(png))[b"IDAT"])
    assert raw == common.png_scanlines(pal)
    assert all(raw[y * 334] == 0 for y in range(121))  # filter "none" on every row


def test_indexed_png_wants_a_palette_image() -> None:
    with pytest.raises(ValueError):
        common.encode_indexed_png(picture())


@pytest.mark.parametrize("anchor", ["la", "ls", "lm", "mm", "ra", "rs"])
@pytest.mark.parametrize("xy", [(150, 60), (150.5, 60.25), (149.3, 61.75), (-3.5, 60.25)])
def test_stamped_text_has_the_pixels_of_drawn_text(anchor: str, xy: tuple[float, float]) -> None:
    drawn = common.new_image((300, 120))
    common.draw_text(ImageDraw.Draw(drawn), xy, "Гоша · 17 очков", size=29, anchor=anchor)
    stamped = common.new_image((300, 120))
    w = common.stamp_text(stamped, xy, "Гоша · 17 очков", size=29, anchor=anchor)
    assert stamped.tobytes() == drawn.tobytes()
    assert w == common.text_width("Гоша · 17 очков", 29)
    # a part of the picture drawn alone, placed by `origin`, gets the same pixels
    part = drawn.crop((40, 10, 300, 120))
    alone = common.new_image(part.size)
    common.stamp_text(alone, xy, "Гоша · 17 очков", size=29, anchor=anchor, origin=(40, 10))
    assert alone.tobytes() == part.tobytes()


def test_stamped_text_fits_like_drawn_text() -> None:
    long = "Очень длинное имя игрока " * 3
    drawn = common.new_image((300, 60))
    a = common.draw_text(ImageDraw.Draw(drawn), (5, 30), long, size=30, max_width=280, anchor="lm")
    stamped = common.new_image((300, 60))
    b = common.stamp_text(stamped, (5, 30), long, size=30, max_width=280, anchor="lm")
    assert a == b <= 280
    assert stamped.tobytes() == drawn.tobytes()


def test_shared_paste_helpers_have_the_pixels_of_image_paste() -> None:
    sprite = common.Canvas((60, 40))
    sprite.rounded_rect(
        (2, 2, 58, 38), 9, fill=(*common.SPECTRUM["C"], 200), outline=common.INK, width=2
    )
    rgba = sprite.image()
    expected = picture()
    expected.paste(rgba, (-7, 50), rgba)
    expected.paste(rgba, (250, 30), rgba)
    got = picture()
    common.paste(got, rgba, (-7, 50))
    common.blit(got, common.make_layer(rgba, 250, 30))
    assert got.tobytes() == expected.tobytes()
    boxed, drawn = common.new_image((120, 60)), common.new_image((120, 60))
    common.round_box(boxed, (10, 5, 110, 50), 12, common.HIGHLIGHT, common.INK, 3)
    ImageDraw.Draw(drawn).rounded_rectangle(
        (10, 5, 110, 50), radius=12, fill=common.HIGHLIGHT, outline=common.INK, width=3
    )
    assert boxed.tobytes() == drawn.tobytes()


def test_flat_palette_keeps_flat_colours_exact() -> None:
    img = picture()
    pale = common.mix(common.SPECTRUM["Y"], common.PAPER, 0.8)  # a fill close to the paper
    img.paste(pale, (220, 100, 330, 120))
    palette = common.fit_flat_palette([img])
    mapped = img.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    for colour in (pale, common.PAPER, common.HIGHLIGHT):
        assert colour in {c for _, c in mapped.getcolors(256) or []}
    png = common.encode_on_palette(img, palette, 2)
    assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == mapped.tobytes()


def test_text_mask_of_blank_text_is_none() -> None:
    assert common.text_mask("  ", 30, False, "la", 0.0, 0.0) is None
    mask = common.text_mask("Аня", 30, True, "la", 0.5, 0.0)
    assert mask is not None and mask[0].mode == "L" and mask[0].getbbox() is not None


def test_text_length_is_the_font_advance() -> None:
    assert common.text_length("Кон 5", 32, True) == common.font(32, True).getlength("Кон 5")
    assert common.text_width("Кон 5", 32, True) == round(common.text_length("Кон 5", 32, True))
