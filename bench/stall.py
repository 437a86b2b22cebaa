"""«Семидорожник»'s blocked rounds (R66, revised 2026-12): how rounds end, and what the
dead-position check costs.

    python -m bench.stall [--games 40]

Random legal games (the 3-player table, to 144; the same seeds for every variant) are
played with the rules of this version — a blocked round ends on a dead position or after
three idle circles — and, as the baseline in the same run, with the first version's
rule (one idle circle, no dead-position check). Printed per variant: the share of rounds
that ended blocked, that ended by someone going out, the actions per game, and the
engine speed (games/s and µs per action). Measurements, not pass/fail tests.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass

from games.seven_tracks import GAME
from games.seven_tracks import engine as st_engine
from games.seven_tracks.events import RoundEnded


@dataclass
class Tally:
    games: int = 0
    rounds: int = 0
    blocked: int = 0
    went_out: int = 0
    actions: int = 0
    seconds: float = 0.0


@contextlib.contextmanager
def first_version_rule() -> Iterator[None]:
    """R66 as it was: one idle circle, no dead-position check."""
    circles, dead = st_engine.IDLE_CIRCLES, st_engine.dead_position
    st_engine.IDLE_CIRCLES = 1
    st_engine.dead_position = lambda s: False
    try:
        yield
    finally:
        st_engine.IDLE_CIRCLES, st_engine.dead_position = circles, dead


def play(n_games: int, players: int, seed0: int) -> Tally:
    tally = Tally()
    t0 = time.perf_counter()
    for g in range(n_games):
        seed = seed0 + g
        s = GAME.new(list(range(1, players + 1)), seed=seed)
        r = random.Random(seed)
        while not GAME.is_over(s) and tally.actions < 10**8:
            acts = [a for a in GAME.legal_actions(s) if a.type.value != "FS"] or (
                GAME.legal_actions(s)
            )
            s, events = GAME.apply(s, r.choice(acts))
            tally.actions += 1
            for e in events:
                if isinstance(e.data, RoundEnded):
                    summary = e.data.summary
                    tally.rounds += 1
                    tally.blocked += bool(summary.stalled)
                    tally.went_out += bool(summary.out_order) and not summary.stalled
        tally.games += 1
    tally.seconds = time.perf_counter() - t0
    return tally


def row(name: str, t: Tally) -> str:
    return (
        f"{name:<22} {t.rounds:>6} {100 * t.blocked / max(1, t.rounds):>9.1f} "
        f"{100 * t.went_out / max(1, t.rounds):>10.1f} {t.actions / max(1, t.games):>9.0f} "
        f"{t.games / t.seconds:>8.2f} {1e6 * t.seconds / max(1, t.actions):>9.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    print(f"Seven Tracks, {args.games} random games to 144, {args.players} players, same seeds")
    print(
        f"{'rule':<22} {'rounds':>6} {'blocked %':>9} {'went out %':>10} "
        f"{'actions':>9} {'games/s':>8} {'µs/action':>9}"
    )
    with first_version_rule():
        print(row("before: 1 idle circle", play(args.games, args.players, 0)))
    print(row("now: dead or 3 circles", play(args.games, args.players, 0)))


if __name__ == "__main__":
    main()
