"""The «Башня» of «ДОМИНА*С» as a phone-readable picture (spec §3.2).

One module, over 400 lines, on purpose: the game's geometry, the pieces it declares to
the compositor and its scene read each other's constants at every line; split, each
part would import all the others.

Drawn from the PUBLIC `View` only (no hand is ever drawn). From top to bottom:

- the header: whose turn (or the match result), the game of the match, the floor, the
  bazaar, and a bonus series in progress;
- «Последние 4»: the last four tiles in placement order as big colour chips with their
  numbers (what runs of four are judged on), and the run they form, if any;
- the figure: floors side by side, four per row (the latest 12 floors). Each tile is a
  triangle with cut corners in its colour, its number big in the middle and its three
  symbols small by their edges (★ a named tile, ⚙ a самоход with the symbol it carries);
  the last placed tile has a yellow rim. Open nests are dashed, with their button label
  (▲ ◣ ◢ ▼) and the required symbol in big type. A short arrow leaves the far edge of
  each floor's last corner, and one enters the next floor's entry;
- the players: tiles in hand, tiles drawn from the bazaar this game, match points
  (teams: the team letter and the team's points).

Example:
    >>> from games.dominas import GAME
    >>> v = GAME.view(GAME.new([1, 2], seed=3), None)
    >>> render(v, {1: "Аня", 2: "Борис"})[:4] == b"\\x89PNG"
    True
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from functools import partial
from itertools import pairwise

from PIL import Image, ImageDraw

from games.dominas.engine import run_of
from games.dominas.model import POS_MARK, Fill, Mode, Phase, Placed, Pos, View
from games.dominas.tiles import ALL_TILES, COLOURS, NAMED, colour_of, is_samohod, number_of
from locales import DEFAULT_LANGUAGE, LANGUAGES, Translator, get_translator
from render.colours import (
    HIGHLIGHT,
    INK,
    INK_SOFT,
    LINE,
    MUTED,
    PAPER,
    PAPER_DARK,
    RGB,
    WHITE,
    contrast_ink,
)
from render.compositor import Compositor, Scene
from render.palette import fit_flat_palette
from render.shapes import Canvas, Point, paste
from render.surface import Group, RGBSurface, Surface
from render.surface import Placed as Layer
from render.text import clean_text, drawable, font, text_width

WIDTH = 1000
PAD = 22
SIDE = 150  # side of a small triangle
FLOOR_W = 2 * SIDE
FLOOR_H = round(math.sqrt(3) * SIDE)
FLOOR_GAP = 26
PER_ROW = 3
MAX_ROWS = 3
HEADER = 118
STRIP = 92
LABEL = 30  # «этаж N» above a floor
ROW_GAP = 26
PLAYER_ROW = 60

# The tile colours by the engine's colour codes: Огонь, Металл, Земля, Вода (R2).
TILE_RGB: dict[str, RGB] = dict(
    zip(COLOURS, ((229, 57, 53), (250, 204, 40), (56, 150, 60), (30, 100, 210)), strict=True)
)
TEAM_RGB: tuple[RGB, RGB] = ((0, 137, 123), (142, 36, 170))
TEAM_LETTER = ("render.dominas.team_a", "render.dominas.team_b")  # locale keys
NEST_FILL: RGB = (255, 250, 236)

Tri = tuple[Point, Point, Point]


# ---------------------------------------------------------------- geometry


def _tri(pos: Pos) -> Tri:
    """The small triangle of `pos` inside a floor box at the origin."""
    a, h = SIDE, FLOOR_H
    apex, bl, br = (a, 0.0), (0.0, h), (2.0 * a, h)
    ml, mr, mb = (a / 2, h / 2), (3 * a / 2, h / 2), (a, h)
    return {
        Pos.TOP: (apex, mr, ml),
        Pos.LEFT: (ml, mb, bl),
        Pos.RIGHT: (mr, br, mb),
        Pos.CENTRE: (ml, mr, mb),
    }[pos]


def _edges(pos: Pos) -> dict[str, tuple[Point, Point]]:
    """Named edges of the triangle of `pos`."""
    p, q, r = _tri(pos)
    if pos is Pos.CENTRE:  # (ml, mr, mb): top, right, left
        return {"top": (p, q), "right": (q, r), "left": (r, p)}
    if pos is Pos.TOP:  # (apex, mr, ml)
        return {"right": (p, q), "bottom": (q, r), "left": (r, p)}
    if pos is Pos.LEFT:  # (ml, mb, bl)
        return {"right": (p, q), "bottom": (q, r), "left": (r, p)}
    return {"right": (p, q), "bottom": (q, r), "left": (r, p)}  # RIGHT: (mr, br, mb)


def _faces(tile: Placed, fill: Fill) -> list[str]:
    """Which edge the attached side, the next and the one after face (spec §3.2 table)."""
    if tile.pos is Pos.CENTRE and tile.floor == 1:
        return ["top", "right", "left"]
    if tile.pos is Pos.CENTRE:
        return ["left", "top", "right"]
    if tile.pos is Pos.TOP:
        return ["bottom", "left", "right"]
    if tile.pos is Pos.RIGHT:
        return ["left", "right", "bottom"]
    if tile.floor == 1:  # the ◣ corner of floor 1
        return ["right", "bottom", "left"]
    if fill is Fill.CLOCKWISE:  # an entry
        return ["bottom", "left", "right"]
    return ["left", "right", "bottom"]


def side_edge(tile: Placed, k: int, fill: Fill) -> str:
    """The edge on which side `k` of a placed tile is drawn."""
    i = tile.side if tile.side is not None else 0
    return _faces(tile, fill)[(k - i) % 3]


def _far_edge(tile: Placed, fill: Fill) -> str:
    return _faces(tile, fill)[2 if fill is Fill.CLOCKWISE else 1]


def _entry_edge(fill: Fill) -> str:
    return "bottom" if fill is Fill.CLOCKWISE else "left"


def _centroid(t: Tri) -> Point:
    return ((t[0][0] + t[1][0] + t[2][0]) / 3, (t[0][1] + t[1][1] + t[2][1]) / 3)


def _lerp(p: Point, q: Point, k: float) -> Point:
    return (p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k)


def _shift(t: Tri, dx: float, dy: float) -> Tri:
    return (
        (t[0][0] + dx, t[0][1] + dy),
        (t[1][0] + dx, t[1][1] + dy),
        (t[2][0] + dx, t[2][1] + dy),
    )


def _hexagon(t: Tri, inset: float, cut: float) -> list[Point]:
    """The triangle shrunk towards its centroid by `inset` px, corners cut by `cut` (0..0.5)."""
    c = _centroid(t)
    r = math.dist(c, t[0])
    k = max(0.0, (r - inset) / r)
    p = [_lerp(c, v, k) for v in t]
    out: list[Point] = []
    for j in range(3):
        a, b = p[j], p[(j + 1) % 3]
        out += [_lerp(a, b, cut), _lerp(a, b, 1 - cut)]
    return out


# ---------------------------------------------------------------- helpers


def _name(view: View, seat: int, names: Mapping[int, str] | None, t: Translator) -> str:
    pid = view.players[seat].player
    if names and pid in names and clean_text(names[pid]):
        return clean_text(names[pid])
    return t("render.player", n=seat + 1)


def _tile_rgb(tile: str) -> RGB:
    return TILE_RGB[colour_of(tile)]


def _floors_shown(view: View) -> list[int]:
    floors = sorted({p.floor for p in view.figure} | ({view.floor} if view.nests else set()))
    if not floors:
        return []
    last = floors[-1]
    first_row_start = max(0, (last - 1) // PER_ROW - (MAX_ROWS - 1)) * PER_ROW + 1
    return [f for f in floors if f >= first_row_start]


def _figure_rows(view: View) -> int:
    shown = _floors_shown(view)
    if not shown:
        return 1
    return (shown[-1] - shown[0]) // PER_ROW + 1


def image_size(view: View) -> tuple[int, int]:
    rows = _figure_rows(view)
    figure = rows * (LABEL + FLOOR_H + ROW_GAP) + 30
    n = len(view.players)
    prow = (n + 1) // 2
    return WIDTH, HEADER + STRIP + figure + prow * PLAYER_ROW + 2 * PAD


def floor_origin(view: View, floor: int) -> tuple[int, int]:
    """Top-left corner of a floor's box in the picture."""
    shown = _floors_shown(view)
    base = shown[0] if shown else 1
    r, c = divmod(floor - base, PER_ROW)
    x = PAD + 4 + c * (FLOOR_W + FLOOR_GAP)
    y = HEADER + STRIP + 10 + r * (LABEL + FLOOR_H + ROW_GAP) + LABEL
    return x, y


