"""The «Семидорожник» board picture: size, determinism, and what is drawn where."""

from __future__ import annotations

import io
import math
import random
import subprocess
import sys
from typing import Any

import pytest
from PIL import Image

import games
from games.seven_tracks.model import Block, Phase, Status, Track, View, expected_colour
from render import seven_tracks as st
from render import text
from render.colours import BAD, BLACK, HIGHLIGHT, SPECTRUM, WHITE
from render.seven_tracks import (
    LANE_HALF,
    PITCH,
    SLOT_R0,
    STATUS_H,
    STATUS_TOP,
    TILE_R,
    block_centre,
    draw,
    draw_rgb,
    encode,
    image_size,
    player_cell,
    polar,
    render,
    slot_centre,
    t7_centre,
    track_angle,
)
from tests.render.pixels import MAX_BYTES, decode, px
from tests.render.seven_tracks_samples import NAMES, make_view, samples

A = Status.ACTIVE


def near(actual: tuple[int, ...], expected: tuple[int, int, int], tol: int = 18) -> bool:
    return all(abs(a - e) <= tol for a, e in zip(actual, expected, strict=False))


def off_centre(track: int, slot: int) -> tuple[float, float]:
    """A point inside a tile, away from its centre dot and its shine (upper left)."""
    x, y = slot_centre(track, slot)
    return x + TILE_R * 0.45, y + TILE_R * 0.45


def base(**kw: Any) -> View:
    kw.setdefault("players", [(A, 0, 12), (A, 5, 9), (A, 17, 4)])
    return make_view(**kw)


# ---------------------------------------------------------------- the file itself


def test_same_view_gives_same_bytes() -> None:
    v = samples()["02_midgame_blocks"]
    first = render(v, NAMES)
    render(samples()["05_restricted"], NAMES)  # caches in between must not leak state
    assert render(v, NAMES) == first
    assert render(View.model_validate_json(v.model_dump_json()), dict(NAMES)) == first


@pytest.mark.parametrize("name", list(samples()))
def test_samples_are_pngs_of_expected_size_and_small(name: str) -> None:
    v = samples()[name]
    data = render(v, NAMES)
    assert len(data) < MAX_BYTES
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    assert im.size == image_size(len(v.players))


def busiest() -> tuple[View, dict[int, str]]:
    """Every track full and blocked, six players with long names, every caption on."""
    tracks = [
        Track(
            slots=[
                ("W#01" if i % 2 else f"{expected_colour(k, i)}#{i:02d}")
                if k % 2
                else ("U#01" if i == 3 else f"{expected_colour(k, i)}#{i:02d}")
                for i in range(1, 7)
            ],
            block=Block(tile="K#01" if k % 2 else "U#02", by=0, turn=1),
        )
        for k in range(1, 7)
    ]
    long = {101 + i: "Очень длинное имя игрока номер " + str(i) for i in range(6)}
    v = make_view(
        players=[
            (A, 143, 30),
            (Status.OUT, 99, 0),
            (Status.ELIMINATED, 150, 0),
            (A, 1, 1),
            (A, 0, 12),
            (A, 77, 8),
        ],
        tracks=tracks,
        t7=["R#1", "O#1", "Y#1", "G#1", "C#1", "B#1"],
        store=["W#1"] * 9 + ["U#1"],
        turn={
            "dice": [6, 6],
            "modes": {6: "single", 7: "single"},
            "is_double": True,
            "restricted": True,
            "final": True,
        },
        restricted_left=3,
        final_left=2,
        current=5,
    )
    return v, long


def test_busiest_board_stays_under_the_size_limit() -> None:
    v, long = busiest()
    data = render(v, long)
    assert len(data) < MAX_BYTES
    assert decode(data).size == image_size(6)


def test_height_follows_the_number_of_players() -> None:
    two = decode(render(base(players=[(A, 0, 12)] * 2)))
    six = decode(render(base(players=[(A, 0, 12)] * 6)))
    assert two.width == six.width == 1000
    assert six.height > two.height


# ---------------------------------------------------------------- different states differ


def test_different_states_give_different_pictures() -> None:
    pictures = {name: render(v, NAMES) for name, v in samples().items()}
    assert len(set(pictures.values())) == len(pictures)
    v = base()
    variants = [
        v,
        v.model_copy(update={"current": 1}),
        v.model_copy(update={"bank_size": 12}),
        v.model_copy(update={"round_no": 2}),
        v.model_copy(update={"store": ["W#01"]}),
        v.model_copy(update={"t7": ["G#01"]}),
        v.model_copy(update={"restricted_left": 1}),
    ]
    assert len({render(x) for x in variants}) == len(variants)
    assert render(v, {101: "Аня"}) != render(v, {101: "Боря"})


def test_modes_keys_may_be_strings_as_after_json() -> None:
    a = base(turn={"dice": [3, 5], "modes": {3: "single", 5: "single"}})
    b = base(turn={"dice": [3, 5], "modes": {"3": "single", "5": "single"}})
    assert render(a) == render(b)


# ---------------------------------------------------------------- what is where


