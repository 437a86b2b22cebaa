"""Move-choosing policies of «ДОМИНА*С», reading only a player's view (games.policy).

`Novice` («новичок») is the weakest computer player: it places a tile whenever it can —
the heaviest one of its hand first (most pips, a самоход counting 0, then hand order)
— and stops a bonus series only when nothing fits. It never looks past the
view: other hands and the bazaar's order cannot change its choice. (A timed-out turn
does not use it: R27 makes a timeout a penalty draw, `Dominas.timeout_action`.)

`Experienced` («опытный») places the tile that closes a run of four (the next player
skips, R14–R17), plays the bonus tiles when they pay (0-0-0 first; 3-3-3 and 3-3-4 when
tiles of pip sum 9 or 10 can follow), and otherwise the tile that fits in the fewest
places while it still fits. «Мастер» is in `games.dominas.master`.

Example:
    >>> import random
    >>> from games.dominas import GAME
    >>> s = GAME.new([1, 2], seed=3)
    >>> seat = s.current
    >>> a = NOVICE.choose(GAME.view(s, s.players[seat]), GAME.legal_actions(s), random.Random(0))
    >>> a in GAME.legal_actions(s)
    True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.dominas.model import Action, ActionType, Phase, View
from games.dominas.tiles import BONUS_SUM, KOLOBOK, pips


class Novice:
    """«Новичок»: the heaviest tile that fits, in hand order; STOP when nothing fits."""

    name = "novice"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        hand = view.hand or []
        order = {tile: i for i, tile in enumerate(hand)}
        places = [a for a in legal if a.type is ActionType.PLACE and a.tile is not None]
        if not places:
            return legal[0]  # in a bonus series with nothing to place: STOP
        return min(
            places,
            key=lambda a: (-(pips(a.tile or "") or 0), order.get(a.tile or "", len(order))),
        )


def _experienced_score(view: View, a: Action, places: dict[str, int]) -> float:
    from games.dominas.engine import run_of  # the engine imports this module

    tile = a.tile or ""
    hand = view.hand or []
    score = 0.0
    last = [p.tile for p in view.figure[-3:]]
    if view.phase is Phase.PLAY or view.bonus is not None:
        kinds, extra, _ = run_of([*last, tile])
        if kinds:
            score += 60 + (15 if extra else 0)  # the next player skips (R15–R17)
    if view.bonus is None:
        if tile == KOLOBOK:
            score += 30 + 3 * len(hand)  # then any number of tiles (R21)
        elif tile in BONUS_SUM:
            target = BONUS_SUM[tile]
            followers = sum(1 for t in hand if t != tile and pips(t) == target)
            score += 10 + 15 * min(3, followers)  # up to three more tiles (R20)
    score += 3.0 / places.get(tile, 1)  # a tile that fits in few places goes while it can
    score += 0.01 * (pips(tile) or 0)
    return score


class Experienced:
    """«Опытный»: a run of four that makes the next player skip, the bonus tiles (0-0-0
    first, 3-3-3 and 3-3-4 when sums of 9 or 10 can follow), the tile that fits in the
    fewest places; in a bonus series it places on while anything fits."""

    name = "experienced"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        places_ = [a for a in legal if a.type is ActionType.PLACE and a.tile is not None]
        if not places_:
            return legal[0]
        count: dict[str, int] = {}
        for a in places_:
            count[a.tile or ""] = count.get(a.tile or "", 0) + 1
        scores = [_experienced_score(view, a, count) for a in places_]
        return places_[max(range(len(places_)), key=lambda i: (scores[i], -i))]


NOVICE = Novice()
EXPERIENCED = Experienced()

__all__ = ["EXPERIENCED", "NOVICE", "Experienced", "Novice"]