def triangle(view: View, floor: int, pos: Pos) -> Tri:
    """The small triangle of `pos` on `floor` in picture coordinates."""
    x, y = floor_origin(view, floor)
    return _shift(_tri(pos), x, y)


def tile_centre(view: View, tile: Placed) -> Point:
    x, y = floor_origin(view, tile.floor)
    c = _centroid(_tri(tile.pos))
    return (x + c[0], y + c[1])


# ---------------------------------------------------------------- drawing


def _box(pos: Pos) -> tuple[int, int, int, int]:
    """The sprite box of a triangle inside the floor box: (x, y, width, height)."""
    t = _tri(pos)
    x0 = math.floor(min(p[0] for p in t)) - 4
    y0 = math.floor(min(p[1] for p in t)) - 4
    x1 = math.ceil(max(p[0] for p in t)) + 4
    y1 = math.ceil(max(p[1] for p in t)) + 4
    return x0, y0, x1 - x0, y1 - y0


# ---------------------------------------------------------------- layers

# A picture is assembled on the game's palette from cached pieces (`render/compositor.py`).
# A tile is composed from a few hundred small cached layers (a body per colour, place and
# rim; a text layer per symbol and place), a nest likewise; the figure (the floors'
# outlines, tiles, nests and arrows) is one region drawn whole; a chip is a sprite on the
# paper and text a patch over the flat colour under it. `warm_up` draws every layer up
# front: no state, however new, draws a supersampled one.


