"""The «ДОМИНА*С» picture: determinism, size, and what is drawn where."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from games.dominas import GAME, Action, ActionType, State
from games.dominas.model import Pos, View
from render import dominas
from render.colours import HIGHLIGHT, PAPER
from render.dominas import NEST_FILL, TILE_RGB, WIDTH, image_size, player_box, render, triangle
from tests.render.pixels import MAX_BYTES, decode, near, px

PIDS = [101, 102, 103, 104, 105, 106, 107, 108]
NAMES = {101: "Аня", 102: "Боря", 103: "Вика", 104: "Григорий Константинопольский-Задунайский",
         105: "Дима", 106: "Ева", 107: "Жора", 108: "Зина"}  # fmt: skip


def play(n: int, seed: int, steps: int, options: dict[str, object] | None = None) -> State:
    s = GAME.new(PIDS[:n], seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        actions = [a for a in GAME.legal_actions(s) if a.type is not ActionType.TIMEOUT]
        s, _ = GAME.apply(s, rng.choice(actions))
    return s


def corner_point(view: View, floor: int, pos: Pos, vertex: int = 1) -> tuple[float, float]:
    """A point inside a small triangle, half-way from its centre to one of its corners
    (away from the number, the symbols and the ★)."""
    t = triangle(view, floor, pos)
    cx = sum(p[0] for p in t) / 3
    cy = sum(p[1] for p in t) / 3
    return cx + (t[vertex][0] - cx) * 0.45, cy + (t[vertex][1] - cy) * 0.45


@pytest.mark.parametrize(
    ("n", "options"),
    [(2, None), (3, None), (5, None), (8, None), (8, {"mode": "teams"}), (4, {"mode": "teams"})],
)
def test_png_size_and_dimensions(n: int, options: dict[str, object] | None) -> None:
    for steps in (0, 30, 10_000):
        v = GAME.view(play(n, n, steps, options), None)
        data = render(v, NAMES)
        im = decode(data)
        assert len(data) < MAX_BYTES
        assert im.size == image_size(v) and im.width == WIDTH
        assert im.height < 1.7 * im.width


def test_deterministic_bytes_and_names() -> None:
    v = GAME.view(play(3, 11, 25), None)
    first = render(v, NAMES)
    assert render(v, NAMES) == first
    again = View.model_validate_json(v.model_dump_json())
    assert render(again, dict(NAMES)) == first
    assert render(v, {**NAMES, 101: "Другое имя"}) != first
    decode(render(v))  # missing names fall back to «Игрок N»
    decode(render(v, {101: "👾"}))


def test_the_picture_does_not_depend_on_hidden_tiles() -> None:
    s = play(3, 4, 12)
    other = s.model_copy(deep=True)
    pool = [t for h in other.hands for t in h] + list(other.bazaar)
    random.Random(1).shuffle(pool)
    i = 0
    for seat, hand in enumerate(s.hands):
        other.hands[seat] = pool[i : i + len(hand)]
        i += len(hand)
    other.bazaar = pool[i:]
    assert render(GAME.view(s, None), NAMES) == render(GAME.view(other, None), NAMES)


def test_tiles_in_their_colours_nests_and_the_last_tile() -> None:
    s = GAME.new(PIDS[:2], seed=3)
    seat = s.current
    tile = next(t for t in s.hands[seat] if not t.endswith("⚙"))
    s, _ = GAME.apply(s, Action(type=ActionType.PLACE, tile=tile, nest=Pos.CENTRE))
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    # the first tile: its colour inside, a yellow rim (the last placed tile)
    assert near(px(im, corner_point(v, 1, Pos.CENTRE)), TILE_RGB[tile[0]])
    t = triangle(v, 1, Pos.CENTRE)
    cx, cy = sum(p[0] for p in t) / 3, sum(p[1] for p in t) / 3
    q = (t[0][0] + (t[1][0] - t[0][0]) * 0.3, t[0][1] + (t[1][1] - t[0][1]) * 0.3)
    rim = (cx + (q[0] - cx) * 0.93, cy + (q[1] - cy) * 0.93)
    assert near(px(im, rim), HIGHLIGHT, 30)
    # three open corner nests, light and dashed
    for pos in (Pos.TOP, Pos.LEFT, Pos.RIGHT):
        assert near(px(im, corner_point(v, 1, pos, 2)), NEST_FILL)
    # the second tile takes a nest: that corner turns into its colour
    nxt = next(a for a in GAME.legal_actions(s) if a.type is ActionType.PLACE)
    s2, _ = GAME.apply(s, nxt)
    v2 = GAME.view(s2, None)
    im2 = decode(render(v2, NAMES))
    assert nxt.nest is not None and nxt.tile is not None
    assert near(px(im2, corner_point(v2, 1, nxt.nest, 2)), TILE_RGB[nxt.tile[0]])
    assert near(px(im2, corner_point(v2, 1, Pos.CENTRE)), TILE_RGB[tile[0]])


def test_the_player_to_move_is_highlighted() -> None:
    s = GAME.new(PIDS[:2], seed=1)
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    assert v.current is not None
    x0, y0, _x1, _y1 = player_box(v, v.current, im.height)
    assert near(px(im, (x0 + 6, y0 + 20)), HIGHLIGHT, 20)
    other = 1 - v.current
    x0, y0, _x1, _y1 = player_box(v, other, im.height)
    assert not near(px(im, (x0 + 6, y0 + 20)), HIGHLIGHT, 20)


def test_the_palette_keeps_the_colours() -> None:
    """The fixed palette holds the tiles' colours and the light fill of an open nest,
    which a fitted bucket would merge into the paper."""

    def encoded(colour: tuple[int, int, int]) -> tuple[int, int, int]:
        return px(decode(dominas.encode(Image.new("RGB", (4, 4), colour))), (1, 1))

    for colour in (*TILE_RGB.values(), NEST_FILL, HIGHLIGHT, PAPER):
        assert near(encoded(colour), colour, 2)
    assert encoded(NEST_FILL) != encoded(PAPER)
