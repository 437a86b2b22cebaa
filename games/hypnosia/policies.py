"""Move-choosing policies of «Гипнозия», reading only a player's view (games.policy).

`Novice` («новичок») is the weakest computer player and the turn-timeout policy (spec §5,
AFK decision, revised 2026-12). It must make progress, so a game with an absent player
ends normally (by the centre or by the tokens, not at the round guard): of the legal
moves it takes, in this order of preference,

1. a move into the centre;
2. a crossing over a bridge (deeper rings first);
3. a move that stops on a bridge (to cross it later; deeper rings first);
4. a token leaving its start position;
5. a capture;

and avoids walking a unit off a bridge it is waiting on. Ties go to the engine's
canonical order (die, token, route). The choice depends on the view alone, and the view
of «Гипнозия» is the whole (public) board, so nothing hidden — the dice to come — can
change it.

`Experienced` («опытный») adds to that race captures (a two-point swing each, R14),
safety (no single token left where an opponent's die can land) and pairs. «Мастер» is in
`games.hypnosia.master`.

Example:
    >>> import random
    >>> from games.hypnosia import GAME
    >>> s = GAME.new([1, 2], seed=1)
    >>> NOVICE.choose(GAME.view(s, 1), GAME.legal_actions(s), random.Random(0)).encode()
    'R'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.hypnosia.model import RING_SIZES as SIZES
from games.hypnosia.model import (
    START,
    Action,
    ActionType,
    Route,
    View,
    bridge_target,
    entry,
    is_bridge,
    parse_cell,
    ring_cell,
)


def landing(view: View, seat: int, a: Action) -> str | None:
    """Where a legal MOVE of `seat` lands: `k.j`, or `C` for the centre (R8–R11)."""
    assert a.token is not None and a.die is not None
    me = view.players[seat]
    pos = me.tokens[a.token - 1]
    if pos == START:
        return ring_cell(1, (entry(me.board_seat) + a.die - a.token) % SIZES[1])
    cell = parse_cell(pos)
    if cell is None:
        return None
    k, j = cell
    if a.route is Route.RING:
        return ring_cell(k, (j + a.die) % SIZES[k])
    target = bridge_target(k, j)
    if target is None:
        return "C"
    tk, tj = target
    return ring_cell(tk, (tj + a.die - 1) % SIZES[tk])


def _score(view: View, seat: int, a: Action) -> int:
    if a.type is not ActionType.MOVE or a.token is None:
        return 0
    src = view.players[seat].tokens[a.token - 1]
    dest = landing(view, seat, a)
    if dest == "C":
        return 10_000
    score = 0
    if a.route is Route.BRIDGE:
        target = parse_cell(dest or "")
        score += 5_000 + 100 * (target[0] if target else 0)
    cell = parse_cell(dest or "")
    if cell is not None and is_bridge(*cell):
        score += 2_000 + 100 * cell[0]
    if src == START:
        score += 1_000
    there = view.board.get(dest or "")
    if there is not None and there.seat != seat:
        score += 500 * len(there.tokens)
    here = parse_cell(src)
    if a.route is Route.RING and here is not None and is_bridge(*here):
        there_now = view.board.get(src)
        stays = there_now is not None and len(there_now.tokens) == 2 and not a.pair
        if stays:  # a split: its partner waits there alone, and a single may cross
            score += 0 if view.pairs_cross_bridges else 1_500
        else:
            score -= 3_000 + 100 * here[0]  # it was waiting there to cross
    return score


class Novice:
    """«Новичок»: into the centre, across a bridge, onto a bridge, off the start, a capture."""

    name = "novice"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = view.current
        if seat is None:
            return legal[0]
        best = max(range(len(legal)), key=lambda i: (_score(view, seat, legal[i]), -i))
        return legal[best]


def _threatened(view: View, seat: int, cell: str) -> int:
    """How many opponent units could land on ring cell `cell` with one die (1…6) along
    their ring, or from their start positions (an approximation: bridges are ignored)."""
    spot = parse_cell(cell)
    if spot is None:
        return 0
    k, j = spot
    count = 0
    for p in view.players:
        if p.seat == seat or p.left:
            continue
        for t, pos in enumerate(p.tokens):
            here = parse_cell(pos)
            if here is not None and here[0] == k and 1 <= (j - here[1]) % SIZES[k] <= 6:
                count += 1
            elif pos == START and k == 1:
                gap = (j - entry(p.board_seat)) % SIZES[1] + t + 1
                if t + 1 <= gap <= 6:
                    count += 1
    return count


def _experienced_score(view: View, seat: int, a: Action) -> float:
    if a.type is not ActionType.MOVE or a.token is None:
        return 0.0
    score = float(_score(view, seat, a))
    me = view.players[seat]
    src = me.tokens[a.token - 1]
    dest = landing(view, seat, a) or ""
    if dest == "C":
        return score
    there = view.board.get(dest)
    moving = 2 if a.pair else 1
    if there is not None and there.seat != seat:
        score += 2_500 * len(there.tokens)
    stays_single = not (there is not None and there.seat == seat) and moving == 1
    if stays_single:
        score -= 1_200 * min(2, _threatened(view, seat, dest))
    else:
        score += 400  # a pair: safe from single tokens
    here = view.board.get(src)
    if here is not None and len(here.tokens) == 1 and _threatened(view, seat, src):
        score += 900  # out of danger
    return score


class Experienced:
    """«Опытный»: the novice's race to the centre, plus captures (a two-point swing each),
    safety (no single token left where an opponent's die can hit it) and pairs."""

    name = "experienced"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = view.current
        if seat is None or len(legal) == 1:
            return legal[0]
        scores = [_experienced_score(view, seat, a) for a in legal]
        return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]


NOVICE = Novice()
EXPERIENCED = Experienced()

__all__ = ["EXPERIENCED", "NOVICE", "Experienced", "Novice", "landing"]
