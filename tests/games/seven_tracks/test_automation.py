"""What the bot plays without asking (games/automation.py): R66's dead turn is ended —
END_PLACING, then its END_TURN — and only a dead turn: a player who ended his placing
himself ends his turn himself, as the bot always did."""

from __future__ import annotations

from games import Event
from games.automation import Forced, settle
from games.seven_tracks import GAME, Action, Phase, engine
from tests.games.facts import facts
from tests.games.seven_tracks.builder import T, act, build, roll


def forced_actions(events: list[Event]) -> list[str]:
    return [f.action for f in facts(events, Forced)]


def test_a_turn_dead_after_drawing_is_ended_r66() -> None:
    """He drew all he may and nothing fits: the bot ends the turn, drawn tiles or not."""
    s = roll(build(n=2, hands={0: ["K"]}, bank_top=["K"] * 5), 2, 3)
    for _ in range(5):
        s = act(s, T.DRAW)
    assert engine.turn_is_dead(s)
    settled, events = settle(GAME, s)
    assert forced_actions(events) == ["EP", "ET"]
    assert settled.phase == Phase.PRE_MOVE and settled.current == 1


def test_a_turn_dead_after_a_shift_is_ended_r66() -> None:
    s = roll(build(n=2, hands={0: ["SK", "K"]}, bank_size=0), 2, 3)
    s = act(s, T.SHIFT, kind="SK", role="SK", die=0)
    assert engine.turn_is_dead(s)
    settled, events = settle(GAME, s)
    assert forced_actions(events) == ["EP", "ET"]
    assert settled.current == 1


def test_a_placing_the_player_ended_himself_is_not_ended_for_him() -> None:
    """A double six with a white in the bonus store: he may take it, or end his placing;
    having ended it, the end of the turn is still his to press."""
    s = roll(build(n=2, hands={0: ["K"]}, store=["W"], bank_size=0), 6, 6)
    assert not engine.turn_is_dead(s) and GAME.forced(s) is None
    s = act(s, T.END_PLACING)
    assert GAME.legal_actions(s) == [Action(type=T.END_TURN)]
    assert GAME.forced(s) is None
    assert settle(GAME, s) == (s, [])
