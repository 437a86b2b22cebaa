"""The board of «Гипнозия» as a phone-readable picture.

One module, over 400 lines, on purpose: the game's geometry, the pieces it declares to
the compositor and its scene read each other's constants at every line; split, each
part would import all the others.

Drawn from the public `View` only. A phone 360 px wide shows the picture 287 px wide, so
everything a player reads is set in `TYPE` (44 px) or larger: a digit is 33 px tall here,
9.5 px there (issue 31; `labels` lists them, tests/render/test_hypnosia_labels.py checks
their size and that none lies over another). Three concentric rings (outer 1, middle 2,
inner 3) without numbers — nothing a player reads names a cell: bridge cells are split in
two colours with a dark arrow pointing inwards; the centre holds the five fields
5·4·3·2·1 (taken ones in the holder's colour). Each player's four start positions are
discs on a lane outside the outer ring, in the four steps before his entry cell (a token
on start position №i is i steps from the entry, R8), the lane ending in an arrow into the
entry. A token is a disc in its owner's colour with its number; a pair is two smaller
discs one above the other across the ring. While a player moves, each legal move's mark —
the one its button spells, «2+5» for «№2 +5», «1↴3», «1&3+4» — stands on the cell (or
centre field) it lands on, red for a capture, or as near as it fits without covering a
token or another mark, with a pointer to the cell. Above the board: whose turn it is and
the dice (a used die greyed); below it three notes on reading it, then every player with
his score (the caption has the details).

Example:
    >>> from games.hypnosia import GAME
    >>> v = GAME.view(GAME.new(players=[1, 2], seed=1), None)
    >>> render(v, {1: "Аня", 2: "Борис"})[:4] == b"\\x89PNG"
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping
from functools import partial
from typing import NamedTuple, cast

from PIL import Image, ImageChops, ImageDraw

from games.hypnosia.model import (
    CENTRE_VALUES,
    COLOURS,
    RING_SIZES,
    START,
    EndReason,
    Phase,
    View,
    bridge_target,
    entry,
    is_bridge,
    parse_cell,
)
from locales import DEFAULT_LANGUAGE, LANGUAGES, Translator, get_translator
from render.colours import HIGHLIGHT, INK, INK_SOFT, MUTED, PAPER, RGB, WHITE, contrast_ink, mix
from render.compositor import Compositor, Scene
from render.palette import fit_flat_palette
from render.shapes import Canvas, disc, paste
from render.surface import Group, Placed, RGBSurface, Surface
from render.text import clean_text, draw_text, drawable, fit_text_cached, font, text_width

WIDTH = 1000
PAD = 22
TYPE = 44  # the least type a player reads: a digit 33 px tall, 9.5 px on a phone
HEADER = 146
BOARD = 980  # the square the board is drawn in
NOTE_ROW = 52
NOTES = 3  # lines of notes under the board
NOTES_H = NOTES * NOTE_ROW + 4
LEGEND_ROW = 62
CX = WIDTH / 2
CY = HEADER + BOARD / 2

# Ring k: centre radius of the band, half-width of the band (the bands touch).
RADIUS: dict[int, float] = {1: 390.0, 2: 294.0, 3: 198.0}
HALF = 48.0
CENTRE_R = 146.0
FIELD_R = 38.0
FIELD_RING = 86.0
TOKEN_R = 30.0
PAIR_R = 23.5  # each token of a pair...
PAIR_OFF = 24.0  # ...this far out and in from the ring's middle
START_RING = 466.0  # the lane of the start positions
START_R = 23.5
TITLE_SIZE = 48

PLAYER_RGB: dict[str, RGB] = {
    "red": (222, 45, 45),
    "orange": (245, 130, 0),
    "yellow": (250, 208, 30),
    "green": (46, 150, 60),
    "blue": (30, 90, 210),
    "purple": (140, 50, 175),
}
RING_RGB: dict[int, RGB] = {1: (236, 222, 194), 2: (206, 226, 206), 3: (222, 210, 238)}
CENTRE_RGB: RGB = (70, 62, 92)
BOARD_RGB: RGB = (250, 246, 236)
EDGE: RGB = (150, 136, 112)
ARROW_RGB: RGB = (70, 60, 50)

END_TEXT: dict[EndReason, str] = {  # locale keys
    EndReason.CENTRE_FULL: "render.hypnosia.end.centre_full",
    EndReason.NO_TOKENS: "render.hypnosia.end.no_tokens",
    EndReason.ROUND_LIMIT: "render.hypnosia.end.round_limit",
    EndReason.LAST_RACER: "render.hypnosia.end.last_racer",
    EndReason.PLAYERS_LEFT: "render.players_left",
}

Box = tuple[float, float, float, float]  # left, top, right, bottom
DECORATION = frozenset({"★"})  # drawn, not read: the centre's star


class Label(NamedTuple):
    """Something a player reads on the picture: its kind (`header`, `note`, `token`,
    `field`, `tag`, `legend`), its text and type, and the box it covers (its ink; a
    move's mark: its frame)."""

    kind: str
    text: str
    size: int
    bold: bool
    box: Box


# ---------------------------------------------------------------- geometry


def angle(k: int, j: float) -> float:
    """§3.1: degrees counter-clockwise from east of cell `k.j`'s middle."""
    return 90.0 + (j + 0.5) * 360.0 / RING_SIZES[k]


def polar(radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return CX + radius * math.cos(a), CY - radius * math.sin(a)


def cell_xy(cell: str) -> tuple[float, float]:
    """Pixel centre of ring cell `k.j`."""
    kj = parse_cell(cell)
    assert kj is not None
    k, j = kj
    return polar(RADIUS[k], angle(k, j))


def start_xy(board_seat: int, i: int) -> tuple[float, float]:
    """Pixel centre of start position №i (1…4) of a board seat: on the lane outside the
    outer ring, beside the cell i steps before the entry (R8: a die of d takes it to the
    cell d − i steps after the entry)."""
    return polar(START_RING, angle(1, entry(board_seat) - i))


def field_xy(value: int) -> tuple[float, float]:
    """Centre field of `value`: 5 at the top, then 4, 3, 2, 1 clockwise (§3.5)."""
    i = CENTRE_VALUES.index(value)
    return polar(FIELD_RING, 90.0 - i * 72.0)


def legend_top() -> int:
    return HEADER + BOARD + NOTES_H


def image_size(view: View) -> tuple[int, int]:
    rows = (len(view.players) + 1) // 2
    return WIDTH, legend_top() + rows * LEGEND_ROW + PAD


# ---------------------------------------------------------------- helpers


def _name(view: View, seat: int, names: Mapping[int, str] | None, t: Translator) -> str:
    pid = view.players[seat].player
    if names and pid in names and clean_text(names[pid]):
        return clean_text(names[pid])
    return t("render.player", n=seat + 1)


def _colour(view: View, seat: int) -> RGB:
    return PLAYER_RGB.get(view.players[seat].colour, INK_SOFT)


def _ink(
    kind: str, text: str, size: int, bold: bool, xy: tuple[float, float], anchor: str
) -> Label:
    """The label of `text` drawn at `xy` with `anchor`: the box of its ink."""
    left, top, right, bottom = font(size, bold).getbbox(drawable(text, bold), anchor=anchor)
    return Label(kind, text, size, bold, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom))


def _sector(k: int, j: int, r0: float, r1: float, steps: int = 6) -> list[tuple[float, float]]:
    """The polygon of cell `k.j` between radii r0 < r1."""
    n = RING_SIZES[k]
    a0 = 90.0 + j * 360.0 / n
    a1 = a0 + 360.0 / n
    outer = [polar(r1, a0 + (a1 - a0) * s / steps) for s in range(steps + 1)]
    inner = [polar(r0, a1 - (a1 - a0) * s / steps) for s in range(steps + 1)]
    return outer + inner


def _arrow_head(
    c: Canvas, tip: tuple[float, float], back: tuple[float, float], size: float
) -> None:
    """A filled arrowhead at `tip`, pointing away from `back`."""
    ux, uy = tip[0] - back[0], tip[1] - back[1]
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    wing = size * 0.7
    c.polygon(
        [
            (tip[0] + ux * 4, tip[1] + uy * 4),
            (tip[0] - ux * size - uy * wing, tip[1] - uy * size + ux * wing),
            (tip[0] - ux * size + uy * wing, tip[1] - uy * size - ux * wing),
        ],
        fill=ARROW_RGB,
    )


def _board_layer() -> Image.Image:
    """Everything that never changes: rings, bridges and their arrows, the centre disc
    (drawn once, into the cached field)."""
    c = Canvas((WIDTH, BOARD), origin=(0, HEADER), scale=3)
    c.circle((CX, CY), RADIUS[1] + HALF + 5, fill=EDGE)
    c.circle((CX, CY), RADIUS[1] + HALF + 2, fill=BOARD_RGB)
    for k in (1, 2, 3):
        r0, r1 = RADIUS[k] - HALF, RADIUS[k] + HALF
        c.circle((CX, CY), r1, fill=EDGE)
        for j in range(RING_SIZES[k]):
            pts = _sector(k, j, r0 + 1.2, r1 - 1.2)
            if is_bridge(k, j):
                # half in its ring's colour (outer), half in the next ring's (inner)
                inner_rgb = RING_RGB[k + 1] if k < 3 else mix(CENTRE_RGB, WHITE, 0.55)
                c.polygon(_sector(k, j, RADIUS[k], r1 - 1.2), fill=RING_RGB[k])
                c.polygon(_sector(k, j, r0 + 1.2, RADIUS[k]), fill=inner_rgb)
                c.polygon(pts, outline=ARROW_RGB, width=3)
            else:
                c.polygon(pts, fill=RING_RGB[k])
        c.circle((CX, CY), r0, fill=EDGE)
    # bridges: an arrow from the bridge cell to its target (or into the centre)
    for k in (1, 2, 3):
        for j in range(RING_SIZES[k]):
            if not is_bridge(k, j):
                continue
            a = angle(k, j)
            target = bridge_target(k, j)
            if target is None:
                end_r, end_a = CENTRE_R - 4, a
            else:
                end_r, end_a = RADIUS[target[0]] + HALF - 10, angle(*target)
            start = polar(RADIUS[k] - HALF * 0.2, a)
            tip = polar(end_r, end_a)
            mid = polar(end_r + 16, end_a)
            c.line([start, mid], fill=ARROW_RGB, width=5)
            _arrow_head(c, tip, mid, 14)
    c.circle((CX, CY), CENTRE_R, fill=CENTRE_RGB, outline=EDGE, width=4)
    return c.image()


# ---------------------------------------------------------------- the field and the pieces

# A picture is assembled on the game's palette from cached pieces (`render/compositor.py`).
# The board is the field (with the notes under it, per language); whatever sits at a
# fixed place over it (start lanes, centre fields, dice, the header's disc) is an overlay
# of exactly the pixels it changes; tokens are sprites over the board, a move's mark an
# opaque stamp, text a patch over the flat colour under it. `warm_up` builds them all, so
# a new state draws nothing supersampled.


def note_labels(t: Translator) -> list[Label]:
    """The notes under the board: how tokens move, what a bridge is, what a mark says."""
    out = []
    for i, key in enumerate(("direction", "bridge", "tag")):
        xy = _note_xy(i)
        text, size = fit_text_cached(
            t(f"render.hypnosia.note.{key}"), TYPE, WIDTH - 2 * PAD, False, TYPE
        )
        out.append(_ink("note", text, size, False, xy, "lm"))
    return out


def _note_xy(i: int) -> tuple[int, int]:
    return PAD, HEADER + BOARD + NOTE_ROW // 2 + i * NOTE_ROW


def _field(language: Hashable) -> Image.Image:
    """The board; with a language, the notes under it in it."""
    img = Image.new("RGB", (WIDTH, HEADER + BOARD + NOTES_H), PAPER)
    paste(img, _board_layer(), (0, HEADER))
    d = ImageDraw.Draw(img)
    draw_text(d, (CX, CY + 6), "★", size=30, fill=mix(CENTRE_RGB, WHITE, 0.5), anchor="mm")
    if language is not None:
        t = get_translator(cast(str, language))
        for i, note in enumerate(note_labels(t)):
            draw_text(d, _note_xy(i), note.text, size=note.size, fill=INK_SOFT, anchor="lm")
    return img


def _disc(
    img: Image.Image,
    centre: tuple[float, float],
    radius: float,
    fill: RGB,
    outline: RGB | None = INK,
    width: float = 2.5,
) -> None:
    disc(img, centre, radius, fill, outline, width)


def _changes(paint: Callable[[Image.Image], None]) -> tuple[Image.Image, tuple[int, int]]:
    """The pixels `paint` changes on the board without words, as an opaque sprite, and
    where it goes: pasted over the board it gives exactly what `paint` draws."""
    before = PICTURE.field(None)
    after = before.copy()
    paint(after)
    box = ImageChops.difference(before, after).getbbox() or (0, 0, 1, 1)
    sprite = after.crop(box).convert("RGBA")
    r, g, b = ImageChops.difference(before.crop(box), sprite.convert("RGB")).split()
    changed = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v else 0)
    sprite.putalpha(changed)
    return sprite, (box[0], box[1])