def _layer(img: Image.Image, ox: int, oy: int) -> Image.Image:
    """An RGBA `img` cut to what it covers, knowing where its top-left corner goes from
    the origin it is placed by (`Compositor.at`) when `img`'s own corner goes at (ox, oy)."""
    box = img.getchannel("A").getbbox() or (0, 0, 1, 1)
    out = img.crop(box)
    out.info["origin"] = (ox + box[0], oy + box[1])
    return out


def _aa_text(
    text: str,
    size: int,
    bold: bool,
    fill: RGB,
    at: Point,
    stroke: float = 0,
    stroke_fill: RGB | None = None,
) -> Image.Image:
    """Supersampled text centred on `at` (floor-box coordinates) as a small layer with the
    sub-pixel phase it has in a tile's `Canvas`."""
    left, top, right, bottom = font(size * 4, bold).getbbox(
        drawable(text, bold), anchor="mm", stroke_width=round(stroke * 4)
    )
    # the glyphs plus a margin for the resampling filter
    half_w = math.ceil(max(-left, right) / 4) + 6
    half_h = math.ceil(max(-top, bottom) / 4) + 6
    ox, oy = math.floor(at[0]) - half_w, math.floor(at[1]) - half_h
    c = Canvas((2 * half_w, 2 * half_h), origin=(ox, oy))
    c.text(at, text, size=size, bold=bold, fill=fill, stroke=stroke, stroke_fill=stroke_fill)
    return _layer(c.image(), ox, oy)


def _tile_body(colour: str, pos: Pos, last: bool) -> Image.Image:
    """The cut-corner triangle of a tile (a sprite of `_box(pos)`), the last one rimmed."""
    bx, by, bw, bh = _box(pos)
    c = Canvas((bw, bh), origin=(bx, by))
    t = _tri(pos)
    col = TILE_RGB[colour]
    if last:
        c.polygon(_hexagon(t, 1, 0.14), fill=HIGHLIGHT)
        c.polygon(_hexagon(t, 8, 0.14), fill=col, outline=INK, width=2)
    else:
        c.polygon(_hexagon(t, 3, 0.14), fill=col, outline=INK, width=2)
    return _layer(c.image(), bx, by)


def _edge_at(pos: Pos, edge: str) -> Point:
    """Where a side's symbol is written: near the middle of `edge`."""
    p, q = _edges(pos)[edge]
    return _lerp(_centroid(_tri(pos)), _lerp(p, q, 0.5), 0.8)


def _tile_face(tile: str, pos: Pos) -> list[Hashable]:
    """What a tile shows in the middle: its number (⚙ for a самоход), ★ for a named one."""
    colour = colour_of(tile)
    ink = _INK[colour]
    centre = _CENTRE[pos]
    middle = (centre[0], centre[1] + 1)
    if is_samohod(tile):
        return [("text", "⚙", 44, True, ink, middle)]
    number = ("text", str(number_of(tile)), 38, True, ink, middle)
    if tile not in NAMED:
        return [number]
    star_at = _lerp(centre, _tri(pos)[0], 0.6)
    return [number, ("text", "★", 26, True, ink, star_at, 1.5, TILE_RGB[colour])]


