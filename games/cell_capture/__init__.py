"""«Захват клеток»: a pencil-and-paper territory game (spec `docs/spec/cell_capture.md`)."""

from __future__ import annotations

from games.cell_capture.engine import GAME, CellCaptureGame, MalformedAction
from games.cell_capture.model import Action, ActionType, Direction, Phase, State, View

__all__ = [
    "GAME",
    "Action",
    "ActionType",
    "CellCaptureGame",
    "Direction",
    "MalformedAction",
    "Phase",
    "State",
    "View",
]
