"""Abandoned lobbies and games: when a lobby expires, when a game counts as abandoned.

A record's `active_at` is the last press of a player (the lobby's creation, a lobby
button, a move); records stored before the field existed use their last write.

- A lobby with no press for `LOBBY_EXPIRE_MINUTES` (30; 0 = never; with a slow turn
  timer picked, that timer: 12 hours of a 12-hour game) is closed by the
  deadline poller: its deadline in the store's shared set is the expiry time, so it
  fires once, on whichever instance is alive, also after a restart.
- A slow lobby idle for `LOBBY_EXPIRE_MINUTES` gives way to anyone's `/new`
  (`lobby_gives_way`): it stays open for its players as long as its timer, but does not
  hold the chat for a day against a game someone wants now; an ordinary lobby would
  have closed by then.
- A game (or a lobby that never expires) whose players all stayed silent longer than
  `ABANDONED_TURN_TIMERS` (3) of its turn timers, or `ABANDONED_HOURS` (24) without a
  timer, is abandoned: any member of the chat may end it with `/cancel`.

    >>> from locales import get_translator
    >>> span(540, get_translator("ru"))
    '9 минут'
    >>> span(3600 * 23 + 1, get_translator("ru"), up=True)
    '24 часа'
    >>> span(5400, get_translator("ru"))
    '1 час 30 минут'
"""

from __future__ import annotations

import math

from bot import turn_timers
from bot.config import Settings
from bot.storage import GameRecord, RecordStatus
from locales import Translator

EXPIRED = "expired"  # GameRecord.end_reason: a lobby nobody pressed for too long
ABANDONED = "abandoned"  # a game ended by a member after its players went silent
REPLACED = "replaced"  # an idle lobby closed by another lobby's `/new` (`lobby_gives_way`)


def last_active(rec: GameRecord) -> float:
    return rec.active_at if rec.active_at is not None else rec.updated_at


def lobby_lifetime(rec: GameRecord, settings: Settings) -> float:
    """Seconds without a press after which the lobby closes (0: never): LOBBY_EXPIRE_MINUTES,
    or the turn timer when a slow one is picked (a game over days gathers its players
    over hours too)."""
    if settings.lobby_expire_minutes <= 0:
        return 0.0
    seconds = settings.turn_seconds if rec.turn_seconds is None else rec.turn_seconds
    lifetime = settings.lobby_expire_minutes * 60
    return max(lifetime, seconds) if turn_timers.is_slow(seconds) else lifetime


def lobby_expires_at(rec: GameRecord, settings: Settings) -> float | None:
    """When the open lobby closes by itself (None: it doesn't)."""
    lifetime = lobby_lifetime(rec, settings)
    if rec.status != RecordStatus.LOBBY or lifetime <= 0:
        return None
    return last_active(rec) + lifetime


def lobby_expired(rec: GameRecord, settings: Settings, now: float) -> bool:
    when = lobby_expires_at(rec, settings)
    return when is not None and now >= when


def lobby_replaceable_at(rec: GameRecord, settings: Settings) -> float | None:
    """When anyone's `/new` may replace the open lobby (None: never, LOBBY_EXPIRE_MINUTES
    is 0): after LOBBY_EXPIRE_MINUTES without a press, an ordinary lobby's whole life."""
    if rec.status != RecordStatus.LOBBY or settings.lobby_expire_minutes <= 0:
        return None
    return last_active(rec) + settings.lobby_expire_minutes * 60


def lobby_gives_way(rec: GameRecord, settings: Settings, now: float) -> str | None:
    """Why a `/new` closes the open lobby `rec` now: EXPIRED (past its expiry), REPLACED
    (a slow one idle for LOBBY_EXPIRE_MINUTES), or None: it stays."""
    if lobby_expired(rec, settings, now):
        return EXPIRED
    when = lobby_replaceable_at(rec, settings)
    return REPLACED if when is not None and now >= when else None


def silence_allowed(rec: GameRecord, settings: Settings, turn_seconds: float) -> float:
    """Seconds of silence after which the game (or a lobby) counts as abandoned."""
    if rec.status == RecordStatus.PLAYING and turn_seconds > 0:
        return settings.abandoned_turn_timers * turn_seconds
    return settings.abandoned_hours * 3600


def abandoned_in(rec: GameRecord, settings: Settings, turn_seconds: float, now: float) -> float:
    """Seconds until the game counts as abandoned; 0 or less: it does already."""
    return last_active(rec) + silence_allowed(rec, settings, turn_seconds) - now


def span(seconds: float, t: Translator, *, up: bool = False) -> str:
    """A duration in words, in the accusative («ещё 1 минуту», «уже 3 часа»): seconds
    under a minute, minutes under an hour, hours and minutes under ten hours, hours under
    two days, days beyond. `up` rounds up (time left), else down (time passed); never
    less than 1."""
    rnd = math.ceil if up else math.floor
    seconds = max(0.0, seconds)
    whole = rnd(seconds - 1e-9 if up else seconds)
    if whole < 60:
        return t.plural(max(1, whole), "span.second")
    minutes = max(1, rnd(seconds / 60 - (1e-9 if up else 0)))
    if minutes < 60:
        return t.plural(minutes, "span.minute")
    if minutes < 600:
        hours, rest = divmod(minutes, 60)
        text = t.plural(hours, "span.hour")
        return f"{text} {t.plural(rest, 'span.minute')}" if rest else text
    hours = rnd(seconds / 3600)
    if hours < 48:
        return t.plural(hours, "span.hour")
    return t.plural(max(2, rnd(seconds / 86400)), "span.day")
