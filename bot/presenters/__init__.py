"""Presenters per game. Adding a game = `bot/presenters/<game id>.py` (or a package of
that name, as `seven_tracks/` and `dominas/`) exposing `make_presenter(settings)`; the
game's id in `games` registry is the only list."""

from __future__ import annotations

import importlib
from typing import Any

import games
from bot.config import Settings
from bot.presenters.base import Btn, LengthChoice, Outcome, Presenter, Refusal, TableCtx

__all__ = ["Btn", "LengthChoice", "Outcome", "Presenter", "Refusal", "TableCtx", "registry"]


def registry(settings: Settings | None = None) -> dict[str, Presenter[Any, Any]]:
    """Game id -> presenter, in the games registry's order (flagship first).

    A registered game without a presenter module yet is simply not offered."""
    found: dict[str, Presenter[Any, Any]] = {}
    for game_id in games.ids():
        name = f"bot.presenters.{game_id}"
        try:
            module: Any = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        presenter: Presenter[Any, Any] = module.make_presenter(settings)
        found[presenter.game_id] = presenter
    return found
