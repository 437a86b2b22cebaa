"""`/leave` in the middle of a game asks first: «Да, выйти» / «Остаться», the asker's
press alone counts, and the question expires."""

from __future__ import annotations

import time

from fake_telegram import Chat, User
from fake_telegram.server import StoredMessage
from games.seven_tracks import Status
from tests.bot.e2e import engine_state, in_group, mover, record, started_table

QUESTION = "выйти из игры?"


async def ask_to_leave(chat: Chat, user: User) -> StoredMessage:
    await chat.send(user, "/leave")
    return await chat.wait_message(lambda m: QUESTION in m.content)


async def test_leave_mid_game_asks_only_the_asker_answers_and_stay_keeps_him(
    backend: str | None,
) -> None:
    async with in_group(1701, ["Аня", "Борис", "Вика"], backend) as (tg, app, chat, users):
        table = await started_table(tg, chat, users, "🎲 Один кубик")
        leaver = mover(table, users)
        assert leaver is not None
        other = next(u for u in users if u is not leaver)
        before = await record(app, chat)

        question = await ask_to_leave(chat, leaver)
        assert leaver.first_name in question.content
        assert question.button_texts == ["Да, выйти", "Остаться"]
        await tg.settle()
        after = await record(app, chat)  # asking changes nothing yet (the record only
        # remembers the question, to delete it at the game's end: bot/service/clean_chat.py)
        assert (after.seq, after.state) == (before.seq, before.state)
        assert after.transient == [*before.transient, question.message_id]

        # another player's press (either button) is refused, clearly, and changes nothing
        for label in ("Да, выйти", "Остаться"):
            answer = await chat.press(other, question, label)
            assert answer.show_alert
            assert "/leave" in (answer.text or "") and leaver.first_name in (answer.text or "")
        await tg.settle()
        assert question.button_texts == ["Да, выйти", "Остаться"]
        assert (await record(app, chat)).version == after.version

        # «Остаться»: he stays, the question says so and loses its buttons
        answer = await chat.press(leaver, question, "Остаться")
        assert answer.text == "Вы остаётесь в игре."
        await chat.wait_for(lambda: not question.buttons, 30)
        assert "остаётся в игре" in question.content
        state = await engine_state(app, chat)
        assert state.status[state.players.index(leaver.id)] != Status.ELIMINATED

        # asked again, «Да, выйти»: he is out, the others play on
        question = await ask_to_leave(chat, leaver)
        yes = next(b.callback_data for b in question.buttons[0] if b.text == "Да, выйти")
        assert yes is not None
        answer = await chat.press(leaver, question, "Да, выйти")
        assert answer.text == "Вы вышли из игры."
        await chat.wait_for(lambda: "выходит из игры" in question.content, 30)
        assert not question.buttons
        await tg.settle()
        state = await engine_state(app, chat)
        assert state.status[state.players.index(leaver.id)] == Status.ELIMINATED
        await chat.wait_for(lambda: mover(table, users) not in (None, leaver), 10)
        # the answered question's button (a forged or late tap) leaves him no twice
        seq = (await record(app, chat)).seq
        answer = await chat.press(leaver, question, by_data=yes, check=False)
        assert answer.text == "Вы не участвуете ни в лобби, ни в игре этого чата."
        await tg.settle()
        assert (await record(app, chat)).seq == seq


async def test_the_leave_question_expires() -> None:
    async with in_group(1711, ["Аня", "Борис"]) as (tg, app, chat, (anna, boris)):
        await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
        question = await ask_to_leave(chat, boris)
        before = await record(app, chat)
        app.service.clock = lambda: time.time() + 61  # past the question's minute
        answer = await chat.press(boris, question, "Да, выйти")
        assert answer.show_alert and "/leave" in (answer.text or "")
        await chat.wait_for(lambda: not question.buttons, 30)
        assert "устарел" in question.content
        state = await engine_state(app, chat)
        assert state.status[state.players.index(boris.id)] != Status.ELIMINATED
        assert (await record(app, chat)).uid == before.uid
