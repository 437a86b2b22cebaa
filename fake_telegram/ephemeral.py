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
  that chat (``callback_query_id``, at most ``reply_window`` after the press). The result
  is a ``Message`` with ``message_id`` 0, ``ephemeral_message_id`` and ``receiver_user``.
  It is shown to the receiver only: it is not in ``chat.messages`` (the group's history)
  and does not count in the group's ``flood_limit`` nor in ``global_limit``
  (``limits.py``); ``server.ephemeral_limit`` (off by default: Telegram documents no
  limit) counts ephemeral sends and edits per chat and receiver.
- ``replace_callback_query_message`` (Bot API 10.3) with a ``callback_query_id``: the
  ephemeral message is shown to the presser in place of the message he pressed; the
  fake notes its id in ``extra["replaces_message_id"]`` (not sent to the bot) and
  :meth:`ChatView.seen_by <fake_telegram.chat_view.ChatView.seen_by>` shows what he sees
  there (the copy until it is deleted, then the original again). It "must be False for
  callback queries from ephemeral messages" (those are edited with
  ``editEphemeralMessage*``): refused with 400 (:data:`REPLACE_EPHEMERAL`), as is asking
  for it without a callback query (:data:`REPLACE_NEEDS_QUERY`).
- ``editEphemeralMessageText``/``Caption``/``Media``/``ReplyMarkup`` and
  ``deleteEphemeralMessage`` address it by ``chat_id``, ``receiver_user_id`` and
  ``ephemeral_message_id``; they are outside the group's flood budget too.
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

from .records import ChatState, FloodCounter, StoredMessage

if TYPE_CHECKING:
    from .server import FakeBotApi

__all__ = [
    "REPLACE_EPHEMERAL",
    "REPLACE_NEEDS_QUERY",
    "REPLY_WINDOW",
    "UNAVAILABLE",
    "EphemeralState",
    "ephemeral_id",
    "requested",
]

REPLY_WINDOW = 15.0  # seconds: an ephemeral message may be replied to this long
UNAVAILABLE = "ephemeral messages are unavailable"
# the fake's wordings for replace_callback_query_message (Telegram's are not documented)
REPLACE_EPHEMERAL = (
    "replace_callback_query_message must be False for a callback query from an ephemeral "
    "message; edit it with editEphemeralMessage* instead"
)
REPLACE_NEEDS_QUERY = "replace_callback_query_message needs a callback_query_id"
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
    #: what ``server.ephemeral_limit`` counted, by ``(chat_id, receiver user id)``
    flood: dict[tuple[int, int], FloodCounter] = field(default_factory=dict)
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

    def replacement(self, chat_id: int, user_id: int, message_id: int) -> StoredMessage | None:
        """The bot's ephemeral message that ``user_id`` sees in place of the group's message
        ``message_id`` (sent with ``replace_callback_query_message``; the newest one, not
        deleted), or None."""
        found: StoredMessage | None = None
        for (chat, _), message in sorted(self.messages.items()):
            if chat != chat_id or message.deleted or receiver_id(message) != user_id:
                continue
            if message.extra.get("replaces_message_id") == message_id:
                found = message
        return found

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