def test_placed_tiles_show_their_colour_at_their_slot() -> None:
    v = base(
        tracks=[
            Track(slots=[f"{expected_colour(k, i)}#{i:02d}" for i in range(1, 4)])
            for k in range(1, 7)
        ]
    )
    im = decode(render(v))
    empty = decode(render(base()))
    for k in range(1, 7):
        for i in range(1, 4):
            colour = SPECTRUM[expected_colour(k, i)]
            assert near(px(im, slot_centre(k, i)), colour), (k, i)
            assert near(px(im, off_centre(k, i)), colour), (k, i)
            # empty slots show only a faint ring there
            assert not near(px(empty, off_centre(k, i)), colour, tol=40), (k, i)


def test_a_white_is_white_with_a_dot_of_the_colour_it_stands_for() -> None:
    # Track 2 expects O then Y: a white in slot 2 stands for yellow.
    v = base(tracks=[Track(), Track(slots=["O#01", "W#01"]), *[Track() for _ in range(4)]])
    im = decode(render(v))
    assert near(px(im, slot_centre(2, 2)), SPECTRUM["Y"])
    assert near(px(im, off_centre(2, 2)), WHITE)
    assert near(px(im, off_centre(2, 1)), SPECTRUM["O"])


def test_a_universal_differs_from_a_white() -> None:
    w = decode(render(base(tracks=[Track(slots=["R#01", "W#01"]), *[Track() for _ in range(5)]])))
    u = decode(render(base(tracks=[Track(slots=["R#01", "U#01"]), *[Track() for _ in range(5)]])))
    orange = SPECTRUM["O"]
    assert near(px(w, slot_centre(1, 2)), orange)
    assert near(px(u, slot_centre(1, 2)), orange)
    box = (
        slot_centre(1, 2)[0] - TILE_R,
        slot_centre(1, 2)[1] - TILE_R,
        slot_centre(1, 2)[0] + TILE_R,
        slot_centre(1, 2)[1] + TILE_R,
    )
    assert w.crop(box).tobytes() != u.crop(box).tobytes()
    # the universal's rainbow ring has colours that the plain white does not
    ring_colours = {
        px(u, polar(SLOT_R0 + PITCH + TILE_R - 7, track_angle(1) + d)) for d in (-0.03, 0.03)
    }
    assert any(not near(c, WHITE, 40) for c in ring_colours)


@pytest.mark.parametrize(("tile", "mark"), [("K#01", "K"), ("U#02", "U")])
def test_a_block_is_drawn_black_over_the_last_tile(tile: str, mark: str) -> None:
    slots = ["G#01", "C#01", "B#01"]
    blocked = base(
        tracks=[
            *[Track() for _ in range(3)],
            Track(slots=slots, block=Block(tile=tile, by=0, turn=2)),
            Track(),
            Track(),
        ]
    )
    free = base(tracks=[*[Track() for _ in range(3)], Track(slots=slots), Track(), Track()])
    im, im_free = decode(render(blocked)), decode(render(free))
    x, y = block_centre(4, 3)
    # below the white bar / the U: solid black
    assert near(px(im, (x - 15, y + 15)), BLACK, 30)
    assert not near(px(im_free, (x - 15, y + 15)), BLACK, 60)
    # the last tile still shows on its inner half
    cx, cy = slot_centre(4, 3)
    assert near(px(im, (cx, cy - TILE_R * 0.6)), SPECTRUM["B"])
    # no "next colour" emphasis on a blocked track: slot 4 keeps its faint look
    ring = polar(SLOT_R0 + 3 * PITCH + TILE_R - 5, track_angle(4))
    next_colour = SPECTRUM[expected_colour(4, 4)]
    assert near(px(im_free, ring), next_colour)
    assert not near(px(im, ring), next_colour, 40)
    # the U block looks different from the K block
    other = "U#02" if mark == "K" else "K#01"
    im_other = decode(
        render(
            base(
                tracks=[
                    *[Track() for _ in range(3)],
                    Track(slots=slots, block=Block(tile=other, by=0, turn=2)),
                    Track(),
                    Track(),
                ]
            )
        )
    )
    box = (x - 20, y - 20, x + 20, y + 20)
    assert im.crop(box).tobytes() != im_other.crop(box).tobytes()


def test_next_expected_colour_is_emphasised() -> None:
    # Track 3 has Y, G: the next expected is C (light blue), drawn as a strong ring.
    im = decode(
        render(
            base(
                tracks=[Track(), Track(), Track(slots=["Y#01", "G#01"]), Track(), Track(), Track()]
            )
        )
    )
    cx, cy = slot_centre(3, 3)
    a = track_angle(3) + math.pi / 2
    ring = (cx + math.cos(a) * (TILE_R - 1), cy + math.sin(a) * (TILE_R - 1))
    assert near(px(im, ring), SPECTRUM["C"])
    cx4, cy4 = slot_centre(3, 4)
    ring4 = (cx4 + math.cos(a) * (TILE_R - 1), cy4 + math.sin(a) * (TILE_R - 1))
    assert not near(px(im, ring4), SPECTRUM["B"], 30)


