"""Hostile input changes nothing (issue 31, point 9): a doubled, late or forged press of
«🤖 Заменить компьютером» or of a confirmation is answered and edits no message; only a
press of the seat's own offer hands it to a computer, once. (Every callback factory's
own prefix: tests/bot/test_callback_prefixes.py.)"""

from __future__ import annotations

import itertools
from typing import Any

from bot.callbacks import CancelCB
from bot.service.computers import ReplaceCB
from bot.service.settings_menu import SettingsCB
from fake_telegram import Chat, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import in_group, leave_question, new_lobby, record

STILL: dict[str, Any] = {"turn_seconds": 0, "computer_move_seconds": 0.0, "replace_seconds": 60.0}


def look(message: StoredMessage) -> tuple[str, list[str], int]:
    """What a message shows: its text, its buttons, how often it was edited."""
    return message.content, message.button_texts, message.edit_count


async def sea_cross(chat: Chat, *people: User) -> tuple[StoredMessage, StoredMessage]:
    """A «Морской крест» of `people` (the first opens it): its lobby and its table."""
    lobby = await new_lobby(chat, people[0], "/new крест")
    for user in people[1:]:
        await chat.press(user, lobby, contains="Играть")
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=30)
    answer = await chat.press(people[0], lobby, "▶ Начать")
    assert answer.text == "Поехали!", answer
    table = await chat.wait_message(lambda m: m.photo is not None, timeout=30)
    return lobby, table


async def test_forged_late_and_doubled_replace_presses_change_no_message() -> None:
    async with in_group(31901, ["Аня", "Борис", "Вика"], admins=["Аня"], **STILL) as group:
        tg, app, chat, (anna, boris, vika) = group
        lobby, table = await sea_cross(chat, anna, boris, vika)
        offer = await leave_question(chat, vika)
        answer = await chat.press(vika, offer, contains="Да")
        assert answer.text == "Вы вышли из игры.", answer
        await chat.wait_for(lambda: "🤖 Заменить компьютером" in offer.button_texts, 30)
        await tg.settle()
        rec = await record(app, chat)
        shown = look(offer), look(lobby)
        calls = len(chat.calls())

        # forged, by a player and by an admin: another player's seat on this offer, a
        # made-up game, this seat's own data pressed on the lobby and on the table, an
        # admin's /settings button on the lobby and on the offer
        forged = [
            (offer, ReplaceCB(g=rec.uid, u=anna.id).pack()),
            (offer, ReplaceCB(g="zzzzzz", u=vika.id).pack()),
            (lobby, ReplaceCB(g=rec.uid, u=vika.id).pack()),
            (table, ReplaceCB(g=rec.uid, u=vika.id).pack()),
            (offer, CancelCB(g="zzzzzz", a="yes").pack()),
            (table, CancelCB(g="zzzzzz", a="yes").pack()),
            (lobby, SettingsCB(a="main").pack()),
            (offer, SettingsCB(a="games").pack()),
        ]
        for (message, data), who in itertools.product(forged, (boris, anna)):
            answer = await chat.press(who, message, by_data=data, check=False)
            assert answer.text, (data, answer)
        await tg.settle()
        assert (look(offer), look(lobby)) == shown
        # the table is edited by its game alone (its caption, its picture), never stripped
        stripped = [
            c
            for c in chat.calls()[calls:]
            if c.method in ("editMessageText", "editMessageReplyMarkup")
            and c.params.get("message_id") == table.message_id
        ]
        assert not stripped and table.button_texts, stripped
        after = await record(app, chat)
        assert vika.id in after.vacated and after.computers == {vika.id: "novice"}

        # a double tap: the seat is handed over once, the second tap is told so, and the
        # offer never says the robot leaves
        first = await chat.tap(boris, offer, "🤖 Заменить компьютером")
        second = await chat.tap(boris, offer, "🤖 Заменить компьютером")
        answers = sorted([(await tg.answer_of(tap)).text or "" for tap in (first, second)])
        assert answers == ["Место занял компьютер.", "Место уже занял 🤖 Робот-опытный."]
        await chat.wait_for(lambda: not offer.button_texts, 30)
        await tg.settle()
        assert offer.content == "🚪 Вика выходит из игры. Место занял 🤖 Робот-опытный."
        versions = [text or "" for text, *_ in offer.history]
        assert not [x for x in versions if "Робот-опытный выходит" in x], versions
        assert offer.edit_count == shown[0][2] + 1  # the one edit of the handed seat

        # a late press (the button is gone) is answered and edits nothing
        late = ReplaceCB(g=rec.uid, u=vika.id).pack()
        answer = await chat.press(anna, offer, by_data=late, check=False)
        assert answer.text == "Место уже занял 🤖 Робот-опытный.", answer
        await tg.settle()
        assert offer.edit_count == shown[0][2] + 1
        assert (await record(app, chat)).computers == {vika.id: "experienced"}
