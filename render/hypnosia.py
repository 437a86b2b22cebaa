"""The board of «Гипнозия» as a phone-readable picture.

One module, over 400 lines, on purpose: the game's geometry, the pieces it declares to
the compositor and its scene read each other's constants at every line; split, each
part would import all the others.

Drawn from the public `View` only. Three concentric rings (outer 1, middle 2, inner 3),
each cell numbered (≥ 9 px tall when the picture is shown 360 px wide); bridge cells
are split in two colours with a dark arrow pointing inwards; the centre holds the five
fields 5·4·3·2·1 (taken ones in the holder's colour). Each player's four start positions
lie radially outside his entry cell, №1 nearest the ring. A token is a disc in its
owner's colour with its number; a pair is two discs side by side. While a player moves,
each legal move's mark — the one its button spells, «2+5» for «№2 +5», «1⤵3», «1&3+4» —
stands on the cell (or centre field) it lands on, red for a capture. Above the board: whose
turn it is and the dice (a used die greyed); below: every player with his score, centre
fields, captures and losses.

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
from typing import cast

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
from render.text import clean_text, draw_text, font, text_width

WIDTH = 1000
HEADER = 118
BOARD = 1144  # the square the board is drawn in
LEGEND_ROW = 68
PAD = 22
CX = WIDTH / 2
CY = HEADER + BOARD / 2

# Ring k: centre radius of the band, half-width of the band.
# Sized for a phone (issue 18): at 360 px wide a cell number is ≥ 9 px tall.
RADIUS: dict[int, float] = {1: 380.0, 2: 292.0, 3: 204.0}
HALF = 40.0
CENTRE_R = 150.0
FIELD_R = 38.0
FIELD_RING = 90.0
TOKEN_R = 27.0
PAIR_R = 20.0
START_R0 = 446.0  # radius of start position №1
START_STEP = 36.0
START_R = 17.0  # a token on a start position
CELL_NUMBER_SIZE: dict[int, int] = {1: 34, 2: 34, 3: 36}

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
    EndReason.PLAYERS_LEFT: "render.players_left",
}


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
    """Pixel centre of start position №i (1…4) of a board seat."""
    return polar(START_R0 + (i - 1) * START_STEP, angle(1, entry(board_seat)))


def field_xy(value: int) -> tuple[float, float]:
    """Centre field of `value`: 5 at the top, then 4, 3, 2, 1 clockwise (§3.5)."""
    i = CENTRE_VALUES.index(value)
    return polar(FIELD_RING, 90.0 - i * 72.0)


def image_size(view: View) -> tuple[int, int]:
    rows = (len(view.players) + 1) // 2
    return WIDTH, HEADER + BOARD + 8 + rows * LEGEND_ROW + PAD


# ---------------------------------------------------------------- helpers


def _name(view: View, seat: int, names: Mapping[int, str] | None, t: Translator) -> str:
    pid = view.players[seat].player
    if names and pid in names and clean_text(names[pid]):
        return clean_text(names[pid])
    return t("render.player", n=seat + 1)


def _colour(view: View, seat: int) -> RGB:
    return PLAYER_RGB.get(view.players[seat].colour, INK_SOFT)


def _sector(k: int, j: int, r0: float, r1: float, steps: int = 6) -> list[tuple[float, float]]:
    """The polygon of cell `k.j` between radii r0 < r1."""
    n = RING_SIZES[k]
    a0 = 90.0 + j * 360.0 / n
    a1 = a0 + 360.0 / n
    outer = [polar(r1, a0 + (a1 - a0) * s / steps) for s in range(steps + 1)]
    inner = [polar(r0, a1 - (a1 - a0) * s / steps) for s in range(steps + 1)]
    return outer + inner


def _board_layer() -> Image.Image:
    """Everything that never changes: rings, bridges, cell numbers, centre disc (drawn
    once, into the cached `_board_background`)."""
    c = Canvas((WIDTH, BOARD), origin=(0, HEADER), scale=3)
    c.circle((CX, CY), RADIUS[1] + HALF + 6, fill=EDGE)
    c.circle((CX, CY), RADIUS[1] + HALF + 3, fill=BOARD_RGB)
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
        c.circle((CX, CY), r0, fill=BOARD_RGB)
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
                end_r, end_a = RADIUS[target[0]] + HALF - 4, angle(*target)
            start = polar(RADIUS[k] - HALF + 4, a)
            tip = polar(end_r, end_a)
            mid = polar(end_r + 16, end_a)
            c.line([start, mid], fill=ARROW_RGB, width=5)
            ux, uy = tip[0] - mid[0], tip[1] - mid[1]
            norm = math.hypot(ux, uy) or 1.0
            ux, uy = ux / norm, uy / norm
            wing = 10.0
            c.polygon(
                [
                    (tip[0] + ux * 4, tip[1] + uy * 4),
                    (tip[0] - ux * 14 - uy * wing, tip[1] - uy * 14 + ux * wing),
                    (tip[0] - ux * 14 + uy * wing, tip[1] - uy * 14 - ux * wing),
                ],
                fill=ARROW_RGB,
            )
    # centre
    c.circle((CX, CY), CENTRE_R, fill=CENTRE_RGB, outline=EDGE, width=4)
    img = c.image()
    d = ImageDraw.Draw(img)
    # cell numbers (a token covers them)
    for k in (1, 2, 3):
        size = CELL_NUMBER_SIZE[k]
        for j in range(RING_SIZES[k]):
            x, y = polar(RADIUS[k], angle(k, j))
            fill = mix(RING_RGB[k], INK, 0.62)
            if is_bridge(k, j):  # the bridge number sits across both halves
                fill = INK
            d.text(
                (x, y - HEADER),
                str(j),
                font=font(size, is_bridge(k, j)),
                fill=fill,
                anchor="mm",
            )
    return img


# ---------------------------------------------------------------- the field and the pieces

# A picture is assembled on the game's palette from cached pieces (`render/compositor.py`).
# The board is the field (with the notes in its corners, per language); whatever sits at
# a fixed place over it (start columns, centre fields, dice, the header's disc) is an
# overlay of exactly the pixels it changes; tokens are sprites over the board, a move's
# mark an opaque stamp, text a patch over the flat colour under it. `warm_up` builds
# them all, so a new state draws nothing supersampled.

NOTE_SIZE = 28  # the notes in the board's corners


# The notes in the board's corners: (where, anchor, locale key). Top left: the direction
# of movement; top right: bridges; bottom left: a move's tag; bottom right: a cell number.
NOTES: tuple[tuple[tuple[int, int], str, str], ...] = (
    ((PAD, HEADER + 26), "lm", "direction"),
    ((PAD, HEADER + 60), "lm", "direction_2"),
    ((WIDTH - PAD, HEADER + 26), "rm", "bridge"),
    ((WIDTH - PAD, HEADER + 60), "rm", "bridge_2"),
    ((PAD, HEADER + BOARD - 94), "lm", "tag"),
    ((PAD, HEADER + BOARD - 60), "lm", "tag_2"),
    ((WIDTH - PAD, HEADER + BOARD - 94), "rm", "cell"),
    ((WIDTH - PAD, HEADER + BOARD - 60), "rm", "cell_2"),
)


def _field(language: Hashable) -> Image.Image:
    """The board; with a language, the notes in its corners in it."""
    img = Image.new("RGB", (WIDTH, HEADER + BOARD), PAPER)
    paste(img, _board_layer(), (0, HEADER))
    d = ImageDraw.Draw(img)
    draw_text(d, (CX, CY + 6), "★", size=30, fill=mix(CENTRE_RGB, WHITE, 0.5), anchor="mm")
    if language is not None:
        t = get_translator(cast(str, language))
        for xy, anchor, key in NOTES:
            text = t(f"render.hypnosia.note.{key}")
            draw_text(d, xy, text, size=NOTE_SIZE, fill=INK_SOFT, anchor=anchor)
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
    draw_text(d, (half, half + 1), str(number), size=round(radius * 1.4), bold=True,
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


# ---------------------------------------------------------------- parts


def _paint_start_column(img: Image.Image, board_seat: int, col: RGB) -> None:
    """A player's four start positions (numbered squares) and the tick joining them to
    his entry cell."""
    d = ImageDraw.Draw(img)
    for i in range(1, 5):
        x, y = start_xy(board_seat, i)
        h = START_R
        box = (x - h, y - h, x + h, y + h)
        d.rounded_rectangle(
            box, radius=6, fill=mix(col, WHITE, 0.75), outline=mix(col, INK, 0.3), width=2
        )
        draw_text(d, (x, y + 1), str(i), size=22, fill=mix(col, INK, 0.4), anchor="mm")
    a = angle(1, entry(board_seat))
    x0, y0 = polar(RADIUS[1] + HALF + 4, a)
    x1, y1 = polar(START_R0 - START_R - 2, a)
    d.line([(x0, y0), (x1, y1)], fill=mix(col, INK, 0.2), width=5)


def _tokens(view: View) -> list[Group]:
    """The tokens at home (over their start squares), then those on the rings (a pair
    side by side), in groups of those whose ink may touch (neighbours ringed yellow)."""
    placed: list[Placed] = []
    for p in view.players:
        col = _colour(view, p.seat)
        for i in range(1, 5):
            if p.tokens[i - 1] == START:
                placed.append(_token(start_xy(p.board_seat, i), col, i, radius=START_R))
    current = view.current
    for cell, cv in sorted(view.board.items()):
        kj = parse_cell(cell)
        if kj is None:
            continue
        k, j = kj
        col = _colour(view, cv.seat)
        ring = HIGHLIGHT if cv.seat == current else None
        if len(cv.tokens) == 1:
            placed.append(_token(cell_xy(cell), col, cv.tokens[0], ring=ring))
        else:
            a = angle(k, j)
            for n, dr in zip(cv.tokens[:2], (+PAIR_R, -PAIR_R), strict=False):
                placed.append(_token(polar(RADIUS[k] + dr, a), col, n, PAIR_R, ring))
    return PICTURE.touching([(p,) for p in placed])


# ---------------------------------------------------------------- move marks

TAG_SIZE = 30
TAG_H = 40
CAPTURE_RGB: RGB = (200, 30, 30)


def _tag_edge(col: RGB) -> RGB:
    return mix(col, INK, 0.15)


def _tag_width(text: str) -> int:
    return max(TAG_H, text_width(text, TAG_SIZE, True) + 14)


def _tag_sprite(text: str, captures: bool, edge: RGB) -> Image.Image:
    """A move's mark (its button's `2+5`): bold text on white in a frame of the mover's
    colour (red text and frame for a capture); an opaque sprite."""
    w = _tag_width(text)
    sprite = Image.new("RGBA", (w + 1, TAG_H + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, w, TAG_H), radius=9, fill=INK)
    d.rounded_rectangle((2, 2, w - 2, TAG_H - 2), radius=8, fill=edge)
    d.rounded_rectangle((5, 5, w - 5, TAG_H - 5), radius=6, fill=WHITE)
    draw_text(d, (w / 2, TAG_H / 2 + 1), text, size=TAG_SIZE, bold=True,
              fill=CAPTURE_RGB if captures else INK, anchor="mm")  # fmt: skip
    return sprite


def _tag(s: Surface, text: str, captures: bool, edge: RGB, centre: tuple[int, int]) -> None:
    """A move's mark centred on a pixel corner."""
    w = _tag_width(text)
    s.stamp(("tag", text, captures, edge), (centre[0] - w // 2, centre[1] - TAG_H // 2))


def _tag_spot(dest: str, fields: list[int]) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a mark goes (the destination's centre) and the direction to move it along
    when marks collide (outwards from the board's centre)."""
    if dest == "C":
        x, y = field_xy(fields[0]) if fields else (CX, CY)
    else:
        x, y = cell_xy(dest)
    dx, dy = x - CX, y - CY
    norm = math.hypot(dx, dy) or 1.0
    return (x, y), (dx / norm, dy / norm)


def _draw_targets(s: Surface, view: View) -> None:
    """Each legal move's mark on the cell (or centre field) it lands on, the same mark its
    button reads («2+5» = «№2 +5»): nobody counts cells or reads ring numbers. Marks
    that would overlap are pushed apart along the radius, with a pointer to their cell."""
    seat = view.current
    if seat is None or view.phase is not Phase.MOVE or not view.moves:
        return
    edge = _tag_edge(_colour(view, seat))
    placed: list[tuple[float, float, float, float]] = []
    marks: list[tuple[str, bool, float, float]] = []
    for m in sorted(view.moves, key=lambda m: m.dest):  # one cell's marks one after another
        (x, y), (ux, uy) = _tag_spot(m.dest, m.fields)
        w = _tag_width(m.tag)
        occupied = m.dest in view.board or m.dest == "C"
        base = HALF * 0.55 if occupied else 0.0  # the token there stays half visible
        for step in (0, 1, -1, 2, -2, 3, 4):
            off = base + step * (TAG_H * 0.8)
            cx = min(max(x + ux * off, w / 2 + 4), WIDTH - w / 2 - 4)  # inside the picture
            cy = min(max(y + uy * off, HEADER + TAG_H), HEADER + BOARD - TAG_H)
            box = (cx - w / 2 - 1, cy - TAG_H / 2 - 1, cx + w / 2 + 1, cy + TAG_H / 2 + 1)
            if not any(
                box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed
            ):
                break
        placed.append(box)
        marks.append((m.tag, m.captures > 0, cx, cy))
        if math.hypot(cx - x, cy - y) > TAG_H * 0.6:  # moved off its cell: point at it
            s.line([(x, y), (cx, cy)], fill=INK, width=3)
            s.ellipse((x - 5, y - 5, x + 5, y + 5), fill=INK)
    for tag, captures, cx, cy in marks:  # the marks over every pointer
        _tag(s, tag, captures, edge, (round(cx), round(cy)))


def _paint_field(img: Image.Image, value: int, col: RGB | None) -> None:
    """A centre field: free (light, its value in white) or in its holder's colour."""
    d = ImageDraw.Draw(img)
    xy = field_xy(value)
    if col is None:
        _disc(img, xy, FIELD_R, mix(CENTRE_RGB, WHITE, 0.2), mix(CENTRE_RGB, WHITE, 0.55), 3)
        draw_text(d, (xy[0], xy[1] + 2), str(value), size=34, bold=True, fill=WHITE,
                  anchor="mm")  # fmt: skip
    else:
        _disc(img, xy, FIELD_R, col, WHITE, 4)
        draw_text(d, (xy[0], xy[1] + 2), str(value), size=34, bold=True,
                  fill=contrast_ink(col), anchor="mm")  # fmt: skip


def _die_xy(i: int) -> tuple[int, int]:
    return WIDTH - PAD - 34 - (1 - i) * 80, 62


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


def _draw_header(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    title, line = _status(view, names, t)
    x = PAD
    if view.current is not None and view.phase is not Phase.GAME_OVER:
        x += 48  # the disc of the player to act: an overlay
    dice_w = 170 if view.dice else 0
    s.text((x, 42), title, size=42, bold=True, anchor="lm",
           max_width=WIDTH - PAD - x - dice_w - 10, min_size=26, bg=PAPER)  # fmt: skip
    s.text((PAD, 94), line, size=30, fill=INK_SOFT, anchor="lm",
           max_width=WIDTH - 2 * PAD - dice_w - 10, min_size=20, bg=PAPER)  # fmt: skip


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


def _details(view: View, seat: int, t: Translator) -> str:
    """The second legend line: tokens in play, centre fields, captures and losses."""
    p = view.players[seat]
    parts = []
    if p.left:
        parts.append(t("render.left"))
    elif view.phase is not Phase.GAME_OVER:
        parts.append(t("render.hypnosia.in_play", n=p.in_play))
    if p.centre_fields:
        fields = "+".join(str(v) for v in p.centre_fields)
        parts.append(t("render.hypnosia.centre", fields=fields))
    if p.captured:
        parts.append(t("render.hypnosia.captured", n=p.captured))
    if p.lost:
        parts.append(t("render.hypnosia.lost", n=p.lost))
    return " · ".join(parts)


def _draw_legend(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    top = HEADER + BOARD + 8
    seats = _legend_seats(view)
    rows = (len(seats) + 1) // 2
    col_w = (WIDTH - 2 * PAD) // 2
    over = view.phase is Phase.GAME_OVER
    for i, seat in enumerate(seats):
        p = view.players[seat]
        x = PAD + (i // rows) * col_w
        y = top + (i % rows) * LEGEND_ROW
        ym = y + (LEGEND_ROW - 8) // 2
        acting = seat == view.current and not over
        winner = over and p.player in view.winners
        bg = HIGHLIGHT if acting or winner else PAPER
        if acting or winner:
            s.rounded_rectangle((x, y, x + col_w - 12, y + LEGEND_ROW - 8), radius=14, fill=bg)
        col = _colour(view, seat)
        box_x = x + 10
        if over:
            s.text((x + 20, ym + 1), str(p.place or ""), size=28, bold=True, fill=INK_SOFT,
                   anchor="mm", bg=bg)  # fmt: skip
            box_x = x + 38
        s.rounded_rectangle((box_x, ym - 24, box_x + 72, ym + 24), radius=10, fill=col,
                            outline=INK, width=2)  # fmt: skip
        s.text((box_x + 36, ym + 1), str(p.score).replace("-", "−"), size=32, bold=True,
               fill=contrast_ink(col), anchor="mm", bg=col)  # fmt: skip
        tx = box_x + 86
        width = x + col_w - 24 - tx
        s.text((tx, ym - 12), _name(view, seat, names, t), size=30, bold=acting or winner,
               fill=MUTED if p.left else INK, anchor="lm", max_width=width, min_size=20,
               bg=bg)  # fmt: skip
        s.text((tx, ym + 18), _details(view, seat, t), size=22, fill=INK_SOFT, anchor="lm",
               max_width=width, min_size=16, bg=bg)  # fmt: skip


def _paint(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    _draw_header(s, view, names, t)
    _draw_targets(s, view)
    _draw_legend(s, view, names, t)


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
    swatch = Image.new("RGB", (WIDTH, HEADER + BOARD + 8 + 3 * LEGEND_ROW + PAD), PAPER)
    swatch.paste(PICTURE.field(DEFAULT_LANGUAGE), (0, 0))
    paint = RGBSurface(swatch, PICTURE)
    for k, col in enumerate(PLAYER_RGB.values()):
        for n in range(1, 5):
            x, y = 60 + n * 60, 200 + k * 100
            paint.sprites((_token((x, y), col, n, ring=HIGHLIGHT),))
            paint.sprites((_token((x + 300, y), col, n, radius=PAIR_R),))
            paint.sprites((_token((x + 600, y), col, n, radius=START_R),))
        for n, captures in enumerate((False, True)):  # move marks in the mover's colour
            _tag(paint, "1&3+4", captures, _tag_edge(col), (80 + n * 160, 900 + k * 44))
    for item in [*(("field", v, None) for v in CENTRE_VALUES), ("die", 0, 3, False)]:
        sprite, xy = PICTURE.overlay(item)
        swatch.paste(sprite, xy, sprite)
    sprite, xy = PICTURE.overlay(("die", 1, 6, True))
    swatch.paste(sprite, xy, sprite)
    yield swatch


def warm_up() -> None:
    """Build every cache a table can need (the board, start columns, fields, dice,
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
        (HEADER + BOARD + 8 + rows * LEGEND_ROW + PAD, language)
        for rows in (1, 2, 3)
        for language in LANGUAGES
    ]
    PICTURE.warm(backgrounds=backgrounds, lit=lit)


PICTURE = Compositor(
    width=WIDTH,
    field=_field,
    variants=(None, *LANGUAGES),  # the notes in the corners are the only words
    overlays={
        "start": lambda *args: _changes(lambda img: _paint_start_column(img, *args)),
        "field": lambda *args: _changes(lambda img: _paint_field(img, *args)),
        "die": lambda i, value, used: _changes(
            lambda img: _paint_die(img, _die_xy(i), value, used)
        ),
        "turn": lambda col: _changes(lambda img: disc(img, (PAD + 18, 42), 17, col, INK, 2.5)),
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
