"""Chats and their members as the bot asks about them: ``getChat``, ``getChatMember``,
``getChatAdministrators``, ``getChatMemberCount``, ``leaveChat``, ``sendChatAction``."""

from __future__ import annotations

from typing import Any

from .records import ChatState, bad_request
from .state import ServerState
from .wire import Upload, as_int


class ChatMethods(ServerState):
    """The chat methods; members and statuses are set by the harness."""

    async def m_getChat(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._resolve_chat(params.get("chat_id"))
        return {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def member_object(self, chat: ChatState, user_id: int) -> dict[str, Any]:
        """The ``ChatMember`` object for ``user_id`` (the bot included) in ``chat``."""
        if user_id == self.bot_id:
            user = self.bot_user
            status = chat.bot_status
        else:
            user = self.users.get(user_id) or {
                "id": user_id,
                "is_bot": False,
                "first_name": str(user_id),
            }
            status = chat.members.get(user_id, "left")
        if status == "creator":
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status == "administrator":
            rights = {
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": False,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": False,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
                "can_send_welcome_messages": False,
                "can_pin_messages": True,
            }
            return {"status": "administrator", "user": user, **rights}
        if status == "kicked":
            return {"status": "kicked", "user": user, "until_date": 0}
        if status in {"member", "left"}:
            return {"status": status, "user": user}
        raise ValueError(f"unsupported member status {status!r}")

    async def m_getChatMember(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._resolve_chat(params.get("chat_id"))
        user_id = as_int(params.get("user_id"), "user_id")
        if user_id != self.bot_id and user_id not in self.users:
            raise bad_request("user not found")
        return self.member_object(chat, user_id)

    async def m_getChatAdministrators(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        chat = self._resolve_chat(params.get("chat_id"))
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        admins = [
            self.member_object(chat, user_id)
            for user_id, status in chat.members.items()
            if status in {"creator", "administrator"}
        ]
        if chat.bot_status == "administrator":
            admins.append(self.member_object(chat, self.bot_id))
        return admins

    async def m_getChatMemberCount(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._resolve_chat(params.get("chat_id"))
        present = {"creator", "administrator", "member", "restricted"}
        return sum(1 for status in chat.members.values() if status in present) + 1

    async def m_leaveChat(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        chat = self._writable_chat(params)
        if chat.type == "private":
            raise bad_request("chat member status can't be changed in private chats")
        chat.bot_status = "left"
        return True

    async def m_sendChatAction(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        self._writable_chat(params)
        if not params.get("action"):
            raise bad_request("wrong parameter action in request")
        return True
