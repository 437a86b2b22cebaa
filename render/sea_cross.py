"""The cross of «Морской крест» as a phone-readable picture.

One module, over 400 lines, on purpose: the game's geometry, the pieces it declares to
the compositor and its scene read each other's constants at every line; split, each
part would import all the others.

Drawn from the public `View` only (everything in this game is public). The 11×11 cross:
loop cells white, the four red corners red, each player's кон tinted in his colour with
a small ⚓, his домик (Д1…Д4) tinted deeper, his порог with an arrow into the домик, the
centre in the four colours. Tokens are discs in the player's colour with their number
1–4; two tokens of one colour side by side on the loop (a блок) are joined by a dark bar.
The reserves sit in the corners outside the cross, next to the owner's name and his
count of tokens at home, and the dice his last roll burnt (R6: «сгорели:» and the
dice, until he rolls again). The last move is outlined in yellow (origin thin, target
thick). While the player to act chooses, every legal move is tagged on its target cell
(«1+5», «⚓», «1⤳») so nobody has to count cells; a capture's tag is red. Above the
board: whose turn it is, what he is doing, and the two dice (used ones faded).

Example:
    >>> from games.sea_cross import GAME
    >>> v = GAME.view(GAME.new(players=[1, 2], seed=1), None)
    >>> render(v, {1: "Аня", 2: "Борис"})[:4] == b"\\x89PNG"
    True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from functools import partial
from typing import cast

from PIL import Image, ImageDraw

from games.sea_cross.model import (
    CENTRE,
    HOME_LEN,
    LOOP_LEN,
    RED_CELLS,
    SIZE,
    ActionType,
    Cell,
    Phase,
    View,
    cell_of,
    home_cell,
    loop_cell,
    reserve_cell,
    start_index,
    threshold_index,
)
from locales import DEFAULT_LANGUAGE, LANGUAGES, Translator, get_translator
from render.colours import HIGHLIGHT, INK, INK_SOFT, MUTED, PAPER, RGB, WHITE, contrast_ink, mix
from render.compositor import Compositor, Scene
from render.palette import fit_flat_palette
from render.shapes import Canvas, paste, paste_centred
from render.surface import Group, RGBSurface, Surface
from render.text import clean_text, draw_text, fit_text_cached, text_width

WIDTH = 1000
PAD = 20
HEADER = 132
CELL = (WIDTH - 2 * PAD) // SIZE  # 87 px
BOARD = CELL * SIZE
TOP = HEADER
LEFT = (WIDTH - BOARD) // 2
HEIGHT = TOP + BOARD + PAD

ARM_RGB: tuple[RGB, ...] = (
    (30, 90, 200),  # 🔵 blue, top
    (250, 200, 20),  # 🟡 yellow, right
    (46, 150, 60),  # 🟢 green, bottom
    (142, 36, 170),  # 🟣 purple, left
)
RED_RGB: RGB = (214, 40, 40)
LOOP_RGB: RGB = (255, 254, 250)
EDGE_RGB: RGB = (120, 108, 90)
BOARD_RGB: RGB = (214, 200, 172)  # the cross's bed, showing through the gaps
SEA_RGB: RGB = (222, 236, 244)  # the corners outside the cross
BLOCK_RGB: RGB = (40, 36, 34)
STAR_RGB: RGB = (230, 160, 0)  # the winner's ★
GAP = 3  # inset of a cell inside its grid square

DIE_SIZE = 76
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def image_size(view: View | None = None) -> tuple[int, int]:
    return WIDTH, HEIGHT


def cell_box(cell: Cell, inset: int = GAP) -> tuple[int, int, int, int]:
    """Pixel box of grid cell (row, col), shrunk by `inset`."""
    r, c = cell
    x0, y0 = LEFT + c * CELL, TOP + r * CELL
    return x0 + inset, y0 + inset, x0 + CELL - 1 - inset, y0 + CELL - 1 - inset


def cell_centre(cell: Cell) -> tuple[int, int]:
    r, c = cell
    return LEFT + c * CELL + CELL // 2, TOP + r * CELL + CELL // 2


def reserve_slot(arm: int, number: int) -> Cell:
    """Where token `number` (1…4) waits in the reserve: 1 2 / 3 4 in reading order in
    every corner (the engine's own places are rotated with the arm)."""
    return sorted(reserve_cell(arm, k) for k in range(4))[number - 1]


def _name(view: View, seat: int, names: Mapping[int, str] | None, t: Translator) -> str:
    pid = view.players[seat].player
    if names and pid in names and clean_text(names[pid]):
        return clean_text(names[pid])
    return t("render.player", n=seat + 1)


def _arm_colour(view: View, seat: int) -> RGB:
    return ARM_RGB[view.players[seat].arm]


# ---------------------------------------------------------------- the field and the pieces

# A picture is assembled on the game's palette from cached pieces (`render/compositor.py`).
# The board with every arm in play is the field (per language: its home cells are
# labelled); an arm nobody plays or whose player left, the centre, a player's corner box,
# the last move's frames and a блок's bar are overlays; tokens, dice and the header's
# disc are sprites, a move's tag an opaque stamp, text a patch over the flat colour under
# it. `warm_up` builds them all, so a new state draws nothing supersampled.


def _disc_sprite(radius: float, fill: RGB, outline: RGB | None, width: float) -> Image.Image:
    pad = radius + width + 2
    side = round(2 * pad)
    c = Canvas((side, side))
    c.circle((side / 2, side / 2), radius, fill=fill, outline=outline, width=width)
    return c.image()


def _ring_sprite(radius: float, colour: RGB, width: float) -> Image.Image:
    pad = radius + 2
    side = round(2 * pad)
    c = Canvas((side, side))
    c.circle((side / 2, side / 2), radius, outline=colour, width=width)
    return c.image()


def _arrow_sprite(direction: tuple[int, int], colour: RGB) -> Image.Image:
    """A filled triangle pointing along (dr, dc), the size of a cell."""
    c = Canvas((CELL, CELL))
    m = CELL / 2
    dr, dc = direction
    tip = (m + dc * CELL * 0.36, m + dr * CELL * 0.36)
    base = (m - dc * CELL * 0.12, m - dr * CELL * 0.12)
    side = (dr * CELL * 0.26, dc * CELL * 0.26)
    pts = [tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])]
    c.polygon(pts, fill=colour)
    return c.image()


