"""The 88 tiles of «ДОМИНА*С» (spec §2): ids, symbols, numbers, named tiles.

Tile ids are the spec's: colour letter (Cyrillic О, М, З, В) + number, e.g. `В14`, and
`О⚙` … `В⚙` for the four самоходы. Callback data uses an ASCII form (`V14`, `V0`).

>>> symbols_of("В14"), number_of("В14"), pips("В14")
((2, 3, 4), 14, 9)
>>> to_ascii("З⚙"), from_ascii("Z0")
('Z0', 'З⚙')
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("О", "М", "З", "В")  # Огонь, Металл, Земля, Вода (R2)
ASCII_COLOURS: dict[str, str] = {"О": "O", "М": "M", "З": "Z", "В": "V"}
SAMOHOD = "⚙"

# R2: the fixed colour/number table, numbers 1…21 in order.
_TABLE: dict[str, str] = {
    "О": "003 012 023 122 006 015 116 224 045 126 333 055 145 244 334 245 156 166 346 355 466",
    "М": "001 002 111 022 112 005 034 133 144 046 136 226 235 236 336 256 445 446 455 366 555",
    "З": "000 113 024 033 123 016 115 124 223 044 233 036 056 146 155 246 255 444 266 356 556",
    "В": "011 004 013 014 114 222 025 026 035 125 134 135 225 234 335 344 066 345 456 566 666",
}

SYMBOLS: dict[str, tuple[int, int, int]] = {
    f"{c}{i}": (int(t[0]), int(t[1]), int(t[2]))
    for c in COLOURS
    for i, t in enumerate(_TABLE[c].split(), start=1)
}
REGULAR: tuple[str, ...] = tuple(SYMBOLS)  # 84 ids, by colour then number
SAMOHODS: tuple[str, ...] = tuple(c + SAMOHOD for c in COLOURS)  # R3
ALL_TILES: tuple[str, ...] = REGULAR + SAMOHODS  # 88

KOLOBOK = "З1"  # 0-0-0 (R21)
BONUS_SUM: dict[str, int] = {"О11": 9, "О15": 10}  # 3-3-3, 3-3-4 (R20)
EXTRA_NAMED: frozenset[str] = frozenset({"М3", "В6", "З18", "М21", "В21"})  # R17(c)
NAMED: dict[str, str] = {
    "З1": "Колобок",
    "М3": "Золотая рыбка",
    "В6": "Двое из ларца",
    "О11": "Тридевятое царство",
    "О15": "Тридесятое государство",
    "З18": "Избушка на курьих ножках",
    "М21": "Жар-птица",
    "В21": "Горыныч",
}


def is_tile(tile: object) -> bool:
    return isinstance(tile, str) and tile in _ALL


_ALL = frozenset(ALL_TILES)


def colour_of(tile: str) -> str:
    return tile[0]


def is_samohod(tile: str) -> bool:
    return tile.endswith(SAMOHOD)


def number_of(tile: str) -> int | None:
    """The number on the short edges; None for a самоход."""
    return None if is_samohod(tile) else int(tile[1:])


def symbols_of(tile: str) -> tuple[int, int, int] | None:
    """Symbols on sides 0, 1, 2 (clockwise); None for a самоход."""
    return SYMBOLS.get(tile)


def pips(tile: str) -> int | None:
    s = SYMBOLS.get(tile)
    return None if s is None else sum(s)


def sort_key(tile: str) -> tuple[int, int]:
    """Hand order: colour О, М, З, В, then number (самоход after 21)."""
    n = number_of(tile)
    return (COLOURS.index(colour_of(tile)), 99 if n is None else n)


def label(tile: str) -> str:
    """`В14·234`, `З1·000★`, `В⚙`: short text for popups."""
    s = SYMBOLS.get(tile)
    if s is None:
        return tile
    star = "★" if tile in NAMED else ""
    return f"{tile}·{s[0]}{s[1]}{s[2]}{star}"


def to_ascii(tile: str) -> str:
    """`В14` -> `V14`, `О⚙` -> `O0` (for callback data)."""
    n = number_of(tile)
    return f"{ASCII_COLOURS[colour_of(tile)]}{0 if n is None else n}"


_FROM_ASCII = {v: k for k, v in ASCII_COLOURS.items()}


# Needs as bits (the lack record of `State.lacks`, `SeatView.lacks`): bit k (0–6) is the
# symbol k, bit 7 + i the colour COLOURS[i] of a parent that a самоход of that colour may
# go onto. A nest's need is its symbol's bit and its parent colour's bit (nest #1: any
# symbol); a tile meets the needs of its bits (`tile_bits`), so it fits a nest iff the
# two share a bit (nest #1 takes no самоход, R3, but a hand of only самоходы never has it).
ANY_SYMBOL = (1 << 7) - 1


def _bits(tile: str) -> int:
    sym = SYMBOLS.get(tile)
    if sym is None:
        return 1 << (7 + COLOURS.index(colour_of(tile)))
    return (1 << sym[0]) | (1 << sym[1]) | (1 << sym[2])


TILE_BITS: dict[str, int] = {t: _bits(t) for t in ALL_TILES}


def need_bits(symbol: int | None, parent_colour: str | None) -> int:
    """The needs of one open nest: its required symbol (None: nest #1, any regular tile)
    and the colour of a самоход that may go there."""
    bits = ANY_SYMBOL if symbol is None else 1 << symbol
    if parent_colour is not None:
        bits |= 1 << (7 + COLOURS.index(parent_colour))
    return bits


def can_be(tile: str, lacks: int) -> bool:
    """May a tile seen unable to meet the needs `lacks` be `tile`?

    >>> can_be("В14", need_bits(5, "О")), can_be("В14", need_bits(4, None))
    (True, False)
    >>> can_be("О⚙", need_bits(5, "О")), can_be("М⚙", need_bits(5, "О"))
    (False, True)
    """
    return not TILE_BITS[tile] & lacks


def from_ascii(text: str) -> str:
    """Inverse of `to_ascii`; ValueError when it names no tile."""
    if len(text) < 2 or text[0] not in _FROM_ASCII or not text[1:].isdigit():
        raise ValueError("bad tile")
    colour = _FROM_ASCII[text[0]]
    n = int(text[1:])
    if text[1:] != str(n) or n > 21:
        raise ValueError("bad tile")
    return colour + (SAMOHOD if n == 0 else str(n))
