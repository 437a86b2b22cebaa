"""The command menus Telegram shows under «/»: one per scope and language.

Groups get every command (the memory's /top /stats /history /notify are the group's);
private chats get what works there (a solo game against computers and its memory, the
rules, /pings, /settings for one's own defaults).
Each menu is registered for Russian and English users (`language_code` "ru", "en") and,
without a language, for everyone else in the bot's default language. The description of
/new names the games (`command.new`, within Telegram's 256 characters).

    >>> menu = command_menu("en", groups=False, games=["game.hypnosia.title"])
    >>> " ".join(c.command for c in menu)
    'new table leave cancel rules help top stats history replay pings settings'
    >>> menu[0].description
    'New game: Hypnosia'
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence

from aiogram import Bot
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)

from locales import LANGUAGES, get_translator

log = logging.getLogger(__name__)

COMMANDS = (
    *("new", "table", "leave", "cancel", "rules", "help"),
    *("top", "stats", "history", "notify"),  # the group's memory (bot/handlers/memory.py)
    "replay",  # a finished game as an animation (bot/handlers/replay.py)
    "pings",  # turn reminders (bot/handlers/pings.py)
    "settings",  # the chat's settings and house rules (bot/handlers/settings.py)
)
# What works in a private chat: a solo game and its memory (one's own games against
# computers), the rules and help, one's own pings and defaults.
PRIVATE_COMMANDS = (
    *("new", "table", "leave", "cancel", "rules", "help"),
    *("top", "stats", "history", "replay"),  # a solo player's own games
    *("pings", "settings"),
)
# Sent as ephemeral messages in groups (Bot API 10.2): the asker alone sees the command
# and the bot's answer, which costs the group's flood budget nothing (bot/replies.py).
EPHEMERAL_COMMANDS = frozenset({"leave", "rules", "help", "top", "stats", "history", "notify"})
DESCRIPTION_LIMIT = 256  # Telegram's, per command
# Each scope with its menu: the default scope (any chat no narrower scope covers) gets
# the private menu, which needs nothing of a group.
SCOPES = (
    (BotCommandScopeDefault(), False),
    (BotCommandScopeAllPrivateChats(), False),
    (BotCommandScopeAllGroupChats(), True),
)


def command_menu(lang: str, *, groups: bool, games: Sequence[str]) -> list[BotCommand]:
    """The menu of a group (`groups`) or of a private chat in `lang`; `games`: the title
    keys of the games offered, named by /new's description. In groups /rules, /help,
    /leave and the memory's commands are ephemeral."""
    t = get_translator(lang)
    titles = ", ".join(t(key) for key in games)
    menu = []
    for c in COMMANDS if groups else PRIVATE_COMMANDS:
        description = t("command.new", games=titles) if c == "new" else t(f"command.{c}")
        menu.append(
            BotCommand(
                command=c,
                description=description[:DESCRIPTION_LIMIT],
                is_ephemeral=True if groups and c in EPHEMERAL_COMMANDS else None,
            )
        )
    return menu


async def set_commands(bot: Bot, default_language: str, games: Sequence[str]) -> None:
    """Register every menu: each scope × ("ru", "en", no language: the default's)."""
    for lang in (*LANGUAGES, None):
        for scope, groups in SCOPES:
            menu = command_menu(lang or default_language, groups=groups, games=games)
            try:
                await bot.set_my_commands(menu, scope=scope, language_code=lang)
            except Exception as e:  # a menu is a nicety: the bot runs without one
                with contextlib.suppress(Exception):
                    log.warning("command menu %s/%s not set: %s", scope.type, lang, e)
