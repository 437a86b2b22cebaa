"""Build «Захват клеток» positions and play actions (seats are named A, B, C… in examples)."""

from __future__ import annotations

from itertools import pairwise

from games.cell_capture import GAME, Action, ActionType, Direction, Phase, State
from games.cell_capture.engine import (
    _extendable,
    allowed_numbers,
    anchor_ok,
    anchors,
    feasible,
    next_order,
    phase,
    scores,
    used_numbers,
)
from games.cell_capture.model import (
    CENTRE,
    DELTAS,
    FREE,
    CapturedPath,
    cell_name,
    parse_cell,
)
from games.protocol import Event

PIDS = [101, 102, 103, 104, 105, 106]

K = ActionType.CHOOSE_K
UNDO = Action(type=ActionType.UNDO)
CANCEL = Action(type=ActionType.CANCEL)
BACK = Action(type=ActionType.BACK)
CONFIRM = Action(type=ActionType.CONFIRM)
UP, RIGHT, DOWN, LEFT = Direction.UP, Direction.RIGHT, Direction.DOWN, Direction.LEFT


def k(n: int) -> Action:
    return Action(type=ActionType.CHOOSE_K, k=n)


def anchor(name: str) -> Action:
    return Action(type=ActionType.CHOOSE_ANCHOR, cell=name)


def step(d: Direction) -> Action:
    return Action(type=ActionType.STEP, dir=d)


def new_game(n: int, order: list[int] | None = None, seed: int = 1) -> State:
    """A fresh game with players PIDS[:n]; `order` (seats) overrides the random one.
    Two players need Option `allow_two_players` (R1); the spec's E6 and E7 use it."""
    options = {"allow_two_players": True} if n == 2 else None
    s = GAME.new(players=PIDS[:n], seed=seed, options=options)
    if order is not None:
        s = s.model_copy(update={"order": list(order)})
    return s


def c(s: State, name: str) -> int:
    cell = parse_cell(name, s.size)
    assert cell is not None, name
    return cell


def names(s: State, cells: list[int]) -> list[str]:
    return [cell_name(x, s.size) for x in cells]


def direction(s: State, a: int, b: int) -> Direction:
    ar, ac = divmod(a, s.size)
    br, bc = divmod(b, s.size)
    for d, (dr, dc) in DELTAS.items():
        if (ar + dr, ac + dc) == (br, bc):
            return d
    raise AssertionError(f"{cell_name(a, s.size)} and {cell_name(b, s.size)} are not neighbours")


