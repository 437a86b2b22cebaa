"""Move-choosing policies of «Семидорожник», reading only a player's view (games.policy).

`Novice` («новичок») is the weakest computer player and the turn-timeout policy: an
absent player's turn is played the plain way — pass the first-move window, two dice,
place what fits (colours before whites, a universal only when nothing else fits), draw
while he must, finish — and no priority tile is ever spent for him. Every choice comes
from the legal actions and the view, which hold nothing of another player's hand.

Example:
    >>> import random
    >>> from games.seven_tracks import GAME
    >>> s = GAME.new([1, 2], seed=7)
    >>> NOVICE.choose(GAME.view(s, s.players[s.current]), GAME.legal_actions(s),
    ...               random.Random(0)).type.value
    'FP'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.seven_tracks.model import (
    COLOURS,
    UNIVERSAL,
    WHITE,
    Action,
    ActionType,
    View,
)

T = ActionType


def _rank(a: Action) -> int | None:
    """Lower is preferred; None: the novice never plays it (priority uses, blocks, ...)."""
    match a.type:
        case T.FM_PASS | T.EXCHANGE_CONFIRM:
            return 0
        case T.CHOOSE_DICE:
            return 0 if a.n == 2 else 1
        case T.PLACE if a.kind in COLOURS:
            return 0
        case T.UNBLOCK if a.kind == WHITE:
            return 1
        case T.PLACE if a.kind == WHITE:
            return 2
        case T.PLACE_T7:
            return 3
        case T.UNBLOCK | T.PLACE if a.kind == UNIVERSAL:
            return 20  # only when nothing else fits: he may have to place it
        case T.DRAW | T.END_PLACING:
            return 10
        case T.END_TURN:
            return 11
    return None


class Novice:
    """«Новичок»: the plain turn; never a priority tile, a block or a reclaim."""

    name = "novice"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        ranked = [(r, i) for i, a in enumerate(legal) if (r := _rank(a)) is not None]
        if not ranked:
            return legal[0]  # only a forced choice the plain turn has no answer to
        return legal[min(ranked)[1]]


NOVICE = Novice()

__all__ = ["NOVICE", "Novice"]
