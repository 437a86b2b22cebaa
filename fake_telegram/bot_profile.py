"""The bot itself: ``getMe``, ``logOut``/``close``, its command menus per scope and
language, its descriptions, name and other settings."""

from __future__ import annotations

import json
from typing import Any

from .records import bad_request
from .state import ServerState
from .wire import Upload

_DESCRIPTION_LIMITS = {"description": 512, "short_description": 120}  # characters
COMMAND_SCOPES = frozenset(
    {
        *("default", "all_private_chats", "all_group_chats", "all_chat_administrators"),
        *("chat", "chat_administrators", "chat_member"),
    }
)


class ProfileMethods(ServerState):
    """The bot's profile: ``server.commands`` and ``server.bot_settings``."""

    async def m_getMe(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def m_logOut(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return True

    async def m_close(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return True

    @staticmethod
    def _commands_key(params: dict[str, Any]) -> tuple[str, str]:
        """(the scope, the language: "" for all) that a command menu is stored under; the
        scope's type and the language (two letters, ISO 639-1) are checked as Telegram does."""
        scope = params.get("scope") or {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in COMMAND_SCOPES:
            raise bad_request("can't parse BotCommandScope JSON object")
        if (
            scope["type"] in ("chat", "chat_administrators", "chat_member")
            and "chat_id" not in scope
        ):
            raise bad_request("chat not found")
        lang = str(params.get("language_code") or "")
        if lang and not (len(lang) == 2 and lang.isascii() and lang.isalpha() and lang.islower()):
            raise bad_request("invalid language code specified")
        return json.dumps(scope, sort_keys=True), lang

    def commands_shown(self, chat_id: int, language_code: str | None) -> list[dict[str, Any]]:
        """The menu a user whose app speaks `language_code` sees in `chat_id`: the first
        menu set in Telegram's order of scopes (the chat's, then all private or all group
        chats, then the default), each for his language before the one for all languages.
        (The administrators' and a member's own scopes are not modelled.)"""
        chat = self.chats.get(chat_id)
        private = chat is not None and chat.type == "private"
        scopes: list[dict[str, Any]] = [{"type": "chat", "chat_id": chat_id}]
        scopes.append({"type": "all_private_chats" if private else "all_group_chats"})
        scopes.append({"type": "default"})
        lang = (language_code or "").split("-")[0].lower()
        for scope in scopes:
            for code in (lang, ""):
                menu = self.commands.get((json.dumps(scope, sort_keys=True), code))
                if menu is not None:
                    return menu
        return []

    async def m_setMyCommands(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise bad_request("can't parse commands JSON object")
        if len(commands) > 100:
            raise bad_request("too many commands")
        for command in commands:
            name = str(command.get("command", ""))
            description = str(command.get("description", ""))
            if (
                not (1 <= len(name) <= 32)
                or not all(c.isascii() and (c.isalnum() or c == "_") for c in name)
                or name != name.lower()
            ):
                raise bad_request("BOT_COMMAND_INVALID")
            if not (1 <= len(description) <= 256):
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._commands_key(params)] = [dict(c) for c in commands]
        return True

    async def m_getMyCommands(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return self.commands.get(self._commands_key(params), [])

    async def m_deleteMyCommands(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        self.commands.pop(self._commands_key(params), None)
        return True

    async def _set_setting(self, name: str, params: dict[str, Any]) -> bool:
        self.bot_settings[f"{name}:{params.get('language_code') or ''}"] = params.get(name)
        return True

    # The bot's description (shown in an empty private chat, "What can this bot do?") and
    # short description (its profile page, a shared link), per `language_code`: an empty
    # string or none removes the language's own text; a get falls back to the text for
    # all languages (set without a code), else "".
    def _set_description(self, name: str, params: dict[str, Any]) -> bool:
        text = str(params.get(name) or "")
        if len(text) > _DESCRIPTION_LIMITS[name]:
            raise bad_request("BOT_DESCRIPTION_INVALID")
        lang = str(params.get("language_code") or "")
        if lang and not (len(lang) == 2 and lang.isascii() and lang.isalpha()):
            raise bad_request("LANG_CODE_INVALID")
        key = f"{name}:{lang}"
        if text:
            self.bot_settings[key] = text
        else:
            self.bot_settings.pop(key, None)
        return True

    def _get_description(self, name: str, params: dict[str, Any]) -> dict[str, str]:
        lang = str(params.get("language_code") or "")
        text = self.bot_settings.get(f"{name}:{lang}") or self.bot_settings.get(f"{name}:", "")
        return {name: str(text)}

    async def m_setMyDescription(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return self._set_description("description", params)

    async def m_setMyShortDescription(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        return self._set_description("short_description", params)

    async def m_getMyDescription(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return self._get_description("description", params)

    async def m_getMyShortDescription(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        return self._get_description("short_description", params)

    async def m_setMyName(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        return await self._set_setting("name", params)

    async def m_setChatMenuButton(self, params: dict[str, Any], uploads: dict[str, Upload]) -> Any:
        self.bot_settings["menu_button"] = params.get("menu_button")
        return True

    async def m_setMyDefaultAdministratorRights(
        self, params: dict[str, Any], uploads: dict[str, Upload]
    ) -> Any:
        return True
