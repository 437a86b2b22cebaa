"""The turn timers a chat may pick: fast ones for a game at one sitting, slow ones (1, 12
and 24 hours) for a game played over days, and none. One list for the lobby's row and
for `/settings`.

    >>> from locales import get_translator
    >>> t = get_translator("ru")
    >>> [label(x, t) for x in choices(180.0)]
    ['2 мин', '3 мин', '10 мин', '1 ч', '12 ч', '24 ч', 'без таймера']
    >>> label(45.0, t), label(90.0, t)
    ('45 с', '90 с')
"""

from __future__ import annotations

from locales import Translator

FAST: tuple[float, ...] = (120.0, 180.0, 600.0)
SLOW: tuple[float, ...] = (3600.0, 43200.0, 86400.0)
OFF = 0.0
HOUR = 3600.0


def choices(configured: float) -> list[float]:
    """Every timer offered, shortest first, then none; `configured` (the bot's
    TURN_SECONDS) is among them even when it is not one of the usual ones."""
    return [*sorted({*FAST, *SLOW, configured} - {OFF}), OFF]


def is_slow(seconds: float) -> bool:
    return seconds >= HOUR


def label(seconds: float, t: Translator) -> str:
    if seconds <= 0:
        return t("lobby.timer_off")
    if seconds % HOUR == 0:
        return t("lobby.timer_hour", n=int(seconds // HOUR))
    if seconds % 60 == 0:
        return t("lobby.timer_min", n=int(seconds // 60))
    return t("lobby.timer_sec", n=int(seconds))
