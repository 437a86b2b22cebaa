"""`/table`: the running game's table comes back to the bottom of the chat (sent anew;
the old message loses its buttons — bot/bottom.py, bot/service/table_worker.py). And
every message the bot receives is counted below the table (`SeenMessages`)."""

from __future__ import annotations

from typing import Any

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.bottom import Bottom, SeenMessages
from bot.handlers.common import plays_here
from bot.language import translator_for
from bot.replies import Asked
from bot.service import GameService
from bot.storage import RecordStatus


def bottom_of(data: dict[str, Any]) -> Bottom | None:
    service = data.get("service")
    return service.table.bottom if isinstance(service, GameService) else None


async def table_command(message: Message, service: GameService) -> None:
    t = await translator_for(service, message.chat, message.from_user)
    asked = Asked.of(message)
    if not plays_here(message.chat):
        await service.replies.answer(asked, t("new.private"), t, topic="new.private")
        return
    chat_id = message.chat.id
    rec = await service.store.get(chat_id)
    if rec is None or rec.status != RecordStatus.PLAYING:
        t = service.t(rec.language if rec is not None else None)
        await service.replies.answer(asked, t("table.no_game"), t, topic="table.no_game")
        return
    bottom = service.table.bottom
    if rec.table_message_id is not None and bottom.at_bottom(chat_id, rec.table_message_id):
        t = service.t(rec.language)  # (an ephemeral /table: nothing was posted below it)
        await service.replies.answer(asked, t("table.at_bottom"), t, topic="table.at_bottom")
        return
    bottom.ask(chat_id)
    service.table.kick(chat_id)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only). It comes first:
    its outer middleware sees every message the bot receives."""
    router = Router(name="table")
    router.message.outer_middleware(SeenMessages(bottom_of))
    router.message.register(table_command, Command("table"))
    return router
