"""The «Захват клеток» picture: determinism, size, and what is drawn where."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from games.cell_capture import GAME, Action, ActionType, State
from games.cell_capture.model import View, parse_cell
from render import cell_capture
from render.cell_capture import (
    CENTRE_RGB,
    FREE_RGB,
    PLAYER_RGB,
    WIDTH,
    cell_box,
    cell_centre,
    image_size,
    render,
)
from render.colours import HIGHLIGHT, INK
from tests.render.pixels import MAX_BYTES, decode, near, px, rgb_colours

PIDS = [101, 102, 103, 104, 105, 106]
NAMES = {101: "Аня", 102: "Боря", 103: "Вика", 104: "Григорий Константинопольский-Задунайский",
         105: "Дима", 106: "Ева"}  # fmt: skip


TWO = {"allow_two_players": True}  # R1: two players only as a house rule


def a(text: str) -> Action:
    return GAME.decode_action(text)


def progress(n: int, seed: int, captures: int) -> State:
    """A game after `captures` random captures (forward moves only)."""
    s = GAME.new(players=PIDS[:n], seed=seed, options=TWO if n == 2 else None)
    rng = random.Random(seed)
    done = 0
    back = (ActionType.UNDO, ActionType.CANCEL, ActionType.BACK)
    while not GAME.is_over(s) and done < captures:
        action = rng.choice([x for x in GAME.legal_actions(s) if x.type not in back])
        s, _ = GAME.apply(s, action)
        done += action.type is ActionType.CONFIRM
    return s


def rc(v: View, name: str) -> tuple[int, int]:
    cell = parse_cell(name, v.size)
    assert cell is not None
    return divmod(cell, v.size)


def corner(v: View, name: str, dx: int = 12, dy: int = -12) -> tuple[int, int]:
    """A point inside the cell near its bottom-left corner (away from number and dot)."""
    x0, _, _, y1 = cell_box(v.size, *rc(v, name))
    return x0 + dx, y1 + dy


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_png_size_and_dimensions(n: int) -> None:
    s = progress(n, n, 10_000)  # a finished game: the busiest board
    v = GAME.view(s, None)
    data = render(v, NAMES)
    im = decode(data)
    assert len(data) < MAX_BYTES
    assert im.size == image_size(v) and im.width == WIDTH
    assert im.height < 1.5 * im.width
    # 13×13 still gets cells big enough to read on a phone (≥ 40 px at 1000 px width).
    x0, _, x1, _ = cell_box(v.size, 0, 0, 0)
    assert x1 - x0 + 1 >= 64


def test_deterministic_bytes() -> None:
    s = progress(6, 11, 25)
    v = GAME.view(s, None)
    first = render(v, NAMES)
    assert render(v, NAMES) == first
    again = View.model_validate_json(v.model_dump_json())
    assert render(again, dict(NAMES)) == first
    assert render(v, {**NAMES, 101: "Другое имя"}) != first


def test_missing_names_fall_back() -> None:
    v = GAME.view(progress(3, 1, 3), None)
    decode(render(v))
    decode(render(v, {}))


def test_cells_centre_free_and_owner_colours() -> None:
    """Owned cells in the owner's colour, the centre dark grey, free cells light."""
    s = GAME.new(players=PIDS[:3], seed=1).model_copy(update={"order": [0, 1, 2]})
    for t in ("K,3", "A,D4", "S,U", "S,U", "S,R", "C", "K,2", "A,D3", "S,L", "S,D", "C"):
        s, _ = GAME.apply(s, a(t))
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    assert near(px(im, cell_centre(v.size, *rc(v, "D4"))), (255, 255, 255), 40)  # the ✦
    assert near(px(im, corner(v, "D4", 4, -4)), CENTRE_RGB)
    assert near(px(im, corner(v, "A7")), FREE_RGB)
    for name in ("D3", "D2", "E2"):
        assert near(px(im, corner(v, name)), PLAYER_RGB["red"])
    # The last capture (Боря's C3–C4) is blue inside a dark border.
    assert near(px(im, corner(v, "C4", 14, -14)), PLAYER_RGB["blue"])
    assert near(px(im, corner(v, "C4", 2, -2)), INK, 30)
    # The joint between D3 and D2 (same path) is filled; D2|E2 too; D3|C3 (two paths) not.
    cx, _ = cell_centre(v.size, *rc(v, "D3"))
    _, y0, _, _ = cell_box(v.size, *rc(v, "D3"), 0)
    assert near(px(im, (cx, y0)), PLAYER_RGB["red"])
    x0, _, _, _ = cell_box(v.size, *rc(v, "D3"), 0)
    _, cy = cell_centre(v.size, *rc(v, "D3"))
    assert not near(px(im, (x0, cy)), PLAYER_RGB["red"], 30)


