"""Callback queries: a press registered by the harness and ``answerCallbackQuery``."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .ephemeral import ephemeral_id
from .records import QUERY_TOO_OLD, CallbackRecord, StoredMessage, bad_request
from .state import ServerState
from .wire import Upload


class CallbackMethods(ServerState):
    """The callback queries users made and the bot's answers to them."""

    def new_callback(
        self, chat_id: int, message: StoredMessage, user: dict[str, Any], data: str | None
    ) -> CallbackRecord:
        """Register a callback query (the harness then queues its update)."""
        query_id = str(self.bot_id * 1_000_000 + next(self._callback_seq))
        record = CallbackRecord(
            id=query_id,
            chat_id=chat_id,
            message_id=message.message_id,
            user=user,
            data=data,
            created_at=time.monotonic(),
            future=asyncio.get_running_loop().create_future(),
            ephemeral_message_id=ephemeral_id(message),
        )
        self.callbacks[query_id] = record
        return record

    async def m_answerCallbackQuery(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        record = self.callbacks.get(str(params.get("callback_query_id") or ""))
        now = time.monotonic()
        if (
            record is None
            or record.answered
            or now - record.created_at > self.callback_answer_timeout
        ):
            raise bad_request(QUERY_TOO_OLD[len("Bad Request: ") :])
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        record.answered = True
        record.answered_at = now
        record.text = None if text is None else str(text)
        record.show_alert = bool(params.get("show_alert"))
        record.url = params.get("url")
        record.cache_time = params.get("cache_time")
        if record.future is not None and not record.future.done():
            record.future.set_result(record)
        self.notify(record.chat_id)
        return True
