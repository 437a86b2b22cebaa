"""The narration of a «ДОМИНА*С» timeout (R27): a penalty tile, the end of a bonus, or,
with an empty bazaar, just the turn passing — never a bonus that was not there."""

from __future__ import annotations

from collections.abc import Callable

from bot.presenters.dominas import DominasPresenter
from games.dominas import GAME, State
from games.dominas.model import Phase
from locales import get_translator
from tests.games.dominas.builder import course

T = get_translator("ru")
NAMES = {1: "Аня", 2: "Борис", 3: "Вика", 4: "Гоша"}


def a_state(done: Callable[[State], bool], absent: bool) -> State:
    """The first `done` state of 4-player games (seat 0 absent, if `absent`; the others
    novices: tests/games/dominas/test_absent.py)."""
    for seed in range(50):
        for s in course(len(NAMES), seed, absent):
            if done(s):
                return s
    raise AssertionError("no such state")


def narrated_timeout(s: State) -> str:
    after, events = GAME.timeout(s)
    p = DominasPresenter()
    return " ".join(p.narrate(events, after, p.context(T, {}, NAMES)))


def test_r27_a_timeout_with_an_empty_bazaar_passes_the_turn_and_says_so() -> None:
    s = a_state(lambda s: not s.bazaar and s.current == 0 and s.phase is Phase.PLAY, absent=True)
    text = narrated_timeout(s)
    assert "штрафной фишки нет" in text, text
    assert "бонус" not in text, text


def test_r27_a_timeout_in_a_bonus_ends_the_bonus_and_says_so_once() -> None:
    text = narrated_timeout(a_state(lambda s: s.phase is Phase.BONUS, absent=False))
    assert text.count("бонус окончен по времени") == 1, text
    assert "штраф" not in text, text


def test_r27_a_timeout_with_tiles_in_the_bazaar_takes_a_penalty_tile() -> None:
    s = a_state(lambda s: bool(s.bazaar) and s.current == 0 and s.phase is Phase.PLAY, absent=True)
    text = narrated_timeout(s)
    assert "штрафную фишку" in text, text
    assert "бонус" not in text, text
