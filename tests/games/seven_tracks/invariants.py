"""The spec's invariants I1–I13 (§16), checked after every action in random play."""

from __future__ import annotations

from collections import Counter

from games.seven_tracks import engine
from games.seven_tracks.model import (
    COLOURS,
    Phase,
    State,
    Status,
    TileKind,
    expected_colour,
    is_white_like,
    kind_of,
)


def locations(s: State) -> list[str]:
    tiles: list[str] = []
    for hand in s.hands:
        tiles += hand
    tiles += s.bank + s.t7 + s.store + s.out
    for tr in s.tracks:
        tiles += tr.slots
        if tr.block:
            tiles.append(tr.block.tile)
    return tiles


def check(s: State, prev: State | None = None) -> None:
    opts = s.options
    tiles = locations(s)
    full = engine._all_tiles(opts)
    assert Counter(tiles) == Counter(full), "I1 tile conservation"
    for k, tr in enumerate(s.tracks, start=1):
        assert 0 <= len(tr.slots) <= 6, "I2 slot count"
        for i, t in enumerate(tr.slots, start=1):
            assert kind_of(t) == expected_colour(k, i) or is_white_like(t), "I2 slot colour"
        for a, b in zip(tr.slots, tr.slots[1:], strict=False):
            assert not (is_white_like(a) and is_white_like(b)), "I3 two whites in a row"
        if tr.block:
            assert tr.slots, "I4 block on an empty track"
            assert kind_of(tr.block.tile) in (TileKind.BLACK, TileKind.UNIVERSAL), "I4 block tile"
    t7k = [kind_of(t) for t in s.t7]
    assert len(t7k) <= 6 and len(set(t7k)) == len(t7k), "I5 t7 distinct"
    assert all(k in COLOURS for k in t7k), "I5 t7 colours"
    assert all(is_white_like(t) for t in s.store), "I6 store"
    assert all(x >= 0 for x in s.scores), "I8 scores >= 0"
    for seat, st in enumerate(s.status):
        if st != Status.ACTIVE:
            assert not s.hands[seat], "I9 OUT/ELIMINATED hold no tiles"
        if st == Status.ELIMINATED and seat not in s.left:
            assert s.scores[seat] >= opts.target_score, "I9 eliminated score"
        if st != Status.ELIMINATED and s.phase != Phase.GAME_OVER:
            assert s.scores[seat] < opts.target_score, "I9 in-game score"
    if s.phase in engine.TURN_PHASES:
        assert s.status[s.current] == Status.ACTIVE, "I10 actor is ACTIVE"
        if s.phase == Phase.PRE_MOVE:
            assert s.hands[s.current], "I10 hand not empty at PRE_MOVE"
        turn = s.turn
        assert turn.draws <= opts.max_draws, "I11 draws"
        for k, mode in turn.modes.items():
            if mode == "single" and k != 7:
                assert turn.placements.get(k, 0) <= 1, "I11 SINGLE capacity"
        if turn.began_restricted and turn.restricted:
            assert turn.placed_total <= 1, "I11 restricted placement"
        active = len([x for x in s.status if x == Status.ACTIVE])
        assert 0 <= s.restricted_left <= active, "I13 restricted_left"
        assert 0 <= s.final_left <= active, "I13 final_left"
    if prev is not None and Phase.GAME_OVER not in (prev.phase, s.phase):
        same_round = (prev.round_no, prev.cycle_no) == (s.round_no, s.cycle_no)
        if same_round:
            assert len(s.bank) <= len(prev.bank), "I13 bank grows during a round"
            if prev.phase != Phase.FIRST_MOVE:
                gained = [t for h in s.hands for t in h if kind_of(t) == TileKind.FIRST_MOVE]
                had = [t for h in prev.hands for t in h if kind_of(t) == TileKind.FIRST_MOVE]
                assert set(gained) <= set(had), "I12 FM entered a hand after the window"
        for seat in range(len(s.scores)):
            if s.scores[seat] < prev.scores[seat]:
                assert s.last_round != prev.last_round, "I8 a score falls only at round end"


def check_round_start(s: State) -> None:
    """I7: a fresh round has an empty board and zeroed counters."""
    assert all(not tr.slots and tr.block is None for tr in s.tracks)
    assert not s.t7 and not s.out
    if not s.options.bonus_store_persists:
        assert not s.store
    assert s.restricted_left == s.final_left == s.idle_turns == 0
    assert not s.out_order
