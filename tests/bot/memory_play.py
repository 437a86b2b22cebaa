"""Helpers of the memory tests: whole games played through the bot's service, quickly, and
the chat's recorded games once the table worker has recorded one (`recorded`).

Players press random buttons of the table (through `GameService.play_press`, the path a
Telegram press takes, without waiting for the table's edits); a short turn timer plays
for whoever is slow, so every game ends.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.app import App
from bot.callbacks import LobbyCB, PlayCB
from bot.memory.records import Backend
from bot.presenters.base import HAND
from bot.storage import GameRecord, RecordStatus

FAST: dict[str, Any] = {
    "turn_seconds": 0.05,
    "first_move_seconds": 0.05,
    "timeouts_before_removal": 10**6,
    "computer_move_seconds": 0.0,
    "timer_poll_seconds": 0.05,
}


async def start(
    app: App, chat_id: int, game: str, players: dict[int, str], option: str = ""
) -> GameRecord:
    """A lobby of `game` opened by the first player, joined by the others, started."""
    service = app.service
    first, *others = players
    await service.new_game(chat_id, first, players[first], game)
    rec = await app.store.get(chat_id)
    assert rec is not None and rec.status == RecordStatus.LOBBY, rec
    for user in others:
        await service.lobby_press(chat_id, user, players[user], None, LobbyCB(g=rec.uid, a="join"))
    if option:
        await service.lobby_press(
            chat_id, first, players[first], None, LobbyCB(g=rec.uid, a="opt", x=option)
        )
    answer = await service.lobby_press(
        chat_id, first, players[first], None, LobbyCB(g=rec.uid, a="start")
    )
    rec = await app.store.get(chat_id)
    assert rec is not None and rec.status == RecordStatus.PLAYING, answer
    return rec


async def play_out(
    app: App, chat_id: int, rng: random.Random, presses: int = 400, timeout: float = 240
) -> GameRecord:
    """Random presses of the table's buttons until the game is over (at most `presses`
    of them; then the turn timer alone finishes it)."""
    service = app.service
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    done = 0
    while True:
        rec = await app.store.get(chat_id)
        assert rec is not None
        if rec.status != RecordStatus.PLAYING:
            return rec
        assert loop.time() < end, "the game did not end"
        if done >= presses:
            await asyncio.sleep(0.02)
            continue
        p = service.presenter(rec.game_id)
        assert rec.state is not None
        state = p.load(rec.state)
        c = service.ctx.table(rec, p)
        codes = [b.code for row in p.keyboard(state, c) for b in row if b.code != HAND]
        if not codes:
            await asyncio.sleep(0.02)
            continue
        actor = p.actor(state)
        user = actor if actor is not None else rng.choice(rec.players)
        if user < 0:  # a computer's turn
            await asyncio.sleep(0.01)
            continue
        await service.play_press(
            chat_id, user, None, PlayCB(g=rec.uid, s=rec.seq, c=rng.choice(codes))
        )
        done += 1
        await asyncio.sleep(0)


async def recorded(backend: Backend, chat_id: int, timeout: float = 60) -> list[str]:
    """The chat's recorded games, once there is one (the table worker records it)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (found := await backend.games(chat_id, 5)):
        assert loop.time() < end, "the game was not recorded"
        await asyncio.sleep(0.02)
    return found
