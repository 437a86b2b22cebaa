"""The state of the fake server and the base of every part of
:class:`~fake_telegram.server.FakeBotApi`: its constructor (all the state), finding chats,
listeners, and waiting for a condition."""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import aiohttp
from aiohttp import web

from .ephemeral import EphemeralState
from .records import (
    ApiCall,
    CallbackRecord,
    ChatState,
    FileRecord,
    FloodCounter,
    FloodLimit,
    InjectedError,
    TelegramError,
    UpdateRecord,
    bad_request,
    forbidden,
)
from .wire import Handler

# the default limit of every wait for the bot: generous, since a loaded 2-core CI machine
# can take seconds for what takes milliseconds here; a wait that is met returns at once
WAIT = 30.0

# the default flood limits (see limits.py): Telegram's 20 a minute in a group (sends, edits
# and deletes), about one message a second in a private chat (bursts of 3 allowed), about
# 30 new messages a second for the whole bot
GROUP_LIMIT = FloodLimit()
PRIVATE_LIMIT = FloodLimit(count=3, window=3.0)
GLOBAL_LIMIT = FloodLimit(count=30, window=1.0)
#: the environment variable that sets the window of the default group limit (seconds)
GROUP_WINDOW_ENV = "FAKE_TELEGRAM_GROUP_WINDOW"


class Default(enum.Enum):
    """The default of ``flood_limit`` (``DEFAULT``): :func:`default_group_limit`, read
    when the server is made; ``None`` turns the limit off."""

    GROUP_LIMIT = "default"


DEFAULT = Default.GROUP_LIMIT


def default_group_limit() -> FloodLimit:
    """Telegram's group limit, ``FloodLimit()`` (20 calls in any 60 s), or with the window
    ``$FAKE_TELEGRAM_GROUP_WINDOW`` seconds when that is set (a test suite played faster
    than a human's pace, say 6 s for ten times faster)."""
    raw = os.environ.get(GROUP_WINDOW_ENV, "").strip()
    return FloodLimit(window=float(raw)) if raw else GROUP_LIMIT


class ServerState:
    """The fake Bot API's state; the parts of :class:`~fake_telegram.server.FakeBotApi`
    (one module each) build on it, each on the parts it uses.

    Options: the flood limits (``limits.py``; ``None`` turns one off) ``flood_limit``
    (per group: sends, edits and deletes share 20 in any 60 s, or in
    ``$FAKE_TELEGRAM_GROUP_WINDOW`` s if set: :func:`default_group_limit`), ``private_limit`` (per
    private chat: 3 new messages in any 3 s, Telegram's "about one a second, short bursts
    may go over"), ``global_limit`` (the whole bot: 30 new messages a second),
    ``ephemeral_limit`` (per chat and receiver of ephemeral messages; off);
    ``keep_files``, ``log_results``, ``callback_answer_timeout``.
    """

    def __init__(
        self,
        token: str,
        *,
        bot_first_name: str = "Настолка",
        bot_username: str = "nastolka_bot",
        flood_limit: FloodLimit | Default | None = DEFAULT,
        private_limit: FloodLimit | None = PRIVATE_LIMIT,
        global_limit: FloodLimit | None = GLOBAL_LIMIT,
        ephemeral_limit: FloodLimit | None = None,
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
        # the flood limits (limits.py; None: off), each may be changed at any time:
        # per group (sends, edits, deletes), per private chat (sends), the whole bot (sends),
        # per chat and receiver of ephemeral messages (their sends and edits)
        self.flood_limit: FloodLimit | None = (
            default_group_limit() if isinstance(flood_limit, Default) else flood_limit
        )
        self.private_limit = private_limit
        self.global_limit = global_limit
        self.ephemeral_limit = ephemeral_limit
        self.global_flood = FloodCounter()  # what global_limit counted
        self.flood_refused = 0  # 429s of flood_limit and private_limit, all chats
        self.global_refused = 0  # 429s of global_limit
        self.ephemeral_refused = 0  # 429s of ephemeral_limit
        #: the limits' clock (monotonic seconds); a test may replace it to move time on
        self.clock: Callable[[], float] = time.monotonic
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
        self._injected: list[InjectedError] = []
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

        # the Bot API methods: every `m_<methodName>` of the assembled class, by lower name
        self._methods: dict[str, Handler] = {
            name[len("m_") :].lower(): getattr(self, name)
            for name in dir(self)
            if name.startswith("m_")
        }

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