def _centre_sprite(arms: tuple[bool, ...]) -> Image.Image:
    """The centre: four triangles, each pointing to its arm, in the arm's colour."""
    c = Canvas((CELL, CELL))
    a, b = GAP, CELL - GAP
    m = CELL / 2
    tris = [
        [(a, a), (b, a), (m, m)],  # top
        [(b, a), (b, b), (m, m)],  # right
        [(b, b), (a, b), (m, m)],  # bottom
        [(a, b), (a, a), (m, m)],  # left
    ]
    for arm, pts in enumerate(tris):
        col = ARM_RGB[arm] if arms[arm] else mix(MUTED, WHITE, 0.5)
        c.polygon(pts, fill=col, outline=WHITE, width=2)
    return c.image()


# ---------------------------------------------------------------- board

# How an arm looks: its player plays, left the game, or nobody plays it.
ACTIVE, LEFT_GAME, UNUSED = "active", "left", "unused"


def _paint_board(img: Image.Image, states: tuple[str, ...], t: Translator | None) -> None:
    """The cross without its centre, each arm as `states[arm]` says (its home cells
    labelled in the language of `t`; not at all without)."""
    d = ImageDraw.Draw(img)
    d.rectangle((LEFT - 4, TOP - 4, LEFT + BOARD + 3, TOP + BOARD + 3), fill=EDGE_RGB)
    d.rectangle((LEFT, TOP, LEFT + BOARD - 1, TOP + BOARD - 1), fill=SEA_RGB)
    # The cross's bed.
    lo, hi = 4, 6
    d.rectangle(
        (LEFT + lo * CELL, TOP, LEFT + (hi + 1) * CELL - 1, TOP + BOARD - 1), fill=BOARD_RGB
    )
    d.rectangle(
        (LEFT, TOP + lo * CELL, LEFT + BOARD - 1, TOP + (hi + 1) * CELL - 1), fill=BOARD_RGB
    )
    for g in range(LOOP_LEN):
        d.rounded_rectangle(cell_box(loop_cell(g)), radius=8, fill=LOOP_RGB)
    for cell in RED_CELLS:
        d.rounded_rectangle(cell_box(cell), radius=8, fill=RED_RGB)
    for arm in range(4):
        col = MUTED if states[arm] == UNUSED else ARM_RGB[arm]
        active = states[arm] == ACTIVE
        tint = mix(col, WHITE, 0.55 if active else 0.75)
        deep = mix(col, WHITE, 0.3 if active else 0.7)
        start = loop_cell(start_index(arm))
        d.rounded_rectangle(cell_box(start), radius=8, fill=tint)
        x0, y0, _, _ = cell_box(start)
        draw_text(d, (x0 + 5, y0 + 2), "⚓", size=20, fill=mix(col, INK, 0.3))
        for k in range(HOME_LEN):
            cell = home_cell(arm, k)
            d.rounded_rectangle(cell_box(cell), radius=8, fill=deep)
            bx0, by0, _, _ = cell_box(cell)
            if t is not None:
                label = t("render.sea_cross.home_cell", n=k + 1)
                draw_text(d, (bx0 + 5, by0 + 3), label, size=15, bold=True, fill=contrast_ink(deep))
        # The порог: an arrow from it into the домик.
        thr = loop_cell(threshold_index(arm))
        first = home_cell(arm, 0)
        direction = (first[0] - thr[0], first[1] - thr[1])
        x0, y0, _, _ = cell_box(thr, 0)
        paste(img, _arrow_sprite(direction, mix(col, WHITE, 0.35)), (x0, y0))
        # The reserve: four slots (none for an arm nobody plays).
        for k in range(0 if states[arm] == UNUSED else 4):
            cell = reserve_cell(arm, k)
            disc = _disc_sprite(CELL * 0.4, mix(col, WHITE, 0.8), tint, 3)
            paste_centred(img, disc, cell_centre(cell))


