"""render/shapes.py: the cached shapes and the paste helpers give Pillow's own pixels."""

from __future__ import annotations

from PIL import ImageDraw

from render.colours import HIGHLIGHT, INK, SPECTRUM
from render.shapes import Canvas, blit, make_layer, new_image, paste, round_box
from tests.render.pixels import sample_picture as picture


def test_shared_paste_helpers_have_the_pixels_of_image_paste() -> None:
    sprite = Canvas((60, 40))
    sprite.rounded_rect((2, 2, 58, 38), 9, fill=(*SPECTRUM["C"], 200), outline=INK, width=2)
    rgba = sprite.image()
    expected = picture()
    expected.paste(rgba, (-7, 50), rgba)
    expected.paste(rgba, (250, 30), rgba)
    got = picture()
    paste(got, rgba, (-7, 50))
    blit(got, make_layer(rgba, 250, 30))
    assert got.tobytes() == expected.tobytes()
    boxed, drawn = new_image((120, 60)), new_image((120, 60))
    round_box(boxed, (10, 5, 110, 50), 12, HIGHLIGHT, INK, 3)
    ImageDraw.Draw(drawn).rounded_rectangle(
        (10, 5, 110, 50), radius=12, fill=HIGHLIGHT, outline=INK, width=3
    )
    assert boxed.tobytes() == drawn.tobytes()
