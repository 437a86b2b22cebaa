"""The «Морской крест» picture: determinism, size, and what is drawn where."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from games.sea_cross import GAME, State
from games.sea_cross.engine import start_roll
from games.sea_cross.model import BASE, RED_CELLS, View, home_cell, loop_cell, start_index
from render import sea_cross
from render.colours import HIGHLIGHT, INK
from render.sea_cross import (
    ARM_RGB,
    HEADER,
    LOOP_RGB,
    RED_RGB,
    WIDTH,
    cell_box,
    cell_centre,
    image_size,
    render,
)
from tests.render.pixels import MAX_BYTES, decode, near, px

PIDS = [101, 102, 103, 104]
NAMES = {101: "Аня", 102: "Боря", 103: "Вика", 104: "Григорий Константинопольский-Задунайский"}


def colours(im: Image.Image) -> list[tuple[int, int, int]]:
    """The distinct colours of a (small) picture."""
    out = []
    for _, c in im.getcolors(1 << 16) or []:
        assert isinstance(c, tuple)
        out.append((int(c[0]), int(c[1]), int(c[2])))
    return out


def random_game(n: int, seed: int, steps: int) -> State:
    s = GAME.new(players=PIDS[:n], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
    return s


def placed(n: int, tokens: dict[int, list[int]], dice: list[int] | None = None) -> State:
    """A game of `n` players with seat 0 to act and the given tokens (rel per seat)."""
    s = GAME.new(players=PIDS[:n], seed=1).model_copy(deep=True)
    s.current = 0
    for seat, rels in tokens.items():
        s.tokens[seat] = rels + [BASE] * (4 - len(rels))
    if dice is not None:
        start_roll(s, dice, [])
    return s


def inside(cell: tuple[int, int], dx: int = 8, dy: int = 8) -> tuple[int, int]:
    """A point near a cell's top-left corner, away from a token's disc."""
    x0, y0, _, _ = cell_box(cell)
    return x0 + dx, y0 + dy


@pytest.mark.parametrize("n", [2, 3, 4])
def test_png_size_and_dimensions(n: int) -> None:
    for steps in (0, 150, 10_000):  # the start, mid-game, the end
        v = GAME.view(random_game(n, n, steps), None)
        data = render(v, NAMES)
        im = decode(data)
        assert len(data) < MAX_BYTES
        assert im.size == image_size(v) and im.width == WIDTH
        assert im.height < 1.3 * im.width
        x0, _, x1, _ = cell_box((0, 0), 0)
        assert x1 - x0 + 1 >= 80  # ≥ 29 px per cell on a 360-px phone screen


def test_deterministic_bytes() -> None:
    v = GAME.view(random_game(4, 11, 300), None)
    first = render(v, NAMES)
    assert render(v, NAMES) == first
    again = View.model_validate_json(v.model_dump_json())
    assert render(again, dict(NAMES)) == first
    assert render(v, {**NAMES, 101: "Другое имя"}) != first


def test_missing_and_emoji_names_fall_back() -> None:
    v = GAME.view(random_game(3, 1, 20), None)
    decode(render(v))
    decode(render(v, {}))
    decode(render(v, {101: "🎲🎲", 102: "Боря 🚀"}))


def test_board_cells_and_tokens_in_their_colours() -> None:
    """Red corners red, loop cells white, each token a disc in its player's colour, the
    кон and the домик tinted in the owner's colour."""
    s = placed(4, {0: [5, 41], 1: [3]})
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    for cell in RED_CELLS:
        assert near(px(im, inside(cell)), RED_RGB)
    assert near(px(im, inside(loop_cell(7))), LOOP_RGB, 6)
    blue, yellow = ARM_RGB[0], ARM_RGB[1]
    cx, cy = cell_centre(loop_cell(5))  # 🔵 №1 at rel 5
    assert near(px(im, (cx - 20, cy)), blue, 20)
    cx, cy = cell_centre(loop_cell(13))  # 🟡 №1 at rel 3 = loop 13
    assert near(px(im, (cx - 20, cy)), yellow, 20)
    cx, cy = cell_centre(home_cell(0, 1))  # 🔵 №2 in Д2
    assert near(px(im, (cx - 20, cy)), blue, 20)
    # The кон of 🟢 (empty) is a light green tint; Д3 of 🔵 (empty) a deeper blue tint.
    kon = px(im, inside(loop_cell(start_index(2)), 40, 60))
    assert kon[1] > kon[0] and kon[1] > kon[2] and sum(kon) > 400
    home = px(im, inside(home_cell(0, 2), 50, 50))
    assert home[2] > home[0] and home[2] > home[1] and sum(home) < 600


