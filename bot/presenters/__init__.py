"""Presenters per game. Adding a game = a presenter module + one line in `registry`."""

from __future__ import annotations

from bot.config import Settings
from bot.presenters.base import Btn, LengthChoice, Outcome, Presenter, Refusal

__all__ = ["Btn", "LengthChoice", "Outcome", "Presenter", "Refusal", "registry"]


def registry(settings: Settings | None = None) -> dict[str, Presenter]:
    """Game id -> presenter, flagship first."""
    from bot.presenters.cell_capture import CellCapturePresenter
    from bot.presenters.seven_tracks import SevenTracksPresenter

    first_move = settings.first_move_seconds if settings else 20.0
    presenters: list[Presenter] = [
        SevenTracksPresenter(first_move_seconds=first_move),
        CellCapturePresenter(),
    ]
    return {p.game_id: p for p in presenters}
