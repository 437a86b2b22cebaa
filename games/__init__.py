"""Pure rules engines and their registry."""

from __future__ import annotations

import typing
from functools import cache
from typing import Any

from pydantic import BaseModel

from games.protocol import Event, Fact, Game, IllegalAction, Result, Standing

__all__ = [
    "Event",
    "Fact",
    "Game",
    "IllegalAction",
    "Result",
    "Standing",
    "get",
    "ids",
    "view_type",
]

_REGISTRY: dict[str, str] = {
    "seven_tracks": "games.seven_tracks",
    "cell_capture": "games.cell_capture",
    "sea_cross": "games.sea_cross",
    "hypnosia": "games.hypnosia",
    "dominas": "games.dominas",
}


def ids() -> list[str]:
    """Registered game ids, flagship first."""
    return list(_REGISTRY)


def get(game_id: str) -> Game[Any, Any]:
    """The engine for `game_id`; KeyError for an unknown id."""
    import importlib

    module = importlib.import_module(_REGISTRY[game_id])
    game: Game[Any, Any] = module.GAME
    return game


@cache
def view_type(game_id: str) -> type[BaseModel]:
    """The class of the game's views (the return type of its engine's `view`): what a
    view sent to a worker process as JSON is validated back into."""
    engine = type(get(game_id))
    found: type[BaseModel] = typing.get_type_hints(engine.view)["return"]
    return found
