"""Keyboards that fit a phone (play-polish issue 18): at most three buttons to a row, and
never so many that a label is cut («Команды · 2 пар…»).

Telegram gives the buttons of a row equal widths and cuts a label that does not fit its
share. On a 360 dp phone an inline keyboard is about 40 characters wide; `CAP` is what a
label may take with 1, 2 or 3 buttons in its row (an emoji counts as two characters).
`rows` packs buttons in order, starting a new row when the next one would not fit.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton

CAP = {1: 36, 2: 18, 3: 11}  # the widest label with n buttons in its row
MARK = "✅ "  # the chosen one's mark; `spare` keeps room for it


def width(label: str) -> int:
    """A label's width in characters: emoji and wide characters count two, joiners and
    variation selectors nothing."""
    total = 0
    for ch in label:
        code = ord(ch)
        if code in (0x200D, 0xFE0E, 0xFE0F) or unicodedata.combining(ch):
            continue
        wide = code >= 0x1F000 or 0x2190 <= code <= 0x2BFF
        total += 2 if wide or unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def rows(
    buttons: Sequence[InlineKeyboardButton], *, spare: str = ""
) -> list[list[InlineKeyboardButton]]:
    """The buttons in rows that fit a phone. `spare`: a mark an unmarked label may get
    when chosen (MARK), so the rows stay the same whichever is chosen."""

    def need(b: InlineKeyboardButton) -> int:
        marked = not spare or b.text.startswith(spare)
        return width(b.text if marked else spare + b.text)

    out: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    for b in buttons:
        wider = [*row, b]
        if row and (len(wider) > 3 or max(need(x) for x in wider) > CAP[len(wider)]):
            out.append(row)
            wider = [b]
        row = wider
    if row:
        out.append(row)
    if len(out) > 1 and len(out[-2]) == 3 and len(out[-1]) == 1:  # 3 + 1: 2 + 2 if it fits
        pair = [out[-2][2], out[-1][0]]
        if max(need(x) for x in pair) <= CAP[2]:
            out[-2:] = [out[-2][:2], pair]
    return out


def fits(keyboard: Sequence[Sequence[InlineKeyboardButton]]) -> bool:
    """Every row has at most three buttons, and no label is cut."""
    return all(
        0 < len(row) <= 3 and all(width(b.text) <= CAP[len(row)] for b in row) for row in keyboard
    )
