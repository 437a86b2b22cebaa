"""The Bot API methods of ephemeral messages (Bot API 10.2): sending one (a send with
``ephemeral_message_parameters``), ``editEphemeralMessage*`` and ``deleteEphemeralMessage``.
What they do and the state they keep: ``ephemeral.py``."""

from __future__ import annotations

import time
from typing import Any

from .content import MessageContent
from .ephemeral import (
    PRESENT,
    REPLACE_EPHEMERAL,
    REPLACE_NEEDS_QUERY,
    UNAVAILABLE,
    as_dict,
    ephemeral_id,
    receiver_id,
)
from .records import ChatState, FileRecord, StoredMessage, bad_request
from .wire import Upload, as_int


class EphemeralMethods(MessageContent):
    """The ephemeral part of :class:`~fake_telegram.server.FakeBotApi`: its ``m_*``
    methods are Bot API methods; the sends hook in through :meth:`_send_ephemeral`."""

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

        state = self.ephemeral
        if state.fail:
            raise bad_request(UNAVAILABLE)
        if chat.type not in ("group", "supergroup"):
            raise bad_request("ephemeral messages can be sent only to group chats")
        options = as_dict(params.get("ephemeral_message_parameters")) or {}
        raw_receiver = options.get("receiver_user_id", params.get("receiver_user_id"))
        if raw_receiver in (None, ""):
            raise bad_request("receiver_user_id is empty")
        receiver = int(raw_receiver)
        if chat.members.get(receiver) not in PRESENT:
            raise bad_request("the receiver is not a member of the chat")
        query_id = options.get("callback_query_id", params.get("callback_query_id"))
        replace = options.get("replace_callback_query_message") in (True, "true", "True")
        reply = as_dict(params.get("reply_parameters")) or {}
        answered: str
        replaces: int | None = None
        if reply.get("ephemeral_message_id") is not None:
            target = state.messages.get((chat.id, int(reply["ephemeral_message_id"])))
            if target is None or target.deleted or (target.from_user or {}).get("id") != receiver:
                raise bad_request("ephemeral message to be replied not found")
            if time.monotonic() - target.created_at > state.reply_window:
                raise bad_request("the ephemeral message to be replied is too old")
            if replace:
                raise bad_request(REPLACE_NEEDS_QUERY)
            answered = str(ephemeral_id(target))
        elif query_id not in (None, ""):
            query = self.callbacks.get(str(query_id))
            if query is None or query.chat_id != chat.id or query.user.get("id") != receiver:
                raise bad_request("callback query not found")
            if time.monotonic() - query.created_at > state.reply_window:
                raise bad_request("the callback query is too old")
            if replace:
                if query.ephemeral_message_id is not None:
                    raise bad_request(REPLACE_EPHEMERAL)
                replaces = query.message_id
            answered = f"callback:{query.id}"
        else:
            raise bad_request(
                "ephemeral messages can be sent only in reply to an ephemeral message "
                "or to a callback query"
            )
        user = self.users.get(receiver) or {"id": receiver, "is_bot": False, "first_name": "?"}
        eid = state.new_id(chat.id)
        extra: dict[str, Any] = {"receiver_user": user, "ephemeral_message_id": eid}
        if replaces is not None:
            extra["replaces_message_id"] = replaces  # shown to him in place of that one
        message = StoredMessage(
            chat=chat,
            message_id=0,
            date=int(time.time()),
            from_user=self.bot_user,
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
        self._retain(photo)
        return message.to_api()

    def _ephemeral_target(self, params: dict[str, Any], action: str) -> StoredMessage:

        chat = self._resolve_chat(params.get("chat_id"))
        eid = as_int(params.get("ephemeral_message_id"), "ephemeral_message_id")
        receiver = as_int(params.get("receiver_user_id"), "receiver_user_id")
        message = self.ephemeral.messages.get((chat.id, eid))
        if (
            message is None
            or message.deleted
            or not message.from_bot
            or receiver_id(message) != receiver
        ):
            raise bad_request(f"message to {action} not found")
        return message

    async def m_editEphemeralMessageText(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:

        message = self._ephemeral_target(params, "edit")
        text, entities = self._text(params, "text", "entities", 4096, required=True)
        markup = self._markup(params, inline_only=True)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        self._apply_edit(
            message, text=text, entities=entities, reply_markup=markup, changes_text=True
        )
        return True

    async def m_editEphemeralMessageCaption(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:

        message = self._ephemeral_target(params, "edit")
        caption, caption_entities = self._text(
            params, "caption", "caption_entities", 1024, required=False
        )
        markup = self._markup(params, inline_only=True)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        self._apply_edit(
            message,
            caption=caption,
            caption_entities=caption_entities,
            reply_markup=markup,
            changes_caption=True,
        )
        return True

    async def m_editEphemeralMessageMedia(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        self._edit_media(self._ephemeral_target(params, "edit"), params, uploads)
        return True

    async def m_editEphemeralMessageReplyMarkup(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        message = self._ephemeral_target(params, "edit")
        self._apply_edit(message, reply_markup=self._markup(params, inline_only=True))
        return True

    async def m_deleteEphemeralMessage(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        message = self._ephemeral_target(params, "delete")
        message.deleted = True
        self._release(message.photo)
        return True
