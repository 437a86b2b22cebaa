"""«Захват клеток» through the same game-agnostic bot: a whole game by buttons."""

from __future__ import annotations

import re

from bot.storage import RecordStatus
from fake_telegram import FakeTelegram
from tests.bot.e2e import data_of, record, running, settings_for


async def test_a_two_player_lobby_cannot_start_a_cell_capture_game() -> None:
    """R1 (revised 2026-12): «Захват клеток» needs three players; with two the lobby asks
    for one more and offers no «Начать» (two players would always end 12 : 12)."""
    async with FakeTelegram() as tg:
        anna, boris, vika = tg.user(1611, "Аня"), tg.user(1612, "Борис"), tg.user(1613, "Вика")
        chat = tg.group(members=[anna, boris, vika])
        async with running(settings_for(tg)):
            await chat.send(anna, "/new захват")
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
            assert "нужно 3–6" in lobby.content, lobby.content
            await chat.press(boris, lobby, contains="Играть")
            await chat.wait_for(lambda: "Борис" in lobby.content, timeout=10)
            assert "Нужен ещё 1 игрок" in lobby.content, lobby.content
            assert "▶ Начать" not in lobby.button_texts
            await chat.press(vika, lobby, contains="Играть")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)


async def test_a_whole_cell_capture_game_by_buttons() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1601, "Аня"), tg.user(1602, "Борис")
        vika = tg.user(1603, "Вика")
        users = {u.full_name: u for u in (anna, boris, vika)}
        chat = tg.group(members=list(users.values()))
        async with running(settings_for(tg)) as app:
            await chat.send(anna, "/new захват")
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
            assert "Захват клеток" in lobby.content
            await chat.press(boris, lobby, contains="Играть")
            await chat.press(vika, lobby, contains="Играть")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
            await chat.press(anna, lobby, "▶ Начать")
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
            presses = 0
            for _ in range(400):
                await tg.settle(quiet=0.02)
                if (await record(app, chat)).status != RecordStatus.PLAYING:
                    break
                match = re.search(r"Ходит \S+ (.+?):", table.content)
                assert match, table.content
                mover = users[match.group(1)]
                texts = table.button_texts
                label = next(
                    x
                    for x in texts
                    if x in ("✅ Готово",)
                    or x.isdigit()
                    or x.startswith(("⚓", "➡️", "⬆️", "⬇️", "⬅️"))
                )
                before = data_of(table)
                answer = await chat.press(mover, table, label)
                assert not answer.show_alert, answer
                presses += 1
                await chat.wait_for(lambda b=before: data_of(table) != b, 5)
            else:
                raise AssertionError("the game did not end")
            final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table)
            assert "1." in final.content and "клет" in final.content
            assert presses > 4
