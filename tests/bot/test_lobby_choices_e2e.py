"""Choices that stick only where they should (issue 31, point 5): a slow turn timer is
one game's own, the next lobby starts from the chat's quick one; a lobby's creator who
leaves runs nothing — the next human runs it; a creator's `/pings off` lasts for his
game, the chat's switch is an admin's; a slow lobby nobody presses gives way to
anyone's `/new` after LOBBY_EXPIRE_MINUTES, as an ordinary lobby would have closed."""

from __future__ import annotations

import time

from bot import turn_timers
from bot.app import App
from fake_telegram import Chat, User
from fake_telegram.server import StoredMessage
from locales import get_translator
from tests.bot.computers import add_computers
from tests.bot.e2e import in_group, leave_question, new_lobby, record


def shift(app: App, seconds: float) -> None:
    """The bot's clock runs `seconds` ahead of the wall clock from now on."""
    app.service.clock = lambda: time.time() + seconds


async def cancelled(chat: Chat, creator: User, lobby: StoredMessage) -> None:
    """`creator` closes his lobby with /cancel."""
    await chat.send(creator, "/cancel")
    confirm = await chat.wait_message(lambda m: "Закрыть лобби?" in m.content, timeout=30)
    await chat.press(creator, confirm, "✖ Да, завершить")
    await chat.wait_for(lambda: not lobby.buttons, timeout=30)


async def test_a_slow_timer_is_one_games_own_and_a_quick_one_carries_on() -> None:
    async with in_group(31501, ["Аня", "Борис"]) as (_, app, chat, (anna, boris)):
        default = turn_timers.label(app.settings.turn_seconds, get_translator("ru"))
        lobby = await new_lobby(chat, anna)
        await chat.press(anna, lobby, "⏳ 24 ч")
        await chat.wait_for(lambda: "Время на ход: 24 ч" in lobby.content, timeout=30)
        await cancelled(chat, anna, lobby)
        lobby = await new_lobby(chat, boris)  # the next lobby: the chat's quick timer
        assert f"Время на ход: {default}" in lobby.content, lobby.content
        await chat.press(boris, lobby, "⏱ 10 мин")  # a quick choice is the chat's
        await chat.wait_for(lambda: "Время на ход: 10 мин" in lobby.content, timeout=30)
        await cancelled(chat, boris, lobby)
        lobby = await new_lobby(chat, anna)
        assert "Время на ход: 10 мин" in lobby.content, lobby.content


async def test_a_creator_who_leaves_runs_nothing_and_the_next_human_runs_the_lobby() -> None:
    async with in_group(31511, ["Аня", "Борис", "Вика"]) as group:
        _, app, chat, (anna, boris, vika) = group
        lobby = await new_lobby(chat, anna, "/new крест")
        await add_computers(chat, anna, lobby, "Новичок")
        answer = await chat.press(anna, lobby, "🚪 Выйти")  # only a computer is left
        assert answer.text == "Вы вышли из лобби.", answer
        await chat.wait_for(lambda: "Аня" not in lobby.content, timeout=30)
        answer = await chat.press(anna, lobby, "⏱ 10 мин")  # she runs it no more
        assert answer.show_alert and "создатель" in (answer.text or ""), answer
        answer = await chat.press(boris, lobby, contains="Играть")
        assert answer.text == "Вы в игре!", answer
        await chat.wait_for(lambda: "Борис — создатель" in lobby.content, timeout=30)
        start = next(b.callback_data for row in lobby.buttons for b in row if "Начать" in b.text)
        answer = await chat.press(anna, lobby, by_data=start)  # she can't start without her
        assert answer.show_alert, answer
        answer = await chat.press(vika, lobby, contains="Играть")
        assert answer.text == "Вы в игре!", answer
        answer = await chat.press(boris, lobby, "🚪 Выйти")  # the next human takes over
        await chat.wait_for(lambda: "Вика — создатель" in lobby.content, timeout=30)
        answer = await chat.press(boris, lobby, contains="Играть")  # back, not in charge
        await chat.wait_for(lambda: "Борис" in lobby.content, timeout=30)
        answer = await chat.press(vika, lobby, "▶ Начать")
        assert answer.text == "Поехали!", answer
        rec = await record(app, chat)
        assert rec.creator == vika.id and anna.id not in rec.players
        # in the game too: she leaves it, and the next human still playing runs it
        question = await leave_question(chat, vika)
        await chat.press(vika, question, "Да, выйти")
        await chat.wait_for(lambda: "выходит из игры" in question.content, timeout=30)
        assert (await record(app, chat)).creator == boris.id
        asked = await chat.send(boris, "/cancel")  # no admin, yet he may end it
        await chat.wait_message(lambda m: "Завершить текущую игру?" in m.content, after=asked)


async def test_a_creators_pings_off_lasts_for_his_game_the_chats_is_an_admins() -> None:
    async with in_group(31521, ["Аня", "Борис", "Вика"], admins=["Вика"]) as group:
        _, app, chat, (anna, boris, vika) = group
        pings = app.service.table.pings
        lobby = await new_lobby(chat, anna)
        asked = await chat.send(anna, "/pings off")  # the lobby's creator, not an admin
        told = await chat.wait_message(after=asked, timeout=30)
        assert "в этой игре выключены" in told.content, told.content
        assert (await record(app, chat)).pings_off and await pings.chat_on(chat.id)
        asked = await chat.send(boris, "/pings off")  # neither creator nor admin
        told = await chat.wait_message(after=asked, timeout=30)
        assert "админ чата" in told.content, told.content
        await cancelled(chat, anna, lobby)
        await new_lobby(chat, boris)  # the next game pings again
        assert not (await record(app, chat)).pings_off and await pings.chat_on(chat.id)
        asked = await chat.send(vika, "/pings off")  # an admin: the whole chat, for good
        told = await chat.wait_message(after=asked, timeout=30)
        assert "в этом чате выключены" in told.content, told.content
        assert not await pings.chat_on(chat.id)


async def test_an_idle_slow_lobby_gives_way_to_anyones_new() -> None:
    async with in_group(31531, ["Аня", "Борис"]) as (_, app, chat, (anna, boris)):
        lobby = await new_lobby(chat, anna)
        await chat.press(anna, lobby, "⏳ 24 ч")
        await chat.wait_for(lambda: "Время на ход: 24 ч" in lobby.content, timeout=30)
        shift(app, 10 * 60)  # ten minutes without a press: it stays, and says until when
        asked = await chat.send(boris, "/new")
        told = await chat.wait_message(after=asked, timeout=30)
        assert "ещё 20 минут" in told.content and "/new" in told.content, told.content
        shift(app, 31 * 60)  # over half an hour: an ordinary lobby would have closed
        asked = await chat.send(boris, "/new")
        new = await chat.wait_message(lambda m: "Новая игра" in m.content, after=asked)
        assert "Борис — создатель" in new.content
        await chat.wait_for(lambda: not lobby.buttons, timeout=30)
        assert "никто не нажимал 30 минут" in lobby.content, lobby.content
        assert (await record(app, chat)).creator == boris.id
