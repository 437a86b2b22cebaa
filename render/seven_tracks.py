"""The board of «Шестигранник – Семидорожник» as a phone-readable picture.

One module, over 400 lines, on purpose: the game's geometry, the pieces it declares to
the compositor and its scene read each other's constants at every line; split, each
part would import all the others.

Drawn from the public `View` only (R73). The hexagonal field has the six main tracks as
spokes from the centre to the corners, numbered 1–6 clockwise from the top; each track's
slots run from its number badge (near the centre) outwards. The centre disc is track 7.
The corners of the picture hold whose turn it is, the dice, the round and the bank, the
bonus store; below the field run a status line and a card per player (two per row).

Entry points: `render(view, names)` -> PNG bytes; `draw` -> the picture as a "P" image
on the game's palette, assembled from cached pieces (cheap); `draw_rgb` -> the same
picture drawn whole in RGB; `warm_up()` builds the caches. Geometry helpers
(`slot_centre`, `block_centre`, `t7_centre`, `player_cell`, `image_size`) say where
things are, for tests and for anyone overlaying.

Example:
    >>> from games.seven_tracks.model import Phase, PlayerView, Status, Track, View
    >>> v = View(me=None, hand=None, players=[PlayerView(seat=0, player=1, status=Status.ACTIVE,
    ...     score=0, hand_count=12), PlayerView(seat=1, player=2, status=Status.ACTIVE, score=0,
    ...     hand_count=12)], tracks=[Track() for _ in range(6)], t7=[], store=[], out_count=0,
    ...     bank_size=87, phase=Phase.PRE_MOVE, current=0, turn={}, exchange_size=None,
    ...     restricted_left=0, final_left=0, round_no=1, cycle_no=1, target_score=144,
    ...     single_round=False, last_round=None, winners=[])
    >>> png = render(v, {1: "Аня", 2: "Борис"})
    >>> png[:4] == b"\\x89PNG"
    True
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from functools import partial
from itertools import combinations
from typing import Any

from PIL import Image

from games.seven_tracks.model import (
    COLOURS,
    TRACK_LEN,
    Block,
    Phase,
    PlayerView,
    Status,
    Track,
    TurnView,
    View,
    expected_colour,
    kind_of,
)
from locales import LANGUAGES, Translator, get_translator
from render.colours import (
    BAD,
    BLACK,
    GOOD,
    HIGHLIGHT,
    HIGHLIGHT_SOFT,
    INK,
    INK_SOFT,
    MUTED,
    PAPER,
    RGB,
    SPECTRUM,
    WHITE,
    contrast_ink,
    mix,
)
from render.compositor import Compositor, Scene
from render.filecache import FileCache
from render.palette import fit_palette
from render.shapes import Canvas, Point
from render.surface import Group, Placed, Surface
from render.text import clean_text, fit_text, text_width

# ---------------------------------------------------------------- geometry (pixels)

WIDTH = 1000
HEX_R = 560  # centre to corner of the pointy-top hexagon
CX, CY = WIDTH // 2, 12 + HEX_R
BOARD_BOTTOM = CY + HEX_R
CENTRE_R = 110  # the track-7 disc
T7_RING_R = 70  # where the seven colour places sit on it
T7_TILE_R = 20
BADGE_R_POS = 150  # distance of a track's number badge from the centre
BADGE_R = 31
SLOT_R0 = 207  # distance of slot 1 from the centre
PITCH = 50  # distance between neighbouring slots
TILE_R = 23
LANE_HALF = 33  # half-width of a track's lane
STATUS_TOP = BOARD_BOTTOM + 6
STATUS_H = 54
PLAYERS_TOP = STATUS_TOP + STATUS_H + 2
CELL_H = 82  # one player's card: name, then tiles in hand and score
CELL_GAP = 8
BOTTOM_PAD = 12

TRACK_COLOUR = {k: SPECTRUM[COLOURS[k - 1]] for k in range(1, 7)}
T7_COLOUR: RGB = (120, 96, 72)
BOARD_FILL: RGB = (236, 226, 206)
BOARD_EDGE: RGB = (120, 100, 76)
CENTRE_FILL: RGB = (250, 246, 238)
CARD_FILL: RGB = (234, 225, 208)

PNG_LEVEL = 2  # zlib level: 0.3 ms less than 3 for 3 % more bytes


def track_angle(track: int) -> float:
    """Direction of main track 1..6 in radians, screen coordinates (1 = up, clockwise)."""
    return math.radians(-90 + 60 * (track - 1))


def polar(r: float, angle: float) -> Point:
    return (CX + r * math.cos(angle), CY + r * math.sin(angle))


def slot_centre(track: int, slot: int) -> tuple[int, int]:
    """Pixel centre of 1-based `slot` (1..7) of main `track` (1..6) in the picture."""
    x, y = polar(SLOT_R0 + (slot - 1) * PITCH, track_angle(track))
    return round(x), round(y)


def block_centre(track: int, n_slots: int) -> tuple[int, int]:
    """Where the block of a track with `n_slots` tiles is drawn: over the last tile's outer half."""
    x, y = polar(SLOT_R0 + (n_slots - 1) * PITCH + PITCH * 0.42, track_angle(track))
    return round(x), round(y)


