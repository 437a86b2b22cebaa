"""A full «ДОМИНА*С» state sampled from one seat's view, for the search of «мастер».

The seat sees its own hand (with each tile's number), the figure, every hand's size and
numbers, the bazaar's size and, in game 2, its side's game-1 tiles. The tiles it cannot
see — the whole set minus its hand and the figure — are dealt at random into the other
hands and the bazaar (in a random order), in the sizes the view shows; the open nests
are rebuilt by replaying the figure (`figure.opened`). The game-1 deals, which only the
start of game 2 reads, are filled in plausibly (each seat's placed and held regular
tiles, then the rest): a rollout that reaches game 2 plays a deal of the right shape.

Example:
    >>> import random
    >>> from games.dominas import GAME
    >>> s = GAME.new([1, 2, 3], seed=3)
    >>> for _ in range(5):
    ...     s, _ = GAME.apply(s, GAME.legal_actions(s)[0])
    >>> me = s.players[s.current]
    >>> t = sample(GAME.view(s, me), random.Random(0))
    >>> GAME.view(t, me) == GAME.view(s, me), t.hands == s.hands
    (True, False)
"""

from __future__ import annotations

import random

from games.dominas.figure import opened
from games.dominas.model import HAND_SIZE, Nest, Options, Phase, Pos, State, View
from games.dominas.tiles import ALL_TILES, REGULAR
from games.search import fresh_seed


def _nests(view: View) -> tuple[int, list[Nest]]:
    floor, nests = 1, [Nest(pos=Pos.CENTRE)]
    for i, placed in enumerate(view.figure):
        used = next(n for n in nests if n.pos is placed.pos)
        rest = [n for n in nests if n is not used]
        floor, nests = opened(floor, rest, placed, i, view.fill_direction)
    return floor, nests


def _entered(hand: list[str], slots: list[int]) -> list[str]:
    """An `entered` list that numbers `hand` (aligned with `slots`) as the view shows."""
    order = [f"~{i}" for i in range(max(slots, default=0))]
    for tile, number in zip(hand, slots, strict=True):
        order[number - 1] = tile
    return order


def sample(view: View, rng: random.Random) -> State:
    """A state consistent with `view` (own hand known): hidden tiles dealt at random."""
    assert view.hand is not None and view.me is not None and view.hand_slots is not None
    on_figure = {p.tile for p in view.figure}
    seen = set(view.hand) | on_figure
    unseen = [t for t in ALL_TILES if t not in seen]
    rng.shuffle(unseen)
    hands: list[list[str]] = []
    entered: list[list[str]] = []
    for p in view.players:
        if p.seat == view.me:
            hand = list(view.hand)
            entered.append(_entered(hand, list(view.hand_slots)))
        else:
            hand = unseen[: p.hand_count]
            del unseen[: p.hand_count]
            entered.append(_entered(hand, list(p.slots)))
        hands.append(hand)
    bazaar = unseen
    assert len(bazaar) == view.bazaar_size, "the view's counts do not add up"
    floor, nests = _nests(view)
    n = len(view.players)
    initial: list[list[str]] = []
    for x in range(n):
        mine = [p.tile for p in view.figure if p.seat == x and p.tile in REGULAR]
        initial.append([t for t in [*mine, *hands[x]] if t in REGULAR][:HAND_SIZE])
    used: set[str] = set()
    order = list(range(n))
    if view.game_no == 2 and view.remembered is not None:
        side = view.players[view.me].side
        mates = [x for x in range(n) if view.players[x].side == side]
        for i, x in enumerate(mates):
            initial[x] = list(view.remembered)[i * HAND_SIZE : (i + 1) * HAND_SIZE]
        order = [*mates, *(x for x in range(n) if x not in mates)]
    for x in order:
        initial[x] = [t for t in initial[x] if t not in used]
        used.update(initial[x])
    spare = [t for t in REGULAR if t not in used]
    rng.shuffle(spare)
    for x in range(n):
        while len(initial[x]) < HAND_SIZE and spare:
            initial[x].append(spare.pop())
    dealt = {t for hand in initial for t in hand}
    initial_bazaar = [t for t in ALL_TILES if t not in dealt]
    first = view.records[0].first if view.records else (view.current or 0)
    current = view.current if view.current is not None else 0
    return State(
        options=Options(
            mode=view.mode,
            fill_direction=view.fill_direction,
            match_games=view.match_games,
            tempo=view.tempo,
        ),
        seed=fresh_seed(rng),
        players=[p.player for p in view.players],
        side_of=[p.side for p in view.players],
        present=[p.present for p in view.players],
        left_order=[p.seat for p in view.players if not p.present],
        game_no=view.game_no,
        hands=hands,
        bazaar=bazaar,
        figure=[p.model_copy() for p in view.figure],
        nests=nests,
        floor=floor,
        phase=view.phase,
        current=current,
        first=current if view.game_no == 1 else (first + 1) % n,
        turn_no=view.turn_no,
        turn_placed=1 if view.phase is Phase.BONUS else 0,
        bonus=view.bonus.model_copy() if view.bonus else None,
        draws=[p.drawn for p in view.players],
        entered=entered,
        last_run=view.last_run.model_copy() if view.last_run else None,
        initial_hands=initial,
        initial_bazaar=initial_bazaar,
        game1_first=first,
        records=[r.model_copy() for r in view.records],
        winners=list(view.winners),
    )


__all__ = ["sample"]
