"""Callback data factories (versioned prefixes; every packed value stays under 64 bytes).

`g` is the game's short id, so a button of an earlier game in the same chat is
recognised as old; `s` is the record's `seq`, so a double tap or a button of an
outdated keyboard can't apply twice.
"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

MAX_CALLBACK_BYTES = 64


class LobbyCB(CallbackData, prefix="L1"):
    """Lobby buttons: a = join | leave | start | game | opt | tmr | menu | back | rules |
    rule (a house rule of this game, bot/house_rules.py) | the computers' (bot/service/
    computer_lobby.py); x = the chosen game, option, timer or rule."""

    g: str
    a: str
    x: str = ""


class PlayCB(CallbackData, prefix="P1"):
    """Table buttons: c is the button's code in the game's button language
    (bot/presenters/buttons.py): an engine action (`CD,,,,,,,2`) or a compound code
    (`run.3`, `hand`)."""

    g: str
    s: int
    c: str


class CancelCB(CallbackData, prefix="C1"):
    """The /cancel confirmation: a = yes | no."""

    g: str
    a: str


class LeaveCB(CallbackData, prefix="V1"):
    """The /leave confirmation in a game: u = the asker, e = when it expires (unix
    seconds), a = yes | no."""

    g: str
    u: int
    e: int
    a: str


def fits(data: str) -> bool:
    return len(data.encode()) <= MAX_CALLBACK_BYTES
