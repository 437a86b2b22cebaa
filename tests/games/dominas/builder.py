"""Build exact «ДОМИНА*С» positions for the spec's worked examples and rule tests, and the
course of a whole match with an absent player (`course`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from games import IllegalAction
from games.dominas import GAME, Action, ActionType, Nest, Phase, Placed, Pos, State
from games.dominas.figure import edges_of, opened, required, sides_for
from games.dominas.tiles import REGULAR, symbols_of
from games.players import decide
from games.protocol import Event

T = ActionType
PLAYERS = [101, 102, 103, 104, 105, 106, 107, 108]
C, L, R, TOP = Pos.CENTRE, Pos.LEFT, Pos.RIGHT, Pos.TOP

# Floor 1 and an entry built from tiles no example uses (§3.1):
# #1 М11 (1-3-6) → ▲1 ◢3 ◣6; В1 on ▲, В20 on ◣, В15 on ◢ (the last corner).
FLOOR1 = [("М11", C, 0), ("В1", TOP, 0), ("В20", L, 0)]
TO_CENTRE_3 = [*FLOOR1, ("В15", R, 1), ("М15", L, 1)]  # the floor-2 centre ▼ needs 3
TO_ENTRY_5 = [*FLOOR1, ("В15", R, 0)]  # the floor-2 entry ◣ needs 5
TO_CENTRE_6 = [*TO_ENTRY_5, ("З21", L, 0)]  # the floor-2 centre ▼ needs 6


def P(tile: str, nest: Pos, variant: int = 0) -> Action:
    return Action(type=T.PLACE, tile=tile, nest=nest, variant=variant)


STOP = Action(type=T.STOP)
TIMEOUT = Action(type=T.TIMEOUT)


def put(s: State, tile: str, pos: Pos, variant: int = 0, seat: int | None = None) -> None:
    """Lay a tile into the figure by the geometry rules only (no hands, no turns)."""
    nest = next(n for n in s.nests if n.pos is pos)
    sides = sides_for(s.figure, s.floor, s.nests, nest, tile, s.options.fill_direction)
    assert not isinstance(sides, str), (tile, pos, sides)
    placed = Placed(
        tile=tile,
        seat=seat,
        floor=s.floor,
        pos=pos,
        parent=nest.parent,
        parent_side=nest.side,
        side=sides[variant],
        edges=edges_of(tile, required(s.figure, nest)),
    )
    s.figure.append(placed)
    rest = [n for n in s.nests if n is not nest]
    s.floor, s.nests = opened(s.floor, rest, placed, len(s.figure) - 1, s.options.fill_direction)


def arrange(
    s: State,
    *,
    seat: int = 0,
    hands: dict[int, list[str]] | None = None,
    moves: Iterable[tuple[str, Pos, int]] = (),
    raw: Iterable[str] = (),
    nest: tuple[Pos, int, int] | None = None,
    bazaar: Iterable[str] = (),
) -> State:
    """Replace the position of `s` (a copy): figure, hands, bazaar; `seat` to act.

    `moves` are laid by the geometry rules; `raw` tiles are appended with no geometry (for
    run tests) and `nest = (pos, parent index, parent side)` is then the only open nest.
    """
    s = s.model_copy(deep=True)
    n = len(s.players)
    s.figure = []
    s.nests = [Nest(pos=C)]
    s.floor = 1
    for tile, pos, variant in moves:
        put(s, tile, pos, variant)
    for tile in raw:
        s.figure.append(
            Placed(
                tile=tile,
                seat=None,
                floor=2,
                pos=C,
                parent=None,
                parent_side=None,
                side=None,
                edges=edges_of(tile, 0),
            )
        )
    if nest is not None:
        s.nests = [Nest(pos=nest[0], parent=nest[1], side=nest[2])]
        s.floor = max(2, s.floor)
    s.hands = [list((hands or {}).get(i, [])) for i in range(n)]
    s.bazaar = list(bazaar)
    used = [p.tile for p in s.figure] + [t for h in s.hands for t in h] + s.bazaar
    assert len(used) == len(set(used)), "a tile is used twice"
    s.current = seat
    s.phase = Phase.PLAY
    s.bonus = None
    s.turn_placed = 0
    s.draws = [0] * n
    s.last_run = None
    return s


def build(
    *, n: int = 2, mode: str = "solo", options: dict[str, object] | None = None, **kw: Any
) -> State:
    s = GAME.new(PLAYERS[:n], seed=1, options={"mode": mode, **(options or {})})
    return arrange(s, **kw)


def parent_for(fourth: str, used: Iterable[str]) -> tuple[str, int]:
    """A tile (not in `used`) with the first symbol of `fourth`, and that symbol's side."""
    sym = symbols_of(fourth)
    need = sym[0] if sym else 0
    taken = set(used)
    for tile in REGULAR:
        ts = symbols_of(tile)
        if tile not in taken and ts is not None and need in ts:
            return tile, ts.index(need)
    raise AssertionError("no parent")


