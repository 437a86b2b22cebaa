"""`/settings` and house rules (issue 16, point 1) end to end: the admins' menu edited in
place, `/new` opening the chat's default game with its house rules (the started engine
uses them), the lobby's «Правила партии» for one game only, a user's private defaults,
refusals to non-admins, and stale or forged buttons."""

from __future__ import annotations

from collections.abc import Callable

from aiogram.types import InlineKeyboardButton

from bot import chat_settings, phone
from bot.app import App
from bot.chat_settings import ChatSettings
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.cell_capture import State as CellState
from tests.bot.e2e import engine_state, in_group, record, running, settings_for, shows, start_game

NEW_LOBBY = "Новая игра"


async def menu_of(chat: Chat, admin: User) -> StoredMessage:
    """`admin` sends /settings: the menu's message."""
    command = await chat.send(admin, "/settings")
    return await chat.wait_message(lambda m: "⚙️" in m.content, after=command)


def edited(msg: StoredMessage, before: str) -> Callable[[], bool]:
    """A `wait_for` condition: the message no longer reads `before`."""
    return lambda: msg.content != before


async def press_until(chat: Chat, user: User, msg: StoredMessage, button: str, want: str) -> None:
    """Press the button starting with `button` until the message says `want` (a cycle)."""
    for _ in range(10):
        if want in msg.content:
            return
        before = msg.content
        answer = await chat.press(user, msg, contains=button)
        assert not answer.show_alert, answer
        await chat.wait_for(edited(msg, before))
    assert want in msg.content, msg.content


async def open_game_page(chat: Chat, admin: User, menu: StoredMessage, game: str) -> None:
    await chat.press(admin, menu, contains="Свои правила")
    await chat.wait_for(lambda: "Выберите игру" in menu.content)
    await chat.press(admin, menu, game)
    await chat.wait_for(lambda: f"{game}: свои правила" in menu.content)


async def main_text(chat: Chat, user: User, menu: StoredMessage) -> str:
    """Back to the main page from a game's page: its text."""
    await chat.press(user, menu, "« Назад")
    await chat.wait_for(lambda: "Выберите игру" in menu.content)
    await chat.press(user, menu, "« Назад")
    await chat.wait_for(lambda: "⚙️" in menu.content)
    return menu.content


async def stored(app: App, key: str) -> ChatSettings:
    return await chat_settings.load(app.store, key)


async def test_an_admin_sets_the_default_game_and_a_house_rule_the_game_uses_them(
    backend: str | None,
) -> None:
    async with in_group(7101, ["Аня", "Борис"], redis_url=backend, admins=["Аня"]) as group:
        _, app, chat, (anna, boris) = group
        menu = await menu_of(chat, anna)
        assert "Настройки чата" in menu.content and "Семидорожник" in menu.content
        await press_until(chat, anna, menu, "🎲 Игра", "Игра по умолчанию: Захват клеток")
        await open_game_page(chat, anna, menu, "Захват клеток")
        assert "Игра вдвоём: нет —" in menu.content
        answer = await chat.press(anna, menu, contains="Игра вдвоём")
        assert answer.text == "Сохранено."
        await chat.wait_for(lambda: "Игра вдвоём: да" in menu.button_texts)
        assert "можно начать партию вдвоём" in menu.content  # the one-line explanation
        await chat.press(anna, menu, "« Назад")
        await chat.wait_for(lambda: "Выберите игру" in menu.content)
        await chat.press(anna, menu, "« Назад")
        await chat.wait_for(lambda: "Свои правила, Захват клеток: игра вдвоём — да" in menu.content)
        s = await stored(app, chat_settings.chat_key(chat.id))
        assert s.default_game == "cell_capture"
        assert s.house_rules == {"cell_capture": {"allow_two_players": True}}

        # Борис opens a lobby with no argument: the chat's game, its rule shown
        await chat.send(boris, "/new")
        lobby = await chat.wait_message(lambda m: NEW_LOBBY in m.content)
        assert "Захват клеток" in lobby.content
        assert "Свои правила: игра вдвоём — да" in lobby.content
        assert "нужно 2–6" in lobby.content
        await chat.press(anna, lobby, contains="Играть")
        await start_game(chat, boris, lobby)  # two players start it
        rec = await record(app, chat)
        assert rec.options == {"allow_two_players": True}
        assert rec.state is not None
        state = CellState.model_validate_json(rec.state)
        assert state.options.allow_two_players and len(state.players) == 2


async def test_a_non_admin_is_refused_and_nothing_changes() -> None:
    async with in_group(7201, ["Аня", "Борис"], admins=["Аня"]) as (tg, app, chat, (anna, boris)):
        command = await chat.send(boris, "/settings")
        refusal = await chat.wait_message(after=command)
        assert "только его администраторы" in refusal.content
        assert not [m for m in chat.bot_messages if "⚙️" in m.content]
        menu = await menu_of(chat, anna)
        before = menu.content
        for label in ("🎲 Игра", "⏱", "🔔", "🌐", "Свои правила"):
            answer = await chat.press(boris, menu, contains=label)
            assert answer.show_alert and "администраторы" in (answer.text or ""), answer
        await tg.settle(quiet=0.1)
        assert menu.content == before
        assert await stored(app, chat_settings.chat_key(chat.id)) == ChatSettings()
        assert await app.service.table.pings.chat_on(chat.id)
        # an admin turns the chat's pings off from the menu: the one place /pings keeps
        answer = await chat.press(anna, menu, contains="🔔")
        assert answer.text == "Сохранено."
        await chat.wait_for(lambda: "Напоминания о ходе: выключены" in menu.content)
        assert not await app.service.table.pings.chat_on(chat.id)