def _symbol(colour: str, pos: Pos, edge: str, symbol: int) -> Hashable:
    return ("text", str(symbol), 25, True, _INK[colour], _EDGE_AT[pos, edge])


# Where a tile's number and symbols go, and the ink on each colour (computed once: a
# picture asks for them a thousand times).
_CENTRE = {pos: _centroid(_tri(pos)) for pos in Pos}
_EDGE_AT = {(pos, edge): _edge_at(pos, edge) for pos in Pos for edge in _edges(pos)}
_INK = {colour: contrast_ink(rgb) for colour, rgb in TILE_RGB.items()}


def tile(
    origin: tuple[int, int],
    tile: str,
    symbols: Sequence[int] | None,
    where: tuple[str, str, str],
    pos: Pos,
    last: bool,
) -> Group:
    """One placed tile as one group of layers: its body, its three symbols by their edges
    (`where`), its number big in the middle."""
    colour = colour_of(tile)
    specs: list[Hashable] = [("body", colour, pos, last)]
    if symbols is not None:
        specs += [_symbol(colour, pos, where[k], symbols[k]) for k in range(3)]
    specs += _tile_face(tile, pos)
    return tuple(PICTURE.at(spec, origin) for spec in specs)


def _nest_body(pos: Pos) -> Image.Image:
    """An open nest: a light cut-corner triangle with a dashed rim."""
    bx, by, bw, bh = _box(pos)
    c = Canvas((bw, bh), origin=(bx, by))
    hexa = _hexagon(_tri(pos), 3, 0.14)
    c.polygon(hexa, fill=NEST_FILL)
    ring = [*hexa, hexa[0]]
    for p, q in pairwise(ring):
        n = max(2, round(math.dist(p, q) / 12))
        for j in range(0, n, 2):
            c.line([_lerp(p, q, j / n), _lerp(p, q, min(1.0, (j + 1) / n))], INK, 3)
    return _layer(c.image(), bx, by)


def _nest_texts(pos: Pos, symbol: int | None, far: bool, t: Translator) -> list[Hashable]:
    """The nest's button label (▲ ◣ ◢ ▼, ⟲ when far) and the symbol it requires (a layer
    holds the word «любая» in the language of `t`: a text layer is named by its text)."""
    centre = _centroid(_tri(pos))
    down = pos is Pos.CENTRE
    mark_at = (centre[0], centre[1] + (-30 if down else 28))
    sym_at = (centre[0], centre[1] + (12 if down else -10))
    label = POS_MARK[pos] + (" ⟲" if far else "")
    out: list[Hashable] = [("text", label, 24, True, INK_SOFT, mark_at)]
    if symbol is None:
        out.append(("text", t("render.dominas.any"), 22, True, INK, sym_at))
    else:
        out.append(("text", str(symbol), 56, True, INK, sym_at))
    return out


def _nest(origin: tuple[int, int], pos: Pos, symbol: int | None, far: bool, t: Translator) -> Group:
    specs = [("nest", pos), *_nest_texts(pos, symbol, far, t)]
    return tuple(PICTURE.at(spec, origin) for spec in specs)


def _arrow(origin: tuple[int, int], a: Point, b: Point) -> Group:
    """An arrow from `a` to `b` (floor-box coordinates of the floor at `origin`)."""
    ox, oy = math.floor(min(a[0], b[0])) - 16, math.floor(min(a[1], b[1])) - 16
    rel_a = (round(a[0] - ox, 2), round(a[1] - oy, 2))
    rel_b = (round(b[0] - ox, 2), round(b[1] - oy, 2))
    return (PICTURE.at(("arrow", rel_a, rel_b, INK), (origin[0] + ox, origin[1] + oy)),)


def _arrow_sprite(a: Point, b: Point, colour: RGB) -> Image.Image:
    w = math.ceil(max(a[0], b[0])) + 16
    h = math.ceil(max(a[1], b[1])) + 16
    c = Canvas((w, h))
    c.line([a, b], colour, 4, round_caps=True)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    head = [
        b,
        (b[0] - 14 * math.cos(ang - 0.45), b[1] - 14 * math.sin(ang - 0.45)),
        (b[0] - 14 * math.cos(ang + 0.45), b[1] - 14 * math.sin(ang + 0.45)),
    ]
    c.polygon(head, fill=colour)
    return _layer(c.image(), 0, 0)


