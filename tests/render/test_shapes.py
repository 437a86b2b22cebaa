"""render/shapes.py: the cached discs and the paste helper give Pillow's own pixels."""

from __future__ import annotations

from render.colours import INK, SPECTRUM
from render.shapes import Canvas, Disc, disc, new_image, paste
from tests.render.pixels import sample_picture as picture


def test_paste_has_the_pixels_of_image_paste() -> None:
    sprite = Canvas((60, 40))
    sprite.rounded_rect((2, 2, 58, 38), 9, fill=(*SPECTRUM["C"], 200), outline=INK, width=2)
    rgba = sprite.image()
    expected = picture()
    expected.paste(rgba, (-7, 50), rgba)
    expected.paste(rgba, (250, 30), rgba)
    got = picture()
    paste(got, rgba, (-7, 50))
    paste(got, rgba, (250, 30))
    assert got.tobytes() == expected.tobytes()


def test_a_disc_is_its_sprite_pasted_where_disc_at_says() -> None:
    for centre in ((30, 30), (30.5, 29.25), (31.75, 30.5)):
        drawn = new_image((60, 60))
        disc(drawn, centre, 12.5, SPECTRUM["V"], INK, 2)
        spec, xy = Disc.at(centre, 12.5, SPECTRUM["V"], INK, 2)
        pasted = new_image((60, 60))
        sprite = spec.image()
        pasted.paste(sprite, xy, sprite)
        assert drawn.tobytes() == pasted.tobytes()
        direct = Canvas((60, 60))
        direct.circle(centre, 12.5, fill=SPECTRUM["V"], outline=INK, width=2)
        alone = new_image((60, 60))
        image = direct.image()
        alone.paste(image, (0, 0), image)
        assert drawn.tobytes() == alone.tobytes()  # the sprite is the disc drawn in place
