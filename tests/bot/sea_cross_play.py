"""Playing «Морской крест» at the table: who is to move and what a simple player presses
(its end-to-end tests, and the budget and cluster tests that play it)."""

from __future__ import annotations

import re

from fake_telegram import User
from fake_telegram.server import StoredMessage

MOVER = re.compile(r"Ходит \S+ (.+?): 🎲")


def mover(table: StoredMessage, users: dict[str, User]) -> User:
    match = MOVER.search(table.content)
    assert match, table.content
    return users[match.group(1)]


def choose(texts: list[str]) -> str:
    """A player's sensible pick among the buttons he sees: into the home, a capture, a new
    token on the board, else the biggest step."""
    for mark in ("🏠", "⚔", "⚓", "⤳"):
        for x in texts:
            if mark in x:
                return x
    steps = [(int(m.group(1)), x) for x in texts if (m := re.search(r"\+(\d)", x))]
    assert steps, texts
    return max(steps)[1]
