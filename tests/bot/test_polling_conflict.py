"""`ConflictGuard`'s decision, on a clock of its own: who goes, and when (the processes
themselves: tests/bot/test_startup_e2e.py)."""

from __future__ import annotations

import random

from bot.polling_conflict import CONFLICTS, INCUMBENT_FACTOR, QUIET, ConflictGuard

OTHER = "Conflict: terminated by other getUpdates request; make sure that only one bot ..."
WEBHOOK = "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def guard(limit: float = 10.0) -> tuple[ConflictGuard, Clock]:
    clock = Clock()
    g = ConflictGuard(limit, clock=clock, rng=random.Random(7))
    g._first_poll = clock.now  # the first getUpdates
    return g, clock


def conflicts_every(g: ConflictGuard, clock: Clock, step: float, until: float) -> float | None:
    """Conflicts every `step` seconds; when (seconds after the first) it said to go."""
    start = clock.now
    while clock.now - start <= until:
        if g.conflict(OTHER) is not None:
            return clock.now - start
        clock.now += step
    return None


def test_a_newcomer_goes_after_the_limit_and_says_it_was_second() -> None:
    g, clock = guard(10)
    clock.now += 1  # conflicts from its first seconds: another instance was there first
    said_at = conflicts_every(g, clock, 2.0, 60)
    assert said_at is not None and 10 <= said_at <= 22  # 1-2 × the limit
    verdict = g.conflict(OTHER)
    assert verdict and "it was polling before this one started" in verdict
    assert "webhook mode" in verdict


def test_the_incumbent_waits_much_longer() -> None:
    g, clock = guard(10)
    clock.now += 60  # polled alone for a minute, then someone else started
    said_at = conflicts_every(g, clock, 2.0, 120)
    assert said_at is not None and said_at >= 10 * INCUMBENT_FACTOR
    verdict = g.conflict(OTHER)
    assert verdict and "it started after this one and does not stop" in verdict


def test_a_restart_overlap_is_not_a_conflict() -> None:
    g, clock = guard(10)
    for _ in range(20):  # a conflict or two now and then, QUIET apart: never a verdict
        clock.now += 1
        assert g.conflict(OTHER) is None
        clock.now += 1
        assert g.conflict(OTHER) is None
        clock.now += QUIET + 1
    assert CONFLICTS > 2


def test_a_webhook_set_for_the_token_is_named() -> None:
    g, clock = guard(2)
    verdict = None
    for _ in range(10):
        verdict = verdict or g.conflict(WEBHOOK)
        clock.now += 1.5
    assert verdict and "a webhook is set for this token" in verdict