def _edge_point(pos: Pos, edge: str, out: float) -> tuple[Point, Point]:
    """The midpoint of an edge and the point `out` px outside it (floor-box coordinates)."""
    t = _tri(pos)
    p, q = _edges(pos)[edge]
    mid = _lerp(p, q, 0.5)
    centre = _centroid(t)
    dx, dy = mid[0] - centre[0], mid[1] - centre[1]
    d = math.hypot(dx, dy) or 1.0
    return mid, (mid[0] + dx / d * out, mid[1] + dy / d * out)


def _exit_arrow(origin: tuple[int, int], pos: Pos, edge: str) -> Group:
    """The arrow leaving a floor's last corner by its far edge."""
    a, a_out = _edge_point(pos, edge, 30)
    return _arrow(origin, _lerp(a, a_out, 0.25), a_out)


def _entry_arrow(origin: tuple[int, int], fill: Fill) -> Group:
    """The arrow entering a floor's entry corner."""
    b, b_out = _edge_point(Pos.LEFT, _entry_edge(fill), 26)
    return _arrow(origin, b_out, _lerp(b, b_out, 0.2))


CHIP = (118, 60)


def _chip_sprite(tile: str) -> Image.Image:
    """A last-four chip: the tile's colour and its number, as on the board (no colour
    letter: «З3» read as «33»)."""
    col = _tile_rgb(tile)
    w, h = CHIP
    c = Canvas((w + 4, h + 4), origin=(-2, -2))
    c.rounded_rect((0, 0, w, h), 12, fill=col, outline=INK, width=2)
    ink = contrast_ink(col)
    rest = ("⚙" if is_samohod(tile) else str(number_of(tile))) + ("★" if tile in NAMED else "")
    c.text((w / 2, h / 2 + 12), rest, size=32, bold=True, fill=ink, anchor="ms")
    return _layer(c.image(), -2, -2)


# ---------------------------------------------------------------- figure


def _figure(view: View, t: Translator) -> tuple[tuple[tuple[int, int], ...], Group]:
    """The origins of the floors shown, and the layers of the tiles, nests and arrows on
    them in drawing order."""
    shown = _floors_shown(view)
    if not shown:
        return (), ()
    fill = view.fill_direction
    origins = {f: floor_origin(view, f) for f in shown}
    layers: list[Layer] = []
    last = len(view.figure) - 1
    lowest = shown[0]
    for i, p in enumerate(view.figure):
        if p.floor < lowest:
            continue
        where = (side_edge(p, 0, fill), side_edge(p, 1, fill), side_edge(p, 2, fill))
        layers += tile(origins[p.floor], p.tile, p.edges, where, p.pos, i == last)
    for n in view.nests:
        layers += _nest(origins[n.floor], n.pos, n.symbol, n.far, t)
    # links: the far edge of each floor's last corner -> the next floor's entry
    by_floor: dict[int, Placed] = {}
    for p in view.figure:
        by_floor[p.floor] = p  # the last tile of each floor in placement order
    nest_floor = view.floor if view.nests else None
    for f in shown:
        corner = by_floor.get(f)
        has_next = f + 1 in by_floor or nest_floor == f + 1
        if corner is None or not has_next:
            continue
        layers += _exit_arrow(origins[f], corner.pos, _far_edge(corner, fill))
        if f + 1 in origins:
            layers += _entry_arrow(origins[f + 1], fill)
    return tuple(origins.values()), tuple(layers)


def _draw_figure(s: Surface, view: View, t: Translator) -> None:
    """The floors' outlines, then the tiles, nests and arrows on them: one region, drawn
    whole (a move makes a new figure, and pasting its pieces one by one costs more than
    drawing them)."""
    floors, layers = _figure(view, t)
    if not floors:
        return
    sprites = [PICTURE.sprite(spec) for spec, _, _ in layers]

    def paint(img: Image.Image, origin: tuple[int, int]) -> None:
        ox, oy = origin
        d = ImageDraw.Draw(img)
        for x, y in floors:
            # the outline of the floor's big triangle, 2 px wide inwards: two thin
            # outlines (a wide one makes Pillow allocate a mask of the whole picture)
            x, y = x - ox, y - oy
            d.polygon(
                [(x + SIDE, y), (x + 2 * SIDE, y + FLOOR_H), (x, y + FLOOR_H)], outline=PAPER_DARK
            )
            d.polygon(
                [(x + SIDE, y + 2), (x + 2 * SIDE - 1, y + FLOOR_H - 1), (x + 1, y + FLOOR_H - 1)],
                outline=PAPER_DARK,
            )
        for sprite, (_, x, y) in zip(sprites, layers, strict=True):
            paste(img, sprite, (x - ox, y - oy))

    box = PICTURE.group_box(layers) if layers else (0, 0, 0, 0)
    x0, y0 = floors[0]
    x1 = max(x for x, _ in floors) + 2 * SIDE + 1
    y1 = max(y for _, y in floors) + FLOOR_H + 1
    box = (min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1))
    s.region((floors, layers), box, paint)


