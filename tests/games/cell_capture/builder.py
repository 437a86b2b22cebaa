"""Build «Захват клеток» positions and play actions (seats are named A, B, C… in examples)."""

from __future__ import annotations

from games.cell_capture import GAME, Action, ActionType, Direction, State
from games.cell_capture.engine import anchor_ok, anchors
from games.cell_capture.model import CENTRE, DELTAS, FREE, CapturedPath, cell_name, parse_cell
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
