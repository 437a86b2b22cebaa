"""Issue 18: «Захват клеток» cells carry the owner's letter, not colour alone, and the
picture's key explains the letters, the path numbers and the end dots."""

from __future__ import annotations

from PIL import Image

from games.cell_capture import GAME, State
from games.cell_capture.model import View, parse_cell
from render.cell_capture import (
    KEY_RGB,
    KEY_ROW,
    PAD,
    PLAYER_RGB,
    cell_box,
    cell_size,
    owner_marks,
    render,
)
from tests.render.pixels import decode, near, px, rgb_colours

PIDS = [101, 102, 103]
NAMES = {101: "Аня", 102: "Боря", 103: "Вика"}


def two_captures() -> State:
    s = GAME.new(players=PIDS, seed=1).model_copy(update={"order": [0, 1, 2]})
    for t in ("K,3", "A,D4", "S,U", "S,U", "S,R", "C", "K,2", "A,D3", "S,L", "S,D", "C"):
        s, _ = GAME.apply(s, GAME.decode_action(t))
    return s


def corner_crop(im: Image.Image, v: View, name: str) -> Image.Image:
    """The top-left quarter of a cell (where the owner's letter goes; the number is
    in the middle, the end dot top-right)."""
    cell = parse_cell(name, v.size)
    assert cell is not None
    x0, y0, _, _ = cell_box(v.size, *divmod(cell, v.size))
    q = cell_size(v.size) * 2 // 5
    return im.crop((x0, y0, x0 + q, y0 + q))


def test_captured_cells_carry_the_owners_letter() -> None:
    v = GAME.view(two_captures(), None)
    im = decode(render(v, NAMES))
    other = decode(render(v, {**NAMES, 101: "Яна"}))
    for name in ("D2", "C3"):  # Аня's earlier path and Боря's last one
        colours = set(rgb_colours(corner_crop(im, v, name)))
        assert any(near(c, (255, 255, 255), 30) for c in colours), name  # a white letter
    # Аня's cells change with her letter (А → Я); Боря's do not
    assert corner_crop(im, v, "D2").tobytes() != corner_crop(other, v, "D2").tobytes()
    assert corner_crop(im, v, "C3").tobytes() == corner_crop(other, v, "C3").tobytes()
    # the rest of the cell is still the owner's colour
    cell = parse_cell("D2", v.size)
    assert cell is not None
    x0, _, _, y1 = cell_box(v.size, *divmod(cell, v.size))
    assert near(px(im, (x0 + 12, y1 - 12)), PLAYER_RGB["red"])


def test_owner_marks_differ_when_first_letters_clash() -> None:
    v = GAME.view(GAME.new(players=[1, 2, 3, 4], seed=1), None)
    # «🙂» has nothing the font draws: the picture names the seat «Игрок 4» (issue 31)
    assert owner_marks(v, {1: "аня", 2: "Алексей", 3: "Борис", 4: "🙂"}) == ["Ан", "Ал", "Б", "И"]
    assert owner_marks(v, {1: "Зоя", 2: "Саша", 3: "Саша", 4: "Ж"}) == ["Зо", "D", "F", "Ж"]
    assert owner_marks(v, {1: "З", 2: "Ира", 3: "Олег", 4: "Юля"}) == ["D", "И", "О", "Ю"]
    assert owner_marks(v, None) == ["D", "F", "G", "J"]  # «Игрок 1» … «Игрок 4»


def test_the_key_under_the_players_shows_a_sample_path() -> None:
    v = GAME.view(two_captures(), None)
    im = decode(render(v, NAMES))
    band = im.crop((PAD, im.height - PAD - KEY_ROW, im.width // 3, im.height - PAD))
    colours = rgb_colours(band)
    assert any(near(c, KEY_RGB, 12) for c in colours)  # the sample cells
    assert any(near(c, (255, 255, 255), 20) for c in colours)  # letter, numbers, dots
