"""«ДОМИНА*С»: hexagonal domino with private hands (spec `docs/spec/dominas.md`)."""

from games.dominas.engine import CODES, GAME, Dominas
from games.dominas.model import (
    Action,
    ActionType,
    Bonus,
    BonusKind,
    Fill,
    Mode,
    Nest,
    Options,
    Phase,
    Placed,
    Pos,
    State,
    Tempo,
    View,
)

__all__ = [
    "CODES",
    "GAME",
    "Action",
    "ActionType",
    "Bonus",
    "BonusKind",
    "Dominas",
    "Fill",
    "Mode",
    "Nest",
    "Options",
    "Phase",
    "Placed",
    "Pos",
    "State",
    "Tempo",
    "View",
]
