"""Random legal games to the end with the invariants (§7) checked after every action."""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase as HPhase
from hypothesis import given, settings
from hypothesis import strategies as st

from games import IllegalAction
from games.hypnosia import CODES, GAME, Action, ActionType, Route, State
from games.hypnosia.events import Moved
from games.hypnosia.model import parse_cell

from ..facts import fact
from ..seeds import SEEDS
from .invariants import check

MAX_STEPS = 4000  # the round limit (R17c) ends any game well before
# Whole games are slow to shrink; a failure prints its seed, which replays exactly.
NO_SHRINK = [HPhase.explicit, HPhase.reuse, HPhase.generate]
EVENT_TYPES = {
    "rolled",
    "moved",
    "captured",
    "entered_centre",
    "dice_lapsed",
    "turn_ended",
    "turn_started",
    "game_over",
    "out_of_tokens",
}
ALL_ACTIONS = [Action(type=ActionType.ROLL)] + [
    Action(type=ActionType.MOVE, token=t, die=d, route=Route(r), pair=p)
    for d in range(1, 7)
    for t in range(1, 5)
    for r in "rb"
    for p in (True, False)
]


def play(n: int, seed: int, options: dict[str, object] | None = None) -> tuple[State, int]:
    s = GAME.new(list(range(1, n + 1)), seed=seed, options=options)
    check(s)
    cross = bool((options or {}).get("pairs_cross_bridges"))
    r = random.Random(seed)
    steps = 0
    while not GAME.is_over(s):
        assert steps < MAX_STEPS, "the game did not end"
        legal = GAME.legal_actions(s)
        assert legal and len(set(legal)) == len(legal)
        # a random action outside legal_actions is refused, the state unchanged
        before = s.model_dump_json()
        other = r.choice(ALL_ACTIONS)
        if other not in legal:
            with pytest.raises(IllegalAction) as exc:
                GAME.apply(s, other)
            assert exc.value.code in CODES
            assert s.model_dump_json() == before
        a = r.choice(legal)
        assert GAME.decode_action(GAME.encode_action(a)) == a
        if a.type is ActionType.MOVE and not cross:  # I7
            assert not (a.pair and a.route is Route.BRIDGE)
        preview = GAME.preview(s, a) if a.type is ActionType.MOVE else None
        s2, events = GAME.apply(s, a)
        assert s.model_dump_json() == before, "apply never mutates its input"
        check(s2, s)
        assert events and {e.type for e in events} <= EVENT_TYPES
        if preview is not None:
            moved = fact(events[0], Moved)
            assert moved.to == preview.dest
            assert s2.captured[s.current] - s.captured[s.current] == preview.captures
            assert moved.fields == preview.fields
        if not cross:  # I7: a pair never crosses, so it never arrives on an inner ring whole
            for seat, row in enumerate(s2.tokens):
                for t1, t2 in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)):
                    new, old = parse_cell(row[t1]), parse_cell(s.tokens[seat][t1])
                    if (
                        new
                        and row[t1] == row[t2]
                        and old
                        and s.tokens[seat][t2] == s.tokens[seat][t1]
                    ):
                        assert old[0] == new[0], "I7 a pair crossed a bridge"
        s = s2
        steps += 1
    return s, steps


@settings(max_examples=30, deadline=None, phases=NO_SHRINK)
@given(n=st.integers(2, 6), seed=SEEDS, cross=st.booleans())
def test_i1_i7_random_games_end_and_keep_invariants(n: int, seed: int, cross: bool) -> None:
    """R17 / I1–I7: random legal games end with a winner and never break an invariant."""
    s, _ = play(n, seed, {"pairs_cross_bridges": cross})
    res = GAME.result(s)
    assert res.winners and s.winners == res.winners
    assert sorted(x.player for x in res.standings) == list(range(1, n + 1))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r1_r17_every_player_count_plays_to_the_end(n: int) -> None:
    """R1, R17: one fixed game per player count."""
    s, steps = play(n, 1000 + n)
    assert GAME.is_over(s) and steps > 10


def test_r17c_short_round_limit_random_games() -> None:
    """R17c: with a small round limit the game ends by it."""
    s, _ = play(3, 7, {"round_limit": 3})
    assert s.end_reason == "round_limit"


def test_replay_is_exact() -> None:
    """Determinism: the same seed and actions give byte-identical states."""
    s = GAME.new([1, 2, 3, 4], seed=11)
    r = random.Random(11)
    actions = []
    while not GAME.is_over(s):
        a = r.choice(GAME.legal_actions(s))
        actions.append(a)
        s, _ = GAME.apply(s, a)
    t = GAME.new([1, 2, 3, 4], seed=11)
    for a in actions:
        t, _ = GAME.apply(t, a)
    assert t.model_dump_json() == s.model_dump_json()


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 6), seed=SEEDS, steps=st.integers(0, 300))
def test_r20_leaving_at_random_moments_keeps_invariants(n: int, seed: int, steps: int) -> None:
    """R20: players leave at random moments; the game goes on and ends correctly."""
    s = GAME.new(list(range(1, n + 1)), seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            return
        s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
    while not GAME.is_over(s):
        leaver = r.choice(s.players)
        s2, _ = GAME.remove(s, leaver)
        if s2 is not s:
            check(s2, s)
        s = s2
        for _ in range(r.randint(0, 30)):
            if GAME.is_over(s):
                break
            s2, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
            check(s2, s)
            s = s2
    res = GAME.result(s)
    left = [s.players[x] for x in s.left]
    order = [x.player for x in res.standings]
    assert order[len(order) - len(left) :] == left[::-1]  # also when nobody left
