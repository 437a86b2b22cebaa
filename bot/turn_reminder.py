"""The reminder before a slow turn's deadline (bot/turn_timers.py `SLOW`): one per turn,
an hour before the end of a 12- or 24-hour turn, ten minutes before the end of an hour.

Its time is one of the record's deadlines (bot/service/moves.py `absorb`), so it is kept
in the store's shared set like the turn timer and fires once, also after a restart;
when it comes, `Due.tick` marks the turn reminded (`GameRecord.reminder_turn`) and the
turn ping is sent anew as the reminder (bot/service/pings.py).

    >>> lead(86400.0), lead(43200.0), lead(3600.0), lead(180.0)
    (3600.0, 3600.0, 600.0, None)
"""

from __future__ import annotations

from bot.storage import GameRecord
from bot.turn_timers import HOUR, is_slow


def lead(seconds: float) -> float | None:
    """How long before the deadline the player is reminded (None: a fast timer, no
    reminder)."""
    if not is_slow(seconds):
        return None
    return HOUR if seconds > HOUR else 600.0


def due_at(rec: GameRecord, seconds: float) -> float | None:
    """When the running turn's reminder is due (None: no reminder, or it came; a
    simultaneous decision's short window has none)."""
    before = lead(seconds)
    if before is None or rec.window or rec.turn_deadline is None or rec.turn_id is None:
        return None
    if rec.reminder_turn == rec.turn_id:
        return None
    return rec.turn_deadline - before


def due(rec: GameRecord, seconds: float, now: float) -> bool:
    """Is the running turn's reminder due now?"""
    when = due_at(rec, seconds)
    return when is not None and now >= when


def reminded(rec: GameRecord) -> bool:
    """Has the running turn's reminder come (its ping is then the reminder)?"""
    return rec.turn_id is not None and rec.reminder_turn == rec.turn_id
