"""Which language the bot speaks where: the one place that decides it.

- A game speaks its own language (`GameRecord.language`), fixed when its lobby opens: the
  chat's setting (`/settings`, bot/chat_settings.py), else the language of the user who
  opened the lobby. Everything of the game does: the table and its picture, the answers
  to presses, the summaries, and each player's hand (one view, sent ephemerally in the
  group or, as its fallback, privately with the same buttons).
- A user's Telegram language (`language_code`, an IETF tag such as "en-GB") is read by
  `language_of`: English ("en…") is English, Russian is Russian, and so are the languages
  of users who commonly read Russian (Ukrainian, Belarusian, Kazakh…: the bot is made for
  Russian speakers); any other language, or none, is the bot's default (`BOT_LANGUAGE`).
- A private chat follows its user: his own setting, else his Telegram language.
- A group outside a game follows the group: the running game's language (its lobby or
  table), else the group's setting, else the language of whoever wrote.

    >>> language_of("en-GB", "ru"), language_of("uk", "en"), language_of("de", "ru")
    ('en', 'ru', 'ru')
    >>> language_of(None, "en")
    'en'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram.enums import ChatType
from aiogram.types import Chat, User

from bot import chat_settings
from bot.storage import RecordStatus, Store
from locales import LANGUAGES, Translator, get_translator

if TYPE_CHECKING:
    from bot.service import GameService

# Telegram languages whose users are answered in Russian (primary subtags, ISO 639-1).
READS_RUSSIAN = frozenset({"ru", "uk", "be", "kk", "ky", "uz", "tg", "tk", "az", "hy", "ka"})


def language_of(code: str | None, default: str) -> str:
    """The bot's language for a user whose Telegram language is `code`."""
    primary = (code or "").strip().lower().replace("_", "-").split("-")[0]
    if primary in LANGUAGES:
        return primary
    if primary in READS_RUSSIAN:
        return "ru"
    return default


async def chat_language(store: Store, chat: Chat, user: User | None, default: str) -> str:
    """The language of the bot's answers in `chat` to `user` (see the module's text)."""
    code = user.language_code if user is not None else None
    if chat.type == ChatType.PRIVATE:
        own = await chat_settings.load(store, chat_settings.user_key(chat.id))
        if own.language is not None and own.language in LANGUAGES:
            return own.language
        return language_of(code, default)
    rec = await store.get(chat.id)
    if rec is not None and rec.status in (RecordStatus.LOBBY, RecordStatus.PLAYING):
        return rec.language
    setting = await chat_settings.load(store, chat_settings.chat_key(chat.id))
    if setting.language is not None and setting.language in LANGUAGES:
        return setting.language
    return language_of(code, default)


async def translator_for(service: GameService, chat: Chat | None, user: User | None) -> Translator:
    """The translator of the bot's answer in `chat` to `user` (`chat_language`); with no
    chat (a press on a message Telegram no longer shows), the user's own language."""
    default = service.settings.bot_language
    if chat is None:
        return get_translator(language_of(user.language_code if user else None, default))
    return get_translator(await chat_language(service.store, chat, user, default))


def user_translator(service: GameService, user: User | None) -> Translator:
    """The translator of a short answer to `user` alone (a toast), from his Telegram
    language: no store read (e.g. a press on a stale or unknown button)."""
    code = user.language_code if user is not None else None
    return get_translator(language_of(code, service.settings.bot_language))
