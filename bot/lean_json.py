"""Telegram's JSON without the table's inline keyboards it echoes back.

Every message Telegram returns — the result of a send or an edit, the message of a
pressed button inside an update — carries its whole inline keyboard (`reply_markup`):
for a table, twenty-odd buttons. The bot never reads a table's keyboard back (it knows
the ones it sent: `bot/table.py`), yet validating those buttons into aiogram objects was
most of the cost of reading an answer: an edit's answer took 160 µs to read, 42 without
its keyboard; a pressed button's update 181 µs, 67 without (`docs/performance.md`, run
18). `loads` drops them as it parses: the session's answers (`make_bot`) and the
webhook's updates (`bot/webhook.py`).

The keyboards of the other messages — a lobby, a question, an offer, a menu: a few
buttons, pressed now and then — are kept: a press of one of them is checked against
the pressed message's buttons as Telegram shows them (a forged or late press edits no
message: bot/handlers/common.py `pressed_on`).

    >>> def markup(data):
    ...     return '{"reply_markup": {"inline_keyboard": [[{"callback_data": "%s"}]]}}' % data
    >>> loads(markup("P1:a:3:x"))
    {}
    >>> loads(markup("C1:a:yes"))["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
    'C1:a:yes'
"""

from __future__ import annotations

import json
from typing import Any

# the table's buttons and the private hands' (bot/callbacks.py PlayCB, bot/service/hands.py
# HandCB; tests/bot/test_lean_json.py checks the prefixes)
DROPPED = ("P1:", "H1:")


def _dropped(markup: Any) -> bool:
    """Whether a `reply_markup` is one not read back: a table's or a hand's (its first
    button says), or not an inline keyboard at all."""
    rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], list) or not rows[0]:
        return True
    first = rows[0][0]
    data = first.get("callback_data") if isinstance(first, dict) else None
    return not isinstance(data, str) or data.startswith(DROPPED)


def _without_keyboard(obj: dict[str, Any]) -> dict[str, Any]:
    if "reply_markup" in obj and _dropped(obj["reply_markup"]):
        del obj["reply_markup"]
    return obj


def loads(text: str | bytes) -> Any:
    """`json.loads`, every table's and hand's `reply_markup` left out."""
    return json.loads(text, object_hook=_without_keyboard)
