"""JSON-ready views of the fake server's chats and messages, for UIs (the playground)."""

from __future__ import annotations

from typing import Any

from .files import FileMethods
from .records import StoredMessage


class ViewMethods(FileMethods):
    """``message_view`` and ``snapshot``."""

    def message_view(self, message: StoredMessage) -> dict[str, Any]:
        """A JSON-ready view of a message for UIs (the playground): sender, text, photo
        and animation (their URL paths), keyboard, edit/delete state."""
        sender = message.from_user or {}
        photo = message.photo
        animation = message.animation
        return {
            "chat_id": message.chat.id,
            "message_id": message.message_id,
            "date": message.date,
            "from_bot": message.from_bot,
            "from": {
                "id": sender.get("id"),
                "name": " ".join(
                    part for part in (sender.get("first_name"), sender.get("last_name")) if part
                ),
                "username": sender.get("username"),
            }
            if sender
            else None,
            "sender_chat": message.sender_chat,
            "text": message.text,
            "entities": message.entities,
            "caption": message.caption,
            "caption_entities": message.caption_entities,
            "photo": {
                "file_id": photo.file_id,
                "width": photo.width,
                "height": photo.height,
                "url": self.file_path(photo.file_id) if photo.file_id in self.files else None,
            }
            if photo
            else None,
            "animation": {
                "file_id": animation.file_id,
                "width": animation.width,
                "height": animation.height,
                "duration": animation.duration,
                "mime_type": animation.animation_object()["mime_type"],
                "url": (
                    self.file_path(animation.file_id) if animation.file_id in self.files else None
                ),
            }
            if animation
            else None,
            "keyboard": message.keyboard,
            "reply_to": message.reply_to.message_id if message.reply_to else None,
            "service": message.extra,
            "edit_count": message.edit_count,
            "deleted": message.deleted,
            "pinned": message.pinned,
        }

    def snapshot(self, chat_id: int | None = None) -> dict[str, Any]:
        """JSON-ready state of one chat (or all): chat objects and message views."""
        chats = [self.chats[chat_id]] if chat_id is not None else list(self.chats.values())
        return {
            "bot": self.bot_user,
            "chats": [
                {
                    **chat.to_api(),
                    "bot_status": chat.bot_status,
                    "migrated_to": chat.migrated_to,
                    "messages": [self.message_view(m) for m in chat.messages.values()],
                }
                for chat in chats
            ],
        }
