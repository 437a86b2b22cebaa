"""Move-choosing policies of «Семидорожник», reading only a player's view (games.policy).

`Novice` («новичок») is the weakest computer player and the turn-timeout policy: an
absent player's turn is played the plain way — pass the first-move window, two dice,
place what fits (colours before whites, a universal only when nothing else fits), draw
while he must, finish — and no priority tile is ever spent for him. Every choice comes
from the legal actions and the view, which hold nothing of another player's hand.

`Experienced` («опытный») sheds tiles: it places all it can (colours, then whites, then
universals), sets blocks with its blacks and discards them, declares the first move with
an FM or a universal, spends SK, OP, PV and RS after its move or instead of drawing, and
never takes a tile back into its hand (no reclaim, no bonus tiles). «Мастер» is in
`games.seven_tracks.master`.

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
    DEFAULT_TILE_VALUES,
    Action,
    ActionType,
    TileKind,
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
        case T.UNBLOCK if a.kind == TileKind.WHITE:
            return 1
        case T.PLACE if a.kind == TileKind.WHITE:
            return 2
        case T.PLACE_T7:
            return 3
        case T.UNBLOCK | T.PLACE if a.kind == TileKind.UNIVERSAL:
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


def _experienced_rank(a: Action) -> float:
    """Higher is better: shed tiles (the dearest first), block, use priority tiles."""
    kind = a.kind
    value = 0 if kind is None else DEFAULT_TILE_VALUES[kind]
    original = a.role is None or kind != TileKind.UNIVERSAL
    match a.type:
        case T.FM_DECLARE:  # sheds 15 (replaced) or 25, moves first
            return 50 if kind == TileKind.FIRST_MOVE else 40
        case T.FM_PASS:
            return 0
        case T.CHOOSE_DICE:
            return 10 if a.n == 2 else 9
        case T.PLACE if kind in COLOURS:
            return 100 + value
        case T.PLACE if kind == TileKind.WHITE:
            return 96
        case T.PLACE:
            return 90  # a universal as a white: sheds 25
        case T.PLACE_T7:
            return 92 + value
        case T.BLOCK:
            return 120 if kind == TileKind.BLACK else 60
        case T.UNBLOCK:
            return 98 if kind == TileKind.WHITE else 88
        case T.DISCARD_BLACK:
            return 110
        case T.AFTER_MOVE | T.WAIVE:
            return 50 if original else 20  # sheds 15 and hinders the next player
        case T.CANCEL_RESTRICTION:
            return 30
        case T.EXCHANGE_CONFIRM:
            return 8
        case T.DRAW:
            return 5
        case T.SHIFT:
            return 4
        case T.INSTEAD_OF_MOVE:
            return 3
        case T.END_PLACING | T.END_TURN:
            return 1
        case T.RECLAIM | T.TAKE_BONUS:
            return -10  # a tile back into the hand
    return -5  # exchanges and swaps: left to «мастер»


class Experienced:
    """«Опытный»: place all it can (colours, then whites, then universals), set blocks with
    its blacks, discard blacks, declare the first move with a priority tile, spend SK, OP,
    PV and RS after its move or instead of drawing, never take tiles back."""

    name = "experienced"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        ranks = [_experienced_rank(a) for a in legal]
        return legal[max(range(len(legal)), key=lambda i: (ranks[i], -i))]


NOVICE = Novice()
EXPERIENCED = Experienced()

__all__ = ["EXPERIENCED", "NOVICE", "Experienced", "Novice"]
