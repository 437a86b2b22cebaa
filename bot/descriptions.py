"""The bot's description (an empty private chat: «What can this bot do?») and short
description (its profile, a shared link), from the locales, set at start-up for the
bot's language (no `language_code`: everyone without a text of his own) and for each
other language. Each is set only when Telegram holds another text, so restarts cost
a get, not a change."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from aiogram import Bot

from bot.config import Settings
from locales import LANGUAGES, get_translator

log = logging.getLogger(__name__)

DESCRIPTION_LIMIT = 512  # characters, Bot API setMyDescription
SHORT_DESCRIPTION_LIMIT = 120  # setMyShortDescription


def descriptions(lang: str, games: Sequence[str]) -> tuple[str, str]:
    """(description, short description) in `lang`, naming the `games` (title keys)."""
    t = get_translator(lang)
    titles = [t(key) for key in games]
    long = t("description.long", games=t.listing(titles))
    return long, t("description.short", games=", ".join(titles))


async def set_descriptions(bot: Bot, settings: Settings, games: Sequence[str]) -> None:
    codes: list[str | None] = [None, *(x for x in LANGUAGES if x != settings.bot_language)]
    for code in codes:
        long, short = descriptions(code or settings.bot_language, games)
        try:
            if (await bot.get_my_description(language_code=code)).description != long:
                await bot.set_my_description(long, language_code=code)
            held = await bot.get_my_short_description(language_code=code)
            if held.short_description != short:
                await bot.set_my_short_description(short, language_code=code)
        except Exception as e:  # a courtesy of the profile: never stops the bot
            log.warning("bot description (%s) not set: %s", code or "default", e)