def badge_centre(track: int) -> tuple[int, int]:
    x, y = polar(BADGE_R_POS, track_angle(track))
    return round(x), round(y)


def t7_centre(colour: str) -> tuple[int, int]:
    """Pixel centre of `colour`'s place on the centre track (R at the top, then clockwise)."""
    i = COLOURS.index(colour)
    x, y = polar(T7_RING_R, math.radians(-90 + i * 360 / 7))
    return round(x), round(y)


def image_size(n_players: int) -> tuple[int, int]:
    """Size of the picture for a table of `n_players` players."""
    rows = (max(n_players, 1) + 1) // 2
    return WIDTH, PLAYERS_TOP + rows * (CELL_H + CELL_GAP) - CELL_GAP + BOTTOM_PAD


def player_cell(seat_index: int) -> tuple[int, int, int, int]:
    """Box of the card of the `seat_index`-th player (two per row, in seat order)."""
    row, col = divmod(seat_index, 2)
    w = (WIDTH - 2 * 12 - CELL_GAP) // 2
    x0 = 12 + col * (w + CELL_GAP)
    y0 = PLAYERS_TOP + row * (CELL_H + CELL_GAP)
    return x0, y0, x0 + w, y0 + CELL_H


def hex_corners(r: float = HEX_R) -> list[Point]:
    return [polar(r, track_angle(k)) for k in range(1, 7)]


# ---------------------------------------------------------------- static drawing


def _lane_points(track: int, pad: float = 0) -> list[Point]:
    """Outline of a track's lane: a strip from its badge outwards ending in an arrow tip."""
    a = track_angle(track)
    ux, uy = math.cos(a), math.sin(a)
    nx, ny = -uy, ux
    half = LANE_HALF + pad
    r0 = BADGE_R_POS
    r1 = SLOT_R0 + (TRACK_LEN - 1) * PITCH
    tip = r1 + half * 0.75
    pts: list[Point] = []
    for r, s in ((r0, -1), (r1, -1), (tip + pad * 0.5, 0), (r1, 1), (r0, 1)):
        pts.append((CX + ux * r + nx * half * s, CY + uy * r + ny * half * s))
    return pts


def _draw_lane(c: Canvas, track: int, style: str) -> None:
    """One track's lane; `style` is "normal", "dim" (dice rolled elsewhere) or "lit"."""
    colour = TRACK_COLOUR[track]
    lit = style == "lit"
    if lit:
        c.polygon(_lane_points(track, 10), fill=HIGHLIGHT)
        c.polygon(_lane_points(track, 3), fill=INK)
        fill = mix(colour, WHITE, 0.55)
    elif style == "dim":
        fill = mix(BOARD_FILL, WHITE, 0.3)
    else:
        fill = mix(colour, WHITE, 0.8)
    edge = mix(colour, BOARD_FILL, 0.45) if style == "dim" else mix(colour, INK, 0.25)
    c.polygon(_lane_points(track), fill=fill, outline=edge, width=0 if lit else 2.5)
    for slot in range(1, TRACK_LEN + 1):
        _draw_empty_slot(c, slot_centre(track, slot), SPECTRUM[expected_colour(track, slot)])
    bx, by = badge_centre(track)
    if lit:
        c.circle((bx, by), BADGE_R + 10, fill=HIGHLIGHT)
        c.circle((bx, by), BADGE_R + 3, fill=INK)
    c.circle((bx, by), BADGE_R, fill=colour, outline=INK, width=0 if lit else 2.5)
    ink = contrast_ink(colour)
    c.text((bx, by + 1), str(track), size=42, bold=True, fill=ink)


def _draw_empty_slot(c: Canvas, centre: Point, colour: RGB) -> None:
    c.circle(
        centre, TILE_R - 1, fill=mix(colour, WHITE, 0.86), outline=mix(colour, WHITE, 0.45), width=2
    )
    c.circle(centre, 7, fill=mix(colour, WHITE, 0.15))


