"""Computer players' decisions, off the event loop: in processes of their own.

A job is `(game_id, level, view JSON, encoded legal actions, seed)` — the seat's own view
(`game.view(state, seat)`), never the state — and its answer is the chosen action,
encoded (`decide_job`, run in a worker). The bot decodes it and applies it through the
compare-and-set store like a press (bot/service/computers.py).

The seed of a decision (`seed_for`) comes from the game's own seed for its computer
players (`GameRecord.ai_seed`, drawn with `secrets` when the game starts: `new_ai_seed`),
the state's version and the seat: never from the game's seed, so the computers'
choices say nothing about the dice or the deal to come, and with the record a game
with computers decides again exactly as it did (the work of «мастер» is counted, not
timed: games/search.py).

`Decisions` keeps up to `processes` decision processes (`default_decision_processes`:
one per usable CPU, bot/cpus.py), spoken to like the render processes (bot/pictures.py
`RenderWorker`): a job goes to an idle process, a new one is started when all are busy
and there are fewer than `processes`, else the job waits behind the least busy one. So
the tables of different chats do not wait for each other's «мастер» while a CPU is free.
The processes run at a lower CPU priority than the bot (like the render processes), so a
search never delays the answer to a press; one that dies is replaced.

Example (in this process, as a worker would run it):
    >>> import games
    >>> from bot.decision_worker import decide_job
    >>> from games.players import computer_id
    >>> g = games.get("hypnosia")
    >>> s = g.new([1, computer_id(0)], seed=3)
    >>> job = make_job("hypnosia", "novice", g.view(s, g.to_act(s)), g.legal_actions(s), 5)
    >>> [type(x).__name__ for x in job]
    ['str', 'str', 'str', 'list', 'int']
    >>> g.decode_action(decide_job(*job)) in g.legal_actions(s)
    True
    >>> default_decision_processes(1), default_decision_processes(2), default_decision_processes(64)
    (1, 2, 8)
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

import games
from bot.cpus import usable_cpus
from bot.decision_worker import Answer
from bot.decision_worker import Job as Job
from bot.pictures import RenderWorker, WorkerGone

log = logging.getLogger(__name__)

#: more decision processes than this buy nothing: a bot hosts a few «мастер» searches at a
#: time, each of them about 0.1–0.3 s of CPU (docs/players.md)
MAX_DECISION_PROCESSES = 8


def default_decision_processes(cpus: int | None = None) -> int:
    """Decision processes: one per usable CPU (bot/cpus.py `usable_cpus`), at most
    `MAX_DECISION_PROCESSES`. They run below the bot's priority, so the bot's own CPU
    still answers presses first."""
    n = usable_cpus() if cpus is None else cpus
    return max(1, min(MAX_DECISION_PROCESSES, n))


def new_ai_seed() -> int:
    """A game's seed for its computer players (`GameRecord.ai_seed`), 64 bits of `secrets`
    (0, "not drawn yet", is drawn again)."""
    return secrets.randbits(64) or 1


def seed_for(ai_seed: int, move_no: int, player: int) -> int:
    """The seed of one decision: from the game's seed for its computer players (never
    the game's own seed), the move number and the seat, so a game with computer players
    decides again exactly as it did.

    >>> seed_for(7, 3, -1) == seed_for(7, 3, -1) != seed_for(7, 4, -1)
    True
    """
    digest = hashlib.sha256(f"ai:{ai_seed}:{move_no}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def make_job(game_id: str, level: str, view: BaseModel, legal: Sequence[Any], seed: int) -> Job:
    """What is sent to the worker: plain text and numbers; the state is not among them."""
    game = games.get(game_id)
    return (game_id, level, view.model_dump_json(), [game.encode_action(a) for a in legal], seed)


class Decisions:
    """The decision processes (`bot/decision_worker.py`, module doc): started when needed,
    up to `processes`; `decided` and `cut` count the decisions and those whose search a
    guard cut short (logged: such a decision depends on the machine's speed)."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = default_decision_processes() if processes is None else processes
        self._workers: list[RenderWorker] = []
        self._starting: asyncio.Lock | None = None
        self.decided = 0
        self.cut = 0
        self.pending = 0  # decisions sent to a process and not answered yet

    async def _worker(self) -> RenderWorker:
        """An idle process; else a new one if fewer than `processes`; else the least busy."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            self._workers = [w for w in self._workers if w.alive]
            for worker in self._workers:
                if not worker.queued():
                    return worker
            if len(self._workers) < self.processes:
                worker = await RenderWorker.spawn("bot.decision_worker", limit=1 << 20)
                self._workers.append(worker)
                return worker
            return min(self._workers, key=RenderWorker.queued)

    async def decide(self, job: Job) -> str:
        """A worker's answer to `job`: the chosen action, encoded (`ask`)."""
        code, _ = await self.ask(job)
        return code

    async def ask(self, job: Job) -> Answer:
        """A worker's answer to `job` and what its search did (a worker that died is
        replaced once); a search cut short by a guard is counted and logged."""
        for attempt in range(2):
            worker = await self._worker()
            self.pending += 1
            try:
                answer: Answer = await worker.send(job)
            except WorkerGone:
                log.warning("a decision process ended; starting another")
                if worker in self._workers:
                    self._workers.remove(worker)
                    await worker.close()
                if attempt:
                    raise
                continue
            finally:
                self.pending -= 1
            self.decided += 1
            search = answer[1]
            if search is not None and search.cut is not None:
                self.cut += 1
                log.warning(
                    "%s %s: the search was cut short by its %s guard after %d of %d "
                    "iterations (%d of %d decisions so far)",
                    job[0],
                    job[1],
                    search.cut,
                    search.iterations,
                    search.planned,
                    self.cut,
                    self.decided,
                )
            return answer
        raise AssertionError("unreachable")

    async def close(self) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            await worker.close()
