"""Random legal games to the end for 2–6 players: invariants after every action (§7)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cell_capture import GAME, Action, ActionType, Direction, State
from games.cell_capture.events import Captured
from games.cell_capture.model import LETTERS
from games.protocol import IllegalAction
from tests.games.cell_capture.builder import PIDS
from tests.games.cell_capture.invariants import check_invariants
from tests.games.facts import facts
from tests.games.seeds import SEEDS

MAX_STEPS = 3000


def random_action(rng: random.Random, size: int) -> Action:
    """Any well-formed action of the vocabulary, legal or not."""
    kind = rng.choice(list(ActionType))
    if kind is ActionType.CHOOSE_K:
        return Action(type=kind, k=rng.randint(1, 7))
    if kind is ActionType.CHOOSE_ANCHOR:
        col = LETTERS[rng.randrange(min(size + 1, 13))]
        return Action(type=kind, cell=f"{col}{rng.randint(1, min(size + 1, 13))}")
    if kind is ActionType.STEP:
        return Action(type=kind, dir=rng.choice(list(Direction)))
    return Action(type=kind)


def pick(rng: random.Random, legal: list[Action]) -> Action:
    """Mostly progress; sometimes UNDO / CANCEL / BACK to exercise them."""
    forward = [
        a for a in legal if a.type not in (ActionType.UNDO, ActionType.CANCEL, ActionType.BACK)
    ]
    if forward and rng.random() < 0.9:
        return rng.choice(forward)
    return rng.choice(legal)


def action_k(s: State) -> int:
    assert s.draft.k is not None
    return s.draft.k


def play_random(n: int, seed: int, play_seed: int, leave: bool) -> State:
    rng = random.Random(play_seed)
    options = {"allow_two_players": True} if n == 2 else None  # R1: 2 only as a house rule
    s = GAME.new(players=PIDS[:n], seed=seed, options=options)
    check_invariants(s)
    for _ in range(MAX_STEPS):
        if GAME.is_over(s):
            break
        before = s.model_dump_json()
        # JSON round trip is exact.
        assert GAME.state_type.model_validate_json(before) == s
        legal = GAME.legal_actions(s)
        assert legal
        # The public view alone tells the buttons (the bot builds keyboards from it).
        v = GAME.view(s, None)
        assert v.allowed == [a.k for a in legal if a.type is ActionType.CHOOSE_K]
        assert v.offered_anchors == [a.cell for a in legal if a.type is ActionType.CHOOSE_ANCHOR]
        assert v.steps == [a.dir for a in legal if a.type is ActionType.STEP]
        assert v.to_act == GAME.to_act(s)
        if s.draft.k is None or s.draft.anchor is not None:  # anchors are paged by the bot
            assert len(legal) <= 6  # numbers, or 4 arrows + undo + reset (§5)
        # An action outside legal_actions is refused and leaves the state unchanged.
        bad = random_action(rng, s.size)
        if bad not in legal:
            try:
                GAME.apply(s, bad)
            except IllegalAction as err:
                assert err.code != "not_legal", bad  # every refusal has a specific code
            else:
                raise AssertionError(f"illegal {bad} accepted")
            assert s.model_dump_json() == before
        if rng.random() < 0.03:  # a turn timeout: the canonical move (§5 AFK)
            seat = s.order[s.turn_idx]
            s2, events = s, []
            for action in GAME.auto_actions(s):
                s2, more = GAME.apply(s2, action)
                events += more
            assert [e.seat for e in events if e.type == "captured"] == [seat]
        elif leave and rng.random() < 0.004:
            active = [p for i, p in enumerate(s.players) if s.active[i]]
            s2, events = GAME.remove(s, rng.choice(active))
            assert events[0].type == "player_left"
        else:
            action = pick(rng, legal)
            assert GAME.decode_action(GAME.encode_action(action)) == action
            s2, events = GAME.apply(s, action)
            assert s2.version == s.version + 1
            if action.type is ActionType.CONFIRM:
                captured = facts(events, Captured)
                assert len(captured) == 1 and len(captured[0].cells) == action_k(s)
        assert s.model_dump_json() == before  # apply is pure
        for e in events:
            e.model_dump_json()
        s = s2
        check_invariants(s)
    assert GAME.is_over(s), "the game must end"
    res = GAME.result(s)
    assert sorted(x.player for x in res.standings) == sorted(PIDS[:n])
    assert res.winners
    assert sum(x.score for x in res.standings) == s.size * s.size - 1 - s.owner.count(-1)
    return s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=2, max_value=6),
    seed=SEEDS,
    play_seed=st.integers(min_value=0, max_value=2**32),
    leave=st.booleans(),
)
def test_random_games_keep_invariants_i1_to_i7(
    n: int, seed: int, play_seed: int, leave: bool
) -> None:
    """I1–I7 after every action, exact JSON round trip, illegal input refused, termination."""
    play_random(n, seed, play_seed, leave)


def test_random_games_every_player_count() -> None:
    """Each player count 2–6 (2 with `allow_two_players`) is played to the end (no leaving)."""
    for n in range(2, 7):
        for seed in range(3):
            s = play_random(n, seed, seed + 100, leave=False)
            assert s.end_reason in ("board_full", "no_moves")


def test_deterministic_replay() -> None:
    """The same seed and actions give the same states (chance only from the state RNG)."""
    a = play_random(4, 77, 5, leave=True)
    b = play_random(4, 77, 5, leave=True)
    assert a.model_dump_json() == b.model_dump_json()
