"""Ephemeral messages (Bot API 10.2) in the fake server: seen by one member of a group only.

What Telegram documents, as the fake does it:

- A bot command registered with ``is_ephemeral=True`` (``setMyCommands``) may be sent by a
  member as an *ephemeral* message: the bot receives a ``message`` update whose
  ``message_id`` is 0, with ``ephemeral_message_id`` (unique in the chat) and
  ``receiver_user`` (the bot). Nobody else in the group sees it
  (:meth:`Chat.send_ephemeral <fake_telegram.harness.Chat.send_ephemeral>`).
- The bot answers with ``sendMessage``/``sendPhoto`` and
  ``ephemeral_message_parameters={"receiver_user_id": ...}`` (the older top-level
  ``receiver_user_id``/``callback_query_id`` work too), either as a reply to the member's
  ephemeral message (``reply_parameters={"ephemeral_message_id": ...}``, at most
  ``reply_window`` = 15 s after it was sent) or for a callback query of that member in
  that chat (``callback_query_id``). The result is a ``Message`` with ``message_id`` 0,
  ``ephemeral_message_id`` and ``receiver_user``. It is shown to the receiver only: it is
  not in ``chat.messages`` (the group's history) and does not count in the group's
  :class:`~fake_telegram.server.FloodLimit` window.
- ``editEphemeralMessageText``/``Caption``/``Media``/``ReplyMarkup`` and
  ``deleteEphemeralMessage`` address it by ``chat_id``, ``receiver_user_id`` and
  ``ephemeral_message_id``; they are not counted in the flood window either.
- A reply to an ephemeral message must itself be ephemeral; ephemeral messages exist in
  groups and supergroups only.

``server.ephemeral.fail = True`` makes every ephemeral send fail (``400 Bad Request:
ephemeral messages are unavailable``), for testing a bot's fallbacks. The error wordings
are the fake's own (Telegram does not document them).

Messages are :class:`~fake_telegram.server.StoredMessage` objects (``message_id`` 0,
the ephemeral fields in ``extra``), so ``content``, ``buttons``, ``edit_count`` and
``chat.press(user, message, ...)`` work on them as on any message.

This module holds the rules and the state (:class:`EphemeralState`, ``server.ephemeral``);
the Bot API methods are in ``ephemeral_methods.py``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .records import ChatState, StoredMessage

if TYPE_CHECKING:
    from .server import FakeBotApi

__all__ = ["REPLY_WINDOW", "UNAVAILABLE", "EphemeralState", "ephemeral_id", "requested"]

REPLY_WINDOW = 15.0  # seconds: an ephemeral message may be replied to this long
UNAVAILABLE = "ephemeral messages are unavailable"
PRESENT = frozenset({"creator", "administrator", "member", "restricted"})


def ephemeral_id(message: StoredMessage) -> int | None:
    """The ``ephemeral_message_id`` of an ephemeral message, None for a usual one."""
    value = message.extra.get("ephemeral_message_id")
    return int(value) if value is not None else None


def receiver_id(message: StoredMessage) -> int | None:
    receiver = message.extra.get("receiver_user")
    return int(receiver["id"]) if isinstance(receiver, dict) else None


def as_dict(value: Any) -> dict[str, Any] | None:
    if isinstance(value, str) and value:
        value = json.loads(value)
    return value if isinstance(value, dict) else None


def requested(params: dict[str, Any]) -> bool:
    """True when a send asks for an ephemeral message."""
    return bool(
        as_dict(params.get("ephemeral_message_parameters"))
        or params.get("receiver_user_id") not in (None, "")
    )


@dataclass
class EphemeralState:
    """Every ephemeral message of every chat, by ``(chat_id, ephemeral_message_id)``."""

    messages: dict[tuple[int, int], StoredMessage] = field(default_factory=dict)
    #: the ephemeral message (or ``"callback:<id>"``) each bot message answered
    answers: dict[tuple[int, int], str] = field(default_factory=dict)
    fail: bool = False
    reply_window: float = REPLY_WINDOW
    _next: dict[int, int] = field(default_factory=dict)

    def new_id(self, chat_id: int) -> int:
        value = self._next.get(chat_id, 0) + 1
        self._next[chat_id] = value
        return value

    def last_id(self, chat_id: int) -> int:
        return self._next.get(chat_id, 0)

    def visible_to(self, chat_id: int, user_id: int) -> list[StoredMessage]:
        """What ``user_id`` alone sees in the chat: his ephemeral messages to the bot and
        the bot's to him (deleted ones left out), oldest first."""
        out: list[StoredMessage] = []
        for (chat, _), message in sorted(self.messages.items()):
            if chat != chat_id or message.deleted:
                continue
            sender = (message.from_user or {}).get("id")
            if sender == user_id or receiver_id(message) == user_id:
                out.append(message)
        return out

    def incoming(
        self,
        server: FakeBotApi,
        chat: ChatState,
        user: dict[str, Any],
        text: str,
        entities: list[dict[str, Any]],
    ) -> StoredMessage:
        """A member's ephemeral message to the bot (an ephemeral command)."""
        eid = self.new_id(chat.id)
        message = StoredMessage(
            chat=chat,
            message_id=0,
            date=int(time.time()),
            from_user=user,
            text=text,
            entities=entities,
            extra={"receiver_user": server.bot_user, "ephemeral_message_id": eid},
        )
        self.messages[(chat.id, eid)] = message
        return message

    def command_is_ephemeral(self, server: FakeBotApi, command: str) -> bool:
        """Whether the bot registered ``command`` as ephemeral for groups (any language)."""
        for (scope, _), commands in server.commands.items():
            kind = json.loads(scope).get("type")
            if kind not in ("default", "all_group_chats", "chat", "all_chat_administrators"):
                continue
            for item in commands:
                if item.get("command") == command and item.get("is_ephemeral"):
                    return True
        return False