def _number_xy(xy: tuple[float, float], radius: float) -> tuple[int, int]:
    """Where a token's number is anchored (its middle) when the token is centred on
    `xy`: the token is drawn on the nearest pixel corner, its number a pixel low."""
    return round(xy[0]), round(xy[1]) + 1


def _token_sprite(colour: RGB, number: int, radius: float, ring: RGB | None) -> Image.Image:
    """A token centred on the sprite's middle (a pixel corner): a disc in its owner's
    colour with its number, ringed (a dark rim, then `ring`) when its owner is to act."""
    half = math.ceil(radius) + 10
    c = Canvas((2 * half, 2 * half), origin=(-half, -half))
    if ring is not None:  # a dark rim keeps the ring visible around a yellow token
        c.circle((0, 0), radius + 7, fill=INK)
        c.circle((0, 0), radius + 5, fill=ring)
    c.circle((0, 0), radius, fill=colour, outline=INK, width=2.5)
    sprite = c.image()
    d = ImageDraw.Draw(sprite)
    draw_text(d, (half, half + 1), str(number), size=TYPE, bold=True,
              fill=contrast_ink(colour), anchor="mm")  # fmt: skip
    return sprite


def _token(
    xy: tuple[float, float],
    colour: RGB,
    number: int,
    radius: float = TOKEN_R,
    ring: RGB | None = None,
) -> Placed:
    # Centred on the nearest pixel corner: half a pixel is not visible, and a sprite per
    # cell and colour would be too many to draw up front.
    half = math.ceil(radius) + 10
    return ("token", colour, number, radius, ring), round(xy[0]) - half, round(xy[1]) - half


