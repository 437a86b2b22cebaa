"""The bot's messages: ``sendMessage``, ``sendPhoto``, ``sendAnimation``, the
``editMessage*`` methods, ``deleteMessage(s)``, ``pinChatMessage``/``unpinChatMessage``."""

from __future__ import annotations

from typing import Any

from .ephemeral import requested as ephemeral_requested
from .ephemeral_methods import EphemeralMethods
from .records import ChatState, StoredMessage, bad_request
from .wire import Upload, as_int


class MessageMethods(EphemeralMethods):
    """Sending, editing, deleting and pinning messages (a send asking for an ephemeral
    message goes to :class:`~fake_telegram.ephemeral_methods.EphemeralMethods`)."""

    def _message(self, chat: ChatState, params: dict[str, Any], action: str) -> StoredMessage:
        message_id = params.get("message_id")
        if message_id is None:
            if params.get("inline_message_id"):
                raise bad_request("inline messages are not supported by the fake server")
            raise bad_request("message identifier is not specified")
        message = chat.messages.get(as_int(message_id, "message_id"))
        if message is None or message.deleted:
            raise bad_request(f"message to {action} not found")
        return message

    # ------------------------------------------------------------------ sending

    async def m_sendMessage(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._writable_chat(params)
        text, entities = self._text(params, "text", "entities", 4096, required=True)
        markup = self._markup(params, inline_only=False)
        if ephemeral_requested(params):
            return self._send_ephemeral(
                chat, params, text=text, entities=entities, reply_markup=markup
            )
        reply_to = self._reply_to(chat, params)
        message = self.store_message(
            chat,
            from_user=self.bot_user,
            text=text,
            entities=entities,
            reply_markup=markup,
            reply_to=reply_to,
        )
        return message.to_api()

    async def m_sendPhoto(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._writable_chat(params)
        caption, caption_entities = self._text(
            params, "caption", "caption_entities", 1024, required=False
        )
        markup = self._markup(params, inline_only=False)
        if ephemeral_requested(params):
            photo = self._photo(params.get("photo"), uploads, "photo")
            return self._send_ephemeral(
                chat,
                params,
                caption=caption,
                caption_entities=caption_entities,
                photo=photo,
                reply_markup=markup,
            )
        reply_to = self._reply_to(chat, params)
        photo = self._photo(params.get("photo"), uploads, "photo")
        message = self.store_message(
            chat,
            from_user=self.bot_user,
            caption=caption,
            caption_entities=caption_entities,
            photo=photo,
            reply_markup=markup,
            reply_to=reply_to,
        )
        return message.to_api()

    async def m_sendAnimation(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        """An animation (a GIF or an H.264 MP4 without sound, up to 50 MB uploaded): the
        file (an upload, or the file_id of an animation sent before), `duration`, `width`
        and `height` when given, a caption up to 1024 characters."""
        chat = self._writable_chat(params)
        caption, caption_entities = self._text(
            params, "caption", "caption_entities", 1024, required=False
        )
        markup = self._markup(params, inline_only=False)
        reply_to = self._reply_to(chat, params)
        animation = self._animation(params, uploads)
        message = self.store_message(
            chat,
            from_user=self.bot_user,
            caption=caption,
            caption_entities=caption_entities,
            reply_markup=markup,
            reply_to=reply_to,
        )
        message.animation = animation
        self._retain(animation)
        return message.to_api()

    # ------------------------------------------------------------------ editing

    def _editable(self, params: dict[str, Any]) -> StoredMessage:
        chat = self._resolve_chat(params.get("chat_id"))
        message = self._message(chat, params, "edit")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    async def m_editMessageText(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        message = self._editable(params)
        text, entities = self._text(params, "text", "entities", 4096, required=True)
        markup = self._markup(params, inline_only=True)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        return self._apply_edit(
            message, text=text, entities=entities, reply_markup=markup, changes_text=True
        )

    async def m_editMessageCaption(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        message = self._editable(params)
        caption, caption_entities = self._text(
            params, "caption", "caption_entities", 1024, required=False
        )
        markup = self._markup(params, inline_only=True)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        return self._apply_edit(
            message,
            caption=caption,
            caption_entities=caption_entities,
            reply_markup=markup,
            changes_caption=True,
        )

    async def m_editMessageMedia(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return self._edit_media(self._editable(params), params, uploads)

    async def m_editMessageReplyMarkup(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        message = self._editable(params)
        markup = self._markup(params, inline_only=True)
        return self._apply_edit(message, reply_markup=markup)

    async def m_deleteMessage(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._resolve_chat(params.get("chat_id"))
        message = self._message(chat, params, "delete")
        if (
            not message.from_bot
            and chat.type != "private"
            and chat.bot_status not in {"administrator", "creator"}
        ):
            raise bad_request("message can't be deleted")
        message.deleted = True
        self._release(message.photo)
        self._release(message.animation)
        return True

    async def m_deleteMessages(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        """1–100 ids; those that can't be found, or may not be deleted (deleteMessage's
        limits: a member's message needs the bot to be an admin), are skipped."""
        chat = self._resolve_chat(params.get("chat_id"))
        ids = params.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise bad_request("MESSAGE_IDS_INVALID")
        admin = chat.type == "private" or chat.bot_status in {"administrator", "creator"}
        for message_id in ids:
            message = chat.messages.get(int(message_id))
            if message is None or message.deleted or not (message.from_bot or admin):
                continue
            message.deleted = True
            self._release(message.photo)
            self._release(message.animation)
        return True

    async def m_pinChatMessage(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._writable_chat(params)
        message = self._message(chat, params, "pin")
        if chat.type != "private" and chat.bot_status not in {"administrator", "creator"}:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message.pinned = True
        return True

    async def m_unpinChatMessage(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._writable_chat(params)
        if params.get("message_id") is not None:
            self._message(chat, params, "unpin").pinned = False
        else:
            for message in chat.messages.values():
                message.pinned = False
        return True
