"""Build exact Seven Tracks positions for the spec's worked examples."""

from __future__ import annotations

from collections.abc import Iterable

from games.seven_tracks import GAME, Action, ActionType, Phase, State, engine
from games.seven_tracks.model import Block, Options, Status, Turn, kind_of

T = ActionType
PLAYERS = [101, 102, 103, 104, 105, 106]


class Pool:
    """The full tile set; tiles are taken by kind so conservation holds."""

    def __init__(self, opts: Options) -> None:
        self.free = engine._all_tiles(opts)

    def take(self, kind: str) -> str:
        tile = next(t for t in self.free if kind_of(t) == kind)
        self.free.remove(tile)
        return tile

    def take_all(self, kinds: Iterable[str]) -> list[str]:
        return [self.take(k) for k in kinds]


def build(
    *,
    n: int = 2,
    seat: int = 0,
    hands: dict[int, list[str]] | None = None,
    tracks: dict[int, list[str]] | None = None,
    blocks: dict[int, tuple[str, int, int]] | None = None,
    t7: Iterable[str] = (),
    store: Iterable[str] = (),
    bank_top: Iterable[str] = (),
    bank_size: int | None = None,
    phase: Phase = Phase.PRE_MOVE,
    turn_no: int = 10,
    options: dict[str, object] | None = None,
    filler: int = 3,
) -> State:
    """Seat `seat` to act. Unlisted seats get `filler` tiles of R so they stay ACTIVE.

    A track's slots are kinds in order (W/U stand for the expected colour).
    `blocks[k] = (kind, by_seat, turn)`. `bank_top` lists the next draws, first first.
    """
    opts = Options(**(options or {}))
    pool = Pool(opts)
    hands = dict(hands or {})
    s = GAME.new(PLAYERS[:n], seed=1, options=opts.model_dump())
    s.hands = [[] for _ in range(n)]
    for i in range(n):
        s.hands[i] = pool.take_all(hands.get(i, ["V"] * filler))
    for k, kinds in (tracks or {}).items():
        s.tracks[k - 1].slots = pool.take_all(kinds)
        s.tracks[k - 1].block = None
    for k in range(1, 7):
        if k not in (tracks or {}):
            s.tracks[k - 1].slots = []
            s.tracks[k - 1].block = None
    for k, (kind, by, turn) in (blocks or {}).items():
        s.tracks[k - 1].block = Block(tile=pool.take(kind), by=by, turn=turn)
    s.t7 = pool.take_all(t7)
    s.store = pool.take_all(store)
    top = pool.take_all(bank_top)
    rest = list(pool.free)
    if bank_size is not None:
        keep = max(0, bank_size - len(top))
        s.out = rest[keep:]
        rest = rest[:keep]
    else:
        s.out = []
    s.bank = rest + list(reversed(top))
    s.status = [Status.ACTIVE] * n
    s.scores = [0] * n
    s.current = seat
    s.turn_no = turn_no
    s.turn = Turn()
    s.phase = phase
    s.exchange = None
    s.restricted_left = s.final_left = s.idle_turns = 0
    s.finals_running = False
    s.out_order = []
    return s


def roll(s: State, *dice: int) -> State:
    """Put the current turn into PLACING with a forced roll (the effect of CHOOSE_DICE)."""
    s = s.model_copy(deep=True)
    t = s.turn
    t.n_dice = len(dice)
    t.dice = list(dice)
    t.is_double = len(dice) == 2 and dice[0] == dice[1]
    t.double_six = t.is_double and dice[0] == 6
    t.die_tracks = [dice[0]] if len(dice) == 1 or t.is_double else list(dice)
    engine._set_modes(s)
    s.phase = Phase.PLACING
    return s


def restrict(s: State, left: int) -> State:
    s = s.model_copy(deep=True)
    s.restricted_left = left
    s.turn.restricted = s.turn.began_restricted = True
    return s


def act(s: State, type_: ActionType, **kw: object) -> State:
    """Apply an action that must be legal (and listed by legal_actions, or by the
    legal_actions_for of the seat it names: the first-move window, R58)."""
    a = Action(type=type_, **kw)
    legal = (
        GAME.legal_actions(s) if a.seat is None else GAME.legal_actions_for(s, s.players[a.seat])
    )
    assert a in legal, (a, legal)
    s2, _ = GAME.apply(s, a)
    return s2


def refused(s: State, type_: ActionType, code: str | None = None, **kw: object) -> None:
    """The action is not legal: not listed, refused by apply with `code`, state unchanged."""
    import pytest

    from games import IllegalAction

    a = Action(type=type_, **kw)
    assert a not in GAME.legal_actions(s)
    assert all(a not in GAME.legal_actions_for(s, p) for p in s.players)
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, a)
    if code is not None:
        assert exc.value.code == code, exc.value.code
    assert s.model_dump_json() == before


def kinds(tiles: Iterable[str]) -> list[str]:
    return sorted(kind_of(t) for t in tiles)


def track(s: State, k: int) -> list[str]:
    return [kind_of(t) for t in s.tracks[k - 1].slots]
