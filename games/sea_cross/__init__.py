"""«Морской крест»: a cross-and-circle race game (spec `docs/spec/sea_cross.md`)."""

from __future__ import annotations

from games.sea_cross.engine import CODES, GAME, MalformedAction, SeaCross, rolloff_events
from games.sea_cross.model import Action, ActionType, Options, Phase, State, View

__all__ = [
    "CODES",
    "GAME",
    "Action",
    "ActionType",
    "MalformedAction",
    "Options",
    "Phase",
    "SeaCross",
    "State",
    "View",
    "rolloff_events",
]
