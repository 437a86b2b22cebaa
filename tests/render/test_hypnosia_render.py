"""The «Гипнозия» picture: determinism, size, and what is drawn where."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from games.hypnosia import GAME, Action, ActionType, Route, State
from games.hypnosia.model import RING_SIZES, View, is_bridge
from render import hypnosia
from render.colours import HIGHLIGHT
from render.hypnosia import (
    CENTRE_RGB,
    HALF,
    PAIR_OFF,
    PAIR_R,
    PLAYER_RGB,
    RADIUS,
    RING_RGB,
    TAG_H,
    TOKEN_R,
    WIDTH,
    _tag_width,
    cell_xy,
    field_xy,
    image_size,
    move_marks,
    polar,
    render,
    start_xy,
)
from tests.render import pixels
from tests.render.pixels import MAX_BYTES, decode, grey, px


def near(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 16) -> bool:
    return pixels.near(a, b, tol)


PIDS = [101, 102, 103, 104, 105, 106]
NAMES = {101: "Аня", 102: "Боря", 103: "Вика", 104: "Григорий Константинопольский-Задунайский",
         105: "Дима 🎲", 106: "Ева"}  # fmt: skip


def whites(im: Image.Image) -> int:
    """How many pixels of `im` are (nearly) white."""
    total = 0
    for n, c in im.getcolors(1 << 16) or []:
        assert isinstance(c, tuple)
        total += n if near((int(c[0]), int(c[1]), int(c[2])), (255, 255, 255), 10) else 0
    return total


def progress(n: int, seed: int, steps: int) -> State:
    s = GAME.new(players=PIDS[:n], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
    return s


def placed(tokens: list[list[str]], centre: list[int] | None = None, **kw: object) -> State:
    """A two-player game (Red seat 0, Green seat 1 on board seat 3) with tokens placed."""
    s = GAME.new(players=PIDS[:2], seed=1)
    return s.model_copy(
        update={"tokens": tokens, "centre": centre or [], "current": 0, **kw}, deep=True
    )


def off_number(cell: str, dr: float = 0.0) -> tuple[float, float]:
    """A point in cell `cell` beside its printed number (towards the cell's edge)."""
    k, j = (int(x) for x in cell.split("."))
    a = 90.0 + (j + 0.5) * 360.0 / RING_SIZES[k]
    return polar(RADIUS[k] + HALF * 0.72 + dr, a)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_png_size_and_dimensions(n: int) -> None:
    for steps in (0, 80, 10_000):
        v = GAME.view(progress(n, n, steps), None)
        data = render(v, NAMES)
        im = decode(data)
        assert len(data) < MAX_BYTES
        assert im.size == image_size(v) and im.width == WIDTH
        assert im.height < 1.5 * im.width


def test_deterministic_bytes() -> None:
    v = GAME.view(progress(6, 11, 120), None)
    first = render(v, NAMES)
    assert render(v, NAMES) == first
    again = View.model_validate_json(v.model_dump_json())
    assert render(again, dict(NAMES)) == first
    assert render(v, {**NAMES, 101: "Другое имя"}) != first


def test_missing_names_fall_back() -> None:
    v = GAME.view(progress(3, 1, 30), None)
    decode(render(v))
    decode(render(v, {}))


def test_rings_bridges_and_empty_centre() -> None:
    im = decode(render(GAME.view(placed([["S"] * 4, ["S"] * 4]), None), NAMES))
    for k, cell in ((1, "1.5"), (2, "2.5"), (3, "3.5")):
        assert not is_bridge(k, 5)
        assert near(px(im, off_number(cell)), RING_RGB[k])
    # A bridge is two-coloured: its outer half in its ring's colour, the inner in the next.
    assert near(px(im, off_number("1.9", -4)), RING_RGB[1])
    a9 = 90.0 + 9.5 * 10.0
    assert near(px(im, polar(RADIUS[1] - HALF * 0.65, a9 + 3)), RING_RGB[2], 16)  # by the arrow
    # The centre disc is dark; free fields are lighter, with their value in white.
    assert near(px(im, polar(120, 200)), CENTRE_RGB)
    f5 = field_xy(5)
    assert not near(px(im, (f5[0] - 26, f5[1])), CENTRE_RGB, 8)


def test_tokens_pairs_homes_and_centre_fields_in_owner_colours() -> None:
    red, green = PLAYER_RGB["red"], PLAYER_RGB["green"]
    s = placed([["1.5", "1.5", "C5", "S"], ["2.7", "S", "S", "X"]], centre=[0])
    v = GAME.view(s, None)
    im = decode(render(v, NAMES))
    # Red's pair on 1.5: two discs, one on each side of the ring's middle line.
    k_angle = 90.0 + 5.5 * 10.0
    for side in (+PAIR_OFF, -PAIR_OFF):
        x, y = polar(RADIUS[1] + side, k_angle)
        around = [
            px(im, (x + 18 * dx, y + 18 * dy)) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        ]
        assert sum(near(c, red, 30) for c in around) >= 3, around  # the disc, beside its number
    # Green's single on 2.7, off its number.
    gx, gy = cell_xy("2.7")
    assert near(px(im, (gx + 14, gy + 8)), green, 30) or near(px(im, (gx - 14, gy - 8)), green, 30)
    # Field 5 in red; field 4 free.
    f5, f4 = field_xy(5), field_xy(4)
    assert near(px(im, (f5[0] - 27, f5[1])), red, 30)
    assert not near(px(im, (f4[0] - 27, f4[1])), red, 60)
    # Homes: red №4 is at home (a red disc), red №1 left it (a pale disc).
    h4, h1 = start_xy(0, 4), start_xy(0, 1)
    assert near(px(im, (h4[0] - 18, h4[1])), red, 30)
    assert not near(px(im, (h1[0] - 18, h1[1])), red, 60)
    # The player to act (Red) has his tokens ringed in yellow; Green's are not.
    ring = polar(RADIUS[1] + PAIR_OFF + PAIR_R + 4, k_angle)
    assert near(px(im, ring), HIGHLIGHT, 40)
    assert not near(px(im, (gx, gy - TOKEN_R - 3)), HIGHLIGHT, 40)


def test_dice_in_the_header_a_used_die_is_greyed() -> None:
    s = placed([["S"] * 4, ["S"] * 4])
    fresh, _ = GAME.apply(s, Action(type=ActionType.ROLL))
    assert len(fresh.unused) == 2
    im2 = decode(render(GAME.view(fresh, None), NAMES))
    move = next(a for a in GAME.legal_actions(fresh) if a.route is Route.RING)
    half, _ = GAME.apply(fresh, move)
    im1 = decode(render(GAME.view(half, None), NAMES))
    box = (WIDTH - 200, 20, WIDTH - 10, 105)
    white2, white1 = whites(im2.crop(box)), whites(im1.crop(box))
    assert white2 > 2000 and white1 < white2 * 0.75  # one die is no longer white


def test_every_phase_and_ending_renders() -> None:
    s = GAME.new(players=PIDS[:3], seed=2)
    pictures = {render(GAME.view(s, None), NAMES)}
    for _ in range(3):
        s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
        pictures.add(render(GAME.view(s, None), NAMES))
    assert len(pictures) == 4
    left, _ = GAME.remove(s, PIDS[2])
    decode(render(GAME.view(left, None), NAMES))
    over, _ = GAME.remove(left, PIDS[1])
    assert over.end_reason == "players_left"
    decode(render(GAME.view(over, None), NAMES))
    full = placed([["3.2", "S", "S", "S"], ["S"] * 4], centre=[1, 1, 1, 1])
    full = full.model_copy(update={"phase": "move", "dice": [1, 6], "unused": [1, 6]})
    done, _ = GAME.apply(full, Action(type=ActionType.MOVE, token=1, die=1, route=Route.BRIDGE))
    assert done.end_reason == "centre_full"
    im = decode(render(GAME.view(done, None), NAMES))
    f1 = field_xy(1)
    assert near(px(im, (f1[0] - 27, f1[1])), PLAYER_RGB["red"], 30)


def test_the_palette_keeps_the_colours() -> None:
    """The fixed palette holds every player's colour and the board's."""

    def encoded(colour: tuple[int, int, int]) -> tuple[int, int, int]:
        return px(decode(hypnosia.encode(Image.new("RGB", (4, 4), colour))), (1, 1))

    for colour in (*PLAYER_RGB.values(), *RING_RGB.values(), CENTRE_RGB, HIGHLIGHT):
        assert near(encoded(colour), colour, 2)


def test_each_legal_move_is_marked_where_it_lands_with_its_button_s_mark() -> None:
    """Issue 18: the buttons name no ring cell; instead the picture puts each move's mark
    («2+5», «2⤵3») in a white frame on the cell it lands on — or, where it would cover a
    token or another move's cell (issue 31), as near as it fits, with a pointer to the
    cell. E2: №2 stopped on the bridge 1.3; with a 3 it may go on along the ring (1.6) or
    cross (2.2 + 2 = 2.4)."""
    s = placed([["S", "1.3", "S", "S"], ["S"] * 4], phase="move", dice=[3, 3], unused=[3])
    v = GAME.view(s, None)
    marks = {m.tag: m.dest for m in v.moves}
    assert marks == {"1+3": "1.2", "2+3": "1.6", "2⤵3": "2.4", "3+3": "1.0"}, marks
    im = decode(render(v, NAMES))
    rolling = decode(render(GAME.view(s.model_copy(update={"phase": "roll"}), None), NAMES))
    drawn = {m.text: m for m in move_marks(v)}
    assert set(drawn) == set(marks)
    for tag, cell in marks.items():
        m = drawn[tag]
        frame = (m.x + 10, m.y + 8, m.x + _tag_width(tag) - 10, m.y + TAG_H - 8)
        white = whites(im.crop(frame))
        assert white > 1500 and whites(rolling.crop(frame)) < white / 10, tag
        x, y = cell_xy(cell)
        if m.dest is None:  # on its cell
            assert frame[0] - 10 <= x <= frame[2] + 10 and frame[1] - 8 <= y <= frame[3] + 8
        else:  # a pointer from the cell (a dot on it) to the mark
            assert m.dest == (x, y)
            assert grey(im.convert("L"), (round(x), round(y))) < 80, tag
    for cell in ("1.4", "2.3", "3.5"):  # nothing lands there
        x, y = cell_xy(cell)
        assert whites(im.crop((round(x) - 24, round(y) - 14, round(x) + 24, round(y) + 14))) < 20