class _Piece(NamedTuple):
    """A token where it is drawn: its centre, radius, number, owner's seat."""

    xy: tuple[float, float]
    radius: float
    number: int
    seat: int
    ring: bool  # its owner is to act


def _pieces(view: View) -> list[_Piece]:
    """Every token on the board: at home (on its start disc), then on the rings (a pair
    one disc out and one in across the ring)."""
    out: list[_Piece] = []
    for p in view.players:
        for i in range(1, 5):
            if p.tokens[i - 1] == START:
                out.append(_Piece(start_xy(p.board_seat, i), START_R, i, p.seat, False))
    for cell, cv in sorted(view.board.items()):
        kj = parse_cell(cell)
        if kj is None:
            continue
        k, j = kj
        ring = cv.seat == view.current
        if len(cv.tokens) == 1:
            out.append(_Piece(cell_xy(cell), TOKEN_R, cv.tokens[0], cv.seat, ring))
        else:
            a = angle(k, j)
            for n, dr in zip(cv.tokens[:2], (+PAIR_OFF, -PAIR_OFF), strict=False):
                out.append(_Piece(polar(RADIUS[k] + dr, a), PAIR_R, n, cv.seat, ring))
    return out


def _tokens(view: View) -> list[Group]:
    """The tokens as sprites, in groups of those whose ink may touch."""
    placed = [
        _token(t.xy, _colour(view, t.seat), t.number, t.radius, HIGHLIGHT if t.ring else None)
        for t in _pieces(view)
    ]
    return PICTURE.touching([(p,) for p in placed])


