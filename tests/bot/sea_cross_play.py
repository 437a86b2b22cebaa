"""Playing «Морской крест» at the table: who is to move and what a simple player presses
(its end-to-end tests, and the budget and cluster tests that play it)."""

from __future__ import annotations

import re

from fake_telegram import Chat, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import new_lobby

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


async def sea_cross_table(
    chat: Chat, creator: User, joiner: User, command: str = "/new морской крест"
) -> StoredMessage:
    """`creator` opens a «Морской крест» lobby, `joiner` joins, «Начать»: its table."""
    lobby = await new_lobby(chat, creator, command)
    await chat.press(joiner, lobby, contains="Играть")
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
    await chat.press(creator, lobby, "▶ Начать")
    # generous: a cold render process needs seconds of CPU on a loaded 2-core machine
    return await chat.wait_message(lambda m: m.photo is not None, timeout=30)