def _draw_floor_labels(s: Surface, view: View, t: Translator) -> None:
    for f in _floors_shown(view):
        x, y = floor_origin(view, f)
        s.text((x + 2, y - 6), t("render.dominas.floor", n=f), size=20, fill=INK_SOFT,
               anchor="ls", bg=PAPER)  # fmt: skip


def _status(view: View, names: Mapping[int, str] | None, t: Translator) -> tuple[str, str]:
    if view.phase is Phase.OVER:
        seats = [p.seat for p in view.players if p.seat in view.winners]
        if view.mode is Mode.TEAMS and seats:
            side = view.players[seats[0]].side
            title = t("render.dominas.win_team", team=t(TEAM_LETTER[side % 2]))
        elif len(seats) == 1:
            title = t("render.win", who=_name(view, seats[0], names, t))
        elif seats:
            title = t("render.draw", who=", ".join(_name(view, s, names, t) for s in seats))
        else:
            title = t("render.dominas.match_over")
        return title, t("render.dominas.match_over")
    seat = view.current
    title = t("render.to_move", name=_name(view, seat, names, t)) if seat is not None else ""
    if view.bonus is not None:
        b = view.bonus
        if b.target is None:
            line = t("render.dominas.kolobok")
        else:
            line = t("render.dominas.bonus", left=b.left, sum=b.target)
    elif not view.figure:
        line = t("render.dominas.first")
    else:
        line = t("render.dominas.place")
    return title, line


