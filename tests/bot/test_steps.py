"""A game's steps, captured for its replay (bot/memory/steps.py), through the engine's
automation (games/automation.py): the formalities and the timed-out turns."""

from __future__ import annotations

from typing import Any

import pytest

import games
from bot.memory import steps
from bot.storage import GameRecord
from games.automation import settle
from games.replay import TIMEOUT_TURN, replay


@pytest.mark.parametrize("game_id", games.ids())
def test_timed_out_turns_and_formalities_are_captured(game_id: str) -> None:
    game: Any = steps.RecordingGame(games.get(game_id))  # as a presenter holds its engine
    rec = GameRecord(chat_id=-1, uid="g1", game_id=game_id, creator=1)
    s = game.new(list(range(1, 1 + max(2, game.min_players))), seed=4)
    timed_out = 0
    for _ in range(8):
        s, _ = settle(game, s)  # the roll, an only move
        if game.is_over(s):
            break
        s, _ = game.timeout_turn(s)  # one step: the whole timed-out decision
        timed_out += 1
        steps.capture(rec, s)
        rec.state = s.model_dump_json()
    assert rec.steps is not None and rec.steps.count(TIMEOUT_TURN) == timed_out > 0
    start = steps.start_of(rec.steps)
    final = replay(game_id, start["players"], start["seed"], start["options"], rec.steps[1:])
    assert final.model_dump_json() == rec.state
