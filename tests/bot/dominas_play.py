"""Playing ДОМИНА*С at the table: the game opened and started, its state, the nests and
slots its caption shows (its end-to-end and polish tests)."""

from __future__ import annotations

import re

from bot.app import App
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.dominas import State
from tests.bot.e2e import new_lobby, record

SLOT = re.compile(r"(\d+) [🔴🟡🟢🔵][^ ·\n]+(?: [\d-]+)? ✓")  # «7 🟢12 0-3-6 ✓»


NEST = re.compile(r"([▲◣◢▼]⟲?)")


async def dominas_state(app: App, chat: Chat) -> State:
    rec = await record(app, chat)
    assert rec.state is not None
    return State.model_validate_json(rec.state)


async def open_table(
    tg: FakeTelegram, chat: Chat, creator: User, others: list[User], length: str
) -> StoredMessage:
    lobby = await new_lobby(chat, creator, "/new доминас")
    assert "ДОМИНА*С" in lobby.content
    for user in others:
        answer = await chat.press(user, lobby, contains="Играть")
        assert answer.text == "Вы в игре!", answer
    await chat.press(creator, lobby, contains=length)
    await chat.wait_for(lambda: f"✅ {length}" in lobby.button_texts)
    await chat.wait_for(lambda: any("Начать" in x for x in lobby.button_texts))
    answer = await chat.press(creator, lobby, contains="Начать")
    assert answer.text == "Поехали!", answer
    table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
    # These tests play from the table's tile numbers: the fallback of the private hand
    # (tests/bot/test_private_hands_e2e.py plays by the ephemeral hands). With ephemeral
    # messages failing, each player's «🀄 Мои фишки» gives the popup and brings his
    # numbers onto the table.
    tg.server.ephemeral.fail = True
    for user in (creator, *others):
        popup = await chat.press(user, table, "🀄 Мои фишки")
        assert popup.show_alert, popup
    await chat.wait_for(lambda: any(x.isdigit() for x in table.button_texts), 30)
    await tg.settle(quiet=0.02)
    return table


def nest_button(table: StoredMessage, nest: str) -> str:
    mark = nest[0]
    variant = nest.endswith("⟲")
    return next(
        x for x in table.button_texts if x.startswith(mark + " ") and x.endswith("⟲") == variant
    )