# ---------------------------------------------------------------- parts


def _paint_start_lane(img: Image.Image, board_seat: int, col: RGB) -> None:
    """A player's start lane: four discs outside the outer ring beside the four cells
    before his entry, joined by a line that turns into his entry cell (an arrow)."""
    e = entry(board_seat)
    a0, a1 = angle(1, e - 4), angle(1, e)
    around = [polar(r, a0 + (a1 - a0) * k / 8) for k in range(-1, 10) for r in (420, 500)]
    x0, y0 = (math.floor(min(p[i] for p in around)) for i in (0, 1))
    x1, y1 = (math.ceil(max(p[i] for p in around)) for i in (0, 1))
    c = Canvas((x1 - x0, y1 - y0), origin=(x0, y0), scale=3)  # the lane's box alone
    lane = mix(col, INK, 0.2)
    c.arc((CX, CY), START_RING + 3, -a1, -a0, fill=lane, width=6)
    outer, inner = polar(START_RING, a1), polar(RADIUS[1] + HALF + 12, a1)
    c.line([outer, inner], fill=lane, width=6)
    _arrow_head(c, polar(RADIUS[1] + HALF + 2, a1), inner, 14)
    for i in range(1, 5):
        c.circle(start_xy(board_seat, i), START_R, fill=mix(col, WHITE, 0.72),
                 outline=mix(col, INK, 0.3), width=2.5)  # fmt: skip
    paste(img, c.image(), (x0, y0))


# ---------------------------------------------------------------- move marks

TAG_SIZE = TYPE
TAG_H = 60
CAPTURE_RGB: RGB = (200, 30, 30)


def _tag_edge(col: RGB) -> RGB:
    return mix(col, INK, 0.15)


def _tag_width(text: str) -> int:
    return max(TAG_H, text_width(text, TAG_SIZE, True) + 22)


def _tag_sprite(text: str, captures: bool, edge: RGB) -> Image.Image:
    """A move's mark (its button's `2+5`): bold text on white in a frame of the mover's
    colour (red text and frame for a capture); an opaque sprite."""
    w = _tag_width(text)
    sprite = Image.new("RGBA", (w + 1, TAG_H + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, w, TAG_H), radius=10, fill=INK)
    d.rounded_rectangle((2, 2, w - 2, TAG_H - 2), radius=9, fill=edge)
    d.rounded_rectangle((6, 6, w - 6, TAG_H - 6), radius=6, fill=WHITE)
    draw_text(d, (w / 2, TAG_H / 2 + 1), text, size=TAG_SIZE, bold=True,
              fill=CAPTURE_RGB if captures else INK, anchor="mm")  # fmt: skip
    return sprite


