"""«Шестигранник – Семидорожник»: the flagship game."""

from games.seven_tracks.engine import CODES, GAME, SevenTracks
from games.seven_tracks.model import Action, ActionType, Options, Phase, State, Status, View

__all__ = [
    "CODES",
    "GAME",
    "Action",
    "ActionType",
    "Options",
    "Phase",
    "SevenTracks",
    "State",
    "Status",
    "View",
]
