"""Random legal games to the end, every invariant checked after every action (§8)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st

from games import IllegalAction
from games.dominas import GAME, Action, ActionType, Pos, State
from games.dominas.tiles import ALL_TILES

from ..seeds import SEEDS
from .invariants import check, check_views

MAX_STEPS = 1500
# Whole games are slow to shrink; a failure prints its seed, which replays exactly.
NO_SHRINK = [HPhase.explicit, HPhase.reuse, HPhase.generate]
SETUPS = [(n, "solo") for n in range(2, 9)] + [(n, "teams") for n in (4, 6, 8)]


def random_action(r: random.Random) -> Action:
    kind = r.choice([ActionType.PLACE] * 8 + [ActionType.STOP, ActionType.TIMEOUT])
    if kind is not ActionType.PLACE:
        return Action(type=kind)
    return Action(
        type=kind, tile=r.choice(ALL_TILES), nest=r.choice(list(Pos)), variant=r.randint(0, 1)
    )


def play(
    n: int, seed: int, options: dict[str, object], leave: float = 0.0, views: bool = True
) -> tuple[State, int]:
    s = GAME.new(list(range(1, n + 1)), seed=seed, options=options)
    check(s)
    r = random.Random(seed)
    steps = 0
    while not GAME.is_over(s):
        assert steps < MAX_STEPS, "the game did not end"
        acts = GAME.legal_actions(s)
        assert acts and len(set(acts)) == len(acts)
        assert all(a.type is not ActionType.TIMEOUT for a in acts), "R12: no voluntary pass"
        for a in acts:
            assert GAME.decode_action(GAME.encode_action(a)) == a
            assert len(GAME.encode_action(a)) <= 12
        # an action outside legal_actions is refused and changes nothing
        bad = random_action(r)
        if bad not in acts:
            before = s.model_dump_json()
            with pytest.raises(IllegalAction):
                GAME.apply(s, bad)
            assert s.model_dump_json() == before
        if leave and r.random() < leave:
            present = [x for x in range(n) if s.present[x]]
            s2, _ = GAME.remove(s, s.players[r.choice(present)])
        elif r.random() < 0.03:
            s2, _ = GAME.timeout(s)  # the bot's turn timer (R27)
        else:
            s2, _ = GAME.apply(s, r.choice(acts))
        check(s2, s)
        assert State.model_validate_json(s2.model_dump_json()) == s2
        if views:
            check_views(s2)
        s = s2
        steps += 1
    return s, steps


@pytest.mark.parametrize(("n", "mode"), SETUPS)
@settings(max_examples=5, deadline=None, phases=NO_SHRINK)
@given(
    seed=SEEDS,
    fill=st.sampled_from(["clockwise", "counterclockwise"]),
    games=st.sampled_from([1, 2]),
)
def test_i1_i8_random_matches_end_and_keep_invariants(
    n: int, mode: str, seed: int, fill: str, games: int
) -> None:
    """I1–I8, R24, R26: random legal matches end, with standings for every player."""
    opts = {"mode": mode, "fill_direction": fill, "match_games": games}
    s, _ = play(n, seed, opts)
    assert len(s.records) == games
    res = GAME.result(s)
    assert res.winners and sorted(x.player for x in res.standings) == list(range(1, n + 1))


@settings(
    max_examples=12, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow]
)
@given(setup=st.sampled_from(SETUPS), seed=SEEDS)
def test_r28_random_matches_with_players_leaving(setup: tuple[int, str], seed: int) -> None:
    """R28: players leaving at random moments never break an invariant; the match ends."""
    n, mode = setup
    s, _ = play(n, seed, {"mode": mode}, leave=0.02, views=False)
    res = GAME.result(s)
    gone = [s.players[x] for x in s.left_order if not s.present[x]]
    if mode == "solo" and gone:
        assert res.standings[-1].player in gone and res.standings[-1].score == 0


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, steps=st.integers(0, 150), data=st.data())
def test_r10_actions_outside_legal_actions_are_refused(
    seed: int, steps: int, data: st.DataObject
) -> None:
    """R10/R12: anything not in legal_actions raises IllegalAction; the state is unchanged."""
    s = GAME.new([1, 2, 3], seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
    hand = s.hands[s.current]
    tile = data.draw(st.sampled_from(list(ALL_TILES) + hand * 10))
    kind = data.draw(st.sampled_from(list(ActionType)))
    if kind is ActionType.PLACE:
        a = Action(
            type=kind,
            tile=tile,
            nest=data.draw(st.sampled_from(list(Pos))),
            variant=data.draw(st.integers(0, 1)),
        )
    else:
        a = Action(type=kind)
    before = s.model_dump_json()
    if a in GAME.legal_actions(s):
        GAME.apply(s, a)
    else:
        with pytest.raises(IllegalAction):
            GAME.apply(s, a)
    assert s.model_dump_json() == before


@pytest.mark.parametrize("seed", [3, 4])
def test_replay_is_exact_and_json_round_trips(seed: int) -> None:
    """Chance comes only from the seed in the state: a replay gives identical states."""
    s = GAME.new([1, 2, 3, 4], seed=seed, options={"mode": "teams"})
    r = random.Random(seed)
    actions = []
    while not GAME.is_over(s):
        a = r.choice(GAME.legal_actions(s))
        actions.append(a)
        s, _ = GAME.apply(s, a)
        assert State.model_validate_json(s.model_dump_json()) == s
    t = GAME.new([1, 2, 3, 4], seed=seed, options={"mode": "teams"})
    for a in actions:
        t, _ = GAME.apply(t, a)
    assert t.model_dump_json() == s.model_dump_json()