def _tag_spot(dest: str, fields: list[int]) -> tuple[float, float]:
    """The destination's centre: a ring cell, or the centre field it takes."""
    if dest == "C":
        return field_xy(fields[0]) if fields else (CX, CY)
    return cell_xy(dest)


class Mark(NamedTuple):
    """A move's mark where it stands: its text, whether it captures, its top-left corner
    and the destination it points at (when it does not stand on it), and the radius of
    what stands there (a token, a centre field: the pointer stops at its rim)."""

    text: str
    captures: bool
    x: int
    y: int
    dest: tuple[float, float] | None
    rim: float


# Where a mark may stand, nearest first: offsets by distance, then by direction (the
# outward one first, then turning either way).
_STEPS = (0, 18, 36, 54, 72, 90, 110, 130, 155, 180, 210, 240, 275, 310)
_TURNS = (0, 20, -20, 40, -40, 60, -60, 80, -80, 100, -100, 125, -125, 150, -150, 180)


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(
    p: tuple[float, float], q: tuple[float, float], c: tuple[float, float], r: float
) -> bool:
    """Whether the segment p–q passes within `r` of `c`."""
    px, py = q[0] - p[0], q[1] - p[1]
    length = px * px + py * py or 1.0
    u = max(0.0, min(1.0, ((c[0] - p[0]) * px + (c[1] - p[1]) * py) / length))
    return math.hypot(p[0] + u * px - c[0], p[1] + u * py - c[1]) < r


def move_marks(view: View) -> list[Mark]:
    """Each legal move's mark, the same mark its button reads («2+5» = «№2 +5»): on the
    cell (or centre field) it lands on when it fits there, else as near as it fits, never
    over a token, a start disc, a centre field or another mark, with a pointer to it."""
    seat = view.current
    if seat is None or view.phase is not Phase.MOVE or not view.moves:
        return []
    discs = [(t.xy, t.radius + (7 if t.ring else 3)) for t in _pieces(view)]
    for p in view.players:  # the start lanes' empty discs too
        for i in range(1, 5):
            discs.append((start_xy(p.board_seat, i), START_R + 3))
    discs += [(field_xy(v), FIELD_R + 3) for v in CENTRE_VALUES]
    solid = [(x - r, y - r, x + r, y + r) for (x, y), r in discs]
    spots = {m.dest: _tag_spot(m.dest, m.fields) for m in view.moves}
    out: list[Mark] = []
    taken: list[Box] = []
    for m in sorted(view.moves, key=lambda m: (m.dest, m.code)):  # one cell's after another
        x, y = _tag_spot(m.dest, m.fields)
        w = _tag_width(m.tag)
        out_dir = math.degrees(math.atan2(-(y - CY), x - CX)) if (x, y) != (CX, CY) else 90.0
        best: tuple[int, int] | None = None
        for step in _STEPS:
            for turn in (0,) if step == 0 else _TURNS:
                a = math.radians(out_dir + turn)
                cx, cy = x + step * math.cos(a), y - step * math.sin(a)
                left, top = round(cx) - w // 2, round(cy) - TAG_H // 2
                box = (left - 2, top - 2, left + w + 3, top + TAG_H + 3)
                if box[0] < 4 or box[2] > WIDTH - 4 or box[1] < HEADER or box[3] > HEADER + BOARD:
                    continue
                if any(_boxes_meet(box, b) for b in solid) or any(
                    _boxes_meet(box, b) for b in taken
                ):
                    continue
                if any(  # another move's cell stays in sight: a mark names one cell
                    _boxes_meet(box, (sx - 12, sy - 12, sx + 12, sy + 12))
                    for dest, (sx, sy) in spots.items()
                    if dest != m.dest
                ):
                    continue
                if step and any(
                    _crosses((x, y), (cx, cy), c, r - 3)
                    for c, r in discs
                    if math.hypot(c[0] - x, c[1] - y) > r
                ):
                    continue  # its pointer would cross a token
                best = left, top
                break
            if best is not None:
                break
        if best is None:  # (nowhere free near: on its cell)
            best = round(x) - w // 2, round(y) - TAG_H // 2
        left, top = best
        taken.append((left - 2, top - 2, left + w + 3, top + TAG_H + 3))
        on_it = left <= x <= left + w and top <= y <= top + TAG_H
        rim = max((r for c, r in discs if math.hypot(c[0] - x, c[1] - y) < r), default=0.0)
        out.append(Mark(m.tag, m.captures > 0, left, top, None if on_it else (x, y), rim))
    return out


