"""The spec's invariants I1–I8 (§8), checked after every action in random play."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.dominas import GAME, Nest, Phase, Pos, State
from games.dominas.engine import can_place, game_scores
from games.dominas.figure import opened, required
from games.dominas.tiles import (
    ALL_TILES,
    BONUS_SUM,
    KOLOBOK,
    colour_of,
    is_samohod,
    is_tile,
    pips,
    sort_key,
    symbols_of,
)


def locations(s: State) -> list[str]:
    return [t for h in s.hands for t in h] + s.bazaar + [p.tile for p in s.figure]


def check(s: State, prev: State | None = None) -> None:
    # I1: every one of the 88 tiles in exactly one place.
    assert Counter(locations(s)) == Counter(ALL_TILES), "I1 tile conservation"
    fig = s.figure
    # I2: each tile attached to its parent by a matching side (or a самоход of its colour).
    for i, p in enumerate(fig):
        if i == 0:
            assert p.parent is None and not is_samohod(p.tile), "I2 #1"
            continue
        assert p.parent is not None and p.parent < i and p.parent_side is not None, "I2 parent"
        need = fig[p.parent].edges[p.parent_side]
        if is_samohod(p.tile):
            assert colour_of(p.tile) == colour_of(fig[p.parent].tile), "I2 самоход colour"
            assert p.edges == [need] * 3, "I2 самоход carries the symbol"
        else:
            assert p.side is not None and list(symbols_of(p.tile) or ()) == p.edges
            assert p.edges[p.side] == need, "I2 matching side"
    # I3: replaying the figure's geometry gives the open nests; one floor open.
    floor, nests = 1, [Nest(pos=Pos.CENTRE)]
    for i, p in enumerate(fig):
        nest = next(
            n for n in nests if (n.pos, n.parent, n.side) == (p.pos, p.parent, p.parent_side)
        )
        assert p.floor == floor, "I3 floor"
        rest = [n for n in nests if n is not nest]
        floor, nests = opened(floor, rest, p, i, s.options.fill_direction)
    assert (floor, nests) == (s.floor, s.nests), "I3 open nests"
    assert len(s.nests) <= (3 if s.floor == 1 else 2), "I3 nest count"
    # I5: bonus counters; a sum bonus only ever adds tiles of its sum.
    if s.bonus is not None:
        assert s.phase is Phase.BONUS
        if s.bonus.left is not None:
            assert s.bonus.left in (1, 2, 3), "I5 bonus_left"
    starter: str | None = None
    added = 0
    for p in fig:
        if not p.bonus:
            starter, added = p.tile, 0
            continue
        assert starter in (KOLOBOK, *BONUS_SUM), "I5 bonus after a bonus tile"
        added += 1
        if starter in BONUS_SUM:
            assert pips(p.tile) == BONUS_SUM[starter] and added <= 3, "I5 bonus sum"
    # I6: a running game has a real decision; the match ends only by the records.
    if s.phase is Phase.OVER:
        assert s.records and len(s.records) <= s.options.match_games
        assert GAME.to_act(s) is None and GAME.legal_actions(s) == []
    else:
        seat = s.current
        assert s.present[seat] and s.hands[seat], "I6 actor"
        assert all(h for x, h in enumerate(s.hands) if s.present[x]), "I6 no empty hand in play"
        assert can_place(s, seat, s.bonus), "I6 the actor can place"
        assert len(s.records) == s.game_no - 1
    for x, present in enumerate(s.present):
        if not present:
            assert not s.hands[x], "R28 a leaver holds no tiles"
    # I7: scores.
    for rec in s.records:
        sides = [x for x in range(s.n_sides) if rec.scores[x] > 0]
        if rec.reason == "fish":
            assert all(rec.scores[x] >= 20 for x in sides), "I7 fish >= 20"
            m = min(rec.tiles[x] for x in sides)
            assert all(rec.scores[x] == 20 for x in sides if rec.tiles[x] > m), "I7 fish"
            assert rec.scores == game_scores(s.n_sides, sides, rec.tiles, None)
        else:
            assert rec.winner_side is not None
            assert rec.scores == game_scores(s.n_sides, sides, rec.tiles, rec.winner_side)
    if prev is not None:
        check_step(s, prev)


def check_step(s: State, prev: State) -> None:
    assert s.version == prev.version + 1
    if prev.game_no == s.game_no and prev.phase is not Phase.OVER:
        left = len(s.left_order) != len(prev.left_order)
        assert len(s.figure) >= len(prev.figure)
        if not left:
            assert len(s.bazaar) <= len(prev.bazaar), "the bazaar only shrinks in a game"
        in_bonus = prev.phase is Phase.BONUS and s.phase is Phase.BONUS
        if in_bonus and s.current == prev.current and not left:
            assert s.bazaar == prev.bazaar, "I5 no draw during a bonus"
            assert len(s.figure) == len(prev.figure) + 1
    if prev.game_no == 1 and s.game_no == 2:
        check_game_two_deal(s)


def check_game_two_deal(s: State) -> None:
    """I8 (no leavers): teams swap their initial sets, solo rotates them."""
    n = len(s.players)
    assert not s.figure, "game 2 waits for its first tile"
    if not all(s.present):
        return
    hands = [list(h) for h in s.hands]
    if s.options.mode == "teams":
        for side in (0, 1):
            got = sorted(t for x in range(n) if s.side_of[x] == side for t in hands[x])
            theirs = sorted(t for x in range(n) if s.side_of[x] != side for t in s.initial_hands[x])
            assert got == theirs, "I8 teams swap"
    else:
        for x in range(n):
            assert hands[x] == sorted(s.initial_hands[(x + 1) % n], key=sort_key), "I8 rotate"
    assert sorted(s.bazaar) == sorted(s.initial_bazaar), "R26 same bazaar tiles"
    assert s.first == (s.game1_first + 1) % n, "R26 first player of game 2"


def strings(obj: Any) -> list[str]:
    """Every string inside a dumped model."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in strings(v)]
    if isinstance(obj, list | tuple):
        return [x for v in obj for x in strings(v)]
    return []


def check_views(s: State) -> None:
    """§7: a view shows the viewer's own hand and nobody else's; the table none."""
    table = GAME.view(s, None)
    assert table.hand is None and table.remembered is None
    hidden = {t for h in s.hands for t in h} | set(s.bazaar)
    assert not hidden & set(strings(table.model_dump(mode="json")))
    for seat, player in enumerate(s.players):
        v = GAME.view(s, player)
        assert v.me == seat and v.hand == s.hands[seat]
        assert [p.hand_count for p in v.players] == [len(h) for h in s.hands]
        others = hidden - set(s.hands[seat])
        seen = set(strings(v.model_dump(mode="json", exclude={"hand", "remembered"})))
        assert not others & seen, "a view leaks another hand or the bazaar"
        assert all(is_tile(t) for t in v.hand)
        if s.game_no == 2:
            assert v.remembered is not None
        v.model_dump_json()
    if s.phase is not Phase.OVER:
        assert [n.symbol for n in table.nests] == [required(s.figure, n) for n in s.nests]