def _draw_header(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    title, line = _status(view, names, t)
    right = WIDTH - PAD
    info = t("render.dominas.game_of", game=view.game_no, games=view.match_games)
    bazaar = t("render.dominas.bazaar", n=view.bazaar_size)
    info_w = 300
    s.text((right, 30), info, size=28, bold=True, fill=INK_SOFT, anchor="rm", bg=PAPER)
    s.text((right, 80), bazaar, size=28, fill=INK_SOFT, anchor="rm", bg=PAPER)
    x = PAD
    if view.current is not None and view.phase is not Phase.OVER:
        s.rounded_rectangle((x, 10, x + 14, 54), radius=5, fill=HIGHLIGHT)
        x += 26
    s.text((x, 32), title, size=42, bold=True, anchor="lm",
           max_width=WIDTH - 2 * PAD - info_w - (x - PAD), min_size=26, bg=PAPER)  # fmt: skip
    if view.bonus is not None:
        tw = min(620, 40 + text_width(line, 30, True))
        s.rounded_rectangle((PAD, 64, PAD + tw, 100), radius=16, fill=HIGHLIGHT)
        s.text((PAD + 18, 82), line, size=30, bold=True, anchor="lm", max_width=600,
               bg=HIGHLIGHT)  # fmt: skip
    else:
        s.text((PAD, 82), line, size=30, fill=INK_SOFT, anchor="lm",
               max_width=WIDTH - 2 * PAD - 300, bg=PAPER)  # fmt: skip
    s.line([(PAD, HEADER - 6), (WIDTH - PAD, HEADER - 6)], fill=LINE, width=2)


def _draw_strip(s: Surface, view: View, t: Translator) -> None:
    y0 = HEADER + 8
    s.text((PAD, y0 + 36), t("render.dominas.last"), size=26, fill=INK_SOFT, anchor="lm", bg=PAPER)
    tiles = [p.tile for p in view.figure[-4:]]
    x = PAD + 176
    for tile_id in tiles:
        s.sprites((PICTURE.at(("chip", tile_id), (x, y0 + 6)),), bg=PAPER)
        x += 128
    if not tiles:
        none = t("render.dominas.no_tiles")
        s.text((x, y0 + 36), none, size=26, fill=MUTED, anchor="lm", bg=PAPER)
        return
    kinds, _extra, _reason = run_of([p.tile for p in view.figure])
    if kinds:
        runs = (
            t(f"render.dominas.run.{k}") if t.has(f"render.dominas.run.{k}") else k for k in kinds
        )
        text = t("render.dominas.run", kinds=", ".join(runs))
        s.text((WIDTH - PAD, y0 + 36), text, size=26, bold=True, fill=INK, anchor="rm",
               max_width=WIDTH - PAD - x - 10, min_size=18, bg=PAPER)  # fmt: skip


def player_box(view: View, seat: int, height: int) -> tuple[int, int, int, int]:
    """The box of a seat's line in the players' panel (two columns, seats top-down)."""
    rows = (len(view.players) + 1) // 2
    top = height - PAD - rows * PLAYER_ROW
    col_w = (WIDTH - 2 * PAD) // 2
    x = PAD + (seat // rows) * col_w
    y = top + (seat % rows) * PLAYER_ROW
    return x, y + 2, x + col_w - 12, y + PLAYER_ROW - 4


def _draw_players(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    h = image_size(view)[1]
    n = len(view.players)
    rows = (n + 1) // 2
    top = h - PAD - rows * PLAYER_ROW
    s.line([(PAD, top - 10), (WIDTH - PAD, top - 10)], fill=LINE, width=2)
    col_w = (WIDTH - 2 * PAD) // 2
    over = view.phase is Phase.OVER
    for i, p in enumerate(view.players):
        box = player_box(view, i, h)
        x, y = box[0], box[1] - 2
        ym = y + PLAYER_ROW // 2 - 2
        acting = p.seat == view.current and not over
        winner = over and p.seat in view.winners
        bg = HIGHLIGHT if acting or winner else PAPER
        if acting or winner:
            s.rounded_rectangle(box, radius=14, fill=bg)
        tx = x + 12
        if view.mode is Mode.TEAMS:
            tc = TEAM_RGB[p.side % 2]
            s.rounded_rectangle((tx, ym - 18, tx + 36, ym + 18), radius=8, fill=tc)
            s.text((tx + 18, ym + 1), t(TEAM_LETTER[p.side % 2]), size=24, bold=True,
                   fill=WHITE, anchor="mm", bg=tc)  # fmt: skip
            tx += 46
        # tiles in hand: a tile back with the count
        s.rounded_rectangle((tx, ym - 21, tx + 52, ym + 21), radius=8, fill=INK_SOFT, outline=INK)
        s.text((tx + 26, ym + 1), str(p.hand_count), size=26, bold=True, fill=WHITE,
               anchor="mm", bg=INK_SOFT)  # fmt: skip
        tx += 64
        score = view.totals[p.side] if p.side < len(view.totals) else 0
        pts = t("render.points", n=score)
        extra = t("render.dominas.drew", n=p.drawn) if p.drawn else ""
        pts_w = text_width(pts, 26, True) + 14
        right_w = pts_w + (text_width(extra, 22) + 10 if extra else 0)
        s.text((tx, ym + 1), _name(view, p.seat, names, t), size=30, bold=acting or winner,
               fill=INK if p.present else MUTED, anchor="lm",
               max_width=x + col_w - 24 - tx - right_w, min_size=20, bg=bg)  # fmt: skip
        if not p.present:
            left = t("render.left")
            s.text((x + col_w - 24, ym + 1), left, size=24, fill=MUTED, anchor="rm", bg=bg)
            continue
        s.text((x + col_w - 24, ym + 1), pts, size=26, bold=True, anchor="rm", bg=bg)
        if extra:
            s.text((x + col_w - 24 - pts_w, ym + 1), extra, size=22, fill=INK_SOFT, anchor="rm",
                   bg=bg)  # fmt: skip


def _paint(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    _draw_header(s, view, names, t)
    _draw_strip(s, view, t)
    _draw_figure(s, view, t)
    _draw_floor_labels(s, view, t)
    _draw_players(s, view, names, t)


# ---------------------------------------------------------------- entry points


def _scene(view: View, names: Mapping[int, str] | None, language: str) -> Scene:
    t = get_translator(language)
    size = image_size(view)
    paint = partial(_paint, view=view, names=names, t=t)
    return Scene(height=size[1], parts=[((0, 0, *size), paint)])


def _palette_pictures() -> Iterator[Image.Image]:
    """Pictures that between them show every colour a table can have: 8 players alone
    and in teams, mid-match (with a bonus series when one comes up) and at the end, and
    a swatch of every tile, chip and nest."""
    import random

    from games.dominas import GAME

    names = dict.fromkeys(range(1, 9), get_translator(DEFAULT_LANGUAGE)("render.sample_name"))
    for seed, options in ((1, {"mode": "teams"}), (2, None)):
        s = GAME.new(list(range(1, 9)), seed=seed, options=options)
        rng = random.Random(seed)
        mid = bonus = None
        for step in range(5000):
            if GAME.is_over(s):
                break
            s, _events = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
            v = GAME.view(s, None)
            if step == 60:
                mid = v
            if bonus is None and v.bonus is not None:
                bonus = v
        yield from (
            PICTURE.draw_rgb(v, names) for v in (mid, bonus, GAME.view(s, None)) if v is not None
        )
    swatch = Image.new("RGB", (WIDTH, 2 * FLOOR_H + CHIP[1] + 40), PAPER)
    paint = RGBSurface(swatch, PICTURE)
    for k, colour in enumerate(TILE_RGB):
        for j, pos in enumerate(Pos):
            origin = (k * 250 + j * 40, (k % 2) * FLOOR_H)
            paint.sprites((PICTURE.at(("body", colour, pos, k >= 2), origin),))
    for i, tile_id in enumerate(ALL_TILES):
        paint.sprites(
            (PICTURE.at(("chip", tile_id), ((i * 11) % (WIDTH - CHIP[0]), 2 * FLOOR_H + 20)),)
        )
    for j, pos in enumerate(Pos):
        t = get_translator(DEFAULT_LANGUAGE)
        paint.sprites(_nest((j * 200, 2 * FLOOR_H - 200), pos, j, True, t))
    yield swatch


def warm_up() -> None:
    """Draw every layer a table can need (tile bodies and their texts, nests, arrows,
    chips, the floors' outlines, the palette), e.g. when the bot starts: then no state,
    however new, draws a supersampled layer."""
    for colour in TILE_RGB:
        for pos in Pos:
            for last in (False, True):
                PICTURE.sprite(("body", colour, pos, last))
            for edge in _edges(pos):
                for symbol in range(7):
                    PICTURE.sprite(_symbol(colour, pos, edge, symbol))
    for tile_id in ALL_TILES:
        PICTURE.sprite(("chip", tile_id))
        for pos in Pos:
            for spec in _tile_face(tile_id, pos):
                PICTURE.sprite(spec)
    origin = (FLOOR_W // 2, FLOOR_H // 2)
    for pos in Pos:
        PICTURE.sprite(("nest", pos))
        for symbol in (None, *range(7)):
            for far in (False, True):
                for language in LANGUAGES:
                    for spec in _nest_texts(pos, symbol, far, get_translator(language)):
                        PICTURE.sprite(spec)
        for edge in _edges(pos):
            PICTURE.sprite(_exit_arrow(origin, pos, edge)[0][0])
    for fill in Fill:
        PICTURE.sprite(_entry_arrow(origin, fill)[0][0])
    PICTURE.warm()
    scratch = PICTURE.scratch((WIDTH, HEADER + STRIP))
    for tile_id in ALL_TILES:  # the chips on the paper
        scratch.sprites((PICTURE.at(("chip", tile_id), (0, 0)),), bg=PAPER)


__all__ = [
    "NEST_FILL",
    "TILE_RGB",
    "WIDTH",
    "draw",
    "encode",
    "floor_origin",
    "image_size",
    "palette",
    "player_box",
    "render",
    "tile",
    "tile_centre",
    "triangle",
    "warm_up",
]


PICTURE = Compositor(
    width=WIDTH,
    field=lambda _: Image.new("RGB", (WIDTH, 0), PAPER),
    sprites={
        "body": _tile_body,
        "text": _aa_text,
        "nest": _nest_body,
        "arrow": _arrow_sprite,
        "chip": _chip_sprite,
    },
    palette=lambda: fit_flat_palette(_palette_pictures()),
    scene=_scene,
    sprite_cache=2048,
)

# The entry points: `render(view, names, language=...)` the PNG, `draw` the picture on the
# palette, `draw_rgb` the same drawn whole, `palette()`, `encode(picture)`.
render, draw, draw_rgb = PICTURE.render, PICTURE.draw, PICTURE.draw_rgb
palette, encode = PICTURE.palette, PICTURE.encode
