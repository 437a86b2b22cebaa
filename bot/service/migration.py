"""A basic group became a supergroup: its game moves to the new chat id (`migrate`)."""

from __future__ import annotations

import logging

from bot import chat_settings
from bot.service.context import Context
from bot.service.lobby import Lobby
from bot.service.lobby_message import lobby_markup, lobby_text
from bot.service.table_worker import TableWorker
from bot.service.timers import Deadlines
from bot.storage import ACTIVE, Conflict, GameRecord, RecordStatus

log = logging.getLogger(__name__)


class Migration:
    def __init__(
        self, ctx: Context, deadlines: Deadlines, table: TableWorker, lobby: Lobby
    ) -> None:
        self.ctx = ctx
        self.deadlines = deadlines
        self.table = table
        self.lobby = lobby

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> None:
        """The game moves to the new chat id and its table (or lobby) is sent there anew
        (messages of the old chat can't be edited any more)."""
        ctx = self.ctx
        await chat_settings.move(ctx.store, old_chat_id, new_chat_id)  # /settings
        async with ctx.locks[old_chat_id], ctx.locks[new_chat_id]:
            rec = await ctx.store.get(old_chat_id)
            if rec is None or rec.status not in ACTIVE:
                return
            if await ctx.store.get(new_chat_id) is not None:
                return
            moved = rec.model_copy(
                update={
                    "steps": await ctx.store.steps(rec),  # the new chat's step list
                    "steps_stored": 0,
                    "chat_id": new_chat_id,
                    "version": 0,
                    "seq": rec.seq + 1,
                    "table_message_id": None,
                    "lobby_message_id": None,
                    "shown_picture": None,
                    "shown_text": None,
                    "shown_seq": None,
                }
            )
            try:
                moved = await ctx.store.put(moved, 0)
                await ctx.store.delete(old_chat_id, rec.version)
            except Conflict:
                return
            log.info("game %s moved from chat %s to %s", rec.uid, old_chat_id, new_chat_id)
        if moved.status == RecordStatus.LOBBY:
            msg_id = await ctx.send(
                new_chat_id, lobby_text(self.ctx, moved), markup=lobby_markup(self.ctx, moved)
            )

            def remember(r: GameRecord) -> GameRecord | None:
                r.lobby_message_id = msg_id
                return r

            if msg_id is not None:
                await ctx.update(new_chat_id, remember)
            await self.deadlines.schedule(moved)  # the lobby's expiry, in the new chat
        else:
            self.table.kick(new_chat_id)
            await self.deadlines.schedule(moved)
        await ctx.store.set_deadline(old_chat_id, None)
