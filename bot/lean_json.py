"""Telegram's JSON without the inline keyboards it echoes back.

Every message Telegram returns — the result of a send or an edit, the message of a
pressed button inside an update — carries its whole inline keyboard (`reply_markup`):
for a table, twenty-odd buttons. The bot never reads a keyboard back (it knows the ones
it sent: `bot/table.py`), yet validating those buttons into aiogram objects was most of
the cost of reading an answer: an edit's answer took 160 µs to read, 42 without its
keyboard; a pressed button's update 181 µs, 67 without (`docs/performance.md`, run
18). `loads` drops them as it parses: the session's answers (`make_bot`) and the
webhook's updates (`bot/webhook.py`).
"""

from __future__ import annotations

import json
from typing import Any


def _without_keyboard(obj: dict[str, Any]) -> dict[str, Any]:
    obj.pop("reply_markup", None)
    return obj


def loads(text: str | bytes) -> Any:
    """`json.loads`, every object's `reply_markup` left out."""
    return json.loads(text, object_hook=_without_keyboard)