def _field(language: Hashable) -> Image.Image:
    """The whole picture's background: the cross with every arm in play, no centre (its
    home cells labelled in `language`; None: not labelled)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    t = None if language is None else get_translator(cast(str, language))
    _paint_board(img, (ACTIVE,) * 4, t)
    return img


def _square(cell: Cell) -> tuple[int, int, int, int]:
    """The grid square of a cell (right and bottom exclusive): all its drawing is inside."""
    r, c = cell
    return LEFT + c * CELL, TOP + r * CELL, LEFT + (c + 1) * CELL, TOP + (r + 1) * CELL


def _arm_patch(arm: int, state: str, language: str) -> tuple[Image.Image, tuple[int, int]]:
    """The cells that differ when `arm` is not in play (`state`), as one opaque sprite of
    their squares (its home cells labelled in `language`)."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    _paint_board(img, (state,) * 4, get_translator(language))
    cells = [
        loop_cell(start_index(arm)),
        loop_cell(threshold_index(arm)),
        *(home_cell(arm, k) for k in range(HOME_LEN)),
        *(reserve_cell(arm, k) for k in range(4)),
    ]
    squares = [_square(cell) for cell in cells]
    x0, y0 = min(b[0] for b in squares), min(b[1] for b in squares)
    x1, y1 = max(b[2] for b in squares), max(b[3] for b in squares)
    sprite = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    for box in squares:
        sprite.paste(img.crop(box).convert("RGBA"), (box[0] - x0, box[1] - y0))
    return sprite, (x0, y0)


def _label_box(arm: int) -> tuple[int, int, int, int]:
    """A player's corner box: the inner two rows of his corner (towards the horizontal arm)."""
    r0, c0 = reserve_cell(arm, 0)
    rows = (2, 3) if r0 < CENTRE else (7, 8)
    cols = (0, 3) if c0 < CENTRE else (7, 10)
    x0 = LEFT + cols[0] * CELL + 6
    x1 = LEFT + (cols[1] + 1) * CELL - 6
    y0 = TOP + rows[0] * CELL + 6
    y1 = TOP + (rows[1] + 1) * CELL - 6
    return x0, y0, x1, y1


