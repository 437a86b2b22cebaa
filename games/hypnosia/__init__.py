"""«Гипнозия»: race to the centre across three rings (spec `docs/spec/hypnosia.md`)."""

from games.hypnosia.engine import CODES, GAME, Hypnosia
from games.hypnosia.model import (
    Action,
    ActionType,
    EndReason,
    MovePreview,
    Options,
    Phase,
    Route,
    State,
    View,
)

__all__ = [
    "CODES",
    "GAME",
    "Action",
    "ActionType",
    "EndReason",
    "Hypnosia",
    "MovePreview",
    "Options",
    "Phase",
    "Route",
    "State",
    "View",
]