def _draw_centre(c: Canvas, lit: bool) -> None:
    if lit:
        c.circle((CX, CY), CENTRE_R + 9, fill=HIGHLIGHT)
        c.circle((CX, CY), CENTRE_R + 3, fill=INK)
    c.circle((CX, CY), CENTRE_R, fill=CENTRE_FILL, outline=BOARD_EDGE, width=0 if lit else 3)
    c.circle((CX, CY), T7_RING_R, outline=mix(T7_COLOUR, WHITE, 0.6), width=2)
    for col in COLOURS:
        x, y = t7_centre(col)
        colour = SPECTRUM[col]
        c.circle(
            (x, y),
            T7_TILE_R - 1,
            fill=mix(colour, WHITE, 0.86),
            outline=mix(colour, WHITE, 0.45),
            width=2,
        )
        c.circle((x, y), 6, fill=mix(colour, WHITE, 0.15))
    c.text((CX, CY + 2), "7", size=50, bold=True, fill=T7_COLOUR)


# ---------------------------------------------------------------- the static field
#
# The empty field and the lit lanes are most of a cold picture's cost (~0.4 s of
# supersampled drawing and downscaling): they are drawn once per machine and kept on
# disk (`render/filecache.py`).

FILES = FileCache("seven_tracks", [__file__])


def _draw_board(dim: bool) -> Image.Image:
    c = Canvas((WIDTH, BOARD_BOTTOM + 4), scale=3, background=(*PAPER, 255))
    c.polygon(hex_corners(HEX_R), fill=BOARD_FILL, outline=BOARD_EDGE, width=4)
    c.polygon(hex_corners(HEX_R - 14), outline=mix(BOARD_EDGE, BOARD_FILL, 0.55), width=2)
    for k in range(1, 7):
        a = track_angle(k) + math.pi / 6  # the divider between track k and k+1
        p0 = polar(CENTRE_R + 8, a)
        p1 = polar(HEX_R * math.sqrt(3) / 2 - 16, a)
        c.line([p0, p1], fill=mix(BOARD_EDGE, BOARD_FILL, 0.6), width=2)
    for k in range(1, 7):
        _draw_lane(c, k, "dim" if dim else "normal")
    _draw_centre(c, lit=False)
    return c.image().convert("RGB")


def _bbox(points: list[Point], pad: int) -> tuple[int, int, int, int]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (
        math.floor(min(xs)) - pad,
        math.floor(min(ys)) - pad,
        math.ceil(max(xs)) + pad,
        math.ceil(max(ys)) + pad,
    )


def _lit_lane(track: int) -> tuple[Image.Image, tuple[int, int]]:
    """A highlighted lane of main track 1–6, and where it goes."""
    pts = [*_lane_points(track, 10), badge_centre(track)]
    x0, y0, x1, y1 = _bbox(pts, BADGE_R + 14)

    def lane() -> Image.Image:
        c = Canvas((x1 - x0, y1 - y0), origin=(x0, y0))
        _draw_lane(c, track, "lit")
        return c.image()

    return FILES.get(f"lit-{track}", lane), (x0, y0)


def _lit_centre() -> tuple[Image.Image, tuple[int, int]]:
    """The highlighted centre (track 7), and where it goes."""
    r = CENTRE_R + 12

    def centre() -> Image.Image:
        c = Canvas((2 * r, 2 * r), origin=(CX - r, CY - r))
        _draw_centre(c, lit=True)
        return c.image()

    return FILES.get("lit-centre", centre), (CX - r, CY - r)


def _lit_item(track: int) -> Hashable:
    """The overlay that highlights main track 1–6 or the centre (7)."""
    return ("centre",) if track == 7 else ("lane", track)


# ---------------------------------------------------------------- sprites


def _trimmed(sprite: Image.Image) -> Image.Image:
    """`sprite` without the faint ringing that downsampling leaves around its shape:
    the ink of neighbouring tiles then never touches, so each can be a patch of its own."""
    alpha = sprite.getchannel("A").point(lambda a: a if a >= 8 else 0)
    sprite.putalpha(alpha)
    return sprite


def _sprite_canvas(radius: float) -> Canvas:
    s = math.ceil(radius) + 2
    return Canvas((2 * s, 2 * s), origin=(-s, -s))


def tile_sprite(kind: str, stands_for: str | None = None, radius: int = TILE_R) -> Image.Image:
    """A tile: a colour disc; W = white with a dot of the colour it stands for; U = white
    with a rainbow ring and that dot; K = black."""
    c = _sprite_canvas(radius)
    o = (0.0, 0.0)
    if kind in SPECTRUM:
        colour = SPECTRUM[kind]
        c.circle(o, radius, fill=INK)
        c.circle(o, radius - 2.5, fill=colour)
        c.circle(
            (-radius * 0.3, -radius * 0.3), radius * 0.22, fill=(*mix(colour, WHITE, 0.45), 255)
        )
    elif kind in ("W", "U"):
        c.circle(o, radius, fill=INK)
        c.circle(o, radius - 2.5, fill=WHITE)
        if kind == "U":
            ring = radius - 4.5
            for i, col in enumerate(COLOURS):
                start = -90 + i * 360 / 7
                c.arc(o, ring, start, start + 360 / 7 + 0.5, fill=SPECTRUM[col], width=6)
        if stands_for is not None:
            dot = SPECTRUM[stands_for]
            c.circle(o, radius * (0.36 if kind == "U" else 0.44), fill=mix(dot, INK, 0.35))
            c.circle(o, radius * (0.36 if kind == "U" else 0.44) - 2, fill=dot)
        elif kind == "U":
            c.text((0, 1), "U", size=round(radius * 1.1), bold=True, fill=INK)
    else:  # K or anything unknown: black
        c.circle(o, radius, fill=WHITE)
        c.circle(o, radius - 2, fill=BLACK)
    return _trimmed(c.image())