def play(s: State, actions: list[Action]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for a in actions:
        s, ev = GAME.apply(s, a)
        events += ev
    return s, events


def capture(s: State, cells: list[str], via: str | None = None) -> tuple[State, list[Event]]:
    """The player to act captures `cells` in order (through the engine's own actions)."""
    path = [c(s, x) for x in cells]
    actions = [k(len(path))]
    s1, _ = GAME.apply(s, actions[0])
    if via is None:
        via_cell = next(
            a
            for a in anchors(s1)
            if direction_or_none(s1, a, path[0]) is not None and anchor_ok(s1, a, len(path))
        )
        via = cell_name(via_cell, s.size)
    actions.append(anchor(via))
    tip = c(s, via)
    for x in path:
        actions.append(step(direction(s, tip, x)))
        tip = x
    actions.append(CONFIRM)
    return play(s, actions)


def direction_or_none(s: State, a: int, b: int) -> Direction | None:
    try:
        return direction(s, a, b)
    except AssertionError:
        return None


def position(
    n: int,
    paths: list[tuple[int, list[str]]],
    order: list[int],
    prev: list[int | None] | None = None,
    round_no: int = 1,
) -> State:
    """A state built directly (no rules checked): `paths` of earlier rounds, a fresh round."""
    s = new_game(n, order)
    owner = list(s.owner)
    captured = []
    for seat, cells in paths:
        idx = [c(s, x) for x in cells]
        for x in idx:
            assert owner[x] == FREE, cell_name(x, s.size)
            owner[x] = seat
        captured.append(CapturedPath(seat=seat, round=0, cells=idx))
    return s.model_copy(
        update={
            "owner": owner,
            "paths": captured,
            "prev": list(prev) if prev is not None else [None] * n,
            "round_no": round_no,
        }
    )


def board_text(s: State) -> list[str]:
    """Rows like the spec's diagrams: seat letter, `✦` centre, `.` free."""
    rows = []
    for r in range(s.size):
        row = []
        for col in range(s.size):
            o = s.owner[r * s.size + col]
            row.append("." if o == FREE else "✦" if o == CENTRE else "ABCDEF"[o])
        rows.append(" ".join(row))
    return rows


def is_simple_orthogonal(s: State, cells: list[int]) -> bool:
    if len(set(cells)) != len(cells):
        return False
    return all(direction_or_none(s, a, b) is not None for a, b in pairwise(cells))


def check_invariants(s: State) -> None:
    """Spec §7 (I1–I7) plus the bookkeeping the engine relies on."""
    size, n = s.size, s.n
    # I1, I4: every cell is free, the centre or owned; counts add up.
    assert s.owner[s.centre] == CENTRE
    assert s.owner.count(CENTRE) == 1
    assert all(o in (FREE, CENTRE) or 0 <= o < n for o in s.owner)
    owned = sum(1 for o in s.owner if o >= 0)
    assert owned + s.owner.count(FREE) + 1 == size * size
    # I2: paths are simple orthogonal paths of length 1…N and cover exactly the owned cells.
    covered: dict[int, int] = {}
    for p in s.paths:
        assert 1 <= len(p.cells) <= n
        assert is_simple_orthogonal(s, p.cells)
        for x in p.cells:
            assert x not in covered
            covered[x] = p.seat
    assert covered == {i: o for i, o in enumerate(s.owner) if o >= 0}
    assert sum(scores(s)) == owned
    # I3: numbers of this round are distinct; each player acted at most once.
    used = used_numbers(s)
    assert len(used) == len(set(used))
    movers = [p.seat for p in s.paths if p.round == s.round_no]
    assert len(movers) == len(set(movers))
    assert not set(movers) & set(s.stuck)
    assert set(movers) | set(s.stuck) <= set(s.order[: s.turn_idx])
    # I5: the order lists active players once each; the next order is well formed.
    assert len(s.order) == len(set(s.order))
    nxt = next_order(s)
    assert len(nxt) == len(set(nxt))
    assert nxt[: len([x for x in s.stuck if s.active[x]])] == [x for x in s.stuck if s.active[x]]
    if s.over:
        assert s.end_reason is not None
        assert GAME.to_act(s) is None and GAME.legal_actions(s) == []
        assert phase(s) is Phase.GAME_OVER
        return
    seat = s.order[s.turn_idx]
    assert s.active[seat]
    assert {x for x in range(n) if s.active[x]} <= set(s.order)
    # I6: a game that is not over has a free cell and a legal 1-path.
    assert FREE in s.owner
    assert feasible(s, 1)
    assert sum(s.active) >= 2
    # The player to act has a real decision.
    allowed = allowed_numbers(s, seat)
    assert allowed
    # I7: the draft is a prefix of some legal path of length k.
    d = s.draft
    if d.k is not None:
        assert d.k in allowed
        if d.anchor is not None:
            assert d.anchor in anchors(s)
            assert 0 <= len(d.path) <= d.k
            if d.path:
                assert direction_or_none(s, d.anchor, d.path[0]) is not None
                assert is_simple_orthogonal(s, d.path)
                assert all(s.owner[x] == FREE for x in d.path)
            tip = d.path[-1] if d.path else d.anchor
            assert _extendable(s.owner, size, set(d.path), tip, d.k - len(d.path))
        else:
            assert not d.path
    else:
        assert d.anchor is None and not d.path
    assert GAME.legal_actions(s)
