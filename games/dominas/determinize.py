"""A full «ДОМИНА*С» state sampled from one seat's view, for the search of «мастер».

The seat sees its own hand (with each tile's number), the figure, every hand's size and
numbers, the bazaar's size, what each held tile was seen unable to meet (`SeatView.lacks`:
the open nests' needs when its seat drew or passed) and, in game 2, its side's game-1
tiles. The tiles it cannot see — the whole set minus its hand and the figure — are dealt
at random into the other hands and the bazaar (in a random order), in the sizes the view
shows, and so that no tile goes to a number seen unable to be it (`_deal`); the open nests
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
from games.dominas.tiles import ALL_TILES, REGULAR, can_be
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


def _deal(
    view: View, unseen: list[str], rng: random.Random
) -> tuple[dict[int, list[str]], list[str]]:
    """The other seats' hands (aligned with their `slots`) and the bazaar, dealt from
    `unseen` at random so that each number with a recorded lack gets a tile that can be it.

    The numbers with a lack are dealt first, the fewest possible tiles first (ties in a
    random order), each a tile drawn uniformly from those left that meet its lack; one
    for which none is left takes a tile from a number dealt before it, which takes
    another (an augmenting path of a bipartite matching, `_free_one`), so a consistent
    deal is found whenever one exists, as it does for any real view. Then the other
    numbers and the bazaar share the rest at random. With no lacks recorded this is the
    uniform deal of before, with the same random draws; a number that no deal can serve
    (not a real view) takes any tile.
    """
    others = [p for p in view.players if p.seat != view.me]
    bound = [(p.seat, i, lack) for p in others for i, lack in enumerate(p.lacks) if lack]
    pool = list(unseen)
    rng.shuffle(pool)
    got: list[str] = []
    if bound:
        rng.shuffle(bound)
        room = {lack: [t for t in unseen if can_be(t, lack)] for _, _, lack in bound}
        bound.sort(key=lambda b: len(room[b[2]]))
        owner: dict[str, int] = {}  # the dealt tiles and their place in `bound`
        for j, (_, _, lack) in enumerate(bound):
            fit = [t for t in room[lack] if t not in owner]
            if fit:
                tile = fit[rng.randrange(len(fit))]
            else:
                tile = _free_one(j, bound, room, owner, got, set()) or next(
                    t for t in pool if t not in owner
                )
            owner[tile] = j
            got.append(tile)
        pool = [t for t in pool if t not in owner]
    held: dict[int, list[str | None]] = {p.seat: [None] * p.hand_count for p in others}
    for (seat, i, _), tile in zip(bound, got, strict=True):
        held[seat][i] = tile
    hands = {p.seat: [t if t is not None else pool.pop(0) for t in held[p.seat]] for p in others}
    return hands, pool


def _free_one(
    j: int,
    bound: list[tuple[int, int, int]],
    room: dict[int, list[str]],
    owner: dict[str, int],
    got: list[str],
    seen: set[str],
) -> str | None:
    """A tile for number `j` (whose fitting tiles are all dealt): one of them whose
    number `k` can take another fitting tile, free or freed the same way; None if none."""
    for tile in room[bound[j][2]]:
        if tile in seen or tile not in owner:
            continue
        seen.add(tile)
        k = owner[tile]
        fit = [t for t in room[bound[k][2]] if t not in owner]
        other = fit[0] if fit else _free_one(k, bound, room, owner, got, seen)
        if other is not None:
            got[k] = other
            owner[other] = k
            return tile
    return None


def _lacks(slots: list[int], lacks: list[int]) -> list[int]:
    """`State.lacks` of one seat from its view (`SeatView.slots`, `SeatView.lacks`)."""
    row = [0] * max((k for k, lack in zip(slots, lacks, strict=False) if lack), default=0)
    for k, lack in zip(slots, lacks, strict=False):
        if lack:
            row[k - 1] = lack
    return row


def sample(view: View, rng: random.Random) -> State:
    """A state consistent with `view` (own hand known): hidden tiles dealt at random."""
    assert view.hand is not None and view.me is not None and view.hand_slots is not None
    on_figure = {p.tile for p in view.figure}
    seen = set(view.hand) | on_figure
    unseen = [t for t in ALL_TILES if t not in seen]
    theirs, bazaar = _deal(view, unseen, rng)
    hands: list[list[str]] = []
    entered: list[list[str]] = []
    for p in view.players:
        if p.seat == view.me:
            hand = list(view.hand)
            entered.append(_entered(hand, list(view.hand_slots)))
        else:
            hand = theirs[p.seat]
            entered.append(_entered(hand, list(p.slots)))
        hands.append(hand)
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
        lacks=[_lacks(list(p.slots), list(p.lacks)) for p in view.players],
        last_run=view.last_run.model_copy() if view.last_run else None,
        initial_hands=initial,
        initial_bazaar=initial_bazaar,
        game1_first=first,
        records=[r.model_copy() for r in view.records],
        winners=list(view.winners),
    )


__all__ = ["sample"]
