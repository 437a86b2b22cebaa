"""An absent player in «ДОМИНА*С» (R27, R28): a timed-out turn is a penalty draw and a pass,
never a placement, so the engine alone cannot end a game in which only the absent player
could still place with an empty bazaar — the game waits for him. The bot's rule ends it:
after `TIMEOUTS_BEFORE_REMOVAL` timeouts in a row (the default of bot/config.py) it
removes him (R28), his hand goes back to the bazaar, and the others play on to a win
(R23) or a рыба (R24)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from games.dominas import GAME, Phase, State
from tests.games.dominas.builder import course

TIMEOUTS_BEFORE_REMOVAL = 3


def play(players: int, seed: int, remove_after: int | None) -> tuple[State, int]:
    """The last state of `course` and the actions it took."""
    steps = -1
    for steps, s in enumerate(course(players, seed, remove_after=remove_after)):  # noqa: B007
        pass
    return s, steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r28_the_bots_removal_ends_every_game_with_an_absent_player(players: int) -> None:
    for seed in range(15):
        s, steps = play(players, seed, TIMEOUTS_BEFORE_REMOVAL)
        assert GAME.is_over(s), (players, seed, steps)


def test_r27_without_removal_an_absent_player_can_hold_an_empty_bazaar_forever() -> None:
    """The reason for the test above: the timeout never places a tile (R27's decision),
    so with removal off some games never end (the other seats pass, the bazaar empty)."""
    stuck = [seed for seed in range(15) if not GAME.is_over(play(4, seed, None)[0])]
    assert stuck, "every game ended without removal"
    s, _ = play(4, stuck[0], None)
    assert not s.bazaar


def test_r27_the_turn_timer_waits_for_one_turn_and_its_end_is_one_timeout() -> None:
    """What the bot's turn timer uses (games/automation.py): `turn_key` names one turn of
    one game — kept through a bonus series (the same player places again), new whenever
    another player is to act — and `timeout_turn` is exactly one R27 timeout, which ends
    that turn."""
    series = 0
    for seed in range(6):
        for s, after in pairwise(course(3, seed, absent=False)):
            if GAME.is_over(s):
                assert GAME.turn_key(s) is None
                continue
            key = GAME.turn_key(s)
            assert key == f"{s.game_no}:{s.turn_no}"
            if after.phase is Phase.BONUS and after.current == s.current:
                assert GAME.turn_key(after) == key  # a bonus series is one turn
                series += 1
            elif GAME.to_act(after) != GAME.to_act(s):
                assert GAME.turn_key(after) != key
            timed_out, events = GAME.timeout_turn(s)
            assert (timed_out, events) == GAME.timeout(s)
            assert GAME.is_over(timed_out) or GAME.turn_key(timed_out) != key
    assert series, "no bonus series was played"