def _draw_targets(s: Surface, view: View) -> None:
    """The moves' marks, pointers first (under every mark)."""
    marks = move_marks(view)
    if not marks:
        return
    edge = _tag_edge(_colour(view, cast(int, view.current)))
    for m in marks:
        if m.dest is not None:
            x, y = m.dest
            w = _tag_width(m.text)
            tx, ty = m.x + w / 2, m.y + TAG_H / 2
            if m.rim:  # a token or a field stands there: the pointer stops at its rim
                d = math.hypot(tx - x, ty - y) or 1.0
                x, y = x + (tx - x) * m.rim / d, y + (ty - y) * m.rim / d
            s.line([(x, y), (tx, ty)], fill=INK, width=4)
            if not m.rim:
                s.ellipse((x - 7, y - 7, x + 7, y + 7), fill=INK)
    for m in marks:
        s.stamp(("tag", m.text, m.captures, edge), (m.x, m.y))


def _paint_field(img: Image.Image, value: int, col: RGB | None) -> None:
    """A centre field: free (light, its value in white) or in its holder's colour."""
    d = ImageDraw.Draw(img)
    xy = field_xy(value)
    if col is None:
        _disc(img, xy, FIELD_R, mix(CENTRE_RGB, WHITE, 0.2), mix(CENTRE_RGB, WHITE, 0.55), 3)
        draw_text(d, (xy[0], xy[1] + 2), str(value), size=TYPE, bold=True, fill=WHITE,
                  anchor="mm")  # fmt: skip
    else:
        _disc(img, xy, FIELD_R, col, WHITE, 4)
        draw_text(d, (xy[0], xy[1] + 2), str(value), size=TYPE, bold=True,
                  fill=contrast_ink(col), anchor="mm")  # fmt: skip


def _die_xy(i: int) -> tuple[int, int]:
    return WIDTH - PAD - 32 - (1 - i) * 78, 48


def _paint_die(img: Image.Image, xy: tuple[float, float], value: int, used: bool) -> None:
    d = ImageDraw.Draw(img)
    x, y = xy
    s = 30
    fill = mix(WHITE, PAPER, 0.6) if used else WHITE
    pip = MUTED if used else INK
    d.rounded_rectangle((x - s, y - s, x + s, y + s), radius=12, fill=fill, outline=pip, width=3)
    spots = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }[value]
    for sx, sy in spots:
        _disc(img, (x + sx * 15, y + sy * 15), 6, pip, None, 0)
    if used:
        d.line([(x - s + 6, y + s - 6), (x + s - 6, y - s + 6)], fill=MUTED, width=4)


def _status(view: View, names: Mapping[int, str] | None, t: Translator) -> tuple[str, str]:
    if view.phase is Phase.GAME_OVER:
        seats = [p.seat for p in view.players if p.player in view.winners]
        who = ", ".join(_name(view, s, names, t) for s in seats)
        title = t("render.draw" if len(seats) > 1 else "render.win", who=who)
        key = END_TEXT.get(view.end_reason) if view.end_reason else None
        if key is None:
            return title, t("render.game_over")
        return title, t("render.game_over_because", reason=t(key))
    seat = view.current
    if seat is None:
        return "", ""
    title = t("render.to_move", name=_name(view, seat, names, t))
    if view.phase is Phase.ROLL:
        line = t("render.rolls")
    elif len(view.unused) == 2:
        line = t("render.hypnosia.two_dice")
    else:
        line = t("render.hypnosia.one_die")
    return title, t("render.hypnosia.round_line", n=view.round_no, line=line)


class _Text(NamedTuple):
    """A line of text fitted where it goes: its label, where and how it is drawn."""

    label: Label
    xy: tuple[float, float]
    anchor: str
    fill: RGB
    bg: RGB


def _text(
    kind: str,
    xy: tuple[float, float],
    text: str,
    size: int,
    bold: bool,
    anchor: str,
    fill: RGB,
    bg: RGB,
    max_width: int | None = None,
) -> _Text:
    if max_width is not None:
        text, size = fit_text_cached(text, size, max_width, bold, TYPE)
    return _Text(_ink(kind, text, size, bold, xy, anchor), xy, anchor, fill, bg)


def _header(view: View, names: Mapping[int, str] | None, t: Translator) -> list[_Text]:
    title, line = _status(view, names, t)
    x = PAD
    if view.current is not None and view.phase is not Phase.GAME_OVER:
        x += 52  # the disc of the player to act: an overlay
    right = _die_xy(0)[0] - 44 if view.dice else WIDTH - PAD
    out = []
    if title:
        out.append(_text("header", (x, 48), title, TITLE_SIZE, True, "lm", INK, PAPER,
                         right - x))  # fmt: skip
    if line:
        out.append(_text("header", (PAD, 112), line, TYPE, False, "lm", INK_SOFT, PAPER,
                         WIDTH - 2 * PAD))  # fmt: skip
    return out


