"""A fake Telegram Bot API server (aiohttp) that a real aiogram bot can talk to.

The bot reaches it through ``TelegramAPIServer.from_base(api_url)``; every method lives at
``{api_url}/bot{token}/{method}`` and accepts JSON, urlencoded or multipart bodies (aiogram
sends multipart with ``attach://<name>`` references for uploads). Replies are Telegram-shaped
``{"ok": true, "result": ...}`` / ``{"ok": false, "error_code": ..., "description": ...}``.

The server keeps everything a test wants to look at: chats with their ordered messages
(including uploaded photo bytes and the keyboards as sent), a log of every API call, callback
queries and their answers, and the queue of updates (served by long polling ``getUpdates`` or
POSTed to a webhook). Simulated users live in :mod:`fake_telegram.harness`; this module
is the state and the HTTP surface.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import itertools
import json
import math
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from urllib.parse import unquote

import aiohttp
from aiohttp import web

from .ephemeral import EphemeralMethods, EphemeralState
from .ephemeral import requested as ephemeral_requested
from .formatting import FormattingError, apply_formatting, utf16_len

# the default limit of every wait for the bot: generous, since a loaded 2-core CI machine
# can take seconds for what takes milliseconds here; a wait that is met returns at once
WAIT = 30.0

__all__ = [
    "ANONYMOUS_ADMIN",
    "CHANNEL_BOT",
    "ApiCall",
    "Button",
    "CallbackRecord",
    "ChatState",
    "FakeBotApi",
    "FileRecord",
    "FloodLimit",
    "StoredMessage",
    "TelegramError",
    "UpdateRecord",
]

# Telegram's service accounts that appear as ``from`` of anonymous group admins and of
# messages sent "as a channel" in a group (the real chat is in ``sender_chat``).
ANONYMOUS_ADMIN: dict[str, Any] = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
CHANNEL_BOT: dict[str, Any] = {
    "id": 136817688,
    "is_bot": True,
    "first_name": "Channel",
    "username": "Channel_Bot",
}

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"

# Parameters that arrive JSON-serialised in form bodies (aiogram's ``prepare_value``).
_JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "media",
        "entities",
        "caption_entities",
        "commands",
        "scope",
        "allowed_updates",
        "link_preview_options",
        "reply_parameters",
        "results",
        "permissions",
        "reaction",
        "message_ids",
        "menu_button",
        "ephemeral_message_parameters",
    }
)
_BOOL_FIELDS = frozenset(
    {
        "show_alert",
        "disable_notification",
        "protect_content",
        "drop_pending_updates",
        "has_spoiler",
        "show_caption_above_media",
        "disable_web_page_preview",
        "allow_sending_without_reply",
        "only_if_banned",
        "revoke_messages",
        "is_personal",
        "allow_paid_broadcast",
    }
)
_INT_FIELDS = frozenset(
    {
        "chat_id",
        "message_id",
        "from_chat_id",
        "user_id",
        "offset",
        "limit",
        "timeout",
        "cache_time",
        "message_thread_id",
        "max_connections",
        "until_date",
        "reply_to_message_id",
        "receiver_user_id",
        "ephemeral_message_id",
    }
)
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
_MAX_PHOTO_BYTES = 10 * 1024 * 1024
_MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # any other file the bot uploads


class TelegramError(Exception):
    """An API error, rendered as Telegram's ``{"ok": false, ...}`` reply."""

    def __init__(
        self, error_code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


_DESCRIPTION_LIMITS = {"description": 512, "short_description": 120}  # characters
COMMAND_SCOPES = frozenset(
    {
        *("default", "all_private_chats", "all_group_chats", "all_chat_administrators"),
        *("chat", "chat_administrators", "chat_member"),
    }
)


def bad_request(reason: str) -> TelegramError:
    return TelegramError(400, f"Bad Request: {reason}")


def forbidden(reason: str) -> TelegramError:
    return TelegramError(403, f"Forbidden: {reason}")


class Button(NamedTuple):
    """One inline button as ``(text, callback_data)``; ``callback_data`` is None for URL etc."""

    text: str
    callback_data: str | None


@dataclass
class FileRecord:
    """An uploaded file (photos keep their bytes so tests and the playground can show them)."""

    file_id: str
    file_unique_id: str
    data: bytes
    width: int = 0
    height: int = 0
    filename: str = ""
    kind: str = "photo"
    duration: int = 0  # seconds (an animation)
    refs: int = 0
    """How many stored messages show this file now."""

    @property
    def size(self) -> int:
        return len(self.data)

    def photo_sizes(self) -> list[dict[str, Any]]:
        """PhotoSize list like Telegram's: smaller thumbnails first, the largest last."""
        longest = max(self.width, self.height, 1)
        sizes: list[dict[str, Any]] = []
        for index, limit in enumerate((90, 320, 800)):
            if longest > limit:
                scale = limit / longest
                sizes.append(
                    {
                        "file_id": f"{self.file_id}-{index}",
                        "file_unique_id": f"{self.file_unique_id}{index}",
                        "file_size": max(1, self.size * limit // longest // 4),
                        "width": max(1, round(self.width * scale)),
                        "height": max(1, round(self.height * scale)),
                    }
                )
        scale = min(1.0, 1280 / longest)
        sizes.append(
            {
                "file_id": self.file_id,
                "file_unique_id": self.file_unique_id,
                "file_size": self.size,
                "width": max(1, round(self.width * scale)),
                "height": max(1, round(self.height * scale)),
            }
        )
        return sizes

    def animation_object(self) -> dict[str, Any]:
        """An `Animation` like Telegram's (a GIF is kept as it was sent)."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "width": self.width,
            "height": self.height,
            "duration": self.duration,
            "file_name": self.filename or "animation.gif",
            "mime_type": "image/gif" if self.data[:3] == b"GIF" else "video/mp4",
            "file_size": self.size,
        }


@dataclass
class StoredMessage:
    """A message in a chat, as the fake server stores it. Edits mutate it in place.

    ``reply_markup`` is the JSON the bot sent; :attr:`buttons` is the convenient view.
    """

    chat: ChatState
    message_id: int
    date: int
    from_user: dict[str, Any] | None
    text: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[dict[str, Any]] = field(default_factory=list)
    photo: FileRecord | None = None
    reply_markup: dict[str, Any] | None = None
    sender_chat: dict[str, Any] | None = None
    reply_to: StoredMessage | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    animation: FileRecord | None = None
    edit_count: int = 0
    edit_date: int | None = None
    deleted: bool = False
    pinned: bool = False
    created_at: float = field(default_factory=time.monotonic)
    edited_at: float | None = None
    #: previous versions as ``(text, caption, photo file_id, reply_markup)``, oldest first
    history: list[tuple[str | None, str | None, str | None, dict[str, Any] | None]] = field(
        default_factory=list
    )

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def from_bot(self) -> bool:
        """True for messages the bot sent through the API."""
        return bool(self.from_user and self.from_user.get("id") == self.chat.bot_id)

    @property
    def content(self) -> str:
        """Text, or the caption for media messages ("" when neither)."""
        return self.text if self.text is not None else (self.caption or "")

    @property
    def photo_bytes(self) -> bytes | None:
        return self.photo.data if self.photo else None

    @property
    def keyboard(self) -> list[list[dict[str, Any]]]:
        """Raw inline keyboard rows (list of button dicts), [] when there is none."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard") or []
        return [list(row) for row in rows]

    @property
    def buttons(self) -> list[list[Button]]:
        """Inline keyboard rows of ``Button(text, callback_data)``."""
        return [
            [Button(str(b.get("text", "")), b.get("callback_data")) for b in row]
            for row in self.keyboard
        ]

    @property
    def button_texts(self) -> list[str]:
        return [button.text for row in self.buttons for button in row]

    def find_button(
        self, text: str | None = None, *, by_data: str | None = None, contains: str | None = None
    ) -> dict[str, Any] | None:
        """The first button whose text equals ``text`` (or contains ``contains``) or whose
        callback_data equals ``by_data``."""
        for row in self.keyboard:
            for button in row:
                if text is not None and button.get("text") == text:
                    return button
                if contains is not None and contains in str(button.get("text", "")):
                    return button
                if by_data is not None and button.get("callback_data") == by_data:
                    return button
        return None

    def to_api(self, *, with_reply: bool = True) -> dict[str, Any]:
        """The Telegram ``Message`` object for this message."""
        body: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_api(),
        }
        if self.from_user is not None:
            body["from"] = self.from_user
        if self.sender_chat is not None:
            body["sender_chat"] = self.sender_chat
        if self.edit_date is not None:
            body["edit_date"] = self.edit_date
        if self.reply_to is not None and with_reply:
            body["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.text is not None:
            body["text"] = self.text
            if self.entities:
                body["entities"] = self.entities
        if self.photo is not None:
            body["photo"] = self.photo.photo_sizes()
        if self.animation is not None:  # Telegram sends both for an animation
            body["animation"] = self.animation.animation_object()
            body["document"] = self.animation.animation_object()
        if self.caption:
            body["caption"] = self.caption
            if self.caption_entities:
                body["caption_entities"] = self.caption_entities
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            body["reply_markup"] = self.reply_markup
        body.update(self.extra)
        return body

    def __repr__(self) -> str:
        who = "bot" if self.from_bot else (self.from_user or {}).get("first_name", "?")
        flags = " deleted" if self.deleted else ""
        photo = " [photo]" if self.photo else (" [animation]" if self.animation else "")
        return (
            f"<Message {self.chat.id}/{self.message_id} {who}{photo}{flags}: "
            f"{self.content[:60]!r} buttons={self.button_texts}>"
        )


@dataclass
class ChatState:
    """A chat known to the server: group, supergroup, channel or a private chat with a user."""

    id: int
    type: str
    bot_id: int
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    #: user id → status: creator / administrator / member / restricted / left / kicked
    members: dict[int, str] = field(default_factory=dict)
    bot_status: str = "member"
    migrated_to: int | None = None
    messages: dict[int, StoredMessage] = field(default_factory=dict)
    next_message_id: int = 1
    sent_times: deque[float] = field(default_factory=deque)

    def to_api(self) -> dict[str, Any]:
        body: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name", "last_name"):
            value = getattr(self, key)
            if value is not None:
                body[key] = value
        return body

    def new_message_id(self) -> int:
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id


@dataclass
class ApiCall:
    """One call the bot made. ``params`` are decoded (JSON fields parsed, uploads summarised)."""

    seq: int
    method: str
    params: dict[str, Any]
    time: float
    wall_time: float
    chat_id: int | str | None = None
    message_id: int | None = None
    ok: bool = True
    error_code: int | None = None
    description: str | None = None
    duration: float = 0.0
    result: Any = None
    via_webhook_reply: bool = False


@dataclass
class CallbackRecord:
    """A callback query a user made and how (and when) the bot answered it."""

    id: str
    chat_id: int
    message_id: int
    user: dict[str, Any]
    data: str | None
    created_at: float
    update_id: int = 0
    answered: bool = False
    answered_at: float | None = None
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None
    future: asyncio.Future[CallbackRecord] | None = None

    @property
    def latency(self) -> float | None:
        """Seconds from the update being queued to the bot's answer."""
        return None if self.answered_at is None else self.answered_at - self.created_at


@dataclass
class UpdateRecord:
    """An update queued for the bot; ``delivered_at`` is set when handed to the bot."""

    update_id: int
    type: str
    payload: dict[str, Any]
    queued_at: float
    delivered_at: float | None = None
    confirmed_at: float | None = None

    def to_api(self) -> dict[str, Any]:
        return {"update_id": self.update_id, **self.payload}


@dataclass(frozen=True)
class FloodLimit:
    """Per-chat budget: at most ``count`` counted calls per ``window`` seconds, else 429."""

    count: int = 20
    window: float = 60.0
    sends_only: bool = False  # count new messages only (Telegram's 20 a minute in a group)


@dataclass
class _InjectedError:
    method: str
    error: TelegramError
    chat_id: int | str | None
    times: int


class _Upload(NamedTuple):
    filename: str
    data: bytes


Handler = Callable[[dict[str, Any], dict[str, _Upload]], Awaitable[Any]]


class FakeBotApi(EphemeralMethods):
    """The fake Bot API: state plus an aiohttp application serving it (ephemeral messages:
    ``ephemeral.py``).

    Use :meth:`start` / :meth:`stop` (or the :class:`~fake_telegram.harness.FakeTelegram`
    harness, which does it for you). Everything runs on the event loop that called
    :meth:`start`; state may be read freely from that loop.
    """

    def __init__(
        self,
        token: str,
        *,
        bot_first_name: str = "Настолка",
        bot_username: str = "nastolka_bot",
        flood_limit: FloodLimit | None = None,
        keep_files: bool = True,
        log_results: bool = True,
        callback_answer_timeout: float = 15.0,
    ) -> None:
        bot_id, _, _ = token.partition(":")
        if not bot_id.isdigit():
            raise ValueError("token must look like '<digits>:<secret>'")
        self.token = token
        self.bot_id = int(bot_id)
        self.bot_user: dict[str, Any] = {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": bot_first_name,
            "username": bot_username,
        }
        self.flood_limit = flood_limit
        # Telegram's limit for the whole bot (about 30 calls a second): `FloodLimit(30, 1.0)`
        # here makes every counted call past it a 429 (`global_refused` counts them)
        self.global_limit: FloodLimit | None = None
        self.global_refused = 0
        self._global_times: deque[float] = deque()
        self.keep_files = keep_files
        self.log_results = log_results
        self.callback_answer_timeout = callback_answer_timeout

        self.chats: dict[int, ChatState] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.files: dict[str, FileRecord] = {}
        self.calls: list[ApiCall] = []
        self.calls_by_chat: dict[int | str, list[ApiCall]] = {}
        self.callbacks: dict[str, CallbackRecord] = {}
        self.updates: list[UpdateRecord] = []
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.bot_settings: dict[str, Any] = {}
        self.ephemeral = EphemeralState()  # ephemeral messages (ephemeral.py)

        self.webhook_url: str | None = None
        self.webhook_secret: str | None = None
        self.webhook_max_connections = 40
        self.webhook_last_error: tuple[int, str] | None = None
        self.allowed_updates: list[str] | None = None

        self._pending: deque[UpdateRecord] = deque()
        self._update_ids = itertools.count(1)
        self._call_seq = itertools.count(1)
        self._file_seq = itertools.count(1)
        #: uploads by the sha1 of their bytes (a count above 1: the same picture re-uploaded)
        self.upload_digests: dict[str, int] = {}
        self._callback_seq = itertools.count(1)
        self._injected: list[_InjectedError] = []
        self._call_listeners: list[Callable[[ApiCall], None]] = []
        self._update_listeners: list[Callable[[UpdateRecord], None]] = []
        self._listeners: dict[int | None, list[asyncio.Future[None]]] = {}
        self._poll_wakeup = asyncio.Event()
        self._poller: asyncio.Future[None] | None = None
        self._webhook_task: asyncio.Task[None] | None = None
        self._webhook_session: aiohttp.ClientSession | None = None
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.host = "127.0.0.1"

        self._methods: dict[str, Handler] = {
            name[len("m_") :].lower(): getattr(self, name)
            for name in dir(self)
            if name.startswith("m_")
        }
        self.app = web.Application(client_max_size=64 * 1024 * 1024)
        self.app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self.app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)

    # ------------------------------------------------------------------ lifecycle

    @property
    def api_url(self) -> str:
        """Base URL for ``TelegramAPIServer.from_base`` / ``TELEGRAM_API_URL``."""
        if self.port is None:
            raise RuntimeError("server is not started")
        return f"http://{self.host}:{self.port}"

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Listen on ``host:port`` (port 0 picks a free one, see :attr:`port`)."""
        self.host = host
        self._runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None)
        assert sockets
        self.port = int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Stop serving: wakes long polls, stops webhook delivery, closes the listener."""
        self._closing = True
        self._poll_wakeup.set()
        await self._stop_webhook_delivery()
        for record in self.callbacks.values():
            if record.future is not None and not record.future.done():
                record.future.cancel()
        for futures in self._listeners.values():
            for future in futures:
                if not future.done():
                    future.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ state helpers

    def chat(self, chat_id: int) -> ChatState:
        """A known chat (KeyError if the server has never seen it)."""
        return self.chats[chat_id]

    def add_chat(self, chat: ChatState) -> ChatState:
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: dict[str, Any]) -> ChatState:
        """The private chat between the bot and ``user`` (created on first use)."""
        chat = self.chats.get(user["id"])
        if chat is None:
            chat = ChatState(
                id=user["id"],
                type="private",
                bot_id=self.bot_id,
                first_name=user.get("first_name"),
                last_name=user.get("last_name"),
                username=user.get("username"),
            )
            chat.members[user["id"]] = "member"
            self.chats[chat.id] = chat
        return chat

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

    def enqueue_update(self, payload: dict[str, Any]) -> UpdateRecord:
        """Queue a raw update (without ``update_id``; one is assigned) for the bot."""
        payload = {k: v for k, v in payload.items() if k != "update_id"}
        kinds = [key for key in payload if key != "update_id"]
        if len(kinds) != 1:
            raise ValueError(f"an update has exactly one payload field, got {kinds}")
        record = UpdateRecord(
            update_id=next(self._update_ids),
            type=kinds[0],
            payload=payload,
            queued_at=time.monotonic(),
        )
        self.updates.append(record)
        self._pending.append(record)
        self._poll_wakeup.set()
        for listener in list(self._update_listeners):
            listener(record)
        return record

    def new_callback(
        self, chat_id: int, message: StoredMessage, user: dict[str, Any], data: str | None
    ) -> CallbackRecord:
        """Register a callback query (the harness then queues its update)."""
        query_id = str(self.bot_id * 1_000_000 + next(self._callback_seq))
        record = CallbackRecord(
            id=query_id,
            chat_id=chat_id,
            message_id=message.message_id,
            user=user,
            data=data,
            created_at=time.monotonic(),
            future=asyncio.get_running_loop().create_future(),
        )
        self.callbacks[query_id] = record
        return record

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
        self._injected.append(_InjectedError(method.lower(), error, chat_id, times))

    def add_listener(
        self,
        on_call: Callable[[ApiCall], None] | None = None,
        on_update: Callable[[UpdateRecord], None] | None = None,
    ) -> Callable[[], None]:
        """Call ``on_call(call)`` after every API call of the bot (getUpdates excluded) and
        ``on_update(record)`` for every queued update, synchronously on the server's loop
        (a playground can push them to a browser, a benchmark can measure latencies).
        Returns a function that removes the listeners."""
        if on_call is not None:
            self._call_listeners.append(on_call)
        if on_update is not None:
            self._update_listeners.append(on_update)

        def remove() -> None:
            if on_call is not None and on_call in self._call_listeners:
                self._call_listeners.remove(on_call)
            if on_update is not None and on_update in self._update_listeners:
                self._update_listeners.remove(on_update)

        return remove

    def file_path(self, file_id: str) -> str:
        """URL path (on this server) serving a stored file's bytes."""
        record = self._file(file_id)
        extension = _sniff_mime(record.data).split("/")[-1]
        return f"/file/bot{self.token}/photos/{record.file_id}.{extension}"

    def message_view(self, message: StoredMessage) -> dict[str, Any]:
        """A JSON-ready view of a message for UIs (the playground): sender, text, photo
        URL path, keyboard, edit/delete state."""
        sender = message.from_user or {}
        photo = message.photo
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

    @property
    def undelivered(self) -> int:
        """Queued updates the bot has not been handed yet."""
        return sum(1 for record in self._pending if record.delivered_at is None)

    def file_bytes(self, file_id: str) -> bytes:
        return self._file(file_id).data

    def calls_of(self, method: str | None = None, chat_id: int | None = None) -> list[ApiCall]:
        """Logged calls, filtered by method name (case-insensitive) and/or chat."""
        wanted = method.lower() if method else None
        source = self.calls if chat_id is None else self.calls_by_chat.get(chat_id, [])
        return [
            call
            for call in source
            if (wanted is None or call.method.lower() == wanted)
            and (chat_id is None or call.chat_id == chat_id)
        ]

    # ------------------------------------------------------------------ waiting

    def notify(self, chat_id: int | None) -> None:
        """Wake waiters of ``chat_id`` and global waiters (state changed)."""
        for key in {chat_id, None}:
            futures = self._listeners.pop(key, None)
            if futures:
                for future in futures:
                    if not future.done():
                        future.set_result(None)

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = WAIT,
        *,
        chat_id: int | None = None,
        poll_interval: float = 0.05,
    ) -> Any:
        """Wait until ``predicate()`` is truthy, re-checking after each API call that
        touches ``chat_id`` (any call when None) and every ``poll_interval`` seconds.
        Returns the predicate's value; raises ``TimeoutError``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s")
            future: asyncio.Future[None] = loop.create_future()
            self._listeners.setdefault(chat_id, []).append(future)
            # also re-check now and then: the predicate may read the bot's own state,
            # which changes after the API call that woke us up
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(future, min(remaining, poll_interval))

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return self._json(TelegramError(401, "Unauthorized").to_json(), 401)
        method = request.match_info["method"]
        try:
            params, uploads = await self._read_params(request)
        except (ValueError, json.JSONDecodeError) as exc:
            return self._json(bad_request(f"can't parse request: {exc}").to_json(), 400)
        handler = self._methods.get(method.lower())
        if handler is None:
            return self._json(TelegramError(404, "Not Found").to_json(), 404)
        status, body = await self.execute(method, params, uploads)
        return self._json(body, status)

    async def execute(
        self,
        method: str,
        params: dict[str, Any],
        uploads: dict[str, _Upload] | None = None,
        *,
        via_webhook_reply: bool = False,
    ) -> tuple[int, dict[str, Any]]:
        """Run one API method and log it; returns ``(http_status, json_body)``."""
        uploads = uploads or {}
        handler = self._methods.get(method.lower())
        started = time.monotonic()
        call = ApiCall(
            seq=next(self._call_seq),
            method=method,
            params=_summarise(params, uploads),
            time=started,
            wall_time=time.time(),
            chat_id=params.get("chat_id"),
            message_id=params.get("message_id"),
            via_webhook_reply=via_webhook_reply,
        )
        if method.lower() == "answercallbackquery":
            query = self.callbacks.get(str(params.get("callback_query_id")))
            if query is not None:
                call.chat_id, call.message_id = query.chat_id, query.message_id
        status = 200
        try:
            if handler is None:
                raise TelegramError(404, "Not Found")
            self._check_injected(method, params)
            self._check_flood(method, params)
            result = await handler(params, uploads)
            body: dict[str, Any] = {"ok": True, "result": result}
            if isinstance(result, dict) and "message_id" in result:
                call.message_id = result["message_id"]
            if self.log_results and method.lower() != "getupdates":
                call.result = result
        except TelegramError as exc:
            status = exc.error_code
            call.ok = False
            call.error_code = exc.error_code
            call.description = exc.description
            body = exc.to_json()
        call.duration = time.monotonic() - started
        if method.lower() != "getupdates" or not call.ok:
            self.calls.append(call)
            if call.chat_id is not None:
                self.calls_by_chat.setdefault(call.chat_id, []).append(call)
        chat_id = call.chat_id if isinstance(call.chat_id, int) else None
        self.notify(chat_id)
        if method.lower() != "getupdates":
            for listener in list(self._call_listeners):
                listener(call)
        return status, body

    @staticmethod
    def _json(body: dict[str, Any], status: int) -> web.Response:
        return web.Response(
            text=json.dumps(body, ensure_ascii=False),
            status=status,
            content_type="application/json",
        )

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, _Upload]]:
        params: dict[str, Any] = {}
        uploads: dict[str, _Upload] = {}
        for key, value in request.query.items():
            params[key] = _decode_field(key, value)
        if request.method != "POST" or not request.can_read_body:
            return params, uploads
        content_type = request.content_type
        if content_type == "application/json":
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("JSON body must be an object")
            params.update(body)
            return params, uploads
        if content_type == "multipart/form-data":
            boundary = _boundary(request.headers.get("Content-Type", ""))
            if boundary:
                parsed = _parse_multipart(await request.read(), boundary)
                if parsed is not None:
                    for name, filename, data in parsed:
                        if filename is not None:
                            uploads[name] = _Upload(filename or name, data)
                        else:
                            params[name] = _decode_field(name, data.decode("utf-8", "replace"))
                    return params, uploads
        form = await request.post()
        for name, item in form.items():
            if isinstance(item, web.FileField):
                uploads[name] = _Upload(item.filename or name, item.file.read())
            elif isinstance(item, bytes | bytearray):
                uploads[name] = _Upload(name, bytes(item))
            else:
                params[name] = _decode_field(name, str(item))
        return params, uploads

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            raise web.HTTPUnauthorized()
        file_id = request.match_info["path"].rsplit("/", 1)[-1].split(".", 1)[0]
        record = self.files.get(file_id)
        if record is None:
            raise web.HTTPNotFound()
        return web.Response(body=record.data, content_type=_sniff_mime(record.data))

    # ------------------------------------------------------------------ checks

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
        now = time.monotonic()
        times = self._global_times
        while times and now - times[0] >= limit.window:
            times.popleft()
        if len(times) >= limit.count:
            self.global_refused += 1
            retry_after = max(1, math.ceil(limit.window - (now - times[0])))
            raise TelegramError(
                429,
                f"Too Many Requests: retry after {retry_after}",
                {"retry_after": retry_after},
            )
        times.append(now)

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
        now = time.monotonic()
        times = chat.sent_times
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

    def _writable_chat(self, params: dict[str, Any]) -> ChatState:
        """Resolve ``chat_id`` to a chat the bot may post in, or raise Telegram's error."""
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise bad_request("chat_id is empty")
        chat = self._resolve_chat(raw)
        if chat.migrated_to is not None:
            raise TelegramError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type == "private":
            if chat.id in self.blocked:
                raise forbidden("bot was blocked by the user")
            if chat.id not in self.started:
                raise forbidden("bot can't initiate conversation with a user")
        else:
            kind = "channel" if chat.type == "channel" else f"{chat.type} chat"
            if chat.type == "group":
                kind = "group chat"
            if chat.bot_status == "kicked":
                raise forbidden(f"bot was kicked from the {kind}")
            if chat.bot_status == "left":
                raise forbidden(f"bot is not a member of the {kind}")
        return chat

    def _resolve_chat(self, raw: Any) -> ChatState:
        if isinstance(raw, str) and raw.startswith("@"):
            for chat in self.chats.values():
                if chat.username and f"@{chat.username}".lower() == raw.lower():
                    return chat
            raise bad_request("chat not found")
        try:
            chat_id = int(raw)
        except (TypeError, ValueError):
            raise bad_request("chat not found") from None
        found = self.chats.get(chat_id)
        if found is None:
            if chat_id in self.users:
                raise forbidden("bot can't initiate conversation with a user")
            raise bad_request("chat not found")
        return found

    def _message(self, chat: ChatState, params: dict[str, Any], action: str) -> StoredMessage:
        message_id = params.get("message_id")
        if message_id is None:
            if params.get("inline_message_id"):
                raise bad_request("inline messages are not supported by the fake server")
            raise bad_request("message identifier is not specified")
        message = chat.messages.get(_as_int(message_id, "message_id"))
        if message is None or message.deleted:
            raise bad_request(f"message to {action} not found")
        return message

    def _file(self, file_id: str) -> FileRecord:
        record = self.files.get(file_id)
        if record is None and "-" in file_id:
            record = self.files.get(file_id.rsplit("-", 1)[0])
        if record is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return record

    def _photo(self, value: Any, uploads: dict[str, _Upload], field_name: str) -> FileRecord:
        """Resolve a photo parameter: an upload (``attach://name`` or the field itself) or
        a file_id the server returned before."""
        upload: _Upload | None = None
        if isinstance(value, str) and value.startswith("attach://"):
            upload = uploads.get(value[len("attach://") :])
            if upload is None:
                raise bad_request(f"failed to get file content for {value}")
        elif value is None:
            upload = uploads.get(field_name)
            if upload is None:
                raise bad_request("there is no photo in the request")
        elif isinstance(value, str):
            if value.startswith(("http://", "https://")):
                raise bad_request("failed to get HTTP URL content")
            return self._file(value)
        else:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return self._store_photo(upload)

    @staticmethod
    def _retain(record: FileRecord | None) -> None:
        if record is not None:
            record.refs += 1

    def _release(self, record: FileRecord | None) -> None:
        """A message stopped showing ``record``; with ``keep_files=False`` an unused file is
        forgotten (its file_id stops working, its bytes are freed)."""
        if record is None:
            return
        record.refs -= 1
        if record.refs <= 0 and not self.keep_files:
            self.files.pop(record.file_id, None)

    def _store_photo(self, upload: _Upload) -> FileRecord:
        if not upload.data:
            raise bad_request("file must be non-empty")
        if len(upload.data) > _MAX_PHOTO_BYTES:
            raise bad_request("PHOTO_SAVE_FILE_INVALID")
        width, height = _image_size(upload.data)
        if width + height > 10000 or max(width, height) > 20 * max(1, min(width, height)):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        digest = hashlib.sha1(upload.data).hexdigest()
        self.upload_digests[digest] = self.upload_digests.get(digest, 0) + 1
        number = next(self._file_seq)
        record = FileRecord(
            file_id=f"AgAC{self.bot_id:x}F{number:07d}{secrets.token_hex(4)}",
            file_unique_id=f"AQAD{number:07d}",
            data=upload.data,
            width=width,
            height=height,
            filename=upload.filename,
        )
        self.files[record.file_id] = record
        return record

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
        message = chat.messages.get(_as_int(target, "message_id"))
        if message is None or message.deleted:
            if allow_missing:
                return None
            raise bad_request("message to be replied not found")
        return message

    # ------------------------------------------------------------------ updates

    async def m_getUpdates(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        if self.webhook_url:
            raise TelegramError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = _as_int(params.get("offset", 0), "offset")
        limit = max(1, min(100, _as_int(params.get("limit", 100), "limit")))
        timeout = max(0.0, float(params.get("timeout", 0) or 0))
        if params.get("allowed_updates") is not None:
            allowed = params["allowed_updates"]
            self.allowed_updates = list(allowed) if allowed else None
        if self._poller is not None and not self._poller.done():
            self._poller.set_exception(
                TelegramError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            )
        loop = asyncio.get_running_loop()
        me: asyncio.Future[None] = loop.create_future()
        self._poller = me
        self.notify(None)
        deadline = loop.time() + timeout
        try:
            while True:
                if offset > 0:
                    self._confirm(offset)
                ready = self._deliverable(limit)
                if ready or self._closing:
                    break
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                self._poll_wakeup.clear()
                waiter: asyncio.Future[Any] = asyncio.ensure_future(self._poll_wakeup.wait())
                watched: set[asyncio.Future[Any]] = {waiter, me}
                await asyncio.wait(watched, timeout=remaining, return_when="FIRST_COMPLETED")
                waiter.cancel()
                if me.done():
                    me.result()  # raises the 409 of a newer poll
        finally:
            if self._poller is me:
                self._poller = None
        now = time.monotonic()
        for record in ready:
            if record.delivered_at is None:
                record.delivered_at = now
        return [record.to_api() for record in ready]

    def _confirm(self, offset: int) -> None:
        now = time.monotonic()
        while self._pending and self._pending[0].update_id < offset:
            self._pending.popleft().confirmed_at = now

    def _allowed(self, record: UpdateRecord) -> bool:
        allowed = self.allowed_updates
        if not allowed:
            return record.type not in {
                "chat_member",
                "message_reaction",
                "message_reaction_count",
            }
        return record.type in allowed

    def _deliverable(self, limit: int) -> list[UpdateRecord]:
        ready: list[UpdateRecord] = []
        dropped: list[UpdateRecord] = []
        for record in self._pending:
            if not self._allowed(record):
                dropped.append(record)
                continue
            ready.append(record)
            if len(ready) >= limit:
                break
        now = time.monotonic()
        for record in dropped:
            self._pending.remove(record)
            record.delivered_at = record.confirmed_at = now  # filtered out, never delivered
        return ready

    async def m_setWebhook(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        url = str(params.get("url") or "")
        if not url:
            return await self.m_deleteWebhook(params, uploads)
        if not url.startswith(("http://", "https://")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        await self._stop_webhook_delivery()
        if params.get("drop_pending_updates"):
            self._pending.clear()
        self.webhook_url = url
        self.webhook_secret = params.get("secret_token") or None
        self.webhook_max_connections = max(1, min(100, int(params.get("max_connections") or 40)))
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self.allowed_updates = list(allowed) if allowed else None
        if self._poller is not None and not self._poller.done():
            self._poller.set_exception(
                TelegramError(409, "Conflict: terminated by setWebhook request")
            )
        self._webhook_task = asyncio.create_task(self._deliver_webhooks())
        return True

    async def m_deleteWebhook(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        await self._stop_webhook_delivery()
        self.webhook_url = None
        self.webhook_secret = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    async def m_getWebhookInfo(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        info: dict[str, Any] = {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
            "max_connections": self.webhook_max_connections,
        }
        if self.webhook_last_error:
            info["last_error_date"], info["last_error_message"] = self.webhook_last_error
        if self.allowed_updates:
            info["allowed_updates"] = self.allowed_updates
        return info

    async def _stop_webhook_delivery(self) -> None:
        task, self._webhook_task = self._webhook_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        session, self._webhook_session = self._webhook_session, None
        if session is not None:
            await session.close()

    async def _deliver_webhooks(self) -> None:
        """POST pending updates to the webhook, up to ``max_connections`` at a time, in
        queue order, retrying failures (Telegram keeps an update until a 2xx reply)."""
        session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        self._webhook_session = session
        in_flight: dict[int, asyncio.Task[None]] = {}
        try:
            while True:
                for record in list(self._pending):
                    if len(in_flight) >= self.webhook_max_connections:
                        break
                    if record.update_id in in_flight:
                        continue
                    if not self._allowed(record):
                        self._pending.remove(record)
                        continue
                    task = asyncio.create_task(self._post_update(session, record))
                    in_flight[record.update_id] = task
                    task.add_done_callback(_forget(in_flight, record.update_id))
                self._poll_wakeup.clear()
                waiters: set[asyncio.Future[Any]] = {
                    asyncio.ensure_future(self._poll_wakeup.wait())
                }
                waiters.update(in_flight.values())
                await asyncio.wait(waiters, timeout=1.0, return_when="FIRST_COMPLETED")
                for waiter in waiters:
                    if waiter not in in_flight.values():
                        waiter.cancel()
        finally:
            for task in in_flight.values():
                task.cancel()
            if in_flight:
                await asyncio.gather(*in_flight.values(), return_exceptions=True)

    async def _post_update(self, session: aiohttp.ClientSession, record: UpdateRecord) -> None:
        delay = 0.05
        while self.webhook_url:
            url = self.webhook_url
            headers = {"Content-Type": "application/json"}
            if self.webhook_secret:
                headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook_secret
            record.delivered_at = record.delivered_at or time.monotonic()
            try:
                async with session.post(
                    url, data=json.dumps(record.to_api(), ensure_ascii=False), headers=headers
                ) as response:
                    if 200 <= response.status < 300:
                        await self._webhook_reply(response)
                        record.confirmed_at = time.monotonic()
                        with contextlib.suppress(ValueError):
                            self._pending.remove(record)
                        self._poll_wakeup.set()
                        return
                    self.webhook_last_error = (
                        int(time.time()),
                        f"Wrong response from the webhook: {response.status} {response.reason}",
                    )
            except (aiohttp.ClientError, TimeoutError) as exc:
                self.webhook_last_error = (int(time.time()), f"Connection error: {exc}")
            await asyncio.sleep(delay)
            delay = min(1.0, delay * 2)

    async def _webhook_reply(self, response: aiohttp.ClientResponse) -> None:
        """Execute a method the bot returned in the webhook reply body (aiogram can)."""
        params: dict[str, Any] = {}
        uploads: dict[str, _Upload] = {}
        if response.content_type == "application/json":
            body = await response.json(content_type=None)
            if not isinstance(body, dict) or "method" not in body:
                return
            params = dict(body)
        elif response.content_type.startswith("multipart/"):
            reader = aiohttp.MultipartReader.from_response(response)
            while True:
                part = await reader.next()
                if part is None:
                    break
                assert isinstance(part, aiohttp.BodyPartReader)
                name = part.name or ""
                if part.filename:
                    uploads[name] = _Upload(part.filename, bytes(await part.read()))
                else:
                    params[name] = _decode_field(name, await part.text())
        else:
            return
        method = str(params.pop("method", ""))
        if method:
            await self.execute(method, params, uploads, via_webhook_reply=True)

    # ------------------------------------------------------------------ bot & commands

    async def m_getMe(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def m_logOut(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        return True

    async def m_close(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_setMyCommands(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_getMyCommands(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        return self.commands.get(self._commands_key(params), [])

    async def m_deleteMyCommands(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_setMyDescription(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        return self._set_description("description", params)

    async def m_setMyShortDescription(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        return self._set_description("short_description", params)

    async def m_getMyDescription(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        return self._get_description("description", params)

    async def m_getMyShortDescription(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        return self._get_description("short_description", params)

    async def m_setMyName(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        return await self._set_setting("name", params)

    async def m_setChatMenuButton(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        self.bot_settings["menu_button"] = params.get("menu_button")
        return True

    async def m_setMyDefaultAdministratorRights(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        return True

    # ------------------------------------------------------------------ sending

    async def m_sendMessage(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_sendPhoto(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_sendAnimation(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    def _animation(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> FileRecord:
        value = params.get("animation")
        upload: _Upload | None = None
        if isinstance(value, str) and value.startswith("attach://"):
            upload = uploads.get(value[len("attach://") :])
        elif value is None:
            upload = uploads.get("animation")
        elif isinstance(value, str):
            if value.startswith(("http://", "https://")):
                raise bad_request("failed to get HTTP URL content")
            record = self._file(value)
            if record.kind != "animation":
                raise bad_request("wrong file identifier/HTTP URL specified")
            return record
        if upload is None:
            raise bad_request("there is no animation in the request")
        if not upload.data:
            raise bad_request("file must be non-empty")
        if len(upload.data) > _MAX_UPLOAD_BYTES:
            raise TelegramError(413, "Request Entity Too Large")
        if upload.data[:3] == b"GIF":
            width, height = _image_size(upload.data)
        elif upload.data[4:8] == b"ftyp":
            width, height = 0, 0
        else:
            raise bad_request("wrong type of the web page content")
        number = next(self._file_seq)
        record = FileRecord(
            file_id=f"CgAC{self.bot_id:x}F{number:07d}{secrets.token_hex(4)}",
            file_unique_id=f"AgAD{number:07d}",
            data=upload.data,
            width=_int(params.get("width")) or width,
            height=_int(params.get("height")) or height,
            filename=upload.filename,
            kind="animation",
            duration=_int(params.get("duration")),
        )
        self.files[record.file_id] = record
        return record

    async def m_sendChatAction(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        self._writable_chat(params)
        if not params.get("action"):
            raise bad_request("wrong parameter action in request")
        return True

    # ------------------------------------------------------------------ editing

    def _editable(self, params: dict[str, Any]) -> StoredMessage:
        chat = self._resolve_chat(params.get("chat_id"))
        message = self._message(chat, params, "edit")
        if not message.from_bot:
            raise bad_request("message can't be edited")
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

    async def m_editMessageText(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        message = self._editable(params)
        text, entities = self._text(params, "text", "entities", 4096, required=True)
        markup = self._markup(params, inline_only=True)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        return self._apply_edit(
            message, text=text, entities=entities, reply_markup=markup, changes_text=True
        )

    async def m_editMessageCaption(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
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

    async def m_editMessageMedia(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        return self._edit_media(self._editable(params), params, uploads)

    def _edit_media(
        self, message: StoredMessage, params: dict[str, Any], uploads: dict[str, _Upload]
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

    async def m_editMessageReplyMarkup(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        message = self._editable(params)
        markup = self._markup(params, inline_only=True)
        return self._apply_edit(message, reply_markup=markup)

    async def m_deleteMessage(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_deleteMessages(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_pinChatMessage(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        chat = self._writable_chat(params)
        message = self._message(chat, params, "pin")
        if chat.type != "private" and chat.bot_status not in {"administrator", "creator"}:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message.pinned = True
        return True

    async def m_unpinChatMessage(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        chat = self._writable_chat(params)
        if params.get("message_id") is not None:
            self._message(chat, params, "unpin").pinned = False
        else:
            for message in chat.messages.values():
                message.pinned = False
        return True

    # ------------------------------------------------------------------ callbacks

    async def m_answerCallbackQuery(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        record = self.callbacks.get(str(params.get("callback_query_id") or ""))
        now = time.monotonic()
        if (
            record is None
            or record.answered
            or now - record.created_at > self.callback_answer_timeout
        ):
            raise bad_request(QUERY_TOO_OLD[len("Bad Request: ") :])
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        record.answered = True
        record.answered_at = now
        record.text = None if text is None else str(text)
        record.show_alert = bool(params.get("show_alert"))
        record.url = params.get("url")
        record.cache_time = params.get("cache_time")
        if record.future is not None and not record.future.done():
            record.future.set_result(record)
        self.notify(record.chat_id)
        return True

    # ------------------------------------------------------------------ chats

    async def m_getChat(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
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

    async def m_getChatMember(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        chat = self._resolve_chat(params.get("chat_id"))
        user_id = _as_int(params.get("user_id"), "user_id")
        if user_id != self.bot_id and user_id not in self.users:
            raise bad_request("user not found")
        return self.member_object(chat, user_id)

    async def m_getChatAdministrators(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
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

    async def m_getChatMemberCount(
        self, params: dict[str, Any], uploads: dict[str, _Upload]
    ) -> Any:
        chat = self._resolve_chat(params.get("chat_id"))
        present = {"creator", "administrator", "member", "restricted"}
        return sum(1 for status in chat.members.values() if status in present) + 1

    async def m_leaveChat(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        chat = self._writable_chat(params)
        if chat.type == "private":
            raise bad_request("chat member status can't be changed in private chats")
        chat.bot_status = "left"
        return True

    async def m_getFile(self, params: dict[str, Any], uploads: dict[str, _Upload]) -> Any:
        record = self._file(str(params.get("file_id") or ""))
        return {
            "file_id": record.file_id,
            "file_unique_id": record.file_unique_id,
            "file_size": record.size,
            "file_path": f"photos/{record.file_id}.{_sniff_mime(record.data).split('/')[-1]}",
        }


# ---------------------------------------------------------------------- helpers


_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
_DISPOSITION_PARAM = re.compile(r'([\w*]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')


def _boundary(content_type: str) -> str | None:
    match = _BOUNDARY.search(content_type)
    if match is None:
        return None
    return match.group(1) or match.group(2)


def _parse_multipart(body: bytes, boundary: str) -> list[tuple[str, str | None, bytes]] | None:
    """A fast multipart/form-data parser for well-formed client bodies: ``(name, filename or
    None, content)`` per part. Returns None when the body looks unusual (the caller then
    falls back to aiohttp's parser)."""
    delimiter = b"--" + boundary.encode("latin-1")
    chunks = body.split(delimiter)
    if len(chunks) < 2:
        return None
    parts: list[tuple[str, str | None, bytes]] = []
    for chunk in chunks[1:]:
        if chunk.startswith(b"--"):
            return parts
        if not chunk.startswith(b"\r\n"):
            return None
        head, separator, content = chunk[2:].partition(b"\r\n\r\n")
        if not separator or not content.endswith(b"\r\n"):
            return None
        content = content[:-2]
        name: str | None = None
        filename: str | None = None
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            if key.strip().lower() != "content-disposition":
                continue
            for match in _DISPOSITION_PARAM.finditer(value):
                param, raw = match.group(1).lower(), match.group(2).strip()
                if raw.startswith('"'):
                    raw = raw[1:-1].replace('\\"', '"')
                if param == "name":
                    name = raw
                elif param == "filename":
                    filename = raw
                elif param == "filename*":
                    filename = unquote(raw.split("''", 1)[-1])
        if name is None:
            return None
        parts.append((name, filename, content))
    return None


def _forget(
    in_flight: dict[int, asyncio.Task[None]], update_id: int
) -> Callable[[asyncio.Task[None]], None]:
    def callback(_task: asyncio.Task[None]) -> None:
        in_flight.pop(update_id, None)

    return callback


def _decode_field(key: str, value: str) -> Any:
    if key in _JSON_FIELDS:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    if key in _BOOL_FIELDS and value in {"true", "false", "True", "False", "1", "0"}:
        return value in {"true", "True", "1"}
    if key in _INT_FIELDS:
        stripped = value[1:] if value.startswith("-") else value
        if stripped.isdigit():
            return int(value)
    return value


def _as_int(value: Any, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise bad_request(f"invalid {name} specified") from None


def _summarise(params: dict[str, Any], uploads: dict[str, _Upload]) -> dict[str, Any]:
    summary = dict(params)
    for name, upload in uploads.items():
        summary[f"<upload:{name}>"] = f"{upload.filename} ({len(upload.data)} bytes)"
    return summary


def _int(value: Any) -> int:
    """An integer parameter as multipart form data carries it (text), 0 when absent."""
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        raise bad_request("wrong integer parameter") from None


def _image_size(data: bytes) -> tuple[int, int]:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a project dependency
        return 1, 1
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except Exception:
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    return int(width), int(height)


def _sniff_mime(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data.startswith(b"GIF8"):
        return "image/gif"
    return "application/octet-stream"


def iter_messages(chats: dict[int, ChatState]) -> Iterator[StoredMessage]:
    """All stored messages of all chats (deleted included), chat by chat."""
    for chat in chats.values():
        yield from chat.messages.values()