def run_position(
    three: list[str],
    fourth: str,
    *,
    placer_extra: Iterable[str] = ("В12",),
    other: Iterable[str] = ("М10", "М12"),
    bazaar: Iterable[str] = ("З8", "З9", "З11"),
    n: int = 2,
) -> State:
    """Seat 1 is to place `fourth` after `three` (the last figure tiles, in order)."""
    parent, side = parent_for(fourth, [*three, fourth, *placer_extra, *other, *bazaar])
    hands = {0: list(other), 1: [fourth, *placer_extra]}
    for k in range(2, n):
        hands[k] = [("З13", "З14", "З15", "З17", "З19", "З20")[k - 2]]
    return build(n=n, seat=1, hands=hands, raw=[parent, *three], nest=(C, 0, side), bazaar=bazaar)


def act(s: State, action: Action) -> tuple[State, list[Event]]:
    """Apply an action that must be listed by legal_actions; the input stays unchanged."""
    before = s.model_dump_json()
    assert action in GAME.legal_actions(s), (action, GAME.legal_actions(s))
    s2, events = GAME.apply(s, action)
    assert s.model_dump_json() == before
    assert s2.version == s.version + 1
    return s2, events


def play(s: State, action: Action) -> State:
    return act(s, action)[0]


def refused(s: State, action: Action, code: str | None = None) -> None:
    """Not legal: not listed, refused by apply with `code`, the state unchanged."""
    assert action not in GAME.legal_actions(s)
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, action)
    if code is not None:
        assert exc.value.code == code, exc.value.code
    assert s.model_dump_json() == before


def tile_moves(s: State, tile: str) -> list[Action]:
    return [a for a in GAME.legal_actions(s) if a.tile == tile]


def needs(s: State) -> list[tuple[str, int | None]]:
    """Open nests as (position letter, required symbol)."""
    return [(n.pos.value, required(s.figure, n)) for n in s.nests]


def of_type(events: list[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


def course(
    players: int, seed: int, absent: bool = True, remove_after: int | None = None
) -> Iterator[State]:
    """Every state of a one-game match, the first one too: seat 0 never acts when
    `absent` (every turn of his a timeout), the others are novices; with `remove_after`,
    he is removed after that many timeouts in a row. At most 3,000 actions."""
    s = GAME.new(list(range(1, players + 1)), seed, {"match_games": 1})
    yield s
    in_a_row = 0
    for step in range(1, 3001):
        if GAME.is_over(s):
            return
        actor = GAME.to_act(s)
        if absent and actor == s.players[0]:
            s, _ = GAME.timeout(s)
            in_a_row += 1
            if remove_after is not None and in_a_row >= remove_after:
                s, _ = GAME.remove(s, actor)
        else:
            legal = GAME.legal_actions(s)
            s, _ = GAME.apply(s, decide("dominas", "novice", GAME.view(s, actor), legal, step))
        yield s
