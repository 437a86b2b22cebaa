"""The calls the fake server refuses on purpose: errors injected by a test
(``inject_error``), the per-chat flood limit (``flood_limit``) and the bot-wide one
(``global_limit``), both answering ``429 Too Many Requests: retry after N``."""

from __future__ import annotations

import math
import time
from collections import deque
from typing import Any

from .ephemeral import requested as ephemeral_requested
from .records import FloodLimit, InjectedError, TelegramError
from .state import ServerState

# Methods counted by the optional bot-wide limit (`FakeBotApi.global_limit`).
_GLOBAL_PREFIXES = ("send", "edit", "delete", "answer", "copy", "forward", "stop")
# Methods counted by the optional per-chat flood limit.
_FLOOD_METHODS = frozenset(
    {
        "sendmessage",
        "sendphoto",
        "senddocument",
        "sendmediagroup",
        "editmessagetext",
        "editmessagecaption",
        "editmessagemedia",
        "editmessagereplymarkup",
    }
)


class LimitMethods(ServerState):
    """Injected errors and flood limits, checked before every call runs."""

    def inject_error(
        self,
        method: str,
        error_code: int,
        description: str,
        *,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
        chat_id: int | str | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (optionally only for ``chat_id``) fail."""
        parameters: dict[str, Any] = {}
        if retry_after is not None:
            parameters["retry_after"] = retry_after
        if migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = migrate_to_chat_id
        error = TelegramError(error_code, description, parameters or None)
        self._injected.append(InjectedError(method.lower(), error, chat_id, times))

    def _check_injected(self, method: str, params: dict[str, Any]) -> None:
        for injected in self._injected:
            if injected.method != method.lower():
                continue
            if injected.chat_id is not None and injected.chat_id != params.get("chat_id"):
                continue
            injected.times -= 1
            if injected.times <= 0:
                self._injected.remove(injected)
            raise injected.error

    def _check_global(self, method: str) -> None:
        """The bot-wide budget (`global_limit`): sends, edits, deletes and answers."""
        limit = self.global_limit
        if limit is None or not method.lower().startswith(_GLOBAL_PREFIXES):
            return
        try:
            _spend(limit, self._global_times)
        except TelegramError:
            self.global_refused += 1
            raise

    def _check_flood(self, method: str, params: dict[str, Any]) -> None:
        self._check_global(method)
        limit = self.flood_limit
        if limit is None or method.lower() not in _FLOOD_METHODS or ephemeral_requested(params):
            return  # ephemeral messages are outside the group's budget
        if limit.sends_only and not method.lower().startswith("send"):
            return
        chat = self.chats.get(params.get("chat_id"))  # type: ignore[arg-type]
        if chat is None:
            return
        _spend(limit, chat.sent_times)


def _spend(limit: FloodLimit, times: deque[float]) -> None:
    """Count a call in ``times`` (the monotonic times of the calls counted so far), or
    refuse it with 429 when ``limit`` is spent for the current window."""
    now = time.monotonic()
    while times and now - times[0] >= limit.window:
        times.popleft()
    if len(times) >= limit.count:
        retry_after = max(1, math.ceil(limit.window - (now - times[0])))
        raise TelegramError(
            429,
            f"Too Many Requests: retry after {retry_after}",
            {"retry_after": retry_after},
        )
    times.append(now)