async def test_the_creator_changes_this_games_rules_and_the_chats_stay(
    backend: str | None,
) -> None:
    async with in_group(7301, ["Аня", "Борис"], redis_url=backend, admins=["Аня"]) as group:
        _, app, chat, (anna, boris) = group
        menu = await menu_of(chat, anna)
        await press_until(chat, anna, menu, "⏱", "Время на ход: 10 мин")
        await open_game_page(chat, anna, menu, "Семидорожник")
        await press_until(chat, anna, menu, "Фишек на руке", "Фишек на руке: 10 —")
        await press_until(chat, anna, menu, "Выбор в лобби", "Выбор в лобби: До 72 —")
        key = chat_settings.chat_key(chat.id)
        chats = await stored(app, key)
        assert chats.house_rules == {"seven_tracks": {"hand_size": 10, "target_score": 72}}

        await chat.send(anna, "/new")
        lobby = await chat.wait_message(lambda m: NEW_LOBBY in m.content)
        assert "Длина: До 72" in lobby.content and "Время на ход: 10 мин" in lobby.content
        assert "Свои правила: фишек на руке — 10" in lobby.content
        await chat.press(boris, lobby, contains="Играть")
        answer = await chat.press(boris, lobby, contains="Правила партии")
        assert answer.show_alert  # only the creator
        await chat.press(anna, lobby, contains="Правила партии")
        await chat.wait_for(lambda: "Фишек на руке: 10" in lobby.button_texts)
        assert "сколько фишек раздают" in lobby.content  # explained in the lobby too
        answer = await chat.press(anna, lobby, "Фишек на руке: 10")
        assert answer.text == "Готово."
        await chat.wait_for(lambda: "Фишек на руке: 14" in lobby.button_texts)
        await chat.press(anna, lobby, contains="Бонусная касса")
        await chat.wait_for(lambda: "Бонусная касса копится: да" in lobby.button_texts)
        await chat.press(anna, lobby, "« Назад")  # «▶ Начать» is under the menu too
        await chat.wait_for(lambda: "📜 Правила партии" in lobby.button_texts)
        assert "фишек на руке — 14, бонусная касса копится — да" in lobby.content
        await chat.press(anna, lobby, "До 144")  # the length keeps the game's own rules
        await chat.wait_for(lambda: "Длина: До 144" in lobby.content)
        rec = await record(app, chat)
        assert rec.options == {
            "target_score": 144,
            "hand_size": 14,
            "bonus_store_persists": True,
        }
        await start_game(chat, anna, lobby)
        state = await engine_state(app, chat)
        assert state.options.hand_size == 14 and state.options.bonus_store_persists
        assert state.options.target_score == 144
        assert all(len(h) == 14 for h in state.hands)
        assert await stored(app, key) == chats  # the chat's house rules stay


async def test_private_settings_are_the_users_own_defaults() -> None:
    async with in_group(7401, ["Аня", "Борис"]) as (tg, app, chat, (anna, _)):
        private = await tg.start_private(anna)
        await private.wait_message()
        menu = await menu_of(private, anna)
        assert "Ваши настройки" in menu.content and "🔔" not in " ".join(menu.button_texts)
        await press_until(private, anna, menu, "🎲 Игра", "Игра по умолчанию: Гипнозия")
        await open_game_page(private, anna, menu, "Гипнозия")
        await press_until(private, anna, menu, "Выбор в лобби", "Пары по мостам")
        s = await stored(app, chat_settings.user_key(anna.id))
        assert s.default_game == "hypnosia"
        assert s.house_rules == {"hypnosia": {"pairs_cross_bridges": True}}
        assert await stored(app, chat_settings.chat_key(chat.id)) == ChatSettings()
        assert "Свои правила, Гипнозия: пары по мостам" in await main_text(private, anna, menu)
        await open_game_page(private, anna, menu, "Гипнозия")
        # a group without settings of its own: her lobby follows her defaults
        await chat.send(anna, "/new")
        lobby = await chat.wait_message(lambda m: NEW_LOBBY in m.content)
        assert "Гипнозия" in lobby.content and "Пары по мостам" in lobby.content
        rec = await record(app, chat)
        assert rec.option_choice == "pb" and rec.options == {"pairs_cross_bridges": True}
        # the page of a game without variants says so
        await chat.send(anna, "/cancel")
        await private.press(anna, menu, "« Назад")
        await private.wait_for(lambda: "Выберите игру" in menu.content)
        await private.press(anna, menu, "Морской крест")
        await private.wait_for(lambda: "Морской крест: свои правила" in menu.content)
        assert "нет вариантов правил" in menu.content
        await private.press(anna, menu, "« Назад")
        await private.wait_for(lambda: "Выберите игру" in menu.content)
        await private.press(anna, menu, "Гипнозия")
        await private.wait_for(lambda: "↩ Как в правилах" in menu.button_texts)
        answer = await private.press(anna, menu, "↩ Как в правилах")
        assert answer.text == "Сохранено."
        await private.wait_for(lambda: "↩ Как в правилах" not in menu.button_texts)
        assert (await stored(app, chat_settings.user_key(anna.id))).house_rules == {}