def block_sprite(kind: str) -> Image.Image:
    """A block: a black square with a white bar (K) or a white "U" (U used as black)."""
    s = 22.0
    c = Canvas((2 * round(s) + 8, 2 * round(s) + 8), origin=(-s - 4, -s - 4))
    c.rounded_rect((-s - 2, -s - 2, s + 2, s + 2), 9, fill=WHITE)
    c.rounded_rect((-s, -s, s, s), 8, fill=BLACK)
    if kind == "U":
        c.text((0, 1), "U", size=32, bold=True, fill=WHITE)
    else:
        c.rounded_rect((-s * 0.62, -5.5, s * 0.62, 5.5), 2.5, fill=WHITE)
    return _trimmed(c.image())


def next_marker(colour: str) -> Image.Image:
    """Emphasis of a track's next expected colour: a thick ring in that colour."""
    r = TILE_R + 3
    c = _sprite_canvas(r)
    col = SPECTRUM[colour]
    c.circle((0, 0), r, fill=INK)
    c.circle((0, 0), r - 2.5, fill=col)
    c.circle((0, 0), r - 9, fill=INK)
    c.circle((0, 0), r - 11, fill=mix(col, WHITE, 0.8))
    c.circle((0, 0), 8, fill=col)
    return _trimmed(c.image())


def die_sprite(value: int, size: int = 74) -> Image.Image:
    c = Canvas((size + 8, size + 8), origin=(-4, -4))
    c.rounded_rect((0, 0, size, size), size * 0.18, fill=INK)
    c.rounded_rect((3, 3, size - 3, size - 3), size * 0.15, fill=WHITE)
    q = size / 4
    spots = {
        1: [(2, 2)],
        2: [(1, 1), (3, 3)],
        3: [(1, 1), (2, 2), (3, 3)],
        4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)],
        6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)],
    }.get(value, [])
    for i, j in spots:
        c.circle((i * q, j * q), size * 0.09, fill=INK)
    if not spots:
        c.text((size / 2, size / 2), str(value), size=round(size * 0.6), bold=True)
    return c.image()


# ---------------------------------------------------------------- dynamic parts


def _player_name(p: PlayerView, names: Mapping[int, str] | None, t: Translator) -> str:
    name = clean_text(names.get(p.player, "")) if names else ""
    return name or t("render.player", n=p.seat + 1)


def _placed(spec: Hashable, centre: Point) -> Placed:
    return PICTURE.place(spec, centre)


def _track_layers(view: View) -> list[Group]:
    """The sprites on the tracks in drawing order, grouped so that sprites whose ink
    may touch (the last tile and the block over it, or the ring of the next slot) are
    in one group."""
    groups: list[Group] = []
    show_next = view.phase != Phase.GAME_OVER
    for k, track in enumerate(view.tracks[:6], start=1):
        n = len(track.slots)
        last: list[Placed] = []
        for i, tile in enumerate(track.slots[:TRACK_LEN], start=1):
            kind = kind_of(tile)
            stands = expected_colour(k, i) if kind in ("W", "U") else None
            if last:
                groups.append(tuple(last))
            last = [_placed(("tile", kind, stands, TILE_R), slot_centre(k, i))]
        if n > TRACK_LEN:  # not a legal state; drawn as the renderer always did
            groups.append(tuple(last))
            last = []
        if track.block is not None:
            block = "U" if kind_of(track.block.tile) == "U" else "K"
            last.append(_placed(("block", block), block_centre(k, max(n, 1))))
        elif n < TRACK_LEN and show_next:
            marker = ("marker", expected_colour(k, n + 1))
            last.append(_placed(marker, slot_centre(k, n + 1)))
        if last:
            groups.append(tuple(last))
    present = {kind_of(t) for t in view.t7}
    for col in COLOURS:
        if col in present:
            groups.append((_placed(("tile", col, None, T7_TILE_R), t7_centre(col)),))
    return groups


