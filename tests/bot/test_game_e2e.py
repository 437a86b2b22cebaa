"""A whole game of «Семидорожник» played by simulated users pressing only the buttons
they see, against the real bot (fake Telegram server + Redis)."""

from __future__ import annotations

import random
import time

from bot.app import App
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.seven_tracks import Phase
from tests.bot.e2e import (
    changed,
    data_of,
    engine_state,
    in_group,
    mover,
    open_lobby,
    record,
    refused,
    start_game,
)

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
            await chat.wait_for(lambda: "Не использовать" not in table.button_texts, 5)
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
            await chat.wait_for(changed(table, before), 5)
            for data in [
                d for d in data_of(table) if d and (":am." in d or ":im." in d or d.endswith(":xb"))
            ]:
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


async def test_a_full_single_round_game_by_buttons(backend: str | None) -> None:
    rng = random.Random(7)
    async with in_group(101, ["Аня", "Борис", "Вика"], backend) as (tg, app, chat, users):
        anna, boris, vika = users
        lobby = await open_lobby(chat, anna, boris, vika)
        await chat.wait_for(lambda: "Вика" in lobby.content)
        assert "Вика" in lobby.content and "Начать" in lobby.button_texts[-1]
        table = await start_game(chat, anna, lobby)
        assert "Семидорожник" in table.content
        table_id = table.message_id

        started = time.monotonic()
        taps, refusals = await play_by_buttons(tg, chat, app, table, users, rng)
        elapsed = time.monotonic() - started
        state = await engine_state(app, chat)
        assert state.phase == Phase.GAME_OVER
        turns = state.turn_no
        per_turn = taps / max(1, turns)
        all_taps = (taps + refusals) / max(1, turns)
        lat = sorted(LATENCIES)
        print(
            f"\nfull game: {turns} turns, {taps} accepted taps ({per_turn:.2f}/turn), "
            f"{refusals} refused ({all_taps:.2f} taps/turn in all), {elapsed:.1f}s; "
            f"answer latency median {lat[len(lat) // 2] * 1000:.0f} ms, "
            f"max {lat[-1] * 1000:.0f} ms"
        )
        assert per_turn <= 3.5 and all_taps <= 4.0

        summary = await chat.wait_message(lambda m: "Кон 1 окончен" in m.content, after=table_id)
        assert "Счёт" in summary.content and "Фишки на руках" in summary.content
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table_id)
        assert "1." in final.content
        # the same table message all along, its keyboard gone at the end
        assert table.message_id == table_id and table.edit_count > turns
        await chat.wait_for(lambda: not table.buttons, 5)
        photos = [m for m in chat.bot_messages if m.photo is not None]
        assert len(photos) == 1
