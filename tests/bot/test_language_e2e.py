"""Whose language the bot speaks (bot/language.py): in a private chat the user's — his own
setting, else his Telegram language; in a group the running game's, else the group's
setting, else the language of whoever wrote; a lobby takes the creator's language. The
bot's default language (here Russian) for any other language."""

from __future__ import annotations

from bot import chat_settings
from bot.chat_settings import ChatSettings
from fake_telegram import FakeTelegram
from tests.bot.e2e import record, running, settings_for


async def test_private_replies_follow_the_user_and_his_own_setting() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(1801, "Anna", language_code="en-US")
        olena = tg.user(1802, "Олена", language_code="uk")
        karl = tg.user(1803, "Karl", language_code="de")
        async with running(settings_for(tg)) as app:
            hello = await (await tg.start_private(anna)).wait_message()
            assert "Hi! I am Nastolka" in hello.content
            assert "📖 Seven Tracks" in hello.button_texts
            # her solo game (against computers) in her private chat is English
            mine = tg.private(anna)
            await mine.send(anna, "/new")
            await mine.wait_message(lambda m: "New game" in m.content)
            assert (await record(app, mine)).language == "en"
            hello = await (await tg.start_private(olena)).wait_message()
            assert "Привет!" in hello.content
            private = await tg.start_private(karl)
            hello = await private.wait_message()
            assert "Привет!" in hello.content  # German: the bot's default language
            await private.send(karl, "/rules")
            rules = await private.wait_message(after=hello)
            assert "Семидорожник" in rules.content
            # Anna's own setting says Russian: her private chat follows it
            key = chat_settings.user_key(anna.id)
            await chat_settings.save(app.store, key, ChatSettings(language="ru"))
            command = await mine.send(anna, "/help")
            answer = await mine.wait_message(after=command)
            assert "Команды" in answer.content


async def test_a_group_speaks_its_game_then_its_setting_then_the_writer() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(1811, "Anna", language_code="en")
        boris = tg.user(1812, "Борис", language_code="ru")
        chat = tg.group(members=[anna, boris])
        async with running(settings_for(tg)) as app:
            # outside a game: the writer's language
            command = await chat.send(boris, "/help")
            assert "Команды" in (await chat.wait_message(after=command)).content
            command = await chat.send(anna, "/help")
            assert "Commands" in (await chat.wait_message(after=command)).content
            # Anna opens the lobby: the game is English, and so is the group while it runs
            await chat.send(anna, "/new")
            lobby = await chat.wait_message(lambda m: "New game" in m.content)
            assert (await record(app, chat)).language == "en"
            answer = await chat.press(boris, lobby, contains="Play")
            assert answer.text == "You are in!"
            command = await chat.send(boris, "/rules")
            rules = await chat.wait_message(after=command)
            assert "Seven Tracks — rules in short" in rules.content
            # a stale button: answered in the presser's language
            answer = await chat.press(boris, lobby, by_data="X9:junk", check=False)
            assert answer.text == "Эта кнопка устарела."
            # another group's setting outranks the writer
            other = tg.group(members=[boris])
            key = chat_settings.chat_key(other.id)
            await chat_settings.save(app.store, key, ChatSettings(language="en"))
            command = await other.send(boris, "/help")
            assert "Commands" in (await other.wait_message(after=command)).content