async def test_stale_and_forged_buttons_are_answered_without_a_crash() -> None:
    async with in_group(7501, ["Аня"], admins=["Аня"]) as (_, app, chat, (anna,)):
        menu = await menu_of(chat, anna)
        for data in (
            "S1:rule:nope:x",
            "S1:rule:seven_tracks:tile_set",
            "S1:rule:sea_cross:len",
            "S1:game:chess:",
            "S1:reset:nope:",
            "S1:zzz::",
            "S1:ping",
            "S1",
        ):
            answer = await chat.press(anna, menu, by_data=data, check=False)
            assert answer.text, (data, answer)
        assert await stored(app, chat_settings.chat_key(chat.id)) == ChatSettings()
        await chat.send(anna, "/new")
        lobby = await chat.wait_message(lambda m: NEW_LOBBY in m.content)
        uid = (await record(app, chat)).uid
        for data in (f"L1:{uid}:rule:junk", f"L1:{uid}:rule:hand_size", "L1:zz:rules:"):
            answer = await chat.press(anna, lobby, by_data=data, check=False)
            assert answer.text, (data, answer)
        assert (await record(app, chat)).options == {"single_round": True}


async def test_an_anonymous_admin_opens_the_menu() -> None:
    async with in_group(7601, ["Аня"], admins=["Аня"]) as (_, _, chat, _):
        await chat.send_anonymous("/settings")
        menu = await chat.wait_message(lambda m: "Настройки чата" in m.content)
        assert "🎲 Игра: Семидорожник" in menu.button_texts


def keyboard(menu: StoredMessage) -> list[list[InlineKeyboardButton]]:
    """The message's buttons as the bot's keyboard type (what `phone.fits` reads)."""
    return [
        [InlineKeyboardButton(text=b.text, callback_data=b.callback_data) for b in row]
        for row in menu.buttons
    ]


async def walk_pages(chat: Chat, admin: User, menu: StoredMessage, games: list[str]) -> None:
    """Every page of the menu, every game's: each keyboard fits a phone (bot/phone.py)."""
    assert phone.fits(keyboard(menu)), menu.buttons
    for game in games:
        await chat.press(admin, menu, contains="📜")
        await chat.wait_for(lambda: "« Back" in menu.button_texts or "« Назад" in menu.button_texts)
        assert phone.fits(keyboard(menu)), menu.buttons
        await chat.press(admin, menu, game)
        await chat.wait_for(shows(menu, game))
        assert phone.fits(keyboard(menu)), (game, menu.buttons)
        await chat.press(admin, menu, by_data="S1:main::", check=False)  # straight back
        await chat.wait_for(lambda: "⚙️" in menu.content)


async def test_every_page_fits_a_phone_and_the_chats_language_opens_its_lobbies() -> None:
    async with in_group(7701, ["Аня", "Борис"], admins=["Аня"]) as (_, app, chat, (anna, boris)):
        menu = await menu_of(chat, anna)
        ru = ["Семидорожник", "Захват клеток", "Морской крест", "Гипнозия", "ДОМИНА*С"]
        await walk_pages(chat, anna, menu, ru)
        await press_until(chat, anna, menu, "🌐", "Language: English")  # it speaks it now
        assert "Chat settings" in menu.content
        en = [app.service.t("en")(p.title_short_key) for p in app.service.presenters.values()]
        await walk_pages(chat, anna, menu, en)
        assert (await stored(app, chat_settings.chat_key(chat.id))).language == "en"
        await chat.send(boris, "/new")  # the chat's language, whoever opens the lobby
        lobby = await chat.wait_message(lambda m: "New game" in m.content)
        assert (await record(app, chat)).language == "en"
        assert "🙋 Play" in lobby.button_texts


async def test_a_group_upgraded_to_a_supergroup_keeps_its_settings() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(7801, "Аня"), tg.user(7802, "Борис")
        chat = tg.group(members=[boris], admins=[anna], supergroup=False)
        async with running(settings_for(tg)) as app:
            menu = await menu_of(chat, anna)
            await press_until(chat, anna, menu, "🎲 Игра", "Игра по умолчанию: Гипнозия")
            new_chat = await chat.migrate_to_supergroup(anna)
            await tg.settle()
            s = await stored(app, chat_settings.chat_key(new_chat.id))
            assert s.default_game == "hypnosia"
            assert await stored(app, chat_settings.chat_key(chat.id)) == ChatSettings()
            await new_chat.send(boris, "/new")
            lobby = await new_chat.wait_message(lambda m: NEW_LOBBY in m.content)
            assert "Гипнозия" in lobby.content
