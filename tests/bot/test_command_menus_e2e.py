"""The command menus (issue 16): registered per scope — groups get the group's commands,
private chats the private ones — and per language ("ru", "en", and for everyone else the
bot's default language), read back from the fake Telegram as Telegram answers
`getMyCommands`; each user sees his language's menu of the chat's scope, and /new names
all five games."""

from __future__ import annotations

import re

import pytest
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeDefault,
)

from bot.command_menus import COMMANDS, PRIVATE_COMMANDS
from fake_telegram import FakeTelegram
from tests.bot.e2e import in_group, running, settings_for
from tests.bot.game_names import CANONICAL

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
Scope = BotCommandScopeDefault | BotCommandScopeAllPrivateChats | BotCommandScopeAllGroupChats
SCOPES: dict[str, tuple[Scope, tuple[str, ...]]] = {
    "default": (BotCommandScopeDefault(), PRIVATE_COMMANDS),
    "private": (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
    "groups": (BotCommandScopeAllGroupChats(), COMMANDS),
}


def in_language(menu: list[BotCommand], lang: str) -> bool:
    russian = [bool(CYRILLIC.search(c.description)) for c in menu]
    return all(russian) if lang == "ru" else not any(russian)


async def test_each_scope_and_language_has_its_menu_and_each_user_sees_his() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(1701, "Anna", language_code="en-GB")
        boris = tg.user(1702, "Борис", language_code="ru")
        karl = tg.user(1703, "Karl", language_code="de")  # no menu of his own: the default's
        olena = tg.user(1704, "Олена", language_code="uk")
        chat = tg.group(members=[anna, boris, karl, olena])
        async with running(settings_for(tg)) as app:
            for scope, commands in SCOPES.values():
                for lang in ("ru", "en", None):
                    menu = await app.bot.get_my_commands(scope=scope, language_code=lang)
                    assert [c.command for c in menu] == list(commands), (scope, lang)
                    assert in_language(menu, lang or "ru"), menu
                    new = menu[0].description
                    assert len(new) <= 256
                    assert all(name in new for name in CANONICAL[lang or "ru"].values()), new
                    ephemeral = {c.command for c in menu if c.is_ephemeral}
                    assert ephemeral == (
                        {"rules", "help", "leave", "top", "stats", "history", "notify"}
                        if commands is COMMANDS
                        else set()
                    )
            # a scope nobody registered: nothing, as Telegram answers
            nothing = BotCommandScopeChat(chat_id=chat.id)
            assert await app.bot.get_my_commands(scope=nothing) == []
            # what each one sees under «/»
            en_group = chat.command_menu(anna)
            assert en_group[0].startswith("/new — New game: Seven Tracks, Cell Capture")
            assert any(line.startswith("/top — ") for line in en_group)
            assert not CYRILLIC.search(" ".join(en_group))
            ru_group = chat.command_menu(boris)
            assert ru_group[0].startswith("/new — Новая игра: Семидорожник, Захват клеток")
            assert chat.command_menu(karl) == ru_group  # the bot's default language
            assert chat.command_menu(olena) == ru_group
            en_private = tg.private(anna).command_menu(anna)
            assert [line.split(" — ")[0] for line in en_private] == [
                f"/{c}" for c in PRIVATE_COMMANDS
            ]
            assert not CYRILLIC.search(" ".join(en_private))
            # Telegram refuses a language that is not two letters
            with pytest.raises(TelegramBadRequest, match="language code"):
                await app.bot.set_my_commands(
                    [BotCommand(command="new", description="x")], language_code="english"
                )


async def test_an_english_bot_gives_users_of_other_languages_english_menus() -> None:
    async with in_group(1711, ["Karl"], bot_language="en", language="de") as group:
        _, app, chat, (karl,) = group
        default = await app.bot.get_my_commands(scope=BotCommandScopeAllGroupChats())
        assert in_language(default, "en")
        russian = await app.bot.get_my_commands(
            scope=BotCommandScopeAllGroupChats(), language_code="ru"
        )
        assert in_language(russian, "ru")
        assert chat.command_menu(karl)[0].startswith("/new — New game: Seven Tracks")