def test_numbers_drawn_in_capture_order() -> None:
    """Each captured cell carries its number: the cell centre differs from its corner."""
    s = GAME.new(players=PIDS[:2], seed=1, options=TWO).model_copy(update={"order": [0, 1]})
    s, _ = GAME.apply(s, a("K,2"))
    for t in ("A,C3", "S,U", "S,U", "C"):
        s, _ = GAME.apply(s, a(t))
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    for name in ("C2", "C1"):
        x0, y0, x1, y1 = cell_box(v.size, *rc(v, name))
        crop = im.crop((x0 + 20, y0 + 20, x1 - 20, y1 - 20))
        colours = set(rgb_colours(crop))
        assert any(near(c, (255, 255, 255), 20) for c in colours)  # white digits on red
    # "1" and "2" differ: the two cells' centres look different.
    c1 = im.crop(cell_box(v.size, *rc(v, "C2")))
    c2 = im.crop(cell_box(v.size, *rc(v, "C1")))
    assert c1.tobytes() != c2.tobytes()


def test_offered_anchors_are_ringed() -> None:
    s = GAME.new(players=PIDS[:3], seed=1).model_copy(update={"order": [0, 1, 2]})
    for t in ("K,3", "A,D4", "S,U", "S,U", "S,R", "C", "K,2"):
        s, _ = GAME.apply(s, a(t))
    v = GAME.view(s, None)
    assert v.offered_anchors == ["E2", "D3"]
    im = decode(render(v, NAMES))
    for name in ("E2", "D3"):
        x0, _, _, _ = cell_box(v.size, *rc(v, name), 1)
        _, cy = cell_centre(v.size, *rc(v, name))
        assert near(px(im, (x0 + 2, cy)), HIGHLIGHT, 30)
    x0, _, _, _ = cell_box(v.size, *rc(v, "D2"), 1)  # a middle cell: no ring
    _, cy = cell_centre(v.size, *rc(v, "D2"))
    assert not near(px(im, (x0 + 2, cy)), HIGHLIGHT, 30)


def test_draft_is_hatched() -> None:
    s = GAME.new(players=PIDS[:3], seed=1).model_copy(update={"order": [0, 1, 2]})
    for t in ("K,3", "A,D4", "S,U"):
        s, _ = GAME.apply(s, a(t))
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    x0, y0, _, _ = cell_box(v.size, *rc(v, "D3"))
    crop = im.crop((x0 + 6, y0 + 6, x0 + 30, y0 + 30))
    colours = rgb_colours(crop)
    red = PLAYER_RGB["red"]
    assert not any(near(c, FREE_RGB, 6) for c in colours)
    assert len(set(colours)) >= 2  # stripes on a tint
    assert any(sum(c) < sum(FREE_RGB) - 60 and c[0] > c[2] for c in colours)  # reddish
    assert not any(near(c, red, 10) for c in colours)  # not a captured (solid) cell
    # The anchor chosen (the centre) is ringed.
    x0, _, _, _ = cell_box(v.size, *rc(v, "D4"), 1)
    _, cy = cell_centre(v.size, *rc(v, "D4"))
    assert near(px(im, (x0 + 2, cy)), HIGHLIGHT, 30)


def test_legend_highlights_player_to_act() -> None:
    s = GAME.new(players=PIDS[:2], seed=1, options=TWO).model_copy(update={"order": [1, 0]})
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    h = im.height
    # The legend's first entry (this round's first player) sits on a yellow band.
    band = im.crop((24, h - 140, 480, h - 20))
    colours = rgb_colours(band)
    assert any(near(c, HIGHLIGHT, 20) for c in colours)
    assert any(near(c, PLAYER_RGB["blue"], 20) for c in colours)  # seat 1 is blue


def test_every_phase_and_ending_renders() -> None:
    """PICK_K, PICK_ANCHOR, DRAW, READY, each end reason, a player who left: all drawn."""
    s = GAME.new(players=PIDS[:3], seed=1).model_copy(update={"order": [0, 1, 2]})
    pictures = set()
    for t in ("K,3", "A,D4", "S,U", "S,U", "S,R"):
        pictures.add(render(GAME.view(s, None), NAMES))
        s, _ = GAME.apply(s, a(t))
    pictures.add(render(GAME.view(s, None), NAMES))
    assert len(pictures) == 6  # every tap changes the picture
    left, _ = GAME.remove(s, PIDS[2])
    decode(render(GAME.view(left, None), NAMES))
    over, _ = GAME.remove(left, PIDS[1])
    assert over.end_reason == "players_left"
    decode(render(GAME.view(over, None), NAMES))
    for n in (2, 4):
        done = progress(n, 5, 10_000)
        assert done.end_reason in ("board_full", "no_moves")
        decode(render(GAME.view(done, None), NAMES))


def test_the_palette_keeps_the_colours() -> None:
    """The fixed palette holds every player's colour and the board's."""

    def encoded(colour: tuple[int, int, int]) -> tuple[int, int, int]:
        return px(decode(cell_capture.encode(Image.new("RGB", (4, 4), colour))), (1, 1))

    for colour in (*PLAYER_RGB.values(), CENTRE_RGB, FREE_RGB, HIGHLIGHT):
        assert near(encoded(colour), colour, 2)
