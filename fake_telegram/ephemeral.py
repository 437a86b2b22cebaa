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
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from .server import ChatState, FakeBotApi, FileRecord, StoredMessage, _Upload

__all__ = ["REPLY_WINDOW", "UNAVAILABLE", "EphemeralMethods", "EphemeralState", "ephemeral_id"]

REPLY_WINDOW = 15.0  # seconds: an ephemeral message may be replied to this long
UNAVAILABLE = "ephemeral messages are unavailable"
_PRESENT = frozenset({"creator", "administrator", "member", "restricted"})


def ephemeral_id(message: StoredMessage) -> int | None:
    """The ``ephemeral_message_id`` of an ephemeral message, None for a usual one."""
    value = message.extra.get("ephemeral_message_id")
    return int(value) if value is not None else None


def receiver_id(message: StoredMessage) -> int | None:
    receiver = message.extra.get("receiver_user")
    return int(receiver["id"]) if isinstance(receiver, dict) else None


def _as_dict(value: Any) -> dict[str, Any] | None:
    if isinstance(value, str) and value:
        value = json.loads(value)
    return value if isinstance(value, dict) else None


def requested(params: dict[str, Any]) -> bool:
    """True when a send asks for an ephemeral message."""
    return bool(
        _as_dict(params.get("ephemeral_message_parameters"))
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
        from .server import StoredMessage

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


class EphemeralMethods:
    """The ephemeral part of :class:`~fake_telegram.server.FakeBotApi` (a mixin:
    its ``m_*`` methods are Bot API methods; the sends hook in through
    :meth:`_send_ephemeral`)."""

    def _api(self) -> FakeBotApi:
        return cast("FakeBotApi", self)

    def _send_ephemeral(
        self,
        chat: ChatState,
        params: dict[str, Any],
        *,
        text: str | None = None,
        entities: list[dict[str, Any]] | None = None,
        caption: str | None = None,
        caption_entities: list[dict[str, Any]] | None = None,
        photo: FileRecord | None = None,
        reply_markup: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        from .server import StoredMessage, bad_request

        api = self._api()
        state = api.ephemeral
        if state.fail:
            raise bad_request(UNAVAILABLE)
        if chat.type not in ("group", "supergroup"):
            raise bad_request("ephemeral messages can be sent only to group chats")
        options = _as_dict(params.get("ephemeral_message_parameters")) or {}
        raw_receiver = options.get("receiver_user_id", params.get("receiver_user_id"))
        if raw_receiver in (None, ""):
            raise bad_request("receiver_user_id is empty")
        receiver = int(raw_receiver)
        if chat.members.get(receiver) not in _PRESENT:
            raise bad_request("the receiver is not a member of the chat")
        query_id = options.get("callback_query_id", params.get("callback_query_id"))
        reply = _as_dict(params.get("reply_parameters")) or {}
        answered: str
        if reply.get("ephemeral_message_id") is not None:
            target = state.messages.get((chat.id, int(reply["ephemeral_message_id"])))
            if target is None or target.deleted or (target.from_user or {}).get("id") != receiver:
                raise bad_request("ephemeral message to be replied not found")
            if time.monotonic() - target.created_at > state.reply_window:
                raise bad_request("the ephemeral message to be replied is too old")
            answered = str(ephemeral_id(target))
        elif query_id not in (None, ""):
            query = api.callbacks.get(str(query_id))
            if query is None or query.chat_id != chat.id or query.user.get("id") != receiver:
                raise bad_request("callback query not found")
            answered = f"callback:{query.id}"
        else:
            raise bad_request(
                "ephemeral messages can be sent only in reply to an ephemeral message "
                "or to a callback query"
            )
        user = api.users.get(receiver) or {"id": receiver, "is_bot": False, "first_name": "?"}
        eid = state.new_id(chat.id)
        extra: dict[str, Any] = {"receiver_user": user, "ephemeral_message_id": eid}
        if options.get("replace_callback_query_message"):
            extra["replaces_callback_message"] = True  # shown in place of the pressed one
        message = StoredMessage(
            chat=chat,
            message_id=0,
            date=int(time.time()),
            from_user=api.bot_user,
            text=text,
            entities=entities or [],
            caption=caption,
            caption_entities=caption_entities or [],
            photo=photo,
            reply_markup=reply_markup,
            extra=extra,
        )
        state.messages[(chat.id, eid)] = message
        state.answers[(chat.id, eid)] = answered
        api._retain(photo)
        return message.to_api()

    def _ephemeral_target(self, params: dict[str, Any], action: str) -> StoredMessage:
        from .server import _as_int, bad_request

        api = self._api()
        chat = api._resolve_chat(params.get("chat_id"))
        eid = _as_int(params.get("ephemeral_message_id"), "ephemeral_message_id")
        receiver = _as_int(params.get("receiver_user_id"), "receiver_user_id")
        message = api.ephemeral.messages.get((chat.id, eid))
        if (
            message is None
            or message.deleted
            or not message.from_bot
            or receiver_id(message) != receiver
        ):
            raise bad_request(f"message to {action} not found")
        return message

    async def m_editEphemeralMessageText(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        from .server import bad_request

        api = self._api()
        message = self._ephemeral_target(params, "edit")
        text, entities = api._text(params, "text", "entities", 4096, required=True)
        markup = api._markup(params, inline_only=True)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        api._apply_edit(
            message, text=text, entities=entities, reply_markup=markup, changes_text=True
        )
        return True

    async def m_editEphemeralMessageCaption(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        from .server import bad_request

        api = self._api()
        message = self._ephemeral_target(params, "edit")
        caption, caption_entities = api._text(
            params, "caption", "caption_entities", 1024, required=False
        )
        markup = api._markup(params, inline_only=True)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        api._apply_edit(
            message,
            caption=caption,
            caption_entities=caption_entities,
            reply_markup=markup,
            changes_caption=True,
        )
        return True

    async def m_editEphemeralMessageMedia(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        self._api()._edit_media(self._ephemeral_target(params, "edit"), params, uploads)
        return True

    async def m_editEphemeralMessageReplyMarkup(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        api = self._api()
        message = self._ephemeral_target(params, "edit")
        api._apply_edit(message, reply_markup=api._markup(params, inline_only=True))
        return True

    async def m_deleteEphemeralMessage(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        api = self._api()
        message = self._ephemeral_target(params, "delete")
        message.deleted = True
        api._release(message.photo)
        return True
