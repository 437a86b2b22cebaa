"""Computer players at the table, for the tests that play with them: seating them from the
lobby's «🤖 Добавить компьютер», the human's turns played by his turn timer (`FAST`) — in a
solo game, which has none, by his presses (`presses`) —, his ДОМИНА*С tiles placed from
his hand (`places`), and waiting for the game's end."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bot.app import App
from bot.storage import GameRecord, RecordStatus
from fake_telegram import Chat, User
from fake_telegram.server import StoredMessage
from locales import get_translator
from tests.bot.e2e import record, until
from tests.bot.hands import hand_buttons, hand_of, wait_hand

FAST: dict[str, Any] = {  # the human's turns are played by his turn timer, quickly
    "turn_seconds": 0.2,
    "timeouts_before_removal": 10**6,
    "computer_move_seconds": 0.0,
}


# the lobby's words for computers: its button, a seat's answer, a computer's name, back
LOBBY_WORDS = {
    "ru": ("Добавить компьютер", "За стол сел", "🤖 Робот", "Назад"),
    "en": ("Add a computer", "takes a seat", "🤖 Robot", "Back"),
}


async def add_computers(
    chat: Chat, creator: User, lobby: StoredMessage, *levels: str, lang: str = "ru"
) -> None:
    """The creator opens «🤖 Добавить компьютер» and seats one computer per level."""
    add, seated, robot, back = LOBBY_WORDS[lang]
    answer = await chat.press(creator, lobby, contains=add)
    assert not answer.show_alert, answer
    before = lobby.content.count(robot)
    for n, level in enumerate(levels, before + 1):
        button = f"🤖 {level}"
        await chat.wait_for(lambda: button in lobby.button_texts, timeout=10)  # noqa: B023
        answer = await chat.press(creator, lobby, button)
        assert seated in (answer.text or ""), answer
        await chat.wait_for(lambda: lobby.content.count(robot) == n, timeout=10)  # noqa: B023
    await chat.press(creator, lobby, contains=back)
    await chat.wait_for(lambda: f"🤖 {add}" in lobby.button_texts, timeout=10)


async def finish(app: App, chat: Chat, timeout: float = 30) -> GameRecord:
    async def over() -> bool:
        return (await record(app, chat)).status != RecordStatus.PLAYING

    try:
        await until(over, timeout, "the game did not end")
    except AssertionError:
        calls = " ".join(f"{c.method}:{c.error_code or 0}" for c in chat.calls()[-40:])
        raise AssertionError(f"the game did not end\n{chat.transcript()}\n{calls}") from None
    return await record(app, chat)


async def presses(app: App, chat: Chat, human: User) -> None:
    """A solo game (the bot's private chat) has no turn timer: whenever it is his turn the
    human presses the table's first button (a die, a move: any the table offers is legal)."""
    while True:
        await asyncio.sleep(0.02)
        rec = await record(app, chat)
        if rec.status != RecordStatus.PLAYING or rec.state is None:
            continue
        p = app.service.presenter(rec.game_id)
        table = chat.message(rec.table_message_id) if rec.table_message_id else None
        if table is None or p.actor(p.load(rec.state)) != human.id:
            continue
        data = [b.callback_data for row in table.buttons for b in row if b.callback_data]
        if data:
            with contextlib.suppress(AssertionError, LookupError, ValueError, TimeoutError):
                await chat.press(human, table, by_data=data[0], check=False)


async def places(app: App, chat: Chat, human: User, lang: str = "ru") -> None:
    """ДОМИНА*С: a timed-out turn is a pass (R27), so a human who never places could hold
    a game with an empty bazaar forever (R28's removal after repeated timeouts is off in
    these tests: tests/games/dominas/test_absent.py). So whenever it is his turn he places
    a tile as a player does: he opens «🀄 Мои фишки» (his hand, ephemeral in the group,
    edited after every move) and taps its numbers until one is taken; a tile with several
    places waits for its nest, and he taps the table's nests until one takes it. His turn
    timer is short, so now and then it plays first; a placed tile now and then is enough."""
    hand_label = get_translator(lang)("dom.btn.hand")
    while True:
        await asyncio.sleep(0.02)
        rec = await record(app, chat)
        if rec.status != RecordStatus.PLAYING or rec.state is None:
            continue
        p = app.service.presenter(rec.game_id)
        table = chat.message(rec.table_message_id) if rec.table_message_id else None
        if table is None or p.actor(p.load(rec.state)) != human.id:
            continue
        with contextlib.suppress(AssertionError, LookupError, ValueError, TimeoutError):
            if hand_of(chat, human) is None:
                await chat.press(human, table, hand_label, check=False)
            hand = await wait_hand(chat, human, table, timeout=30)
            for number in hand_buttons(hand):
                answer = await chat.press(human, hand, number, check=False)
                if answer.show_alert:
                    continue
                if (await record(app, chat)).ui.get("sel"):  # the tile waits for its nest
                    for nest in [b.text for row in table.buttons for b in row]:
                        if nest[:1] in "▲◢◣▼":
                            answer = await chat.press(human, table, nest, check=False)
                            if not answer.show_alert:
                                break
                break
