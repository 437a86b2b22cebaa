"""The grid of «Захват клеток» as a phone-readable picture.

One module, over 400 lines, on purpose: the game's geometry, the pieces it declares to
the compositor and its scene read each other's constants at every line; split, each
part would import all the others.

Drawn from the public `View` only. Each capture is a "snake" of cells in the owner's
colour, numbered 1…k in capture order as on paper [Прим.]; cells of one path are joined,
different paths are separated by the grid gap. Path ends (the anchors) carry a small
white dot; the last capture has a dark outline; the path being drawn is hatched; anchors
offered for the chosen number are ringed in yellow. Column letters run along the top,
row numbers down the left (spec §3). Above the grid: round, whose turn, what he is
doing, and the numbers 1…N of the round (taken ones in the taker's colour). Below: the
players in this round's order with their cell counts.

Example:
    >>> from games.cell_capture import GAME
    >>> v = GAME.view(GAME.new(players=[1, 2, 3], seed=1), None)
    >>> render(v, {1: "Аня", 2: "Борис", 3: "Вика"})[:4] == b"\\x89PNG"
    True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from functools import partial
from itertools import pairwise
from typing import cast

from PIL import Image, ImageDraw

from games.cell_capture.model import (
    CENTRE,
    COLOURS,
    FREE,
    LETTERS,
    ActionType,
    EndReason,
    Phase,
    View,
    side,
)
from locales import DEFAULT_LANGUAGE, LANGUAGES, Translator, get_translator
from render.colours import HIGHLIGHT, INK, INK_SOFT, MUTED, PAPER, RGB, WHITE, contrast_ink, mix
from render.compositor import Compositor, Scene
from render.palette import fit_flat_palette
from render.shapes import Canvas, Disc, paste
from render.surface import Surface
from render.text import clean_text, draw_text, stamp_text, text_width

WIDTH = 1000
PAD = 22  # outer margin
LABEL = 40  # room for coordinates left of and above the grid
MAX_CELL = 116
GAP = 4  # grid gap between cells (the board's background shows through)
HEADER = 122
LEGEND_ROW = 62
SPARE_MARKS = "DFGJLNQRSUVWZ"  # Latin letters that look like no Cyrillic letter or digit
LIKE_THREE = "З"  # a name's letter that reads as the digit 3 (compared, never drawn)
KEY_ROW = 96  # the key under the players: what the letters, numbers and dots mean
KEY_CELL = 66
KEY_RGB: RGB = (120, 116, 112)
KEY_TEXT = ("render.cell_capture.key_letters", "render.cell_capture.key_end")  # locale keys

PLAYER_RGB: dict[str, RGB] = {
    "red": (229, 57, 53),
    "blue": (30, 90, 200),
    "green": (56, 150, 60),
    "orange": (251, 140, 0),
    "purple": (142, 36, 170),
    "teal": (0, 172, 193),
}
CENTRE_RGB: RGB = (66, 66, 70)
FREE_RGB: RGB = (255, 253, 248)
GRID_RGB: RGB = (196, 186, 168)
BOARD_EDGE: RGB = (120, 108, 90)

END_TEXT = {  # locale keys
    EndReason.BOARD_FULL: "render.cell_capture.end.board_full",
    EndReason.NO_MOVES: "render.cell_capture.end.no_moves",
    EndReason.PLAYERS_LEFT: "render.players_left",
}


def cell_size(size: int) -> int:
    """Pixel side of one cell: the grid fills the width, up to MAX_CELL."""
    return min(MAX_CELL, (WIDTH - 2 * PAD - LABEL) // size)


def grid_origin(size: int) -> tuple[int, int]:
    """Top-left pixel of the grid (cell A1's outer corner)."""
    cs = cell_size(size)
    left = (WIDTH - LABEL - cs * size) // 2 + LABEL
    return left, HEADER + LABEL


def cell_box(size: int, r: int, c: int, inset: int = GAP // 2) -> tuple[int, int, int, int]:
    """Pixel box of cell (r, c), shrunk by `inset` on every side."""
    cs = cell_size(size)
    x0, y0 = grid_origin(size)
    return (
        x0 + c * cs + inset,
        y0 + r * cs + inset,
        x0 + (c + 1) * cs - inset - 1,
        y0 + (r + 1) * cs - inset - 1,
    )


def cell_centre(size: int, r: int, c: int) -> tuple[int, int]:
    cs = cell_size(size)
    x0, y0 = grid_origin(size)
    return x0 + c * cs + cs // 2, y0 + r * cs + cs // 2


def image_size(view: View) -> tuple[int, int]:
    return WIDTH, _height(len(view.players), view.size)


def _height(players: int, size: int) -> int:
    rows = (players + 1) // 2
    return HEADER + LABEL + cell_size(size) * size + 24 + rows * LEGEND_ROW + KEY_ROW + PAD


def _rc(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, LETTERS.index(name[0])


# ---------------------------------------------------------------- the field and the sprites

# A picture is assembled on the game's palette from cached pieces (`render/compositor.py`):
# the empty grid of a size is the field, drawn once; a captured cell with its number and
# its owner's letter, hatching and a dot on the last capture are opaque tiles; discs and
# text are patches over the flat colour under them.


def _field(size: int) -> Image.Image:
    """The picture down to the grid's edge with every cell free but the centre."""
    cs = cell_size(size)
    x0, y0 = grid_origin(size)
    img = Image.new("RGB", (WIDTH, y0 + cs * size + 3), PAPER)
    _rect(img, (x0 - 3, y0 - 3, x0 + cs * size + 2, y0 + cs * size + 2), BOARD_EDGE)
    _rect(img, (x0, y0, x0 + cs * size - 1, y0 + cs * size - 1), GRID_RGB)
    label = max(20, min(30, cs // 2 - 2))
    for i in range(size):
        cx, cy = cell_centre(size, i, i)
        stamp_text(img, (cx, y0 - 8), LETTERS[i], size=label, bold=True, fill=INK_SOFT, anchor="ms")
        stamp_text(
            img, (x0 - 10, cy), str(i + 1), size=label, bold=True, fill=INK_SOFT, anchor="rm"
        )
    middle = size // 2
    for r in range(size):
        for c in range(size):
            if (r, c) == (middle, middle):
                _rect(img, cell_box(size, r, c), CENTRE_RGB)
                _star(img, cell_centre(size, r, c), cs * 0.36, WHITE)
            else:
                _rect(img, cell_box(size, r, c), FREE_RGB)
    return img


def _rect(img: Image.Image, box: tuple[int, int, int, int], fill: RGB) -> None:
    """`ImageDraw.rectangle(box, fill=fill)` (corners inclusive) without its overhead."""
    img.im.paste(fill, (box[0], box[1], box[2] + 1, box[3] + 1))


def _star(img: Image.Image, centre: tuple[int, int], radius: float, fill: RGB) -> None:
    """The four-pointed ✦ of the neutral centre."""
    pad = round(radius) + 2
    r, q = radius, radius * 0.28
    pts = [
        (pad, pad - r),
        (pad + q, pad - q),
        (pad + r, pad),
        (pad + q, pad + q),
        (pad, pad + r),
        (pad - q, pad + q),
        (pad - r, pad),
        (pad - q, pad - q),
    ]
    c = Canvas((2 * pad, 2 * pad))
    c.polygon(pts, fill=fill)
    paste(img, c.image(), (centre[0] - pad, centre[1] - pad))


def _numbered_cell(size: int, colour: RGB, number: int, mark: str, inset: int) -> Image.Image:
    """A captured cell (the box `cell_box` gives with `inset`: the inner part of a cell of
    the last capture) in its owner's colour with its number in capture order and its
    owner's letter in the top-left corner (colour is not the only sign of the owner: spec
    §3, issue 18)."""
    x0, y0, x1, y1 = cell_box(size, 0, 0, inset)
    cx, cy = cell_centre(size, 0, 0)
    tile = Image.new("RGB", (x1 - x0 + 1, y1 - y0 + 1), colour)
    ink = contrast_ink(colour)
    stamp_text(tile, (cx - x0, cy - y0 + 1), str(number), size=_number_size(size), bold=True,
               fill=ink, anchor="mm")  # fmt: skip
    pad = max(2, cell_size(size) // 18)
    stamp_text(tile, (pad, pad - 2), mark, size=_mark_size(size), bold=True, fill=ink)
    return tile


def _hatch_tile(w: int, h: int, colour: RGB) -> Image.Image:
    """Diagonal stripes in `colour` over a light tint of it."""
    tile = Image.new("RGB", (w, h), mix(colour, WHITE, 0.78))
    td = ImageDraw.Draw(tile)
    step = 14
    for k in range(-h, w + h, step):
        td.line([(k, h), (k + h, 0)], fill=mix(colour, WHITE, 0.35), width=5)
    return tile


def _draft_cell(size: int, colour: RGB, number: int) -> Image.Image:
    """A cell of the path being drawn: hatched, framed in the drawer's colour, with its
    number."""
    x0, y0, x1, y1 = cell_box(size, 0, 0)
    tile = _hatch_tile(x1 - x0 + 1, y1 - y0 + 1, colour)
    d = ImageDraw.Draw(tile)
    d.rectangle((0, 0, x1 - x0, y1 - y0), outline=colour, width=4)
    cx, cy = cell_centre(size, 0, 0)
    draw_text(d, (cx - x0, cy + 1 - y0), str(number), size=_number_size(size), bold=True,
              fill=mix(colour, INK, 0.35), anchor="mm", stroke=3, stroke_fill=WHITE)  # fmt: skip
    return tile


def _dot(size: int, r: int, c: int) -> tuple[tuple[float, float], float, float]:
    """A path's end (an anchor): a white dot with a dark rim in the cell's top-right
    corner: its centre, radius and rim."""
    dot = max(4.0, cell_size(size) * 0.09)
    _, by0, bx1, _ = cell_box(size, r, c)
    return (bx1 - dot - 3, by0 + dot + 3), dot, max(1.5, dot * 0.35)


def _last_dot(size: int, colour: RGB, right: bool, up: bool) -> Image.Image:
    """An end's dot on the last capture, over its dark border and its colour (the path
    goes on to the right, upwards, or not), as an opaque sprite: where the dot has ink."""
    cell = (1, 1)  # any cell: the dot lies where it does in every cell
    centre, radius, width = _dot(size, *cell)
    spec, (ox, oy) = Disc.at(centre, radius, WHITE, INK, width)
    sprite = spec.image()
    img = Image.new("RGB", sprite.size, INK)
    inner = GAP // 2 + 4
    boxes = [cell_box(size, *cell, inner)]
    if right:
        boxes.append(_bridge(size, cell, (1, 2), inner))
    if up:
        boxes.append(_bridge(size, cell, (0, 1), inner))
    for x0, y0, x1, y1 in boxes:
        _rect(img, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), colour)
    img.paste(sprite, (0, 0), sprite)
    out = img.convert("RGBA")
    out.putalpha(sprite.getchannel("A").point(lambda a: 255 if a else 0))
    return out


def _name(view: View, seat: int, names: Mapping[int, str] | None, t: Translator) -> str:
    pid = view.players[seat].player
    if names and pid in names and clean_text(names[pid]):
        return clean_text(names[pid])  # drawn without what the font lacks («🤖»)
    return t("render.player", n=seat + 1)


def _colour(view: View, seat: int) -> RGB:
    return PLAYER_RGB[view.players[seat].colour]


def _bridge(
    size: int, a: tuple[int, int], b: tuple[int, int], inset: int, across: int | None = None
) -> tuple[int, int, int, int]:
    """The box over the gap between neighbouring cells `a` and `b` of one path.

    `inset` is the cells' inset (the gap is 2·inset wide); `across` narrows the band
    across the joint (defaults to `inset`, i.e. as wide as the cells).
    """
    ax0, ay0, ax1, ay1 = cell_box(size, *a, inset)
    bx0, by0, bx1, by1 = cell_box(size, *b, inset)
    cx0, cy0, cx1, cy1 = cell_box(size, *a, inset if across is None else across)
    if a[0] == b[0]:  # same row: a horizontal joint
        left, right = (ax1, bx0) if a[1] < b[1] else (bx1, ax0)
        return left - 1, cy0, right + 1, cy1
    top, bottom = (ay1, by0) if a[0] < b[0] else (by1, ay0)
    return cx0, top - 1, cx1, bottom + 1


def _draw_path_shape(
    s: Surface, size: int, cells: list[tuple[int, int]], fill: RGB, inset: int
) -> None:
    """Cells of one path, inset by `inset`, joined into a single shape."""
    for rc in cells:
        s.rectangle(cell_box(size, *rc, inset), fill=fill)
    for a, b in pairwise(cells):
        s.rectangle(_bridge(size, a, b, inset), fill=fill)


# ---------------------------------------------------------------- parts


def _number_size(size: int) -> int:
    """The type size of the capture-order numbers in the cells."""
    return max(18, round(cell_size(size) * 0.5))


def _draw_grid(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    size = view.size
    cs = cell_size(size)
    x0, y0 = grid_origin(size)
    g = GAP // 2  # cell_box's default inset
    marks = owner_marks(view, names, t)
    for p in view.paths[:-1]:  # cells with their numbers, then the joints between them
        cells = [_rc(x) for x in p.cells]
        col = _colour(view, p.seat)
        for j, (r, c) in enumerate(cells):
            s.stamp(
                ("cell", size, col, j + 1, marks[p.seat], g), (x0 + c * cs + g, y0 + r * cs + g)
            )
        for a, b in pairwise(cells):
            s.rectangle(_bridge(size, a, b, g), fill=col)
    last: dict[tuple[int, int], tuple[RGB, bool, bool]] = {}
    if view.paths:  # the last capture: a dark border inside its shape
        p = view.paths[-1]
        cells = [_rc(x) for x in p.cells]
        col = _colour(view, p.seat)
        _draw_path_shape(s, size, cells, INK, -1)
        _draw_path_shape(s, size, cells, col, g + 4)
        for j, (r, c) in enumerate(cells):
            bx0, by0, _, _ = cell_box(size, r, c, g + 4)
            s.stamp(("cell", size, col, j + 1, marks[p.seat], g + 4), (bx0, by0))
        joined = set(pairwise(cells)) | {(b, a) for a, b in pairwise(cells)}
        for r, c in cells:
            last[r, c] = (col, ((r, c), (r, c + 1)) in joined, ((r, c), (r - 1, c)) in joined)

    for anchor in view.anchors:
        r, c = _rc(anchor)
        owner = view.grid[r][c]
        if owner == CENTRE:
            continue
        centre, radius, width = _dot(size, r, c)
        if (r, c) in last:
            _, (ox, oy) = Disc.at(centre, radius, WHITE, INK, width)
            s.stamp(("dot", size, *last[r, c]), (ox, oy))
        else:
            bg = FREE_RGB if owner == FREE else _colour(view, owner)
            s.disc(centre, radius, WHITE, INK, width, bg=bg)

    # Anchors offered for the chosen number: a yellow ring.
    for anchor in view.offered_anchors:
        r, c = _rc(anchor)
        s.rectangle(cell_box(size, r, c, GAP // 2 - 2), outline=INK, width=7)
        s.rectangle(cell_box(size, r, c, GAP // 2 - 1), outline=HIGHLIGHT, width=5)

    _draw_draft(s, view)


def owner_marks(
    view: View, names: Mapping[int, str] | None, t: Translator | None = None
) -> list[str]:
    """Per seat, the mark its cells carry besides the colour: the first letter of the
    name, capitalised (`Аня` → `А`). Players whose letters clash get two (`Ан`, `Ал`),
    and so does `З`, which would read as the digit 3 next to a path number (`Зоя` → `Зо`).
    A name without a letter, or names that still clash (two «Саша», no names), get a Latin
    letter that looks like no Cyrillic one (`D`, `F`, …), shown in the legend too."""
    t = t or get_translator(DEFAULT_LANGUAGE)
    first = []
    for seat in range(len(view.players)):
        first.append([ch for ch in _name(view, seat, names, t) if ch.isalpha()])
    one = [x[0].upper() if x else "" for x in first]
    two = [
        m + x[1].lower() if (one.count(m) > 1 or m == LIKE_THREE) and len(x) > 1 else m
        for m, x in zip(one, first, strict=True)
    ]
    spare = iter(x for x in SPARE_MARKS if x not in two)
    return [m if m and m != LIKE_THREE and two.count(m) == 1 else next(spare) for m in two]


def _mark_size(size: int) -> int:
    """The type size of the owner's letter in a captured cell's top-left corner."""
    return max(16, round(cell_size(size) * 0.4))


def _draw_draft(s: Surface, view: View) -> None:
    draft = view.draft
    if draft is None or draft.anchor is None:
        return
    size = view.size
    cs = cell_size(size)
    col = _colour(view, draft.seat)
    cells = [_rc(x) for x in draft.path]
    anchor = _rc(draft.anchor)
    # The chosen anchor: yellow ring.
    s.rectangle(cell_box(size, *anchor, GAP // 2 - 2), outline=INK, width=7)
    s.rectangle(cell_box(size, *anchor, GAP // 2 - 1), outline=HIGHLIGHT, width=5)
    chain = [anchor, *cells]
    for a, b in pairwise(chain):  # a hatched joint from the anchor on
        x0, y0, x1, y1 = _bridge(size, a, b, GAP // 2, cs // 4)
        s.stamp(("hatch", x1 - x0 + 1, y1 - y0 + 1, col), (x0, y0))
    for j, rc in enumerate(cells):
        x0, y0, _, _ = cell_box(size, *rc)
        s.stamp(("draft", size, col, j + 1), (x0, y0))


def _status(view: View, names: Mapping[int, str] | None, t: Translator) -> tuple[str, str]:
    """Two header lines: who acts (or the result), and what is happening."""
    if view.over:
        seats = [p.seat for p in view.players if p.player in view.winners]
        who = ", ".join(_name(view, s, names, t) for s in seats)
        title = t("render.draw" if len(seats) > 1 else "render.win", who=who)
        key = END_TEXT.get(view.end_reason) if view.end_reason else None
        if key is None:
            return title, t("render.game_over")
        return title, t("render.game_over_because", reason=t(key))
    seat = view.to_act_seat
    if seat is None:
        return "", ""
    title = t("render.to_move", name=_name(view, seat, names, t))
    draft = view.draft
    if view.phase is Phase.PICK_K:
        nums = ", ".join(map(str, view.allowed))
        key = "pick_k" if len(view.allowed) > 1 else "will_take"
        line = t(f"render.cell_capture.{key}", numbers=nums)
    elif draft is not None and view.phase is Phase.PICK_ANCHOR:
        line = t("render.cell_capture.pick_anchor", k=draft.k)
    elif draft is not None:
        path = (
            " → ".join(draft.path)
            if draft.path
            else t("render.cell_capture.path_from", anchor=draft.anchor)
        )
        line = t("render.cell_capture.path", path=path, done=len(draft.path), k=draft.k)
    else:
        line = ""
    return title, line


def _draw_header(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    title, line = _status(view, names, t)
    numbers_w = view.n * 54 + 10
    text_w = WIDTH - 2 * PAD - numbers_w - 10
    x = PAD
    if view.to_act_seat is not None and not view.over:
        col = _colour(view, view.to_act_seat)
        s.disc((x + 17, 40), 15, col, INK, 2, bg=PAPER)
        x += 44
    s.text((x, 40), title, size=40, bold=True, fill=INK, anchor="lm",
           max_width=text_w - (x - PAD), min_size=26, bg=PAPER)  # fmt: skip
    s.text((PAD, 92), line, size=32, fill=INK_SOFT, anchor="lm", max_width=text_w, min_size=22,
           bg=PAPER)  # fmt: skip

    # Numbers 1…N of this round: taken ones filled with the taker's colour.
    taken = {p.number: p.seat for p in view.players if p.number is not None}
    right = WIDTH - PAD
    s.text((right, 22), t("render.round", n=view.round_no), size=28, bold=True, fill=INK_SOFT,
           anchor="ra", bg=PAPER)  # fmt: skip
    for i in range(0 if view.over else view.n):
        k = i + 1
        cx = right - (view.n - 1 - i) * 54 - 24
        cy = 92
        chosen = view.draft is not None and view.draft.k == k and view.to_act_seat is not None
        if chosen and view.to_act_seat is not None:
            col = _colour(view, view.to_act_seat)
            fill, ink = mix(col, WHITE, 0.7), INK
            s.disc((cx, cy), 23, fill, col, 5, bg=PAPER)
        elif k in taken:
            fill = _colour(view, taken[k])
            ink = contrast_ink(fill)
            s.disc((cx, cy), 23, fill, bg=PAPER)
        else:
            allowed = k in view.allowed
            fill, ink = WHITE, INK if allowed else MUTED
            s.disc((cx, cy), 23, fill, ink, 3 if allowed else 2, bg=PAPER)
        s.text((cx, cy + 1), str(k), size=28, bold=True, fill=ink, anchor="mm", bg=fill)


def _legend_seats(view: View) -> list[int]:
    """Final standings when over; else this round's order, then players who left."""
    if view.over:
        return [p.seat for p in sorted(view.players, key=lambda p: (p.place or 99, p.seat))]
    seats = [s for s in view.order if view.players[s].active]
    return seats + [p.seat for p in view.players if p.seat not in seats]


def _draw_legend(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    size = view.size
    top = grid_origin(size)[1] + cell_size(size) * size + 24
    seats = _legend_seats(view)
    marks = owner_marks(view, names, t)
    rows = (len(seats) + 1) // 2
    col_w = (WIDTH - 2 * PAD) // 2
    for i, seat in enumerate(seats):
        p = view.players[seat]
        x = PAD + (i // rows) * col_w
        y = top + (i % rows) * LEGEND_ROW
        ym = y + LEGEND_ROW // 2 - 4
        acting = seat == view.to_act_seat and not view.over
        winner = view.over and p.player in view.winners
        bg = HIGHLIGHT if acting or winner else PAPER
        if acting or winner:
            s.rounded_rectangle((x, y, x + col_w - 12, y + LEGEND_ROW - 8), radius=14, fill=bg)
        if view.over:
            index = str(p.place) if p.place is not None else ""
        else:
            index = str(i + 1) if p.active else ""
        s.text((x + 26, ym + 1), index, size=28, bold=True, fill=INK_SOFT, anchor="mm", bg=bg)
        col = _colour(view, seat)  # a leaver keeps his colour: his cells stay on the board
        s.rounded_rectangle((x + 48, ym - 22, x + 118, ym + 22), radius=10, fill=col,
                            outline=INK, width=2)  # fmt: skip
        s.text((x + 83, ym + 1), str(p.cells), size=30, bold=True, fill=contrast_ink(col),
               anchor="mm", bg=col)  # fmt: skip
        if not p.active:
            tag = t("render.left")
        elif view.over:
            tag = t("render.cell_capture.tag.won") if winner else ""
        elif p.number is not None:
            tag = t("render.cell_capture.tag.took", k=p.number)
        elif p.stuck:
            tag = t("render.cell_capture.tag.stuck")
        else:
            tag = ""
        tag_w = text_width(tag, 26) + 12 if tag else 0
        name = _name(view, seat, names, t)
        if not name.upper().startswith(marks[seat].upper()):
            name = f"{marks[seat]} · {name}"  # the letter its cells carry
        s.text((x + 132, ym + 1), name, size=32, bold=acting or winner,
               fill=INK if p.active else MUTED, anchor="lm", max_width=col_w - 160 - tag_w,
               min_size=24, bg=bg)  # fmt: skip
        if tag:
            s.text((x + col_w - 24, ym + 2), tag, size=26, fill=INK_SOFT, anchor="rm", bg=bg)


def _draw_key(s: Surface, top: int, t: Translator) -> None:
    """The key: a sample path of two cells (letter, number, end dots) and what they mean."""
    x, y = PAD + 6, top + (KEY_ROW - KEY_CELL) // 2
    mark = t("render.cell_capture.key_mark")
    for j in range(2):
        bx = x + j * (KEY_CELL + GAP)
        s.rectangle((bx, y, bx + KEY_CELL - 1, y + KEY_CELL - 1), fill=KEY_RGB)
        s.text((bx + 4, y + 2), mark, size=24, bold=True, fill=WHITE, bg=KEY_RGB)
        s.text((bx + KEY_CELL // 2 + 3, y + KEY_CELL // 2 + 4), str(j + 1), size=32, bold=True,
               fill=WHITE, anchor="mm", bg=KEY_RGB)  # fmt: skip
        s.disc((bx + KEY_CELL - 11, y + 11), 6, WHITE, INK, 2, bg=KEY_RGB)
    s.rectangle((x + KEY_CELL, y, x + KEY_CELL + GAP - 1, y + KEY_CELL - 1), fill=KEY_RGB)
    tx = x + 2 * KEY_CELL + GAP + 24
    for i, key in enumerate(KEY_TEXT):
        line = t(key)
        ty = y + 14 + i * 36
        if i == 1:  # the end dot itself, then its meaning
            s.disc((tx + 9, ty), 8, WHITE, INK, 3, bg=PAPER)
            s.text((tx + 26, ty), line, size=30, fill=INK_SOFT, anchor="lm",
                   max_width=WIDTH - PAD - tx - 26, min_size=22, bg=PAPER)  # fmt: skip
        else:
            s.text((tx, ty), line, size=30, fill=INK_SOFT, anchor="lm",
                   max_width=WIDTH - PAD - tx, min_size=22, bg=PAPER)  # fmt: skip


def _paint(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    _draw_header(s, view, names, t)
    _draw_grid(s, view, names, t)
    _draw_legend(s, view, names, t)
    _draw_key(s, image_size(view)[1] - PAD - KEY_ROW, t)


# ---------------------------------------------------------------- entry points


def _scene(view: View, names: Mapping[int, str] | None, language: str) -> Scene:
    paint = partial(_paint, view=view, names=names, t=get_translator(language))
    size = image_size(view)
    return Scene(height=size[1], variant=view.size, parts=[((0, 0, *size), paint)])


def _palette_pictures() -> Iterator[Image.Image]:
    """Pictures that between them show every colour a table can have: six players (every
    colour; seat s always plays COLOURS[s]) early, with a path being drawn in each colour,
    and at the end."""
    import random

    from games.cell_capture import GAME

    ids = list(range(1, 7))
    names = dict.fromkeys(ids, get_translator(DEFAULT_LANGUAGE)("render.sample_name"))
    s = GAME.new(players=ids, seed=1)
    rng = random.Random(1)
    yield PICTURE.draw_rgb(GAME.view(s, None), names)
    drafted: set[int] = set()
    back = (ActionType.UNDO, ActionType.CANCEL, ActionType.BACK)
    for _ in range(4000):
        if GAME.is_over(s):
            break
        s, _events = GAME.apply(
            s, rng.choice([a for a in GAME.legal_actions(s) if a.type not in back])
        )
        v = GAME.view(s, None)
        if v.draft is not None and len(v.draft.path) >= 2 and v.draft.seat not in drafted:
            drafted.add(v.draft.seat)
            yield PICTURE.draw_rgb(v, names)
    yield PICTURE.draw_rgb(GAME.view(s, None), names)


def warm_up() -> None:
    """Build every cache a table can need (the grid of every size, the palette, dots,
    hatching, discs, the key), e.g. when the bot starts, so that a new state draws
    nothing supersampled."""
    from games.cell_capture import GAME

    s = PICTURE.scratch((WIDTH, 1400))
    backgrounds: list[tuple[int, Hashable]] = []
    for n in range(2, GAME.max_players + 1):  # two only as a house rule (R1)
        size = side(n)
        cs = cell_size(size)
        backgrounds.append((_height(n, size), size))
        for name in COLOURS[:n]:  # seat s plays COLOURS[s]
            col = PLAYER_RGB[name]
            centre, radius, width = _dot(size, 0, 0)
            s.disc(centre, radius, WHITE, INK, width, bg=col)
            for right in (False, True):
                for up in (False, True):
                    s.stamp(("dot", size, col, right, up), (0, 0))
            for number in range(1, n + 1):
                s.stamp(("draft", size, col, number), (0, 0))
        for col in PLAYER_RGB.values():
            x0, y0, x1, y1 = cell_box(size, 0, 0)
            s.stamp(("hatch", x1 - x0 + 1, y1 - y0 + 1, col), (0, 0))
            for nb in ((0, 1), (1, 0)):
                x0, y0, x1, y1 = _bridge(size, (0, 0), nb, GAP // 2, cs // 4)
                s.stamp(("hatch", x1 - x0 + 1, y1 - y0 + 1, col), (0, 0))
    PICTURE.warm(backgrounds=backgrounds)
    for col in PLAYER_RGB.values():  # the header's discs (their centres are whole pixels)
        s.disc((PAD + 17, 40), 15, col, INK, 2, bg=PAPER)
        s.disc((100, 92), 23, mix(col, WHITE, 0.7), col, 5, bg=PAPER)
        s.disc((100, 92), 23, col, bg=PAPER)
    s.disc((100, 92), 23, WHITE, INK, 3, bg=PAPER)
    s.disc((100, 92), 23, WHITE, MUTED, 2, bg=PAPER)
    for language in LANGUAGES:
        _draw_key(s, 0, get_translator(language))


PICTURE = Compositor(
    width=WIDTH,
    field=lambda size: _field(cast(int, size)),
    sprites={"cell": _numbered_cell, "hatch": _hatch_tile, "draft": _draft_cell, "dot": _last_dot},
    palette=lambda: fit_flat_palette(_palette_pictures()),
    scene=_scene,
    sprite_cache=512,
)

# The entry points: `render(view, names, language=...)` the PNG, `draw` the picture on the
# palette, `draw_rgb` the same drawn whole, `palette()`, `encode(picture)`.
render, draw, draw_rgb = PICTURE.render, PICTURE.draw, PICTURE.draw_rgb
palette, encode = PICTURE.palette, PICTURE.encode
