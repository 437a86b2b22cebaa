"""What a seat was seen unable to place (R11, §7): the public lack record of the view, and
the master's sampler, which never deals a number a tile it was seen unable to be."""

from __future__ import annotations

import random

from games.dominas import GAME, State
from games.dominas.determinize import sample
from games.dominas.engine import lacks_of, slot_numbers
from games.dominas.policies import NOVICE
from games.dominas.tiles import can_be, need_bits
from tests.games.dominas.builder import TO_ENTRY_5, C, L, P, act, build


def _e16() -> State:
    """E16: after Аня's З21 the centre needs 6; Борис (З3, М2) draws О2, then В17."""
    s = build(
        moves=TO_ENTRY_5,
        hands={0: ["З21", "В12"], 1: ["З3", "М2"]},
        bazaar=["О2", "В17", "М6"],
    )
    s.entered = [list(h) for h in s.hands]  # number the built hands 1, 2, …
    s, _ = act(s, P("З21", L))
    return s


def test_a_seat_that_draws_is_seen_lacking_the_open_needs() -> None:
    """Борис drew two tiles: his two tiles and the first drawn lack a 6 and are no
    Земля самоход (the centre's parent is З21); the last drawn, the one that fits, is
    unknown. Every view, the table's too, shows it."""
    s = _e16()
    assert GAME.legal_actions(s) == [P("В17", C)]
    need = need_bits(6, "З")
    for who in (101, 102, None):
        seat = GAME.view(s, who).players[1]
        assert seat.slots == [1, 2, 3, 4]
        assert seat.lacks == [need, need, need, 0]
        assert GAME.view(s, who).players[0].lacks == [0]
    assert [can_be(t, need) for t in ("З3", "М2", "О2", "В17", "З⚙", "О⚙")] == [
        True,
        True,
        True,
        False,
        False,
        True,
    ]


def test_a_placed_tile_leaves_the_record() -> None:
    s = _e16()
    s, _ = act(s, P("В17", C))
    view = GAME.view(s, None)
    assert view.players[1].slots == [1, 2, 3]
    assert view.players[1].lacks == [need_bits(6, "З")] * 3


def test_an_old_state_without_lacks_loads_and_plays() -> None:
    s = GAME.new([1, 2, 3], seed=5)
    data = s.model_dump(mode="json")
    del data["lacks"]
    old = State.model_validate(data)
    assert old.lacks == []
    assert all(p.lacks == [0] * p.hand_count for p in GAME.view(old, 1).players)
    rng = random.Random(5)
    for _ in range(40):
        player = GAME.to_act(old)
        if player is None:
            break
        old, _ = GAME.apply(old, rng.choice(GAME.legal_actions(old)))


def _positions(count: int) -> list[State]:
    """Positions of seeded «новичок» games (2–4 players) after some draws."""
    out: list[State] = []
    for seed in range(count):
        n = 2 + seed % 3
        s = GAME.new(list(range(1, n + 1)), seed=seed)
        rng = random.Random(seed)
        while (player := GAME.to_act(s)) is not None:
            if rng.random() < 0.08:
                out.append(s)
            view = GAME.view(s, player)
            s, _ = GAME.apply(s, NOVICE.choose(view, GAME.legal_actions(s), rng))
    return out


def test_lacks_never_rule_out_the_real_tile() -> None:
    """The record is sound: every held tile can be what its lack allows."""
    recorded = 0
    for s in _positions(12):
        for x, hand in enumerate(s.hands):
            lacks = lacks_of(s, x, slot_numbers(s, x))
            recorded += sum(1 for lack in lacks if lack)
            assert all(can_be(t, lack) for t, lack in zip(hand, lacks, strict=True))
    assert recorded > 100


def test_the_sampler_never_deals_a_seat_a_tile_it_was_seen_unable_to_hold() -> None:
    constrained = 0
    for i, s in enumerate(_positions(12)):
        player = GAME.to_act(s)
        assert player is not None
        view = GAME.view(s, player)
        for k in range(3):
            t = sample(view, random.Random(100 * i + k))
            assert GAME.view(t, player) == view
            for x, hand in enumerate(t.hands):
                lacks = lacks_of(t, x, slot_numbers(t, x))
                constrained += sum(1 for lack in lacks if lack)
                assert all(can_be(tile, lack) for tile, lack in zip(hand, lacks, strict=True))
    assert constrained > 100
