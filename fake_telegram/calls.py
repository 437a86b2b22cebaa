"""Running one Bot API call: the checks of ``limits.py``, the method, Telegram's reply,
and the log of calls (``server.calls``) that tests read."""

from __future__ import annotations

import time
from typing import Any

from .limits import LimitMethods
from .records import ApiCall, TelegramError
from .wire import Upload, summarise


class CallMethods(LimitMethods):
    """``execute`` (every call, from HTTP or a webhook reply) and the call log."""

    async def execute(
        self,
        method: str,
        params: dict[str, Any],
        uploads: dict[str, Upload] | None = None,
        *,
        via_webhook_reply: bool = False,
    ) -> tuple[int, dict[str, Any]]:
        """Run one API method and log it; returns ``(http_status, json_body)``."""
        uploads = uploads or {}
        handler = self._methods.get(method.lower())
        started = time.monotonic()
        call = ApiCall(
            seq=next(self._call_seq),
            method=method,
            params=summarise(params, uploads),
            time=started,
            wall_time=time.time(),
            chat_id=params.get("chat_id"),
            message_id=params.get("message_id"),
            via_webhook_reply=via_webhook_reply,
        )
        if method.lower() == "answercallbackquery":
            query = self.callbacks.get(str(params.get("callback_query_id")))
            if query is not None:
                call.chat_id, call.message_id = query.chat_id, query.message_id
        status = 200
        try:
            if handler is None:
                raise TelegramError(404, "Not Found")
            self._check_injected(method, params)
            self._check_flood(method, params)
            result = await handler(params, uploads)
            body: dict[str, Any] = {"ok": True, "result": result}
            if isinstance(result, dict) and "message_id" in result:
                call.message_id = result["message_id"]
            if self.log_results and method.lower() != "getupdates":
                call.result = result
        except TelegramError as exc:
            status = exc.error_code
            call.ok = False
            call.error_code = exc.error_code
            call.description = exc.description
            body = exc.to_json()
        call.duration = time.monotonic() - started
        if method.lower() != "getupdates" or not call.ok:
            self.calls.append(call)
            if call.chat_id is not None:
                self.calls_by_chat.setdefault(call.chat_id, []).append(call)
        chat_id = call.chat_id if isinstance(call.chat_id, int) else None
        self.notify(chat_id)
        if method.lower() != "getupdates":
            for listener in list(self._call_listeners):
                listener(call)
        return status, body

    def calls_of(self, method: str | None = None, chat_id: int | None = None) -> list[ApiCall]:
        """Logged calls, filtered by method name (case-insensitive) and/or chat."""
        wanted = method.lower() if method else None
        source = self.calls if chat_id is None else self.calls_by_chat.get(chat_id, [])
        return [
            call
            for call in source
            if (wanted is None or call.method.lower() == wanted)
            and (chat_id is None or call.chat_id == chat_id)
        ]
