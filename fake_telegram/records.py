"""What the fake server stores: chats, messages, files, calls, callbacks, updates, and
the flood limits (:class:`FloodLimit`) with what they counted (:class:`FloodCounter`).

Plain records (dataclasses) and Telegram's error, shared by every part of
:class:`~fake_telegram.server.FakeBotApi`; tests read them (``chat.messages``,
``server.calls``...). Nothing here talks HTTP.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

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
# keys of `StoredMessage.extra` that are the fake's own notes, not fields of Telegram's
# `Message` (kept out of `to_api()`)
LOCAL_EXTRA = frozenset({"replaces_message_id"})
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


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
        body.update({k: v for k, v in self.extra.items() if k not in LOCAL_EXTRA})
        return body

    def __repr__(self) -> str:
        who = "bot" if self.from_bot else (self.from_user or {}).get("first_name", "?")
        flags = " deleted" if self.deleted else ""
        photo = " [photo]" if self.photo else (" [animation]" if self.animation else "")
        return (
            f"<Message {self.chat.id}/{self.message_id} {who}{photo}{flags}: "
            f"{self.content[:60]!r} buttons={self.button_texts}>"
        )


@dataclass(frozen=True)
class FloodLimit:
    """A budget of at most ``count`` counted calls in any ``window`` seconds; past it the
    call is refused with Telegram's ``429 Too Many Requests: retry after N``
    (``parameters.retry_after`` = N, the whole seconds until the window has room again,
    at least 1).

    What a call costs depends on where the limit is used (``limits.py``):

    - ``flood_limit`` (per group, supergroup or channel; the default ``FloodLimit()`` is
      Telegram's "20 messages per minute in the same group"): one budget shared by every
      new message (``send*``, ``copyMessage(s)``, ``forwardMessage(s)``), every edit
      (``editMessage*``, ``stopPoll``, ``stopMessageLiveLocation``) and, with
      ``deletes`` (the conservative reading, the default), ``deleteMessage(s)``.
      ``sends_only`` counts new messages only.
    - ``private_limit`` (per private chat) and ``global_limit`` (the whole bot) count new
      messages only; ``sends_only`` and ``deletes`` do not matter there.
    - ``ephemeral_limit`` (per chat and receiver) counts ephemeral sends and edits.

    Ephemeral messages (their sends, edits and deletes) are counted by
    ``ephemeral_limit`` only, unless ``count_ephemeral`` (then the group's and the
    bot-wide budgets count them like usual ones). ``sendChatAction``,
    ``answerCallbackQuery``, pins and every other method are never counted.

    With ``hold`` (the default) a refusal puts the chat (the receiver, the bot) on hold
    until its ``retry_after`` has passed: every counted call meanwhile is refused too,
    with the rest of the hold as ``retry_after``, and is not counted; so a bot that
    ignores ``retry_after`` keeps getting 429s, as it does from Telegram.
    """

    count: int = 20
    window: float = 60.0
    sends_only: bool = False  # count new messages only, not edits or deletes
    deletes: bool = True  # deleteMessage(s) spend the group's budget too (unless sends_only)
    count_ephemeral: bool = False  # ephemeral sends (and edits, deletes) count as usual ones
    hold: bool = True  # after a 429, refuse every counted call until retry_after has passed


@dataclass
class FloodCounter:
    """What one :class:`FloodLimit` counted for one chat (receiver, or the whole bot)."""

    #: the monotonic times of the calls inside the current window (pruned as it slides)
    window_times: deque[float] = field(default_factory=deque)
    #: the monotonic times of every counted call, never pruned (calls per minute, say)
    counted_times: list[float] = field(default_factory=list)
    #: the calls refused with 429 (window full, or during a hold)
    refused: int = 0
    #: the monotonic time a hold ends (0.0: never held)
    hold_until: float = 0.0


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
    #: what the chat's flood limit counted (``flood_limit`` in groups, ``private_limit``
    #: in private chats); also as ``sent_times``, ``counted_times``, ``flood_refused``
    flood: FloodCounter = field(default_factory=FloodCounter)

    @property
    def sent_times(self) -> deque[float]:
        """The monotonic times of the counted calls in the current flood window."""
        return self.flood.window_times

    @property
    def counted_times(self) -> list[float]:
        """The monotonic times of every call the chat's flood limit counted (never pruned)."""
        return self.flood.counted_times

    @property
    def flood_refused(self) -> int:
        """How many calls for this chat its flood limit refused with 429."""
        return self.flood.refused

    @property
    def flood_hold_until(self) -> float:
        """The monotonic time the chat's flood hold ends (0.0: never held)."""
        return self.flood.hold_until

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
    #: the pressed message's ``ephemeral_message_id`` (None: a usual message of the chat)
    ephemeral_message_id: int | None = None

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


@dataclass
class InjectedError:
    """An error a test injected (``FakeBotApi.inject_error``) for the next calls."""

    method: str
    error: TelegramError
    chat_id: int | str | None
    times: int