def test_available_tracks_are_highlighted() -> None:
    lit = decode(render(base(turn={"dice": [2, 5], "modes": {2: "single", 5: "single"}})))
    dark = decode(render(base()))

    def edge(track: int) -> tuple[float, float]:
        a = track_angle(track)
        x, y = polar(SLOT_R0 + 3 * PITCH, a)
        return x + math.cos(a + math.pi / 2) * (LANE_HALF + 6), y + math.sin(a + math.pi / 2) * (
            LANE_HALF + 6
        )

    for k in (2, 5):
        assert near(px(lit, edge(k)), HIGHLIGHT, 25), k
        assert not near(px(dark, edge(k)), HIGHLIGHT, 60), k
    for k in (1, 3, 4, 6):
        assert not near(px(lit, edge(k)), HIGHLIGHT, 60), k


def test_centre_track_shows_present_colours() -> None:
    im = decode(render(base(t7=["R#01", "B#02"])))
    assert near(px(im, t7_centre("R")), SPECTRUM["R"])
    assert near(px(im, t7_centre("B")), SPECTRUM["B"])
    gx, gy = t7_centre("G")
    assert not near(px(im, (gx + 12, gy)), SPECTRUM["G"], 40)


def test_game_over_and_phases_render() -> None:
    for phase in Phase:
        v = base(phase=phase, current=None if phase == Phase.GAME_OVER else 0, winners=[1])
        assert decode(render(v)).size == image_size(3)


def test_bytes_do_not_depend_on_the_process() -> None:
    code = (
        "import sys; from render.seven_tracks import render; "
        "from tests.render.seven_tracks_samples import NAMES, samples; "
        "sys.stdout.buffer.write(render(samples()['03_whites_one_die'], NAMES))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
    assert out == render(samples()["03_whites_one_die"], NAMES)


def test_player_to_act_has_a_highlighted_card() -> None:
    for current in (0, 2):
        im = decode(render(base(current=current)))
        for seat in range(3):
            x0, y0, x1, _ = player_cell(seat)
            border = px(im, ((x0 + x1) / 2, y0 + 1))
            assert near(border, HIGHLIGHT, 25) == (seat == current), (current, seat)


def test_restriction_is_announced_in_red() -> None:
    def reds(v: View) -> int:
        im = decode(render(v))
        strip = im.crop((0, STATUS_TOP, im.width, STATUS_TOP + STATUS_H))
        raw = strip.tobytes()
        pixels = (tuple(raw[i : i + 3]) for i in range(0, len(raw), 3))
        return sum(1 for p in pixels if near(p, BAD, 20))

    assert reds(base()) == 0
    assert reds(base(restricted_left=2, turn={"restricted": True})) > 200


def test_emoji_in_names_are_dropped_not_drawn_as_boxes() -> None:
    v = base()
    assert render(v, {101: "Аня 🎲", 102: "👨\u200d👩\u200d👧"}) == render(v, {101: "Аня"})


# ---------------------------------------------------------------- assembled on the palette


def random_views(n: int) -> list[tuple[View, dict[int, str]]]:
    """Public views of random games (2–6 players) stopped at random points."""
    game = games.get("seven_tracks")
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        ids = list(range(101, 101 + 2 + seed % 5))
        s = game.new(ids, seed=seed)
        for _ in range(rng.randrange(3000)):
            if game.is_over(s):
                break
            s, _ = game.apply(s, rng.choice(game.legal_actions(s)))
        view = game.view(s, None)
        assert isinstance(view, View)
        out.append((view, {i: NAMES.get(i, "Ева") for i in ids}))
    return out


def on_palette(img: Image.Image) -> Image.Image:
    return img.convert("RGB").quantize(palette=st.palette(), dither=Image.Dither.NONE)


def test_assembled_picture_is_the_whole_drawing_on_the_palette() -> None:
    # `draw` pastes cached pieces; `draw_rgb` draws everything. Equal pixels mean no
    # piece misses something drawn under or over it (text parts stay in their place).
    views = [(v, NAMES) for v in samples().values()] + random_views(16) + [busiest()]
    views.append((base(current=1), {101: "Йцукен Щшгзхъ Фывапр Ёлджэ", 102: "Ўўў ЯЯЯ ggg"}))
    for view, names in views:
        assembled = draw(view, names)
        assert assembled.mode == "P"
        assert assembled.getpalette() == st.palette().getpalette()
        assert assembled.tobytes() == on_palette(draw_rgb(view, names)).tobytes()


def test_bytes_do_not_depend_on_the_caches() -> None:
    v = samples()["02_midgame_blocks"]
    first = render(v, NAMES)
    st.PICTURE.clear()  # every piece, the palette and the field too
    for cached in (text.glyph_mask, text.fit_text_cached, text.text_length):
        cached.cache_clear()
    assert render(v, NAMES) == first
    st.warm_up()
    assert render(v, NAMES) == first


def test_an_rgb_picture_encodes_to_the_same_bytes() -> None:
    v = samples()["05_restricted"]
    assert encode(draw_rgb(v, NAMES)) == encode(draw(v, NAMES)) == render(v, NAMES)