def _turn_caption(view: View, t: Translator) -> tuple[str, str, bool]:
    """Two short lines under the dice: which tracks, and how many tiles on them; and
    whether the second is an alarm (a restriction or a double)."""
    modes = view.turn.modes
    main = sorted(k for k in modes if 1 <= k <= 6)
    centre = 7 in modes or view.turn.is_double
    if not main and not centre:
        return "", "", False
    key = "render.seven_tracks."
    if len(main) == 1:
        first = t(key + "track", k=main[0])
    elif main:
        first = t(key + "tracks", list=t(key + "and").join(map(str, main)))
    else:
        first = ""
    if centre:
        first = t(key + "and_centre", tracks=first) if first else t(key + "centre")
    dice = view.turn.dice
    alarm = True
    if view.turn.restricted:
        second = t(key + "only_one")
    elif dice == [6, 6] and view.store:
        second = t(key + "double_bonus")
    elif view.turn.is_double:
        second = t(key + "double")
    elif len(main) == 1 and modes[main[0]] == "sequence":
        second, alarm = t(key + "in_a_row"), False
    else:
        second, alarm = t(key + "one_each"), False
    return first, second, alarm


def _draw_turn(part: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    """Top left: whose turn (or who won)."""
    seats = {p.seat: p for p in view.players}
    x = 22
    key = "render.seven_tracks."
    if view.phase == Phase.GAME_OVER:
        over = t("render.game_over")
        part.text((x, 18), over, size=36, bold=True, fill=BAD, max_width=420)
        winners = [seats[s] for s in view.winners if s in seats]
        if winners:
            label = t(key + "winner" if len(winners) == 1 else key + "winners")
            part.text((x, 66), label, size=30, fill=INK_SOFT)
            who = ", ".join(_player_name(p, names, t) for p in winners)
            _pill(part, (x, 106), who, size=40, max_width=300)
    elif view.current is not None and view.current in seats:
        part.text((x, 18), t(key + "to_move"), size=30, fill=INK_SOFT)
        name = _player_name(seats[view.current], names, t)
        _pill(part, (x, 58), name, size=42, max_width=340)
        hint = _phase_hint(view, t)
        if view.turn.restricted and not view.turn.dice:
            restricted = t(key + "restricted")
            part.text(
                (x + 2, 128), restricted, size=28, bold=True, fill=BAD, max_width=260, min_size=22
            )
        elif hint:
            part.text((x + 2, 128), hint, size=28, fill=INK_SOFT, max_width=260, min_size=22)
    else:
        hint = _phase_hint(view, t) or t(key + "waiting")
        part.text((x, 18), hint, size=32, bold=True, max_width=400)
        if view.phase == Phase.FIRST_MOVE:
            part.text((x + 2, 62), t(key + "who_starts"), size=28, fill=INK_SOFT, max_width=340)


def _draw_dice(part: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    """Top right: the dice and what they allow."""
    dice = view.turn.dice
    right = WIDTH - 22
    if dice:
        size = 76
        gap = 14
        x0 = right - len(dice) * size - (len(dice) - 1) * gap
        for i, v in enumerate(dice):
            part.sprite(("die", v, size), (x0 + i * (size + gap) + size / 2, 18 + size / 2))
        first, second, alarm = _turn_caption(view, t)
        if first:
            part.text((right, 104), first, size=30, bold=True, anchor="ra", max_width=330)
        if second:
            part.text(
                (right, 142),
                second,
                size=28,
                bold=alarm,
                anchor="ra",
                max_width=250,
                fill=BAD if alarm else INK,
            )
    elif view.phase == Phase.PRE_MOVE and view.current is not None:
        dice_word = t("render.seven_tracks.dice")
        part.text((right, 20), dice_word, size=28, fill=INK_SOFT, anchor="ra", max_width=330)
        not_rolled = t("render.seven_tracks.not_rolled")
        part.text((right, 54), not_rolled, size=28, fill=INK_SOFT, anchor="ra", max_width=330)


def _draw_round(part: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    """Bottom left: the round (numbered through the whole game, so no cycle is needed)
    and the bank."""
    x, y = 22, BOARD_BOTTOM - 16
    round_no = t("render.seven_tracks.round", n=view.round_no)
    part.text((x, y), round_no, size=32, bold=True, anchor="ls")
    bank = t("render.seven_tracks.bank", n=view.bank_size)
    part.text((x, y - 46), bank, size=30, anchor="ls", max_width=330)  # the field's edge


def _draw_store(part: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    """Bottom right: the bonus store."""
    right, y = WIDTH - 22, BOARD_BOTTOM - 16
    whites = sum(1 for t in view.store if kind_of(t) == "W")
    univ = sum(1 for t in view.store if kind_of(t) == "U")
    store = t("render.seven_tracks.store")
    part.text((right, y - 52), store, size=28, fill=INK_SOFT, anchor="rs", max_width=300)
    xr = right
    for kind, count in (("U", univ), ("W", whites)):
        w = part.text(
            (xr, y + 2),
            f"×{count}",
            size=34,
            bold=True,
            anchor="rs",
            fill=INK if count else MUTED,
        )
        part.sprite(("tile", kind, None, 20), (xr - w - 26, y - 11))
        xr -= w + 70


def _pill(part: Surface, xy: tuple[int, int], text: str, *, size: int, max_width: int) -> None:
    """The name of the player to act, on a highlight-yellow pill."""
    text, size = fit_text(text, size, max_width, bold=True, min_size=28)
    w = text_width(text, size, True)
    x, y = xy
    h = size + 18
    part.rounded_rectangle(
        (x - 4, y, x + w + 24, y + h), radius=h // 2, fill=HIGHLIGHT, outline=INK, width=2
    )
    part.text((x + 10, y + h / 2 + 1), text, size=size, bold=True, anchor="lm", bg=HIGHLIGHT)


# The hint of each phase (locale keys), under the name of the player to act.
PHASE_HINT = {
    Phase.FIRST_MOVE: "first_move",
    Phase.PRE_MOVE: "pre_move",
    Phase.PLACING: "placing",
    Phase.POST_MOVE: "post_move",
    Phase.EXCHANGE: "exchange",
}


def _phase_hint(view: View, t: Translator) -> str:
    key = PHASE_HINT.get(view.phase)
    if key is None:
        return ""
    if view.phase == Phase.EXCHANGE and view.exchange_size:
        return t("render.seven_tracks.phase.exchange_n", n=view.exchange_size)
    return t(f"render.seven_tracks.phase.{key}")


def _status_line(view: View, t: Translator) -> tuple[str, RGB]:
    key = "render.seven_tracks."
    if view.phase == Phase.GAME_OVER:
        if view.single_round:
            return t(key + "played_one_round"), INK_SOFT
        return t(key + "played_to", n=view.target_score), INK_SOFT
    parts: list[str] = []
    colour = INK_SOFT
    if view.turn.restricted or view.restricted_left:
        n = view.restricted_left
        parts.append(t(key + "restricted_left", n=n) if n else t(key + "restricted_turn"))
        colour = BAD
    if view.turn.final or view.final_left:
        n = view.final_left
        parts.append(t(key + "final_left", n=n) if n else t(key + "final_turn"))
        colour = BAD
    if parts:
        return " · ".join(parts), colour
    if view.single_round:
        return t(key + "one_round"), INK_SOFT
    return t(key + "to_target", n=view.target_score), INK_SOFT


def _draw_players(
    part: Surface, view: View, names: Mapping[int, str] | None, t: Translator
) -> None:
    """Below the field: the status line and a card per player."""
    text, colour = _status_line(view, t)
    y = STATUS_TOP + STATUS_H // 2
    part.text(
        (WIDTH / 2, y), text, size=30, bold=True, fill=colour, anchor="mm", max_width=WIDTH - 40
    )
    winners = set(view.winners)
    for i, p in enumerate(view.players):
        x0, y0, x1, y1 = player_cell(i)
        current = view.current == p.seat and view.phase != Phase.GAME_OVER
        won = p.seat in winners
        gone = p.status == Status.ELIMINATED and not won
        card = HIGHLIGHT_SOFT if current else CARD_FILL
        if current:
            part.rounded_rectangle(
                (x0, y0, x1, y1), radius=14, fill=card, outline=HIGHLIGHT, width=4
            )
        else:
            part.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=card)
        ink = MUTED if gone else INK
        tx = x0 + 16
        mark = "▶" if current else ("★" if won else "")
        if mark:
            part.text(
                (tx, y0 + 27),
                mark,
                size=30,
                bold=True,
                fill=GOOD if won else INK,
                anchor="lm",
                bg=card,
            )
            tx += 38
        part.text(
            (tx, y0 + 27),
            _player_name(p, names, t),
            size=32,
            bold=True,
            fill=ink,
            anchor="lm",
            max_width=x1 - tx - 12,
            min_size=24,
            bg=card,
        )
        score = t("render.points", n=p.score)
        if won:
            state, scol = t("render.seven_tracks.state.winner"), GOOD
        elif p.status == Status.OUT:
            state, scol = t("render.seven_tracks.state.out"), GOOD
        elif gone:
            state, scol = t("render.seven_tracks.state.eliminated"), MUTED
        else:
            state = t("render.tiles", n=p.hand_count)
            scol = INK
        part.runs(
            (x0 + 16, y1 - 14),
            [
                (state, 28, p.status != Status.ACTIVE or won, scol),
                ("  ·  ", 28, False, ink),
                (score, 28, True, ink),
            ],
            max_width=x1 - x0 - 28,
            bg=card,
        )


# ---------------------------------------------------------------- entry points

# The parts of the picture with text: (left, top, right, bottom) in the picture and what
# draws there. Only static field is under them (tests check that the picture equals the
# one drawn whole), so each part can be drawn on its own.
_TOP = 176
_CORNER_TOP = BOARD_BOTTOM - 108
_BELOW = BOARD_BOTTOM + 4  # the field's picture ends here: only paper below
_PARTS = (
    ((0, 0, 452, _TOP), _draw_turn),
    ((548, 0, WIDTH, _TOP), _draw_dice),
    ((0, _CORNER_TOP, 452, _BELOW), _draw_round),
    ((548, _CORNER_TOP, WIDTH, _BELOW), _draw_store),
    ((0, _BELOW, WIDTH, 10**4), _draw_players),
)


def _lit(view: View) -> tuple[bool, tuple[Hashable, ...]]:
    """Whether the lanes are dimmed (dice rolled), and what is highlighted: main tracks
    1–6 and 7 for the centre, in drawing order."""
    modes = view.turn.modes
    lanes = tuple(k for k in sorted(modes) if 1 <= k <= 6)
    centre = 7 in modes or view.turn.is_double
    return bool(modes), tuple(map(_lit_item, lanes + ((7,) if centre else ())))


def _scene(view: View, names: Mapping[int, str] | None, language: str) -> Scene:
    t = get_translator(language)
    dim, lit = _lit(view)
    return Scene(
        height=image_size(len(view.players))[1],
        variant=dim,
        lit=lit,
        groups=_track_layers(view),
        parts=[(box, partial(fn, view=view, names=names, t=t)) for box, fn in _PARTS],
    )


def _palette_views() -> list[View]:
    """Synthetic states that between them show every colour the picture uses."""
    players = [
        PlayerView(seat=i, player=-1 - i, status=st, score=sc, hand_count=h)
        for i, (st, sc, h) in enumerate(
            [
                (Status.ACTIVE, 12, 7),
                (Status.OUT, 30, 0),
                (Status.ELIMINATED, 150, 0),
                (Status.ACTIVE, 3, 11),
                (Status.ACTIVE, 41, 2),
                (Status.ACTIVE, 0, 12),
            ]
        )
    ]
    tracks: list[Track] = []
    for k in range(1, 7):
        slots = [f"{expected_colour(k, i)}#{i:02d}" for i in range(1, k + 1)]
        if k >= 2:
            slots[1] = "W#01"
        if k >= 4:
            slots[3] = "U#01"
        block = Block(tile="U#02" if k % 2 else "K#01", by=0, turn=1) if k >= 3 else None
        tracks.append(Track(slots=slots, block=block))

    def view(phase: Phase, current: int | None, turn: dict[str, Any], winners: list[int]) -> View:
        return View(
            me=None,
            hand=None,
            players=players,
            tracks=tracks,
            t7=["R#1", "G#1", "V#1", "C#1"],
            store=["W#1", "U#1"],
            out_count=5,
            bank_size=30,
            phase=phase,
            current=current,
            turn=turn,
            exchange_size=None,
            restricted_left=1,
            final_left=0,
            round_no=1,
            cycle_no=1,
            target_score=144,
            single_round=False,
            last_round=None,
            winners=winners,
        )

    return [
        view(
            Phase.PLACING,
            0,
            {"dice": [1, 3], "modes": {1: "single", 3: "single", 5: "single"}, "restricted": True},
            [],
        ),
        view(
            Phase.PLACING,
            3,
            {
                "dice": [2, 2],
                "modes": {2: "single", 4: "single", 6: "single", 7: "single"},
                "is_double": True,
            },
            [],
        ),
        view(Phase.GAME_OVER, None, {}, [4]),
    ]


def _usual_groups() -> list[tuple[Group, tuple[Hashable, ...]]]:
    """The sprite groups of `_track_layers` that games show, each with the highlight
    that can be under it."""
    out: list[tuple[Group, tuple[Hashable, ...]]] = []
    for k in range(1, 7):
        for i in range(TRACK_LEN + 1):
            ends: list[Placed] = [_placed(("block", b), block_centre(k, max(i, 1))) for b in "KU"]
            if i < TRACK_LEN:
                ends.append(_placed(("marker", expected_colour(k, i + 1)), slot_centre(k, i + 1)))
            if i == 0:
                out.extend(((end,), (_lit_item(k),)) for end in ends)
                continue
            for kind in (expected_colour(k, i), "W", "U"):
                stands = None if kind not in ("W", "U") else expected_colour(k, i)
                tile = _placed(("tile", kind, stands, TILE_R), slot_centre(k, i))
                out.append(((tile,), (_lit_item(k),)))
                out.extend(((tile, end), (_lit_item(k),)) for end in ends)
    for col in COLOURS:
        out.append(((_placed(("tile", col, None, T7_TILE_R), t7_centre(col)),), (_lit_item(7),)))
    return out


def _warm_text(t: Translator) -> None:
    """Draw the text parts once for the numbers and captions games show (scores, tiles
    in hand, the bank, rounds, discarded tiles, what the dice allow), so that their text
    is cached: a running bot has met them all within its first games anyway."""
    players = [
        PlayerView(seat=i, player=i + 1, status=Status.ACTIVE, score=0, hand_count=0)
        for i in range(4)
    ]
    base = View(
        me=None,
        hand=None,
        players=players,
        tracks=[Track() for _ in range(6)],
        t7=[],
        store=[],
        out_count=0,
        bank_size=0,
        phase=Phase.PLACING,
        current=0,
        turn={},
        exchange_size=None,
        restricted_left=0,
        final_left=0,
        round_no=1,
        cycle_no=1,
        target_score=144,
        single_round=False,
        last_round=None,
        winners=[],
    )
    # The text parts show no dimmed lane nor highlight (the compositor's `under`).
    part = PICTURE.scratch(image_size(4), False)

    for s in range(0, 204, 4):  # scores 0..203 and 0..40 tiles in hand, on both cards
        cards = [
            p.model_copy(update={"score": s + i, "hand_count": (s // 4 + i) % 41})
            for i, p in enumerate(players)
        ]
        for current in range(4):
            view = base.model_copy(update={"players": cards, "current": current})
            _draw_players(part, view, None, t)
    for n in range(121):  # the bank, discarded tiles, rounds and cycles
        view = base.model_copy(
            update={"bank_size": n, "out_count": n, "round_no": 1 + n % 20, "cycle_no": 1 + n // 30}
        )
        _draw_round(part, view, None, t)
        _draw_players(part, view, None, t)
    for goal in ({"target_score": 72}, {"single_round": True}, {}):
        _draw_players(part, base.model_copy(update=goal), None, t)
        _draw_players(part, base.model_copy(update={**goal, "phase": Phase.GAME_OVER}), None, t)
    turns: list[TurnView] = []
    for a in range(1, 7):
        for b in range(a, 7):
            modes = {a: "single", b: "single"}
            turns.append(TurnView(dice=[a, b], modes=modes, is_double=a == b))
            turns.append(TurnView(dice=[a, b], modes={**modes, 7: "single"}))
            turns.append(TurnView(dice=[a], modes={a: "sequence"}))
            turns.append(TurnView(dice=[a, b], modes=modes, restricted=True))
    for turn in turns:
        _draw_dice(part, base.model_copy(update={"turn": turn}), None, t)
    for phase in Phase:
        _draw_turn(part, base.model_copy(update={"phase": phase}), None, t)
    for k in range(10):
        store = ["W#1"] * k + ["U#1"] * (9 - k)
        _draw_store(part, base.model_copy(update={"store": store}), None, t)


def warm_up() -> None:
    """Build every cache (board, sprites, palette, the patches of the usual sprites, the
    usual text) now, e.g. when the bot starts, so that the first picture of a game takes
    milliseconds rather than most of a second."""
    lanes = [(), *((a,) for a in range(1, 7)), *combinations(range(1, 7), 2)]
    # Dice allow one or two tracks, and maybe the centre; a double with no track yet.
    lit = [(True, tuple(map(_lit_item, (*on, 7)))) for on in lanes]
    lit.append((False, (_lit_item(7),)))
    groups: list[tuple[Group, Hashable, tuple[Hashable, ...]]] = []
    for group, on in _usual_groups():
        groups += [(group, False, ()), (group, True, ()), (group, True, on)]
    backgrounds = [(image_size(n)[1], dim) for n in range(2, 7, 2) for dim in (False, True)]
    PICTURE.warm(backgrounds=backgrounds, lit=lit, groups=groups)
    for language in LANGUAGES:
        _warm_text(get_translator(language))


def _fit_palette() -> Image.Image:
    """The fixed PNG palette of this game's pictures, fitted once."""
    return fit_palette([PICTURE.draw_rgb(v) for v in _palette_views()])


PICTURE = Compositor(
    width=WIDTH,
    field=lambda dim: FILES.get(
        f"board-{'dim' if dim else 'normal'}", lambda: _draw_board(bool(dim))
    ),
    variants=(False, True),
    overlays={"lane": _lit_lane, "centre": _lit_centre},
    sprites={"tile": tile_sprite, "block": block_sprite, "marker": next_marker, "die": die_sprite},
    palette=_fit_palette,
    scene=_scene,
    png_level=PNG_LEVEL,
)
# The entry points: `render(view, names, language=...)` the PNG, `draw` the picture on the
# palette, `draw_rgb` the same drawn whole, `palette()`, `encode(picture)`.
render, draw, draw_rgb = PICTURE.render, PICTURE.draw, PICTURE.draw_rgb
palette, encode = PICTURE.palette, PICTURE.encode