def _label_plate(arm: int, fill: RGB, border: RGB) -> tuple[Image.Image, tuple[int, int]]:
    """The corner box over the sea, and where it goes."""
    x0, y0, x1, y1 = _label_box(arm)
    sprite = Image.new("RGBA", (x1 - x0 + 1, y1 - y0 + 1), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).rounded_rectangle(
        (0, 0, x1 - x0, y1 - y0), radius=14, fill=fill, outline=border, width=6
    )
    return sprite, (x0, y0)


def _label_colours(arm: int, active: bool, lit: bool) -> tuple[RGB, RGB]:
    col = ARM_RGB[arm]
    fill = mix(col, WHITE, 0.82) if active else mix(MUTED, WHITE, 0.7)
    border = HIGHLIGHT if lit else (mix(col, WHITE, 0.4) if active else MUTED)
    return fill, border


def _centre(arms: tuple[bool, ...]) -> tuple[Image.Image, tuple[int, int]]:
    """The centre with the arms in play, and where it goes."""
    x0, y0, _, _ = cell_box((CENTRE, CENTRE), 0)
    return _centre_sprite(arms), (x0, y0)


def _frame(cell: Cell, kind: str) -> tuple[Image.Image, tuple[int, int]]:
    """The last move's frame on its origin (thin) or its target (thick), and where it goes."""
    x0, y0, _, _ = cell_box(cell, 0)
    sprite = Image.new("RGBA", (CELL, CELL), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    inside = (0, 0, CELL - 1, CELL - 1)

    def box(inset: int) -> tuple[int, int, int, int]:
        return inside[0] + inset, inside[1] + inset, inside[2] - inset, inside[3] - inset

    if kind == "origin":
        d.rounded_rectangle(box(1), radius=9, outline=INK, width=3)
        d.rounded_rectangle(box(3), radius=8, outline=HIGHLIGHT, width=4)
    else:
        d.rounded_rectangle(box(0), radius=10, outline=INK, width=9)
        d.rounded_rectangle(box(2), radius=9, outline=HIGHLIGHT, width=6)
    return sprite, (x0, y0)


def _bar(box: tuple[int, int, int, int]) -> tuple[Image.Image, tuple[int, int]]:
    """A блок's dark bar (corners inclusive), and where it goes."""
    x0, y0, x1, y1 = box
    return Image.new("RGBA", (x1 - x0 + 1, y1 - y0 + 1), (*BLOCK_RGB, 255)), (x0, y0)


def _arm_states(view: View, language: str) -> list[Hashable]:
    """The overlays of the arms not in play and the centre."""
    used = {p.arm: p for p in view.players}
    out: list[Hashable] = []
    for arm in range(4):
        if arm not in used:
            out.append(("arm", arm, UNUSED, language))
        elif not used[arm].active:
            out.append(("arm", arm, LEFT_GAME, language))
    out.append(("centre", tuple(a in used and used[a].active for a in range(4))))
    return out


def _draw_corner_labels(
    s: Surface, view: View, names: Mapping[int, str] | None, t: Translator
) -> None:
    """Each player's name and home count in the free half of his corner (the box itself is
    an overlay)."""
    for p in view.players:
        x0, y0, x1, y1 = _label_box(p.arm)
        to_act = p.seat == view.to_act_seat and not view.over
        won = p.player in view.winners
        fill, _ = _label_colours(p.arm, p.active, to_act or won)
        w = x1 - x0 - 24
        cy = (y0 + y1) // 2
        burnt = p.burnt if p.active and not view.over else []
        shift = 16 if burnt else 0  # a third line: the dice his last roll burnt (R6)
        name, size = fit_text_cached(_name(view, p.seat, names, t), 34, w, True, 20)
        ink = INK if p.active else MUTED
        lines = [((x0 + 12, cy - 30 - shift), name, size, True, ink, "lm")]
        if won:  # a long name reaches under the star: one patch
            lines.append(((x1 - 14, cy - 30), "★", 40, False, STAR_RGB, "rm"))
        s.texts(lines, bg=fill)
        if not p.active:
            line = t("render.sea_cross.left_game")
        elif p.place is not None:
            line = t("render.sea_cross.placed", place=p.place, home=p.home_count)
        else:
            line = t("render.sea_cross.home", home=p.home_count)
        s.text((x0 + 12, cy + 24 - (28 if burnt else 0)), line, size=28, bold=won,
               fill=INK_SOFT if p.active else MUTED, anchor="lm", max_width=w, min_size=18,
               bg=fill)  # fmt: skip
        if burnt:
            _draw_burnt(s, (x0 + 12, cy + 42), burnt, t, fill)


BURNT_DIE = 46


def _burnt_die_sprite(value: int) -> Image.Image:
    """A small die that burnt (R6): on a pale face, framed in red."""
    n = BURNT_DIE
    c = Canvas((n, n))
    c.rounded_rect(
        (2, 2, n - 3, n - 3), 8, fill=mix(RED_RGB, WHITE, 0.85), outline=RED_RGB, width=3
    )
    for px, py in PIPS.get(value, ()):
        c.circle((2 + px * (n - 4), 2 + py * (n - 4)), 5, fill=INK)
    return c.image()


def _draw_burnt(s: Surface, at: tuple[int, int], dice: list[int], t: Translator, bg: RGB) -> None:
    """«сгорел: ⚀» on the line at `at` (left, middle): the dice a roll left unused."""
    x, y = at
    word = t("render.sea_cross.burnt_one" if len(dice) == 1 else "render.sea_cross.burnt_many")
    s.text((x, y), word, size=28, bold=True, fill=RED_RGB, anchor="lm", bg=bg)
    x += text_width(word, 28, True) + 10
    for v in dice:  # over the corner box, which may end under the last one
        s.sprites(((("burnt", v), x, y - BURNT_DIE // 2),))
        x += BURNT_DIE + 6


def _last_move(view: View) -> list[Hashable]:
    cells = view.last_move_cells
    if len(cells) != 2:
        return []
    origin, target = cells
    frames: list[Hashable] = [("frame", target, "target")]
    return [("frame", origin, "origin"), *frames] if origin != target else frames


def _blocks(view: View) -> list[Hashable]:
    """A dark bar between the two tokens of a блок."""
    out: list[Hashable] = []
    for p in view.players:
        loop = {t.cell for t in p.tokens if t.where == "loop"}
        for t in p.tokens:
            if not t.in_block:
                continue
            r, c = t.cell
            for nb in ((r, c + 1), (r + 1, c)):
                if nb in loop:
                    (ax, ay), (bx, by) = cell_centre(t.cell), cell_centre(nb)
                    half = round(CELL * 0.16)
                    if ay == by:
                        out.append(("bar", (ax, ay - half, bx, ay + half)))
                    else:
                        out.append(("bar", (ax - half, ay, ax + half, by)))
    return out


TOKEN_R = CELL * 0.36


def _token_sprite(arm: int, number: int, odd_x: bool, odd_y: bool) -> Image.Image:
    """A token: a disc in its arm's colour with its number. Where the disc lands depends
    on its centre's parity (`round` of a half), so the number is placed for each."""
    col = ARM_RGB[arm]
    sprite = _disc_sprite(TOKEN_R, col, INK, 3)
    cx, cy = 1001 if odd_x else 1000, 1001 if odd_y else 1000
    ox = cx - round(cx - sprite.width / 2)
    oy = cy - round(cy - sprite.height / 2)
    draw_text(ImageDraw.Draw(sprite), (ox, oy + 1), str(number), size=36, bold=True,
              fill=contrast_ink(col), anchor="mm")  # fmt: skip
    return sprite


def _tokens(view: View) -> list[Group]:
    """The tokens in play, each after the ring of a token that must jump."""
    jumping = view.phase == Phase.AWAIT_MOVE and view.forced_jumps > 0
    out: list[Group] = []
    for p in view.players:
        if not p.active:
            continue
        for t in p.tokens:
            cx, cy = cell_centre(reserve_slot(p.arm, t.number) if t.where == "reserve" else t.cell)
            spec = ("token", p.arm, t.number, cx % 2 == 1, cy % 2 == 1)
            token = PICTURE.place(spec, (cx, cy))
            if jumping and p.seat == view.to_act_seat and t.on_red_corner:
                ring = PICTURE.place(("ring", TOKEN_R + 8, HIGHLIGHT, 6), (cx, cy))
                out.append((ring, token))
            else:
                out.append((token,))
    return out


def _target_cell(view: View, seat: int, token: int | None, to_rel: int) -> Cell:
    arm = view.players[seat].arm
    return cell_of(arm, to_rel, (token or 1) - 1)


TAG_SIZE = 26
TAG_H = 34


def _tag_width(text: str) -> int:
    return max(40, text_width(text, TAG_SIZE, True) + 14)


def _tag_sprite(text: str, captures: bool, edge: RGB) -> Image.Image:
    """A move's tag: its text on white in a frame (red for a capture); opaque."""
    w = _tag_width(text)
    sprite = Image.new("RGBA", (w + 1, TAG_H + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, w, TAG_H), radius=8, fill=edge)
    d.rounded_rectangle((3, 3, w - 3, TAG_H - 3), radius=6, fill=WHITE)
    draw_text(d, (w / 2, TAG_H / 2), text, size=TAG_SIZE, bold=True,
              fill=RED_RGB if captures else INK, anchor="mm")  # fmt: skip
    return sprite


def _tag_texts() -> list[str]:
    """Every text a tag can show."""
    return (
        ["⚓"]
        + [f"{t}+{d}" for t in range(1, 5) for d in range(1, 7)]
        + [f"{t}→" for t in range(1, 5)]
    )


def _draw_targets(s: Surface, view: View) -> None:
    """Tags on the target cells of the legal moves: «1+5», «⚓», «1⤳» (red: captures)."""
    seat = view.to_act_seat
    if seat is None or view.phase != Phase.AWAIT_MOVE or not view.actions:
        return
    col = _arm_colour(view, seat)
    tags: dict[Cell, list[tuple[str, bool]]] = {}
    for a in view.actions:
        if a.to_rel is None:
            continue
        if a.type is ActionType.ENTER:
            text = "⚓"
            cell = loop_cell(start_index(view.players[seat].arm))
        else:
            cell = _target_cell(view, seat, a.token, a.to_rel)
            text = f"{a.token}+{a.die}" if a.type is ActionType.MOVE else f"{a.token}→"
        tags.setdefault(cell, []).append((text, a.captures))
    for cell, items in tags.items():
        x0, _, x1, y1 = cell_box(cell)
        widths = [_tag_width(text) for text, _ in items]
        rows: list[list[int]] = [[]]
        used = 0
        for i, w in enumerate(widths):
            if rows[-1] and used + w + 2 > x1 - x0:
                rows.append([])
                used = 0
            rows[-1].append(i)
            used += w + 2
        y = y1 - 2
        for row in reversed(rows):
            total = sum(widths[i] for i in row) + 2 * (len(row) - 1)
            x = (x0 + x1) // 2 - total // 2
            for i in row:
                text, captures = items[i]
                edge = RED_RGB if captures else mix(col, INK, 0.25)
                s.stamp(("tag", text, captures, edge), (x, y - TAG_H))
                x += widths[i] + 2
            y -= TAG_H + 2


# ---------------------------------------------------------------- header


def _die_sprite(value: int, used: bool, double: bool) -> Image.Image:
    c = Canvas((DIE_SIZE, DIE_SIZE))
    face = mix(WHITE, PAPER, 0.6) if used else WHITE
    edge = MUTED if used else INK
    c.rounded_rect((2, 2, DIE_SIZE - 3, DIE_SIZE - 3), 12, fill=face, outline=edge, width=4)
    pip = MUTED if used else (RED_RGB if double else INK)
    for px, py in PIPS.get(value, ()):
        c.circle((2 + px * (DIE_SIZE - 4), 2 + py * (DIE_SIZE - 4)), 7, fill=pip)
    if used:
        c.line([(10, DIE_SIZE - 10), (DIE_SIZE - 10, 10)], fill=(*MUTED, 255), width=4)
    return c.image()


def _status(view: View, names: Mapping[int, str] | None, t: Translator) -> tuple[str, str]:
    if view.over:
        who = ", ".join(
            _name(view, p.seat, names, t) for p in view.players if p.player in view.winners
        )
        return t("render.win", who=who), t("render.sea_cross.over")
    seat = view.to_act_seat
    if seat is None:
        return "", ""
    title = t("render.to_move", name=_name(view, seat, names, t))
    if view.phase == Phase.AWAIT_ROLL:
        line = t("render.rolls")
    elif view.forced_jumps > 0:
        line = t("render.sea_cross.must_jump")
    else:
        if len(view.unused) == 1:
            line = t("render.sea_cross.one_die", die=view.unused[0])
        else:
            line = t("render.sea_cross.choose")
        if view.double:
            line += t("render.sea_cross.double")
    return title, line


def _draw_header(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    title, line = _status(view, names, t)
    dice_w = 2 * DIE_SIZE + 16 if view.dice and not view.over else 0
    text_w = WIDTH - 2 * PAD - dice_w - 20
    x = PAD
    seat = view.to_act_seat
    if view.over:
        winners = [p for p in view.players if p.player in view.winners]
        if winners:
            seat = winners[0].seat
    if seat is not None:
        s.sprite(("disc", 19, _arm_colour(view, seat), INK, 3), (x + 20, 44), bg=PAPER)
        x += 52
    s.text((x, 44), title, size=42, bold=True, anchor="lm", max_width=text_w - (x - PAD),
           min_size=26, bg=PAPER)  # fmt: skip
    s.text((PAD, 104), line, size=32, fill=INK_SOFT, anchor="lm", max_width=text_w,
           min_size=20, bg=PAPER)  # fmt: skip
    if dice_w:
        unused = list(view.unused)
        states = []
        for v in view.dice:
            if v in unused and view.phase == Phase.AWAIT_MOVE:
                unused.remove(v)
                states.append(False)
            else:
                states.append(True)
        # Unused dice first are easier to see? Keep the roll's order: it is what was thrown.
        x = WIDTH - PAD - dice_w
        for v, used in zip(view.dice, states, strict=True):
            die = ("die", v, used, view.double)
            s.sprites(((die, x, (HEADER - DIE_SIZE) // 2 - 4),), bg=PAPER)
            x += DIE_SIZE + 16


def _paint(s: Surface, view: View, names: Mapping[int, str] | None, t: Translator) -> None:
    _draw_header(s, view, names, t)
    _draw_corner_labels(s, view, names, t)
    _draw_targets(s, view)


# ---------------------------------------------------------------- entry points


def _scene(view: View, names: Mapping[int, str] | None, language: str) -> Scene:
    t = get_translator(language)
    lit = _arm_states(view, t.lang)
    for p in view.players:
        to_act = p.seat == view.to_act_seat and not view.over
        won = p.player in view.winners
        lit.append(("plate", p.arm, *_label_colours(p.arm, p.active, to_act or won)))
    lit += _last_move(view) + _blocks(view)
    return Scene(
        height=HEIGHT,
        variant=t.lang,
        lit=tuple(lit),
        groups=PICTURE.touching(_tokens(view)),
        parts=[((0, 0, WIDTH, HEIGHT), partial(_paint, view=view, names=names, t=t))],
    )


def _palette_pictures() -> Iterator[Image.Image]:
    """Pictures that between them show every colour a table can have: four players
    (every arm) early, mid-game, after one has left and at the end, and a swatch of the
    board with no arm in play and of every die and tag."""
    import random

    from games.sea_cross import GAME

    ids = [1, 2, 3, 4]
    names = dict.fromkeys(ids, get_translator(DEFAULT_LANGUAGE)("render.sample_name"))
    s = GAME.new(players=ids, seed=1)
    rng = random.Random(1)
    for step in range(4000):
        if GAME.is_over(s):
            break
        s, _events = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
        if step in (30, 300):
            yield PICTURE.draw_rgb(GAME.view(s, None), names)
    yield PICTURE.draw_rgb(GAME.view(s, None), names)
    s = GAME.new(players=ids, seed=2)
    for _ in range(40):
        s, _events = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
    s, _events = GAME.remove(s, 2)
    yield PICTURE.draw_rgb(GAME.view(s, None), names)
    swatch = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    _paint_board(swatch, (UNUSED, LEFT_GAME, UNUSED, LEFT_GAME), get_translator(DEFAULT_LANGUAGE))
    paint = RGBSurface(swatch, PICTURE)
    x, y = 0, 0
    for arm in range(4):
        for text in _tag_texts():
            for captures in (False, True):
                edge = RED_RGB if captures else mix(ARM_RGB[arm], INK, 0.25)
                w = _tag_width(text) + 1
                if x + w > WIDTH:
                    x, y = 0, y + TAG_H + 2
                paint.stamp(("tag", text, captures, edge), (x, y))
                x += w
    y += TAG_H + 4
    for i, (used, double) in enumerate(((False, False), (False, True), (True, False))):
        paint.sprites(((("die", 6, used, double), i * (DIE_SIZE + 4), y),))
    paint.sprites(((("burnt", 6), 3 * (DIE_SIZE + 4), y),))
    for i, colour in enumerate((BLOCK_RGB, STAR_RGB)):  # small flat areas: a блок, the ★
        swatch.paste(colour, (300 + i * 40, y, 330 + i * 40, y + 20))
    yield swatch


def warm_up() -> None:
    """Build every cache a table can need (the board, arms not in play, corner boxes,
    the centre, tokens, dice, the palette), e.g. when the bot starts, so that a new state
    draws nothing supersampled."""
    lit: list[tuple[Hashable, tuple[Hashable, ...]]] = []
    for language in LANGUAGES:
        for state in (LEFT_GAME, UNUSED):
            lit.append((language, tuple(("arm", arm, state, language) for arm in range(4))))
    looks = [(active, on) for active in (False, True) for on in (False, True)]
    for active, on in looks:
        plates = [("plate", arm, *_label_colours(arm, active, on)) for arm in range(4)]
        lit.append((DEFAULT_LANGUAGE, tuple(plates)))
    for arms in range(16):
        lit.append((DEFAULT_LANGUAGE, (("centre", tuple(bool(arms >> a & 1) for a in range(4))),)))
    PICTURE.warm(backgrounds=[(HEIGHT, language) for language in LANGUAGES], lit=lit)
    for arm in range(4):
        for number in range(1, 5):
            for odd_x in (False, True):
                for odd_y in (False, True):
                    PICTURE.sprite(("token", arm, number, odd_x, odd_y))
        PICTURE.sprite(("disc", 19, ARM_RGB[arm], INK, 3))
    PICTURE.sprite(("ring", TOKEN_R + 8, HIGHLIGHT, 6))
    for value in range(1, 7):
        PICTURE.sprite(("burnt", value))
        for used in (False, True):
            for double in (False, True):
                PICTURE.sprite(("die", value, used, double))


PICTURE = Compositor(
    width=WIDTH,
    field=_field,
    variants=(None, *LANGUAGES),  # the home cells' labels are the board's only words
    overlays={
        "arm": _arm_patch,
        "centre": _centre,
        "plate": _label_plate,
        "frame": _frame,
        "bar": _bar,
    },
    sprites={
        "token": _token_sprite,
        "ring": _ring_sprite,
        "disc": _disc_sprite,
        "die": _die_sprite,
        "burnt": _burnt_die_sprite,
        "tag": _tag_sprite,
    },
    palette=lambda: fit_flat_palette(_palette_pictures()),
    scene=_scene,
    sprite_cache=256,
)

# The entry points: `render(view, names, language=...)` the PNG, `draw` the picture on the
# palette, `draw_rgb` the same drawn whole, `palette()`, `encode(picture)`.
render, draw, draw_rgb = PICTURE.render, PICTURE.draw, PICTURE.draw_rgb
palette, encode = PICTURE.palette, PICTURE.encode
