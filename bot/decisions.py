"""Computer players' decisions, off the event loop: in a process of their own.

A job is `(game_id, level, view JSON, encoded legal actions, seed)` — the seat's own view
(`game.view(state, seat)`), never the state — and its answer is the chosen action,
encoded (`decide_job`, run in the worker). The bot decodes it and applies it through the
compare-and-set store like a press (bot/service/computers.py). The worker process runs at
a lower CPU priority than the bot (like the render processes, bot/pictures.py), so a
«мастер» searching never delays the answer to a press; the process starts on the first
decision and is started again if it dies.

Example (in this process, as the worker would run it):
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
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

import games
from bot.decision_worker import Job as Job
from bot.pictures import RenderWorker, WorkerGone

log = logging.getLogger(__name__)


def seed_for(game_seed: int, move_no: int, player: int) -> int:
    """The seed of one decision: from the game's seed, the move number and the seat, so a
    game with computer players replays exactly.

    >>> seed_for(7, 3, -1) == seed_for(7, 3, -1) != seed_for(7, 4, -1)
    True
    """
    digest = hashlib.sha256(f"{game_seed}:{move_no}:{player}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def make_job(game_id: str, level: str, view: BaseModel, legal: Sequence[Any], seed: int) -> Job:
    """What is sent to the worker: plain text and numbers; the state is not among them."""
    game = games.get(game_id)
    return (game_id, level, view.model_dump_json(), [game.encode_action(a) for a in legal], seed)


class Decisions:
    """The decision process (`bot/decision_worker.py`, spoken to like the render process:
    bot/pictures.py `RenderWorker`), started on the first job, again if it died."""

    def __init__(self) -> None:
        self._worker: RenderWorker | None = None
        self._starting: asyncio.Lock | None = None

    async def _start(self) -> RenderWorker:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._worker is None or not self._worker.alive:
                self._worker = await RenderWorker.spawn("bot.decision_worker", limit=1 << 20)
            return self._worker

    async def decide(self, job: Job) -> str:
        """The worker's answer to `job` (a worker that died is replaced once)."""
        for attempt in range(2):
            worker = await self._start()
            try:
                code: str = await worker.send(job)
                return code
            except WorkerGone:
                log.warning("the decision process ended; starting another")
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def close(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            await worker.close()