def _dice(view: View) -> list[Hashable]:
    """The dice of the header, as overlays: a die is used when its value is no longer
    unused."""
    left = list(view.unused)
    out: list[Hashable] = []
    for i, v in enumerate(view.dice):
        used = v not in left
        if not used:
            left.remove(v)
        out.append(("die", i, v, used))
    return out


def _legend_seats(view: View) -> list[int]:
    if view.phase is Phase.GAME_OVER:
        return [p.seat for p in sorted(view.players, key=lambda p: (p.place or 99, p.seat))]
    n = len(view.players)
    return [(view.first + i) % n for i in range(n)]


class _Row(NamedTuple):
    """A player's line under the board: its box, highlight, score box and texts."""

    box: tuple[int, int, int, int]
    bg: RGB
    highlit: bool
    score_box: tuple[int, int, int, int]
    colour: RGB
    texts: list[_Text]


def _legend(view: View, names: Mapping[int, str] | None, t: Translator) -> list[_Row]:
    top = legend_top()
    seats = _legend_seats(view)
    rows = (len(seats) + 1) // 2
    col_w = (WIDTH - 2 * PAD) // 2
    over = view.phase is Phase.GAME_OVER
    out = []
    for i, seat in enumerate(seats):
        p = view.players[seat]
        x = PAD + (i // rows) * col_w
        y = top + (i % rows) * LEGEND_ROW
        ym = y + (LEGEND_ROW - 8) // 2
        acting = seat == view.current and not over
        winner = over and p.player in view.winners
        bg = HIGHLIGHT if acting or winner else PAPER
        col = _colour(view, seat)
        texts = []
        box_x = x + 8
        if over:
            texts.append(_text("legend", (x + 22, ym + 1), str(p.place or ""), TYPE, True, "mm",
                               INK_SOFT, bg))  # fmt: skip
            box_x = x + 46
        score_box = (box_x, ym - 26, box_x + 96, ym + 26)
        texts.append(_text("legend", (box_x + 48, ym + 1), str(p.score).replace("-", "−"), TYPE,
                           True, "mm", contrast_ink(col), col))  # fmt: skip
        tx = box_x + 108
        texts.append(_text("legend", (tx, ym + 1), _name(view, seat, names, t), TYPE,
                           acting or winner, "lm", MUTED if p.left else INK, bg,
                           x + col_w - 18 - tx))  # fmt: skip
        row_box = (x, y, x + col_w - 12, y + LEGEND_ROW - 8)
        out.append(_Row(row_box, bg, acting or winner, score_box, col, texts))
    return out


def _draw_texts(s: Surface, texts: list[_Text]) -> None:
    for x in texts:
        s.text(x.xy, x.label.text, size=x.label.size, bold=x.label.bold, fill=x.fill,
               anchor=x.anchor, bg=x.bg)  # fmt: skip


def _paint(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    _draw_texts(s, _header(view, names, t))
    _draw_targets(s, view)
    for row in _legend(view, names, t):
        if row.highlit:
            s.rounded_rectangle(row.box, radius=14, fill=row.bg)
        s.rounded_rectangle(row.score_box, radius=10, fill=row.colour, outline=INK, width=2)
        _draw_texts(s, row.texts)


def labels(
    view: View, names: Mapping[int, str] | None = None, language: str = DEFAULT_LANGUAGE
) -> list[Label]:
    """What the picture of `view` draws for a player to read, where (issue 31: each at
    least `TYPE`, none over another; tests/render/test_hypnosia_labels.py)."""
    t = get_translator(language)
    out = [x.label for x in _header(view, names, t)]
    out += note_labels(t)
    for piece in _pieces(view):
        xy = _number_xy(piece.xy, piece.radius)
        out.append(_ink("token", str(piece.number), TYPE, True, xy, "mm"))
    for value in CENTRE_VALUES:
        x, y = field_xy(value)
        out.append(_ink("field", str(value), TYPE, True, (x, y + 2), "mm"))
    for m in move_marks(view):
        w = _tag_width(m.text)
        out.append(Label("tag", m.text, TAG_SIZE, True, (m.x, m.y, m.x + w + 1, m.y + TAG_H + 1)))
    for row in _legend(view, names, t):
        out += [x.label for x in row.texts]
    return out


# ---------------------------------------------------------------- entry points


def _scene(view: View, names: Mapping[int, str] | None, language: str) -> Scene:
    lit: list[Hashable] = []
    if view.current is not None and view.phase is not Phase.GAME_OVER:
        lit.append(("turn", _colour(view, view.current)))
    lit += _dice(view)
    lit += [("start", p.board_seat, _colour(view, p.seat)) for p in view.players]
    for value, holder in zip(CENTRE_VALUES, view.centre, strict=True):
        lit.append(("field", value, None if holder is None else _colour(view, holder)))
    t = get_translator(language)
    size = image_size(view)
    return Scene(
        height=size[1],
        variant=t.lang,
        lit=tuple(lit),
        groups=_tokens(view),
        parts=[((0, 0, *size), partial(_paint, view=view, names=names, t=t))],
    )


def _palette_pictures() -> Iterator[Image.Image]:
    """Pictures that between them show every colour a table can have: six players (every
    colour) early, mid-game and at the end, and a swatch of every token, field and die."""
    import random

    from games.hypnosia import GAME

    ids = list(range(1, 7))
    names = dict.fromkeys(ids, get_translator(DEFAULT_LANGUAGE)("render.sample_name"))
    s = GAME.new(players=ids, seed=1)
    rng = random.Random(1)
    yield PICTURE.draw_rgb(GAME.view(s, None), names)
    for step in range(4000):
        if GAME.is_over(s):
            break
        s, _events = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
        if step in (40, 200):
            yield PICTURE.draw_rgb(GAME.view(s, None), names)
    yield PICTURE.draw_rgb(GAME.view(s, None), names)
    swatch = Image.new("RGB", (WIDTH, legend_top() + 3 * LEGEND_ROW + PAD), PAPER)
    swatch.paste(PICTURE.field(DEFAULT_LANGUAGE), (0, 0))
    paint = RGBSurface(swatch, PICTURE)
    for k, col in enumerate(PLAYER_RGB.values()):
        for n in range(1, 5):
            x, y = 60 + n * 60, 200 + k * 100
            paint.sprites((_token((x, y), col, n, ring=HIGHLIGHT),))
            paint.sprites((_token((x + 300, y), col, n, radius=PAIR_R),))
            paint.sprites((_token((x + 600, y), col, n, radius=START_R),))
        for n, captures in enumerate((False, True)):  # move marks in the mover's colour
            paint.stamp(("tag", "1&3+4", captures, _tag_edge(col)), (40 + n * 200, 800 + k * 62))
    for item in [*(("field", v, None) for v in CENTRE_VALUES), ("die", 0, 3, False)]:
        sprite, xy = PICTURE.overlay(item)
        swatch.paste(sprite, xy, sprite)
    sprite, xy = PICTURE.overlay(("die", 1, 6, True))
    swatch.paste(sprite, xy, sprite)
    yield swatch


def warm_up() -> None:
    """Build every cache a table can need (the board, start lanes, fields, dice,
    tokens, the palette), e.g. when the bot starts, so that a new state draws nothing
    supersampled."""
    lit: list[tuple[Hashable, tuple[Hashable, ...]]] = []
    for seat, name in enumerate(COLOURS):
        col = PLAYER_RGB[name]
        on: list[Hashable] = [("turn", col), ("start", seat, col)]
        on += [("field", value, col) for value in CENTRE_VALUES]
        lit.append((DEFAULT_LANGUAGE, tuple(on)))
        for n in range(1, 5):
            PICTURE.sprite(_token((0, 0), col, n, START_R)[0])
            for radius in (TOKEN_R, PAIR_R):
                PICTURE.sprite(_token((0, 0), col, n, radius)[0])
                PICTURE.sprite(_token((0, 0), col, n, radius, HIGHLIGHT)[0])
    dice = tuple(("die", i, v, used) for i in range(2) for v in range(1, 7) for used in (0, 1))
    fields = tuple(("field", value, None) for value in CENTRE_VALUES)
    lit.append((DEFAULT_LANGUAGE, dice + fields))
    backgrounds = [
        (legend_top() + rows * LEGEND_ROW + PAD, language)
        for rows in (1, 2, 3)
        for language in LANGUAGES
    ]
    PICTURE.warm(backgrounds=backgrounds, lit=lit)


PICTURE = Compositor(
    width=WIDTH,
    field=_field,
    variants=(None, *LANGUAGES),  # the notes in the corners are the only words
    overlays={
        "start": lambda *args: _changes(lambda img: _paint_start_lane(img, *args)),
        "field": lambda *args: _changes(lambda img: _paint_field(img, *args)),
        "die": lambda i, value, used: _changes(
            lambda img: _paint_die(img, _die_xy(i), value, used)
        ),
        "turn": lambda col: _changes(lambda img: disc(img, (PAD + 20, 48), 19, col, INK, 2.5)),
    },
    sprites={"token": _token_sprite, "tag": _tag_sprite},
    palette=lambda: fit_flat_palette(_palette_pictures()),
    scene=_scene,
    sprite_cache=256,
)

# The entry points: `render(view, names, language=...)` the PNG, `draw` the picture on the
# palette, `draw_rgb` the same drawn whole, `palette()`, `encode(picture)`.
render, draw, draw_rgb = PICTURE.render, PICTURE.draw, PICTURE.draw_rgb
palette, encode = PICTURE.palette, PICTURE.encode
