"""Every test plays under Telegram's real limits, at twenty times a human pace: the fake
Telegram's per-group budget of 20 calls (sends, edits, deletes) is counted over 3 s
instead of 60 (`FAKE_TELEGRAM_GROUP_WINDOW`), and the bot paces itself to the same
window (`CHAT_WINDOW_SECONDS`, read by every bot the tests start, in process or not);
A test that wants other limits sets them itself."""

from __future__ import annotations

import os

SCALE = 20.0  # the tests' pace against a human's

os.environ.setdefault("FAKE_TELEGRAM_GROUP_WINDOW", str(60.0 / SCALE))
os.environ.setdefault("CHAT_WINDOW_SECONDS", str(60.0 / SCALE))
