"""render/compositor.py: a picture assembled on the palette from cached pieces is the
picture drawn whole in RGB mapped onto the palette, for every game on the compositor,
whatever the state and the language; a warm renderer draws nothing supersampled for a
new state; the pieces it caches are what they claim to be."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import games
from render import shapes
from render.colours import INK, PAPER, SPECTRUM
from render.compositor import Compositor, Scene
from render.palette import fit_palette
from render.surface import Surface
from tests.render.language_samples import NAMES_EN, NAMES_RU

ON_THE_COMPOSITOR = ["seven_tracks", "cell_capture", "dominas", "hypnosia", "sea_cross"]
TWO = {"cell_capture": {"allow_two_players": True}}  # R1: two players only as a house rule


def random_views(game_id: str, n: int, seed: int = 0) -> Iterator[Any]:
    """Public views of `n` random games of 2 to 6 players (fewer where the game has
    fewer), stopped at random points, some with a player gone."""
    game = games.get(game_id)
    for k in range(seed, seed + n):
        rng = random.Random(k)
        players = 2 + k % (min(6, game.max_players) - 1)
        options = TWO.get(game_id) if players < game.min_players else None
        s = game.new(list(range(1, players + 1)), seed=k, options=options)
        for step in range(rng.randrange(600)):
            if game.is_over(s):
                break
            if step == 40 and players > 2 and k % 3 == 0:
                s, _ = game.remove(s, 2)
            else:
                s, _ = game.apply(s, rng.choice(game.legal_actions(s)))
        yield game.view(s, None)


@pytest.mark.parametrize("game_id", ON_THE_COMPOSITOR)
def test_the_assembled_picture_is_the_whole_drawing_on_the_palette(game_id: str) -> None:
    module = importlib.import_module(f"render.{game_id}")
    for i, view in enumerate(random_views(game_id, 24)):
        language, names = ("en", NAMES_EN) if i % 2 else ("ru", NAMES_RU)
        assembled = module.draw(view, names, language=language)
        assert assembled.mode == "P"
        assert assembled.getpalette() == module.palette().getpalette()
        whole = module.draw_rgb(view, names, language=language)
        mapped = whole.quantize(palette=module.palette(), dither=Image.Dither.NONE)
        assert assembled.tobytes() == mapped.tobytes(), (game_id, i)


@pytest.mark.parametrize("game_id", ON_THE_COMPOSITOR)
def test_warm_up_leaves_nothing_supersampled_for_a_new_state(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After `warm_up` no state, however new, draws a supersampled sprite: each costs
    milliseconds, and every move makes a new state."""
    module = importlib.import_module(f"render.{game_id}")
    module.warm_up()
    drawn: list[tuple[int, int]] = []
    init = shapes.Canvas.__init__

    def counting(self: shapes.Canvas, size: tuple[int, int], **kw: Any) -> None:
        drawn.append(size)
        init(self, size, **kw)

    monkeypatch.setattr(shapes.Canvas, "__init__", counting)
    for view in random_views(game_id, 30, seed=1000):
        module.render(view, NAMES_RU)
    assert drawn == []


def _comp() -> Compositor:
    def field(variant: object) -> Image.Image:
        return Image.new("RGB", (80, 50), PAPER if variant == "a" else SPECTRUM["Y"])

    def half() -> Image.Image:
        return Image.new("RGBA", (6, 6), (*INK, 128))

    def dot() -> Image.Image:
        c = shapes.Canvas((16, 16))
        c.circle((8, 8), 6, fill=SPECTRUM["R"])
        return c.image()

    def scene(view: str, names: object, language: str) -> Scene:
        def paint(s: Surface) -> None:
            s.text((4, 52), "Аня 7", size=14, bg=PAPER)
            s.disc((60.5, 60.25), 5, SPECTRUM["B"], INK, 1.5, bg=PAPER)
            s.rectangle((2, 66, 30, 70), fill=SPECTRUM["G"])
            if view == "half":
                s.stamp(("half",), (1, 1))

        dots = (comp.place(("dot",), (20, 20)), comp.place(("dot",), (28, 20)))
        return Scene(height=72, variant=view[0], groups=[dots], parts=[((0, 0, 80, 72), paint)])

    comp = Compositor(
        width=80,
        field=field,
        sprites={"dot": dot, "half": half},
        variants=("a", "b"),
        palette=lambda: fit_palette([comp.draw_rgb(v) for v in ("a", "b")]),
        scene=scene,
    )
    return comp


def test_a_toy_compositor_draws_both_ways_alike_and_counts_what_it_drew() -> None:
    comp = _comp()
    for variant in ("a", "b"):
        mapped = comp.draw_rgb(variant).quantize(palette=comp.palette(), dither=Image.Dither.NONE)
        assert comp.draw(variant).tobytes() == mapped.tobytes()
    assert comp.drawn() == 2 + 2  # two fields, the dot, a disc
    comp.clear()
    assert all(c.cache_info().currsize == 0 for c in comp.caches())


def test_a_stamp_must_be_opaque() -> None:
    comp = _comp()
    comp.draw_rgb("half")  # drawn whole, a translucent sprite just blends
    with pytest.raises(AssertionError, match="not opaque"):
        comp.draw("half")
