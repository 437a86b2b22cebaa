"""Playing «Семидорожник» at the table by the buttons a player sees, to the game's end (its
end-to-end test, and the metrics and onboarding tests that need a whole game)."""

from __future__ import annotations

import random

from bot.app import App
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import changed, data_of, mover, record, refused

LATENCIES: list[float] = []


# What a simple player tries, in order, when the table shows each label.
PLAN = [
    "⭐ Заявить право первого хода",
    "🎲🎲 Два кубика",
    "🎲 Один кубик",
    "▶ Выставить всё",
    "✅ Закончить ход",
    "📥 Взять из кассы",
    "✅ Заменить",
]


async def play_by_buttons(
    tg: FakeTelegram,
    chat: Chat,
    app: App,
    table: StoredMessage,
    users: list[User],
    rng: random.Random,
    max_presses: int = 3000,
) -> tuple[int, int]:
    """Simulated players press only buttons they see until the game ends.

    Returns (accepted taps, refused taps); LATENCIES collects the answer latencies."""
    taps = 0
    refusals = 0
    placed = False
    again = False  # the bot offered a priority tile instead of drawing; he declines
    for _ in range(max_presses):
        rec = await record(app, chat)
        if rec.status != RecordStatus.PLAYING:
            break
        await tg.settle(quiet=0.02)
        texts = table.button_texts
        if "⭐ Заявить право первого хода" in texts:
            # the first-move window: everyone may answer at once; silence = pass
            for member in users:
                declare = rng.random() < 0.3
                label = "⭐ Заявить право первого хода" if declare else "Не использовать"
                if label not in table.button_texts:
                    break
                answer = await chat.press(member, table, label)
                assert answer.text, answer
            await chat.wait_for(lambda: "Не использовать" not in table.button_texts, 30)
            continue
        user = mover(table, users)
        assert user is not None, table.content
        before = data_of(table)
        if "🎲 Один кубик" in texts:
            placed = False  # a new turn
        plan = [x for x in PLAN[1:] if not placed or x != "▶ Выставить всё"]
        if placed:
            plan.append("▶ Выставить всё")  # once more, only if nothing else works
        if again:  # «▶ Выставить всё» once more draws until a tile fits
            plan = ["▶ Выставить всё", *[x for x in plan if x != "▶ Выставить всё"]]
        again = offered = False
        for label in plan:
            if label not in texts:
                continue
            if label == "🎲🎲 Два кубика" and rng.random() < 0.3:
                label = "🎲 Один кубик"
            answer = await chat.press(user, table, label)
            LATENCIES.append(answer.latency)
            if refused(answer):
                refusals += 1
                if "ещё раз" in (answer.text or ""):
                    again = offered = True
                    break
                continue
            taps += 1
            placed = placed or label == "▶ Выставить всё"
            again = "ещё раз" in (answer.text or "")
            break
        else:
            # a rare spot (e.g. only a priority tile helps): the priority menu
            answer = await chat.press(user, table, "⭐ Приоритет…")
            taps += 1
            await chat.wait_for(changed(table, before), 30)
            uses = (":am.", ":xb.", ":IM,")  # after the move, an exchange, instead of it
            for data in [d for d in data_of(table) if d and any(x in d for x in uses)]:
                answer = await chat.press(user, table, by_data=data)
                if not refused(answer):
                    taps += 1
                    break
            else:
                raise AssertionError(f"stuck: {table.content}\n{texts}")
        if offered:
            continue  # an alert: the table has not changed
        await chat.wait_for(changed(table, before), 10)
    else:
        raise AssertionError("the game did not end")
    return taps, refusals
