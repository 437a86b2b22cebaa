"""The decision process: `python -m bot.decision_worker`, started by bot/decisions.py.

The pipes and frames of bot/pipes.py: jobs on stdin, answers on
its own copy of stdout, one frame each — a 4-byte big-endian length, then a pickle: the
job in (data, `Job`: the game, the level, the seat's view as JSON, the legal
actions encoded, the seed), answered by `decide_job`; `(True, action)` or `(False,
exception)` out, in order (`answer`: the action encoded, and what «мастер»'s search did,
`games.search.Search`: its `cut` says whether a guard ended it early). It imports the games only (no
renderer, no bot), runs below the bot's CPU priority, and ends when stdin closes. The
bot runs as many of them as it has CPUs (bot/decisions.py).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

import games
from bot.pipes import serve
from games.players import decide, policy
from games.search import Master, Search

NICE = 10  # as the render processes' (bot/pictures.py RENDER_NICE)

Job = tuple[str, str, str, list[str], int]  # game, level, view JSON, legal actions, seed


def decide_job(game_id: str, level: str, view_json: str, legal: list[str], seed: int) -> str:
    """The worker's side: the chosen action of `level`, encoded."""
    game = games.get(game_id)
    view = games.view_type(game_id).model_validate_json(view_json)
    actions = [game.decode_action(x) for x in legal]
    return game.encode_action(decide(game_id, level, view, actions, seed))


Answer = tuple[str, Search | None]  # the action encoded; what «мастер» searched, if it did


def answer(job: Job) -> Answer:
    """A job's answer: `decide_job(*job)`, and what «мастер»'s search did (its `cut` says
    whether a guard ended it early: then the decision depends on the machine's speed)."""
    code = decide_job(*job)
    chosen = policy(job[0], job[1])
    return code, chosen.last if isinstance(chosen, Master) else None


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot decides when we stop
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to stderr, never into the answers
    with contextlib.suppress(OSError):  # not allowed: decide at the normal priority
        os.nice(NICE)
    for game_id in games.ids():  # the games and their policies, before "ready"
        games.get(game_id)
        with contextlib.suppress(ModuleNotFoundError):
            __import__(f"games.{game_id}.policies")

    serve(results, sys.stdin.buffer, answer)


if __name__ == "__main__":
    main()
