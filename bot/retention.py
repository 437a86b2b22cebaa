"""What the bot keeps of a group it was removed from (issue 15): the group's memory
(bot/memory/) and its preferences (`/pings`, its settings, the hello's marker) go within
MEMORY_RETENTION_DAYS of the removal; the game record goes after GAME_TTL_DAYS anyway.
The chat's parts of its players' overall ratings, and so their places on the all-chats
leaderboards, go no later (issue 30: `bot.memory.ratings.Overall`, `Keeper.forget_later`).

Added back before that, nothing is lost: the memory's keys expire the retention after
their last write in any case (a removal never lengthens that, so there is nothing to
lift), and the preferences get their usual lifetime back."""

from __future__ import annotations

from bot import chat_settings
from bot.memory.keeper import memory_of
from bot.onboarding import hello_key
from bot.service import GameService, pings


def chat_prefs(chat_id: int) -> list[str]:
    """The chat's own preferences in the store."""
    return [pings.chat_key(chat_id), chat_settings.chat_key(chat_id), hello_key(chat_id)]


async def removed(service: GameService, chat_id: int) -> None:
    """The bot was removed from the chat: what is kept of it goes within the retention."""
    await memory_of(service.ctx).forget_later(chat_id)
    retention = service.settings.memory_retention_days * 86400
    await service.store.expire_prefs(chat_prefs(chat_id), retention)


async def back(service: GameService, chat_id: int) -> None:
    """The bot is in the chat again: its preferences are kept as usual."""
    await service.store.expire_prefs(chat_prefs(chat_id), None)
