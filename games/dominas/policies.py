"""Move-choosing policies of «ДОМИНА*С», reading only a player's view (games.policy).

`Novice` («новичок») is the weakest computer player: it places a tile whenever it can —
the heaviest one of its hand first (most pips, a самоход counting 0, then hand order)
— and stops a bonus series only when nothing fits. It never looks past the
view: other hands and the bazaar's order cannot change its choice. (A timed-out turn
does not use it: R27 makes a timeout a penalty draw, `Dominas.timeout_action`.)

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

from games.dominas.model import Action, ActionType, View
from games.dominas.tiles import pips


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


NOVICE = Novice()

__all__ = ["NOVICE", "Novice"]
