"""render/palette.py: a game's fixed palette keeps the colours of flat areas exact."""

from __future__ import annotations

import io

from PIL import Image

from render.colours import HIGHLIGHT, PAPER, SPECTRUM, mix
from render.palette import fit_flat_palette
from render.png import encode_on_palette
from tests.render.pixels import sample_picture as picture


def test_flat_palette_keeps_flat_colours_exact() -> None:
    img = picture()
    pale = mix(SPECTRUM["Y"], PAPER, 0.8)  # a fill close to the paper
    img.paste(pale, (220, 100, 330, 120))
    palette = fit_flat_palette([img])
    mapped = img.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    for colour in (pale, PAPER, HIGHLIGHT):
        assert colour in {c for _, c in mapped.getcolors(256) or []}
    png = encode_on_palette(img, palette, 2)
    assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == mapped.tobytes()
