"""Geometry of the figure «Башня» (spec §3.1): nests, parents, far sides, variants.

Pure functions over `Placed`/`Nest`; the engine keeps the figure in the state.

>>> from games.dominas.model import Fill
>>> far(1, Fill.CLOCKWISE), far(1, Fill.COUNTERCLOCKWISE)
(0, 2)
"""

from __future__ import annotations

from games.dominas.model import Fill, Nest, Placed, Pos
from games.dominas.tiles import colour_of, is_samohod, symbols_of


def far(side: int, fill: Fill) -> int:
    """The far side of a tile attached by `side` (§3.1)."""
    return (side + 2) % 3 if fill is Fill.CLOCKWISE else (side + 1) % 3


def required(figure: list[Placed], nest: Nest) -> int | None:
    """The symbol a nest needs (its parent's symbol on that side); None for nest #1."""
    if nest.parent is None or nest.side is None:
        return None
    return figure[nest.parent].edges[nest.side]


def parent_colour(figure: list[Placed], nest: Nest) -> str | None:
    return None if nest.parent is None else colour_of(figure[nest.parent].tile)


def is_far_nest(floor: int, nests: list[Nest], nest: Nest) -> bool:
    """An entry, or the last open corner of its floor: the far side starts the next nest (R5)."""
    if nest.pos is Pos.LEFT and floor >= 2:
        return True
    return nest.pos is not Pos.CENTRE and len(nests) == 1


def sides_for(
    figure: list[Placed], floor: int, nests: list[Nest], nest: Nest, tile: str, fill: Fill
) -> list[int | None] | str:
    """The attached side of each variant of `tile` in `nest`, or a refusal code (R3–R5, R9).

    Variant 0 attaches by the first matching side; variant 1 (only at a far nest) by the
    second, and only if it puts a different symbol on the far side.
    """
    if nest.parent is None:
        return "samohod_first" if is_samohod(tile) else [None]
    need = required(figure, nest)
    if is_samohod(tile):
        return [0] if colour_of(tile) == parent_colour(figure, nest) else "wrong_colour"
    sym = symbols_of(tile)
    assert sym is not None
    sides = [i for i in range(3) if sym[i] == need]
    if not sides:
        return "no_match"
    if len(sides) >= 2 and is_far_nest(floor, nests, nest):
        a, b = sides[0], sides[1]
        if sym[far(a, fill)] != sym[far(b, fill)]:
            return [a, b]
    return [sides[0]]


def edges_of(tile: str, carried: int | None) -> list[int]:
    """Symbols on sides 0, 1, 2; a самоход shows the carried symbol on all three (R3)."""
    sym = symbols_of(tile)
    if sym is not None:
        return list(sym)
    assert carried is not None
    return [carried] * 3


def opened(
    floor: int, nests_left: list[Nest], placed: Placed, index: int, fill: Fill
) -> tuple[int, list[Nest]]:
    """The floor and open nests after `placed` (figure index `index`) filled its nest (§3.1)."""
    side = placed.side
    if placed.parent is None:  # nest #1: three corners, any order
        return 1, [
            Nest(pos=Pos.TOP, parent=index, side=0),
            Nest(pos=Pos.RIGHT, parent=index, side=1),
            Nest(pos=Pos.LEFT, parent=index, side=2),
        ]
    assert side is not None
    if placed.pos is Pos.LEFT and floor >= 2:  # an entry opens the centre
        return floor, [Nest(pos=Pos.CENTRE, parent=index, side=far(side, fill))]
    if placed.pos is Pos.CENTRE:  # a floor ≥ 2 centre opens ▲ and ◢
        return floor, [
            Nest(pos=Pos.TOP, parent=index, side=(side + 1) % 3),
            Nest(pos=Pos.RIGHT, parent=index, side=(side + 2) % 3),
        ]
    if nests_left:  # a corner that is not the last
        return floor, list(nests_left)
    return floor + 1, [Nest(pos=Pos.LEFT, parent=index, side=far(side, fill))]
