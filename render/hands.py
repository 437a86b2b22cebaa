"""A player's own hand as a small picture, for his private hand in the group (an ephemeral
message, bot/service/hands.py): the tiles drawn as the board draws them.

- «ДОМИНА*С»: each tile is the board's cut-corner triangle in its colour, its number big
  in the middle and its three symbols by its edges (`render/dominas.py`'s pieces), set
  point up and point down in turn, five to a row; a tile that fits now has the board's
  yellow rim (the rim of the last placed tile). 10 tiles: 562 × 294 px, readable on a
  360-px phone screen.
- «Семидорожник»: each kind the hand holds once, as the board's tile disc
  (`render/seven_tracks.tile_sprite`, cached with the board's sprites; the priority tiles
  as labelled cards), with the count under it, six to a row.

Only the owner's tiles are drawn; nothing else of the game is needed.

Example:
    >>> dominas_hand([("О1", True), ("З2", False)])[:4] == b"\\x89PNG"
    True
    >>> seven_tracks_hand(["R", "R", "W", "SK"])[:4] == b"\\x89PNG"
    True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from games.dominas.model import Pos
from games.dominas.tiles import symbols_of
from games.seven_tracks.model import KINDS
from locales import get_translator
from render import dominas as dom
from render.colours import INK, INK_SOFT, PAPER, WHITE
from render.png import encode_png
from render.seven_tracks import PICTURE as SEVEN_TRACKS
from render.shapes import Canvas, paste
from render.surface import RGBSurface

__all__ = ["dominas_hand", "seven_tracks_hand"]

PAD = 11
PER_ROW = 5  # triangles in a row of the ДОМИНА*С hand
HALF = dom.SIDE // 2 + 18  # a triangle's step along its row (a gap between neighbours)
TRI_H = dom.FLOOR_H // 2  # a small triangle's height
ROW_GAP = 12

# which edges of a point-up (TOP) and a point-down (CENTRE) triangle carry the symbols
_WHERE = {Pos.TOP: ("left", "right", "bottom"), Pos.CENTRE: ("top", "right", "left")}


def dominas_size(n: int) -> tuple[int, int]:
    """The picture's size for a hand of `n` tiles."""
    rows = max(1, -(-n // PER_ROW))
    per = min(max(n, 1), PER_ROW)
    return 2 * PAD + per * HALF + dom.SIDE // 2, 2 * PAD + rows * TRI_H + (rows - 1) * ROW_GAP


def draw_dominas(tiles: Sequence[tuple[str, bool]]) -> Image.Image:
    """The hand as an RGB image; `tiles` are (tile id, fits now) in the order shown."""
    img = Image.new("RGB", dominas_size(len(tiles)), PAPER)
    paint = RGBSurface(img, dom.PICTURE)
    for i, (tile, fits) in enumerate(tiles):
        row, j = divmod(i, PER_ROW)
        pos = Pos.TOP if j % 2 == 0 else Pos.CENTRE
        top = PAD + row * (TRI_H + ROW_GAP)
        # the triangles' boxes in a floor box: TOP spans x 75..225, y 0..130; CENTRE y 130..260
        origin = (PAD + j * HALF - dom.SIDE // 2, top if pos is Pos.TOP else top - TRI_H)
        paint.sprites(dom.tile(origin, tile, symbols_of(tile), _WHERE[pos], pos, fits))
    return img


def dominas_hand(tiles: Sequence[tuple[str, bool]]) -> bytes:
    """PNG bytes of a ДОМИНА*С hand (a palette of its own: the board's fixed palette is
    fitted from whole games, too slow to build in the bot's process)."""
    return encode_png(draw_dominas(tiles))


# ---------------------------------------------------------------- «Семидорожник»

CELL_W, CELL_H = 84, 96
PER_LINE = 6
DISC_R = 30
#: the priority tiles' labels on their cards (the board never shows these tiles)
CARD_TEXT = {"SK": "≫", "PV": "≪", "OP": "⇄", "RS": "⊘", "FM": "1", "EX": "⇆"}
# and the word under it: `render.hands.card.<kind>` in locales/<language>/render.json


@lru_cache(maxsize=32)
def _card(kind: str, language: str) -> Image.Image:
    c = Canvas((2 * DISC_R + 8, 2 * DISC_R + 8), origin=(-DISC_R - 4, -DISC_R - 4))
    c.rounded_rect((-DISC_R, -DISC_R, DISC_R, DISC_R), 10, fill=INK)
    c.rounded_rect((-DISC_R + 3, -DISC_R + 3, DISC_R - 3, DISC_R - 3), 8, fill=WHITE)
    c.text((0, -6), CARD_TEXT.get(kind, "?"), size=26, bold=True, fill=INK)
    word = get_translator(language)(f"render.hands.card.{kind}")
    c.text((0, 17), word, size=11, bold=True, fill=INK_SOFT)
    return c.image()


@lru_cache(maxsize=64)
def _count(n: int) -> Image.Image:
    c = Canvas((CELL_W, 24))
    c.text((CELL_W / 2, 12), f"×{n}", size=20, bold=True, fill=INK)
    return c.image()


def draw_seven_tracks(kinds: Sequence[str], language: str = "ru") -> Image.Image:
    """The hand as an RGB image: each kind once, in the board's order, with its count."""
    counts = Counter(kinds)
    shown = [k for k in KINDS if counts.get(k)]
    lines = max(1, -(-len(shown) // PER_LINE))
    per = min(max(len(shown), 1), PER_LINE)
    img = Image.new("RGB", (2 * PAD + per * CELL_W, 2 * PAD + lines * CELL_H), PAPER)
    for i, kind in enumerate(shown):
        line, j = divmod(i, PER_LINE)
        x, y = PAD + j * CELL_W, PAD + line * CELL_H
        if kind in CARD_TEXT:
            sprite = _card(kind, language)
        else:  # the board's tile, cached with the board's sprites
            sprite = SEVEN_TRACKS.sprite(("tile", kind, None, DISC_R))
        paste(img, sprite, (x + (CELL_W - sprite.width) // 2, y + 4))
        paste(img, _count(counts[kind]), (x, y + 2 * DISC_R + 12))
    return img


def seven_tracks_hand(kinds: Sequence[str], language: str = "ru") -> bytes:
    """PNG bytes of a «Семидорожник» hand (tile kinds, e.g. ``["R", "W", "SK"]``)."""
    return encode_png(draw_seven_tracks(kinds, language))
