"""A chat's own settings (`/settings`, bot/handlers/settings.py), and a user's own defaults
in his private chat with the bot: one small JSON value per chat or user, kept as a
lasting preference of the store (`Store.get_pref` / `set_pref`).

What is not set follows the bot's configuration: `None` everywhere means «as the bot
does by default», so a chat that never opened `/settings` plays exactly as before.

- `default_game`: the game `/new` opens without an argument;
- `turn_seconds`: the lobby's turn timer to start from (0: none);
- `language`: the chat's language (None: the language of whoever opens the lobby);
- `house_rules`: per game id, the spec options that differ from the game's defaults.

Pings on/off stay where `/pings` keeps them (bot/service/pings.py `chat_on`), and the
season length in the chat's memory (`ChatMemory.length`, bot/memory/): one place each.

    >>> s = ChatSettings(house_rules={"hypnosia": {"pairs_cross_bridges": True}})
    >>> ChatSettings.model_validate_json(s.model_dump_json()) == s
    True
    >>> ChatSettings.model_validate_json("{junk")
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for ChatSettings
    ...
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from bot.storage import Store

log = logging.getLogger(__name__)


class ChatSettings(BaseModel):
    default_game: str | None = None
    turn_seconds: float | None = None
    language: str | None = None
    house_rules: dict[str, dict[str, Any]] = Field(default_factory=dict)


def chat_key(chat_id: int) -> str:
    return f"settings:chat:{chat_id}"


def user_key(user_id: int) -> str:
    return f"settings:user:{user_id}"


async def load(store: Store, key: str) -> ChatSettings:
    """The settings under `key` (`chat_key` / `user_key`); defaults when none are stored or
    the stored value does not load (logged once, never a crash)."""
    raw = await store.get_pref(key)
    if raw is None:
        return ChatSettings()
    try:
        return ChatSettings.model_validate_json(raw)
    except ValidationError:
        log.warning("unreadable settings under %s: using the defaults", key)
        return ChatSettings()


async def save(store: Store, key: str, settings: ChatSettings) -> None:
    """Store `settings` under `key`; all-default settings are forgotten."""
    value = None if settings == ChatSettings() else settings.model_dump_json(exclude_defaults=True)
    await store.set_pref(key, value)


async def for_lobby(store: Store, chat_id: int, user: int) -> ChatSettings:
    """What a lobby `user` opens in `chat_id` starts from: the chat's settings, and for
    what the chat did not set, the user's own defaults (his private `/settings`; the
    house rules as a whole: the chat's when it has any)."""
    mine = await load(store, user_key(user))
    if chat_id == user:  # his private chat: his own defaults are its settings
        return mine
    chat = await load(store, chat_key(chat_id))
    return ChatSettings(
        default_game=chat.default_game or mine.default_game,
        turn_seconds=mine.turn_seconds if chat.turn_seconds is None else chat.turn_seconds,
        language=chat.language or mine.language,
        house_rules=chat.house_rules or mine.house_rules,
    )


async def move(store: Store, old_chat_id: int, new_chat_id: int) -> None:
    """A group that became a supergroup keeps its settings (unless the new id has some)."""
    raw = await store.get_pref(chat_key(old_chat_id))
    if raw is None or await store.get_pref(chat_key(new_chat_id)) is not None:
        return
    await store.set_pref(chat_key(new_chat_id), raw)
    await store.set_pref(chat_key(old_chat_id), None)
