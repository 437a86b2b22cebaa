"""Play polish, round three (issue 31, point 8), through the bot: the lobby's menus and
words, the solo lobby, `/stats` with no games. (The tables' and summaries' words:
tests/bot/test_polish_round_three.py.)"""

from __future__ import annotations

from tests.bot.computers import add_computers
from tests.bot.e2e import in_group, new_lobby, record


async def test_the_lobby_explains_its_variant_starts_from_every_menu_and_back_says_nothing() -> (
    None
):
    """«Пары по мостам ⤵» in the «Гипнозия» lobby was unexplained (under «Длина:»); the
    robots' menu said «нажмите «Начать»» with no «Начать» under it; every «« Назад»
    answered «Готово.»."""
    async with in_group(3101, ["Аня", "Борис"]) as (_, app, chat, (anna, boris)):
        lobby = await new_lobby(chat, anna, "/new гипнозия")
        assert "Вариант: Классика — пара не ходит по мостам" in lobby.content, lobby.content
        assert "Длина:" not in lobby.content
        await chat.press(anna, lobby, "Пары по мостам ⤵")
        await chat.wait_for(lambda: "✅ Пары по мостам ⤵" in lobby.button_texts, timeout=10)
        assert "Вариант: Пары по мостам ⤵ — пара переходит мост целиком" in lobby.content
        answer = await chat.press(anna, lobby, contains="Добавить компьютер")
        await chat.wait_for(lambda: "🤖 Опытный" in lobby.button_texts, timeout=10)
        assert "▶ Начать" not in lobby.button_texts  # one player: the lobby can't start
        answer = await chat.press(anna, lobby, "🤖 Опытный")
        await chat.wait_for(lambda: "Робот-опытный" in lobby.content, timeout=10)
        assert "нажимает «Начать»" in lobby.content, lobby.content
        assert "🤖 Новичок" in lobby.button_texts and "▶ Начать" in lobby.button_texts
        answer = await chat.press(anna, lobby, "« Назад")
        assert not answer.text and not answer.show_alert, answer
        await chat.wait_for(lambda: "🤖 Добавить компьютер" in lobby.button_texts, timeout=10)
        answer = await chat.press(boris, lobby, contains="Играть")  # the group's join row
        assert answer.text == "Вы в игре!", answer
        assert (await record(app, chat)).players[-1] == boris.id


async def test_a_solo_lobby_has_no_timer_and_no_join_and_stats_name_the_asker() -> None:
    """The solo lobby (the bot's private chat, against computers) showed a turn timer and
    «🙋 Играть»: it has neither, and its game runs with no timer (nobody waits for its one
    human). `/stats` of a member with no finished game said «?: здесь пока нет…»."""
    async with in_group(3111, ["Аня"]) as (tg, app, chat, (anna,)):
        private = await tg.start_private(anna)
        await private.wait_message()
        lobby = await new_lobby(private, anna, "/new гипнозия")
        assert "Время на ход" not in lobby.content, lobby.content
        texts = lobby.button_texts
        timers = [x for x in texts if x[:1] in "⏱⏳" or (x.startswith("✅ ") and x[2:3].isdigit())]
        assert not timers and not [x for x in texts if "Играть" in x or "Выйти" in x], texts
        assert "добавьте компьютер" in lobby.content, lobby.content
        await add_computers(private, anna, lobby, "Новичок")
        await private.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
        rec = await record(app, private)
        assert rec.chat_id == anna.id and app.service.ctx.turn_seconds(rec) == 0

        await chat.send(anna, "/stats")

        def told() -> bool:
            said = [m.content for m in (*chat.bot_messages, *private.bot_messages)]
            return any("доигранных игр" in x for x in said)

        await chat.wait_for(told, timeout=10)
        said = [m.content for m in (*chat.bot_messages, *private.bot_messages)]
        answer = next(x for x in said if "доигранных игр" in x)
        assert answer.endswith("\nАня: здесь пока нет доигранных игр.") or answer.startswith(
            "Аня: здесь"
        ), answer
