"""A clean chat (issue 16, point 5): at a game's end the bot deletes what served only
during it, and the chat keeps the lobby, the table's final picture, the summaries and
the standings.

What served only during the game is remembered in its record (`GameRecord.transient`,
message ids, while the lobby or the game runs):

- the bot's replies posted in the group (refusals, `/rules`, `/help`: bot/replies.py
  calls `remember` for each), and refusals posted without a command to answer
  (`Context.refuse`);
- the `/leave` and `/cancel` questions, unless they end as the chat's notice that a
  player left or the game was ended (`keep`);
- the table's older copies, left above when it was sent anew at the bottom
  (bot/service/table_worker.py).

The turn pings are deleted at the end of each turn already (bot/service/pings.py).
`sweep` deletes the remembered messages with `deleteMessages` (up to 100 a call) once
the record is over; a message Telegram won't delete (older than 48 hours, deleted by
hand) is skipped by Telegram, and a failed call is logged: the chat keeps it.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from aiogram.exceptions import TelegramAPIError
from aiogram.methods import DeleteMessages

from bot.storage import ACTIVE, GameRecord, StoreUnavailable

if TYPE_CHECKING:
    from bot.service.context import Context

log = logging.getLogger(__name__)

LIMIT = 300  # message ids remembered per game at most (the oldest are left in the chat)
BATCH = 100  # deleteMessages takes 1–100 ids


class CleanChat:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def remember(self, chat_id: int, message_id: int | None) -> None:
        """The bot's message `message_id` serves only while the chat's game runs (stored
        in the background; nothing when no lobby or game runs there)."""
        if message_id:
            self.ctx.spawn(self._remember(chat_id, message_id))

    async def _remember(self, chat_id: int, message_id: int) -> None:
        def add(r: GameRecord) -> GameRecord | None:
            if r.status not in ACTIVE or message_id in r.transient:
                return None
            r.transient = [*r.transient, message_id][-LIMIT:]
            return r

        with contextlib.suppress(StoreUnavailable):  # a courtesy: the message stays
            await self.ctx.update(chat_id, add)

    @staticmethod
    def keep(rec: GameRecord, message_id: int | None) -> None:
        """The message stays after the game after all (a question that became the
        chat's notice); changes `rec`, which the caller stores."""
        if message_id in rec.transient:
            rec.transient = [m for m in rec.transient if m != message_id]

    async def sweep(self, chat_id: int, rec: GameRecord | None) -> None:
        """The game is over: its transient messages are deleted (see the module's text)."""
        if rec is None or rec.status in ACTIVE or not rec.transient:
            return
        ids = sorted(set(rec.transient))
        for i in range(0, len(ids), BATCH):
            batch = ids[i : i + BATCH]
            try:
                await self.ctx.sender.call(DeleteMessages(chat_id=chat_id, message_ids=batch))
            except TelegramAPIError as e:  # no rights any more, or the chat is gone
                log.info("chat %s: %s messages of the game not deleted: %s", chat_id, len(batch), e)
        uid, done = rec.uid, set(ids)

        def clear(r: GameRecord) -> GameRecord | None:
            if r.uid != uid or not done.intersection(r.transient):
                return None
            r.transient = [m for m in r.transient if m not in done]
            return r

        await self.ctx.update(chat_id, clear)
