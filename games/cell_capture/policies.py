"""Move-choosing policies of «Захват клеток», reading only a player's view (games.policy).

A turn is several atomic actions (a number, an anchor, the steps, CONFIRM); a policy is
asked at each of them and never takes one back (no BACK, UNDO or CANCEL unless nothing
else is legal, which the engine never leaves).

* `NOVICE` («новичок») picks an allowed number at random (seeded), the first anchor and
  the first legal step — plain play that always captures when it can. (A timed-out turn
  keeps the engine's canonical move, `CellCapture.auto_actions`.)
* `EXPERIENCED` («опытный») takes the largest allowed number (the most cells), and draws
  its path into the tightest free space first (the step to the cell with the fewest free
  neighbours), keeping open ground long paths need for later — its own next big number.
* `MASTER` («мастер», `games.cell_capture.master`) searches the number and the anchor.

Example:
    >>> import random
    >>> from games.cell_capture import GAME
    >>> s = GAME.new([1, 2, 3], seed=3)
    >>> EXPERIENCED.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s),
    ...                    random.Random(0)).encode()
    'K,3'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.cell_capture.model import (
    DELTAS,
    FREE,
    Action,
    ActionType,
    View,
    parse_cell,
)

T = ActionType
_BACKWARD = (T.BACK, T.UNDO, T.CANCEL)


def _forward(legal: Sequence[Action]) -> list[Action]:
    return [a for a in legal if a.type not in _BACKWARD] or list(legal)


class Novice:
    """«Новичок»: a random allowed number, the first anchor, the first step, CONFIRM."""

    name = "novice"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        options = _forward(legal)
        if options[0].type is T.CHOOSE_K:
            return rng.choice(options)
        return options[0]


def _free_neighbours(view: View, r: int, c: int) -> int:
    count = 0
    for dr, dc in DELTAS.values():
        rr, cc = r + dr, c + dc
        if 0 <= rr < view.size and 0 <= cc < view.size and view.grid[rr][cc] == FREE:
            count += 1
    return count


def _tip(view: View) -> tuple[int, int] | None:
    d = view.draft
    if d is None:
        return None
    name = d.path[-1] if d.path else d.anchor
    cell = parse_cell(name or "", view.size)
    return None if cell is None else divmod(cell, view.size)


def _step_key(view: View, a: Action) -> int:
    """Free neighbours of the cell the step goes to (the path itself counts as taken)."""
    tip = _tip(view)
    if tip is None or a.dir is None:
        return 0
    dr, dc = DELTAS[a.dir]
    r, c = tip[0] + dr, tip[1] + dc
    taken = {parse_cell(x, view.size) for x in (view.draft.path if view.draft else [])}
    n = _free_neighbours(view, r, c)
    for ddr, ddc in DELTAS.values():
        rr, cc = r + ddr, c + ddc
        if (rr * view.size + cc) in taken and 0 <= rr < view.size and 0 <= cc < view.size:
            n -= 1
    return n


def anchor_key(view: View, a: Action) -> int:
    """The free cells next to an anchor: the fewer, the tighter the corner we fill."""
    cell = parse_cell(a.cell or "", view.size)
    if cell is None:
        return 0
    r, c = divmod(cell, view.size)
    return _free_neighbours(view, r, c)


class Experienced:
    """«Опытный»: the largest number; paths that fill tight space first (module doc)."""

    name = "experienced"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        options = _forward(legal)
        kind = options[0].type
        if kind is T.CHOOSE_K:
            return max(options, key=lambda a: a.k or 0)
        if kind is T.CHOOSE_ANCHOR:
            return min(options, key=lambda a: anchor_key(view, a))
        if kind is T.STEP:
            return min(options, key=lambda a: _step_key(view, a))
        return options[0]


NOVICE = Novice()
EXPERIENCED = Experienced()

__all__ = ["EXPERIENCED", "NOVICE", "Experienced", "Novice"]
