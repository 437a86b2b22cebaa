"""The board of «Шестигранник – Семидорожник» as a phone-readable picture.

Drawn from the public `View` only (R73). The hexagonal field has the six main tracks as
spokes from the centre to the corners, numbered 1–6 clockwise from the top; each track's
slots run from its number badge (near the centre) outwards. The centre disc is track 7.
The corners of the picture hold whose turn it is, the dice, the round and the bank, the
bonus store; below the field run a status line and a card per player (two per row).

Entry points: `render(view, names)` -> PNG bytes; `draw` -> the Pillow image; `warm_up()`
builds the caches. Geometry helpers (`slot_centre`, `block_centre`, `t7_centre`,
`player_cell`, `image_size`) say where things are, for tests and for anyone overlaying.

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
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.seven_tracks.model import (
    COLOURS,
    TRACK_LEN,
    Block,
    Phase,
    PlayerView,
    Status,
    Track,
    View,
    expected_colour,
    kind_of,
)
from render.common import (
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
    Canvas,
    Point,
    clean_text,
    contrast_ink,
    draw_runs,
    draw_text,
    encode_png,
    fit_palette,
    fit_text,
    mix,
    new_image,
    paste_centred,
    plural,
    text_width,
)

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


@lru_cache(maxsize=2)
def _board(dim: bool) -> Image.Image:
    """The empty field (no tiles, nothing lit; `dim` lanes once dice are rolled), drawn once."""
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


def _background(n_players: int, dim: bool) -> Image.Image:
    img = new_image(image_size(n_players), PAPER)
    img.paste(_board(dim), (0, 0))
    return img


def _bbox(points: list[Point], pad: int) -> tuple[int, int, int, int]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (
        math.floor(min(xs)) - pad,
        math.floor(min(ys)) - pad,
        math.ceil(max(xs)) + pad,
        math.ceil(max(ys)) + pad,
    )


@lru_cache(maxsize=6)
def _lit_lane(track: int) -> tuple[Image.Image, tuple[int, int]]:
    """A highlighted lane as a sprite and its top-left position."""
    pts = [*_lane_points(track, 10), badge_centre(track)]
    x0, y0, x1, y1 = _bbox(pts, BADGE_R + 14)
    c = Canvas((x1 - x0, y1 - y0), origin=(x0, y0))
    _draw_lane(c, track, "lit")
    return c.image(), (x0, y0)


@lru_cache(maxsize=1)
def _lit_centre() -> tuple[Image.Image, tuple[int, int]]:
    r = CENTRE_R + 12
    c = Canvas((2 * r, 2 * r), origin=(CX - r, CY - r))
    _draw_centre(c, lit=True)
    return c.image(), (CX - r, CY - r)


# ---------------------------------------------------------------- sprites


def _sprite_canvas(radius: float) -> Canvas:
    s = math.ceil(radius) + 2
    return Canvas((2 * s, 2 * s), origin=(-s, -s))


@lru_cache(maxsize=64)
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
    return c.image()


@lru_cache(maxsize=4)
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
    return c.image()


@lru_cache(maxsize=16)
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
    return c.image()


@lru_cache(maxsize=8)
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


def _modes(turn: Mapping[str, Any]) -> dict[int, str]:
    raw = turn.get("modes") or {}
    out: dict[int, str] = {}
    for k, v in dict(raw).items():
        try:
            out[int(k)] = str(getattr(v, "value", v))
        except (TypeError, ValueError):
            continue
    return out


def _player_name(p: PlayerView, names: Mapping[int, str] | None) -> str:
    name = clean_text(names.get(p.player, "")) if names else ""
    return name or f"Игрок {p.seat + 1}"


def _draw_tracks(img: Image.Image, view: View) -> None:
    show_next = view.phase != Phase.GAME_OVER
    for k, track in enumerate(view.tracks[:6], start=1):
        n = len(track.slots)
        for i, tile in enumerate(track.slots[:TRACK_LEN], start=1):
            kind = kind_of(tile)
            stands = expected_colour(k, i) if kind in ("W", "U") else None
            paste_centred(img, tile_sprite(kind, stands), slot_centre(k, i))
        if track.block is not None:
            _draw_block(img, k, n, track.block)
        elif n < TRACK_LEN and show_next:
            paste_centred(img, next_marker(expected_colour(k, n + 1)), slot_centre(k, n + 1))


def _draw_block(img: Image.Image, track: int, n_slots: int, block: Block) -> None:
    kind = "U" if kind_of(block.tile) == "U" else "K"
    paste_centred(img, block_sprite(kind), block_centre(track, max(n_slots, 1)))


def _draw_t7(img: Image.Image, view: View) -> None:
    present = {kind_of(t) for t in view.t7}
    for col in COLOURS:
        if col in present:
            paste_centred(img, tile_sprite(col, None, T7_TILE_R), t7_centre(col))


def _turn_caption(view: View) -> tuple[str, str]:
    """Two short lines under the dice: which tracks, and how many tiles on them."""
    modes = _modes(view.turn)
    main = sorted(k for k in modes if 1 <= k <= 6)
    centre = 7 in modes or bool(view.turn.get("is_double"))
    if not main and not centre:
        return "", ""
    if len(main) == 1:
        first = f"дорожка {main[0]}"
    elif main:
        first = f"дорожки {' и '.join(map(str, main))}"
    else:
        first = ""
    if centre:
        first = f"{first} и центр" if first else "центр"
    dice = list(view.turn.get("dice") or [])
    if view.turn.get("restricted"):
        second = "только одна фишка"
    elif dice == [6, 6] and view.store:
        second = "дубль · бонус!"
    elif view.turn.get("is_double"):
        second = "дубль!"
    elif len(main) == 1 and modes[main[0]] == "sequence":
        second = "фишки подряд"
    else:
        second = "по одной фишке"
    return first, second


def _draw_corners(
    img: Image.Image, d: ImageDraw.ImageDraw, view: View, names: Mapping[int, str] | None
) -> None:
    # Top left: whose turn.
    seats = {p.seat: p for p in view.players}
    over = view.phase == Phase.GAME_OVER
    x = 22
    if over:
        draw_text(d, (x, 18), "Игра окончена", size=36, bold=True, fill=BAD, max_width=420)
        winners = [seats[s] for s in view.winners if s in seats]
        if winners:
            label = "Победитель:" if len(winners) == 1 else "Победители:"
            draw_text(d, (x, 66), label, size=30, fill=INK_SOFT)
            who = ", ".join(_player_name(p, names) for p in winners)
            _pill(d, (x, 106), who, size=40, max_width=300)
    elif view.current is not None and view.current in seats:
        draw_text(d, (x, 18), "Ходит:", size=30, fill=INK_SOFT)
        _pill(d, (x, 58), _player_name(seats[view.current], names), size=42, max_width=340)
        hint = _phase_hint(view)
        if view.turn.get("restricted") and not view.turn.get("dice"):
            draw_text(d, (x + 2, 128), "ход ограничен!", size=28, bold=True, fill=BAD)
        elif hint:
            draw_text(d, (x + 2, 128), hint, size=28, fill=INK_SOFT, max_width=260, min_size=22)
    else:
        draw_text(d, (x, 18), _phase_hint(view) or "Ожидание", size=32, bold=True, max_width=400)
        if view.phase == Phase.FIRST_MOVE:
            draw_text(d, (x + 2, 62), "кто начнёт кон?", size=28, fill=INK_SOFT)

    # Top right: the dice and what they allow.
    dice = [int(v) for v in view.turn.get("dice") or []]
    right = WIDTH - 22
    if dice:
        size = 76
        gap = 14
        x0 = right - len(dice) * size - (len(dice) - 1) * gap
        for i, v in enumerate(dice):
            paste_centred(
                img, die_sprite(v, size), (x0 + i * (size + gap) + size / 2, 18 + size / 2)
            )
        first, second = _turn_caption(view)
        if first:
            draw_text(d, (right, 104), first, size=30, bold=True, anchor="ra", max_width=330)
        if second:
            alarm = not second.startswith(("по", "фишки"))
            draw_text(
                d,
                (right, 142),
                second,
                size=28,
                bold=alarm,
                anchor="ra",
                max_width=250,
                fill=BAD if alarm else INK,
            )
    elif view.phase == Phase.PRE_MOVE and view.current is not None:
        draw_text(d, (right, 20), "кубики", size=28, fill=INK_SOFT, anchor="ra")
        draw_text(d, (right, 54), "не брошены", size=28, fill=INK_SOFT, anchor="ra")

    # Bottom left: round, cycle, bank.
    y = BOARD_BOTTOM - 16
    draw_text(
        d, (x, y), f"Кон {view.round_no} · цикл {view.cycle_no}", size=32, bold=True, anchor="ls"
    )
    bank = view.bank_size
    draw_text(
        d,
        (x, y - 46),
        f"В кассе: {bank} {plural(bank, 'фишка', 'фишки', 'фишек')}",
        size=30,
        anchor="ls",
    )
    # Bottom right: the bonus store.
    whites = sum(1 for t in view.store if kind_of(t) == "W")
    univ = sum(1 for t in view.store if kind_of(t) == "U")
    draw_text(d, (right, y - 52), "Бонусная касса", size=28, fill=INK_SOFT, anchor="rs")
    xr = right
    for kind, count in (("U", univ), ("W", whites)):
        w = draw_text(
            d,
            (xr, y + 2),
            f"×{count}",
            size=34,
            bold=True,
            anchor="rs",
            fill=INK if count else MUTED,
        )
        paste_centred(img, tile_sprite(kind, None, 20), (xr - w - 26, y - 11))
        xr -= w + 70


def _pill(
    d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, *, size: int, max_width: int
) -> None:
    """The name of the player to act, on a highlight-yellow pill."""
    text, size = fit_text(text, size, max_width, bold=True, min_size=28)
    w = text_width(text, size, True)
    x, y = xy
    h = size + 18
    d.rounded_rectangle(
        (x - 4, y, x + w + 24, y + h), radius=h // 2, fill=HIGHLIGHT, outline=INK, width=2
    )
    draw_text(d, (x + 10, y + h / 2 + 1), text, size=size, bold=True, anchor="lm")


def _phase_hint(view: View) -> str:
    if view.phase == Phase.FIRST_MOVE:
        return "Право первого хода"
    if view.phase == Phase.PRE_MOVE:
        return "выбирает кубики"
    if view.phase == Phase.PLACING:
        return "выставляет фишки"
    if view.phase == Phase.POST_MOVE:
        return "заканчивает ход"
    if view.phase == Phase.EXCHANGE:
        n = view.exchange_size or 0
        return f"замена фишек ({n})" if n else "замена фишек"
    return ""


def _status_line(view: View) -> tuple[str, RGB]:
    if view.phase == Phase.GAME_OVER:
        return f"Игра сыграна до {view.target_score} очков", INK_SOFT
    parts: list[str] = []
    colour = INK_SOFT
    if view.turn.get("restricted") or view.restricted_left:
        n = view.restricted_left
        parts.append(f"Ограниченных ходов осталось: {n}" if n else "Ход ограничен")
        colour = BAD
    if view.turn.get("final") or view.final_left:
        n = view.final_left
        parts.append(f"Последних ходов кона: {n}" if n else "Последний ход кона")
        colour = BAD
    if parts:
        return " · ".join(parts), colour
    goal = "Игра на один кон" if view.single_round else f"Игра до {view.target_score} очков"
    return f"{goal} · сброшено: {view.out_count}", INK_SOFT


def _draw_players(
    img: Image.Image, d: ImageDraw.ImageDraw, view: View, names: Mapping[int, str] | None
) -> None:
    text, colour = _status_line(view)
    draw_text(
        d,
        (WIDTH / 2, STATUS_TOP + STATUS_H / 2),
        text,
        size=30,
        bold=True,
        fill=colour,
        anchor="mm",
        max_width=WIDTH - 40,
    )
    winners = set(view.winners)
    for i, p in enumerate(view.players):
        x0, y0, x1, y1 = player_cell(i)
        current = view.current == p.seat and view.phase != Phase.GAME_OVER
        won = p.seat in winners
        gone = p.status == Status.ELIMINATED and not won
        if current:
            d.rounded_rectangle(
                (x0, y0, x1, y1), radius=14, fill=HIGHLIGHT_SOFT, outline=HIGHLIGHT, width=4
            )
        else:
            d.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=CARD_FILL)
        ink = MUTED if gone else INK
        tx = x0 + 16
        mark = "▶" if current else ("★" if won else "")
        if mark:
            draw_text(
                d, (tx, y0 + 27), mark, size=30, bold=True, fill=GOOD if won else INK, anchor="lm"
            )
            tx += 38
        draw_text(
            d,
            (tx, y0 + 27),
            _player_name(p, names),
            size=32,
            bold=True,
            fill=ink,
            anchor="lm",
            max_width=x1 - tx - 12,
            min_size=24,
        )
        score = f"{p.score} {plural(p.score, 'очко', 'очка', 'очков')}"
        if won:
            state, scol = "победитель", GOOD
        elif p.status == Status.OUT:
            state, scol = "вышел", GOOD
        elif gone:
            state, scol = "выбыл", MUTED
        else:
            state = f"{p.hand_count} {plural(p.hand_count, 'фишка', 'фишки', 'фишек')}"
            scol = INK
        draw_runs(
            d,
            (x0 + 16, y1 - 14),
            [
                (state, 28, p.status != Status.ACTIVE or won, scol),
                ("  ·  ", 28, False, ink),
                (score, 28, True, ink),
            ],
            max_width=x1 - x0 - 28,
        )


# ---------------------------------------------------------------- entry points


def draw(view: View, names: Mapping[int, str] | None = None) -> Image.Image:
    """The picture of `view` as an RGB image (see `render` for the bytes)."""
    modes = _modes(view.turn)
    img = _background(len(view.players), bool(modes))
    for k in sorted(modes):
        if 1 <= k <= 6:
            sprite, xy = _lit_lane(k)
            img.paste(sprite, xy, sprite)
    if 7 in modes or view.turn.get("is_double"):
        sprite, xy = _lit_centre()
        img.paste(sprite, xy, sprite)
    _draw_tracks(img, view)
    _draw_t7(img, view)
    d = ImageDraw.Draw(img)
    _draw_corners(img, d, view, names)
    _draw_players(img, d, view, names)
    return img


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


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The fixed PNG palette of this game's pictures, fitted once."""
    return fit_palette([draw(v) for v in _palette_views()])


def encode(img: Image.Image) -> bytes:
    """PNG bytes of a picture made by `draw`."""
    return encode_png(img, palette())


def warm_up() -> None:
    """Build every cache (board, sprites, palette) now, e.g. when the bot starts, so that
    the first picture of a game takes milliseconds rather than most of a second."""
    palette()
    for k in range(1, 7):
        _lit_lane(k)
    _lit_centre()


def render(view: View, names: dict[int, str] | None = None) -> bytes:
    """PNG bytes of the table picture for the public `view`.

    `names` maps player ids (`PlayerView.player`) to display names; a missing one is
    shown as "Игрок N" (N = seat + 1). The same view and names give the same bytes.
    """
    return encode(draw(view, names))