def test_last_move_is_outlined_and_targets_are_tagged() -> None:
    s = placed(2, {0: [5, 20]}, dice=[3, 4])
    v = GAME.view(s, None)
    assert {a.code for a in v.actions} >= {"M,1,3", "M,2,4"}
    im = decode(render(v, NAMES))
    # The tag «1+3» at the bottom of №1's target cell (rel 8): white with dark text.
    x0, _, x1, y1 = cell_box(loop_cell(8))
    tag = im.crop((x0 + 10, y1 - 30, x1 - 10, y1 - 6))
    seen = set(colours(tag))
    assert any(near(c, (255, 255, 255), 6) for c in seen)
    assert any(sum(c) < 200 for c in seen)
    s, _ = GAME.apply(s, GAME.decode_action("M,1,3"))
    v = GAME.view(s, None)
    assert v.last_move_cells == [loop_cell(5), loop_cell(8)]
    im = decode(render(v, NAMES))
    x0, y0, x1, y1 = cell_box(loop_cell(8), 0)
    ring = [px(im, (x0 + 5, (y0 + y1) // 2)), px(im, ((x0 + x1) // 2, y0 + 5))]
    assert any(near(c, HIGHLIGHT, 30) for c in ring)
    assert any(near(c, INK, 40) for c in [px(im, (x0 + 1, (y0 + y1) // 2))])


def test_capture_tag_is_red() -> None:
    s = placed(2, {0: [5], 1: [28]}, dice=[3, 6])  # 🟢 rel 28 = loop 8: 🔵 №1 +3 captures
    v = GAME.view(s, None)
    assert any(a.captures for a in v.actions)
    im = decode(render(v, NAMES))
    x0, _, x1, y1 = cell_box(loop_cell(8))
    tag = im.crop((x0 + 4, y1 - 36, x1 - 4, y1 - 2))
    seen = colours(tag)
    assert any(near(c, RED_RGB, 30) for c in seen)


def test_dice_in_the_header_fade_when_used() -> None:
    s = placed(2, {0: [5, 20]}, dice=[3, 4])
    im = decode(render(GAME.view(s, None), NAMES))
    header = im.crop((WIDTH - 200, 0, WIDTH, HEADER))
    dark = sum(1 for c in colours(header) if sum(c) < 150)
    s, _ = GAME.apply(s, GAME.decode_action("M,1,3"))
    im2 = decode(render(GAME.view(s, None), NAMES))
    header2 = im2.crop((WIDTH - 200, 0, WIDTH, HEADER))
    dark2 = sum(1 for c in colours(header2) if sum(c) < 150)
    assert header.tobytes() != header2.tobytes()
    assert dark >= 1 and dark2 <= dark


def test_every_phase_and_ending_renders() -> None:
    """Awaiting a roll, a move, a forced jump, a player who left, the end: all drawn, and
    every step changes the picture."""
    s = GAME.new(players=PIDS[:3], seed=5)
    pictures = {render(GAME.view(s, None), NAMES)}
    jump = placed(3, {0: [14]}, dice=[1, 5])
    assert GAME.view(jump, None).forced_jumps == 1
    pictures.add(render(GAME.view(jump, None), NAMES))
    left, _ = GAME.remove(jump, PIDS[1])
    pictures.add(render(GAME.view(left, None), NAMES))
    over, _ = GAME.remove(left, PIDS[2])
    assert GAME.is_over(over)
    pictures.add(render(GAME.view(over, None), NAMES))
    done = random_game(4, 9, 20_000)
    assert GAME.is_over(done)
    pictures.add(render(GAME.view(done, None), NAMES))
    assert len(pictures) == 5


def test_the_palette_keeps_the_colours() -> None:
    """The fixed palette holds every arm's colour and the board's."""

    def encoded(colour: tuple[int, int, int]) -> tuple[int, int, int]:
        return px(decode(sea_cross.encode(Image.new("RGB", (4, 4), colour))), (1, 1))

    for colour in (*ARM_RGB, RED_RGB, LOOP_RGB, HIGHLIGHT):
        assert near(encoded(colour), colour, 2)


def test_the_dice_a_roll_burnt_are_shown_in_the_player_s_corner() -> None:
    """Issue 18: a die the roll could not use burns (R6); the picture shows it, as red-
    framed dice under «сгорели:» in the roller's corner box, until he rolls again."""
    s = placed(2, {0: [], 1: []}, dice=[5, 3])  # all in the reserve, no 6: both burn
    v = GAME.view(s, None)
    assert v.players[0].burnt == [5, 3] and v.to_act_seat == 1
    x0, y0, x1, y1 = sea_cross._label_box(v.players[0].arm)
    third_line = (x0 + 6, (y0 + y1) // 2 + 20, x1 - 6, y1 - 6)
    im = decode(render(v, NAMES))
    assert RED_RGB in colours(im.crop(third_line))  # the word and the dice's frames
    players = [p.model_copy(update={"burnt": []}) for p in v.players]
    clean = decode(render(v.model_copy(update={"players": players}), NAMES))
    assert RED_RGB not in colours(clean.crop(third_line))
    # seat 1 passes too; seat 0's next roll forgets his burnt dice
    s = s.model_copy(deep=True)
    start_roll(s, [2, 3], [])
    assert GAME.view(s, None).players[1].burnt == [2, 3] and s.current == 0
    start_roll(s, [6, 1], [])
    assert GAME.view(s, None).players[0].burnt == []
