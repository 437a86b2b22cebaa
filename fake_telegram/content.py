"""What a message is made of and how it changes: text and entities (``parse_mode``),
inline keyboards, the message replied to, storing a message and applying an edit. Shared by
the usual messages (``messages.py``) and the ephemeral ones (``ephemeral_methods.py``)."""

from __future__ import annotations

import json
import time
from typing import Any

from .files import FileMethods
from .formatting import FormattingError, apply_formatting, utf16_len
from .records import NOT_MODIFIED, ChatState, FileRecord, StoredMessage, bad_request
from .wire import Upload, as_int


class MessageContent(FileMethods):
    """Checking a message's parts as Telegram does, storing and editing messages."""

    def store_message(
        self,
        chat: ChatState,
        *,
        from_user: dict[str, Any] | None,
        text: str | None = None,
        entities: list[dict[str, Any]] | None = None,
        caption: str | None = None,
        caption_entities: list[dict[str, Any]] | None = None,
        photo: FileRecord | None = None,
        reply_markup: dict[str, Any] | None = None,
        sender_chat: dict[str, Any] | None = None,
        reply_to: StoredMessage | None = None,
        extra: dict[str, Any] | None = None,
    ) -> StoredMessage:
        message = StoredMessage(
            chat=chat,
            message_id=chat.new_message_id(),
            date=int(time.time()),
            from_user=from_user,
            text=text,
            entities=entities or [],
            caption=caption,
            caption_entities=caption_entities or [],
            photo=photo,
            reply_markup=reply_markup,
            sender_chat=sender_chat,
            reply_to=reply_to,
            extra=extra or {},
        )
        chat.messages[message.message_id] = message
        self._retain(photo)
        return message

    def _text(
        self,
        params: dict[str, Any],
        text_key: str,
        entities_key: str,
        limit: int,
        *,
        required: bool,
    ) -> tuple[str | None, list[dict[str, Any]]]:
        raw = params.get(text_key)
        if raw is None:
            if required:
                raise bad_request("message text is empty")
            return None, []
        try:
            text, entities = apply_formatting(
                str(raw), params.get("parse_mode"), params.get(entities_key)
            )
        except FormattingError as exc:
            raise bad_request(f"can't parse entities: {exc}") from None
        if required and not text:
            raise bad_request("message text is empty")
        for entity in entities:  # a mention (tg://user?id=) comes back with the whole user
            if entity.get("type") == "text_mention":
                uid = int(entity["user"]["id"])
                fallback = {"id": uid, "is_bot": False, "first_name": str(uid)}
                entity["user"] = dict(self.users.get(uid) or fallback)
        if utf16_len(text) > limit:
            raise bad_request("message is too long" if required else "message caption is too long")
        return text, entities

    def _markup(self, params: dict[str, Any], *, inline_only: bool) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        if markup is None or markup == "":
            return None
        if isinstance(markup, str):
            markup = json.loads(markup)
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise bad_request("inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
            )
        if sum(len(row) for row in rows) > 100:
            raise bad_request("reply markup is too long")
        actions = (
            "callback_data",
            "url",
            "switch_inline_query",
            "switch_inline_query_current_chat",
            "switch_inline_query_chosen_chat",
            "login_url",
            "web_app",
            "callback_game",
            "pay",
            "copy_text",
        )
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not button.get("text"):
                    raise bad_request(
                        "can't parse inline keyboard button: "
                        "Text buttons are unallowed in the inline keyboard"
                    )
                if not any(key in button for key in actions):
                    raise bad_request(
                        "can't parse inline keyboard button: "
                        "Text buttons are unallowed in the inline keyboard"
                    )
                data = button.get("callback_data")
                if data is not None and not (1 <= len(str(data).encode("utf-8")) <= 64):
                    raise bad_request("BUTTON_DATA_INVALID")
                url = button.get("url")
                if url is not None and not str(url).startswith(("http://", "https://", "tg://")):
                    raise bad_request("BUTTON_URL_INVALID")
        return {"inline_keyboard": [list(row) for row in rows]}

    def _reply_to(self, chat: ChatState, params: dict[str, Any]) -> StoredMessage | None:
        reply = params.get("reply_parameters")
        if isinstance(reply, str):
            reply = json.loads(reply)
        target: Any = None
        allow_missing = bool(params.get("allow_sending_without_reply"))
        if isinstance(reply, dict):
            if reply.get("ephemeral_message_id") is not None:
                raise bad_request("a reply to an ephemeral message must be an ephemeral message")
            target = reply.get("message_id")
            allow_missing = allow_missing or bool(reply.get("allow_sending_without_reply"))
        elif params.get("reply_to_message_id") is not None:
            target = params["reply_to_message_id"]
        if target is None:
            return None
        message = chat.messages.get(as_int(target, "message_id"))
        if message is None or message.deleted:
            if allow_missing:
                return None
            raise bad_request("message to be replied not found")
        return message

    def _apply_edit(
        self,
        message: StoredMessage,
        *,
        text: str | None = None,
        entities: list[dict[str, Any]] | None = None,
        caption: str | None = None,
        caption_entities: list[dict[str, Any]] | None = None,
        photo: FileRecord | None = None,
        reply_markup: dict[str, Any] | None,
        changes_text: bool = False,
        changes_caption: bool = False,
        changes_photo: bool = False,
    ) -> dict[str, Any]:
        new_text = text if changes_text else message.text
        new_entities = (entities or []) if changes_text else message.entities
        new_caption = (caption or None) if changes_caption else message.caption
        new_caption_entities = (
            (caption_entities or []) if changes_caption else message.caption_entities
        )
        new_photo = photo if changes_photo else message.photo
        same = (
            new_text == message.text
            and new_entities == message.entities
            and (new_caption or None) == (message.caption or None)
            and new_caption_entities == message.caption_entities
            and (new_photo.file_id if new_photo else None)
            == (message.photo.file_id if message.photo else None)
            and (reply_markup or None) == (message.reply_markup or None)
        )
        if same:
            raise bad_request(NOT_MODIFIED[len("Bad Request: ") :])
        message.history.append(
            (
                message.text,
                message.caption,
                message.photo.file_id if message.photo else None,
                message.reply_markup,
            )
        )
        message.text = new_text
        message.entities = new_entities
        message.caption = new_caption
        message.caption_entities = new_caption_entities
        if new_photo is not message.photo:
            self._release(message.photo)
            self._retain(new_photo)
        message.photo = new_photo
        message.reply_markup = reply_markup
        message.edit_count += 1
        message.edit_date = int(time.time())
        message.edited_at = time.monotonic()
        return message.to_api()

    def _edit_media(
        self, message: StoredMessage, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        """editMessageMedia's checks and edit, for a message or an ephemeral one."""
        media = params.get("media")
        if isinstance(media, str) and media:
            media = json.loads(media)
        if not isinstance(media, dict):
            raise bad_request("can't parse InputMedia JSON object")
        if media.get("type") != "photo":
            raise bad_request(f"the fake server supports only photo media, not {media.get('type')}")
        if message.photo is None:
            raise bad_request("there is no media in the message to edit")
        caption, caption_entities = self._text(
            media, "caption", "caption_entities", 1024, required=False
        )
        markup = self._markup(params, inline_only=True)
        photo = self._photo(media.get("media"), uploads, "media")
        return self._apply_edit(
            message,
            caption=caption,
            caption_entities=caption_entities,
            photo=photo,
            reply_markup=markup,
            changes_caption=True,
            changes_photo=True,
        )
