"""Simulated Telegram users for end-to-end tests, benchmarks and the playground.

>>> async with FakeTelegram() as tg:                       # doctest: +SKIP
...     anna, boris = tg.user(1, "Аня"), tg.user(2, "Борис", username="boris")
...     chat = tg.group(title="Настольщики")
...     async with tg.polling(dispatcher, tg.make_bot()):  # the real aiogram bot
...         await chat.send(anna, "/new")
...         lobby = await chat.wait_message()
...         answer = await chat.press(boris, lobby, "Играть")
...         assert answer.text == "Вы в игре"

(A sketch, skipped by doctest: it needs a bot's dispatcher and a running event loop;
tests/fake_telegram/test_polling.py plays these steps with its echo bot.)

Every ``chat.send``/``chat.press`` queues an update exactly as Telegram would deliver it
(long polling or webhook, whichever the bot uses). Messages are live
:class:`~fake_telegram.server.StoredMessage` objects: edits made by the bot show up
in the same object (``msg.caption``, ``msg.buttons``, ``msg.photo_bytes``, ``msg.edit_count``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qs, urlparse

from .server import (
    ANONYMOUS_ADMIN,
    CHANNEL_BOT,
    WAIT,
    ApiCall,
    CallbackRecord,
    ChatState,
    FakeBotApi,
    FloodLimit,
    StoredMessage,
    UpdateRecord,
)

if TYPE_CHECKING:
    from aiogram import Bot, Dispatcher

__all__ = [
    "CallbackAnswer",
    "CallbackNotAnswered",
    "Chat",
    "FakeTelegram",
    "User",
]

T = TypeVar("T")

_COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?")
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}")


@dataclass(frozen=True)
class User:
    """A simulated Telegram user. ``to_api()`` is the Bot API ``User`` object."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "ru"
    is_bot: bool = False

    def to_api(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "id": self.id,
            "is_bot": self.is_bot,
            "first_name": self.first_name,
        }
        if self.last_name is not None:
            body["last_name"] = self.last_name
        if self.username is not None:
            body["username"] = self.username
        if self.language_code is not None:
            body["language_code"] = self.language_code
        return body

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


@dataclass(frozen=True)
class CallbackAnswer:
    """How the bot answered a pressed button (``answerCallbackQuery``)."""

    text: str | None
    show_alert: bool
    url: str | None
    latency: float
    """Seconds from queuing the callback update to the answer."""
    query_id: str
    record: CallbackRecord


class CallbackNotAnswered(AssertionError):
    """The bot did not answer a callback query in time (Telegram shows a spinner forever)."""


def _entities(text: str, bot_username: str) -> list[dict[str, Any]]:
    """Entities Telegram's client would attach: bot commands and @mentions."""
    from .formatting import utf16_len

    found: list[dict[str, Any]] = []
    for pattern, kind in ((_COMMAND, "bot_command"), (_MENTION, "mention")):
        for match in pattern.finditer(text):
            if kind == "mention" and match.start() > 0 and text[match.start() - 1] == "/":
                continue
            found.append(
                {
                    "type": kind,
                    "offset": utf16_len(text[: match.start()]),
                    "length": utf16_len(match.group(0)),
                }
            )
    # a command with @botname is one bot_command entity, not a mention as well
    commands = [e for e in found if e["type"] == "bot_command"]
    found = [
        e
        for e in found
        if e["type"] == "bot_command"
        or not any(c["offset"] <= e["offset"] < c["offset"] + c["length"] for c in commands)
    ]
    return sorted(found, key=lambda e: e["offset"])


class Chat:
    """A chat as the simulated users see it, with helpers to act in it.

    ``chat.messages`` is the visible history (bot's and users' messages, deleted ones
    hidden); the underlying :class:`ChatState` is ``chat.state``.
    """

    def __init__(self, tg: FakeTelegram, state: ChatState) -> None:
        self.tg = tg
        self.state = state

    # ---------------------------------------------------------------- reading

    @property
    def id(self) -> int:
        return self.state.id

    @property
    def type(self) -> str:
        return self.state.type

    @property
    def title(self) -> str | None:
        return self.state.title

    @property
    def messages(self) -> list[StoredMessage]:
        """Visible messages, oldest first."""
        return [m for m in self.state.messages.values() if not m.deleted]

    @property
    def all_messages(self) -> list[StoredMessage]:
        """Every message ever stored, deleted ones included."""
        return list(self.state.messages.values())

    def command_menu(self, user: User) -> list[str]:
        """The commands `user` sees under «/» in this chat (his app's language, the chat's
        scope): `setMyCommands` as Telegram resolves it, each as "/command — description"."""
        menu = self.tg.server.commands_shown(self.id, user.language_code)
        return [f"/{c['command']} — {c['description']}" for c in menu]

    @property
    def bot_messages(self) -> list[StoredMessage]:
        """Visible messages sent by the bot, oldest first."""
        return [m for m in self.messages if m.from_bot]

    def last_message(self, *, from_bot: bool | None = True) -> StoredMessage | None:
        """The bot's latest visible message (``from_bot=None``: anyone's; False: users')."""
        for message in reversed(self.state.messages.values()):
            if message.deleted:
                continue
            if from_bot is None or message.from_bot == from_bot:
                return message
        return None

    def message(self, message_id: int) -> StoredMessage:
        return self.state.messages[message_id]

    def calls(self, method: str | None = None) -> list[ApiCall]:
        """API calls the bot made for this chat (optionally one method)."""
        return self.tg.server.calls_of(method, self.id)

    def transcript(self) -> str:
        """The chat as readable text, handy in assertion messages."""
        lines = [f"--- {self.type} {self.id} {self.title or ''}".rstrip()]
        for message in self.state.messages.values():
            if message.from_bot:
                who = "🤖"
            elif message.from_user:
                who = message.from_user.get("first_name", "?")
            else:
                who = (message.sender_chat or {}).get("title", "?")
            parts = [f"[{message.message_id}] {who}:"]
            if message.photo:
                parts.append(f"📷({message.photo.width}x{message.photo.height})")
            if message.content:
                parts.append(message.content.replace("\n", " ⏎ "))
            if message.extra:
                parts.append(str(sorted(message.extra)))
            if message.buttons:
                rows = [" | ".join(b.text for b in row) for row in message.buttons]
                parts.append("[" + " // ".join(rows) + "]")
            if message.edit_count:
                parts.append(f"(edited ×{message.edit_count})")
            if message.deleted:
                parts.append("(deleted)")
            lines.append(" ".join(parts))
        return "\n".join(lines)

    # ---------------------------------------------------------------- waiting

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = WAIT, *, poll: float = 0.05
    ) -> T:
        """Wait until ``predicate()`` is truthy, re-checked whenever the bot calls the API
        for this chat (and every ``poll`` seconds: a predicate reading only this chat's
        messages may poll seldom, which thousands of waiting chats want). Returns the
        predicate's value; ``TimeoutError`` with the transcript."""
        try:
            return await self.tg.server.wait_for(  # type: ignore[no-any-return]
                predicate, timeout, chat_id=self.id, poll_interval=poll
            )
        except TimeoutError:
            raise TimeoutError(
                f"condition not met within {timeout}s\n{self.transcript()}"
            ) from None

    def wait_message(
        self,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        after: StoredMessage | int | None = None,
        from_bot: bool = True,
        timeout: float = WAIT,
        poll: float = 0.05,
    ) -> Awaitable[StoredMessage]:
        """Wait for a new visible message (by default the bot's) newer than ``after``
        (a message or id; default: the newest message at the moment of the *call*, so
        ``waiter = chat.wait_message(); ...act...; await waiter`` works) matching
        ``predicate``."""
        if after is None:
            floor = self.state.next_message_id - 1
        else:
            floor = after if isinstance(after, int) else after.message_id

        def find() -> StoredMessage | None:
            for message in self.state.messages.values():
                if message.message_id <= floor or message.deleted:
                    continue
                if message.from_bot != from_bot:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        return self.wait_for(find, timeout, poll=poll)

    def wait_edit(
        self, message: StoredMessage, *, since: int | None = None, timeout: float = WAIT
    ) -> Awaitable[StoredMessage]:
        """Wait until ``message`` has been edited more than ``since`` times (default: its
        edit count at the moment of the call)."""
        base = message.edit_count if since is None else since
        return self.wait_for(lambda: message if message.edit_count > base else None, timeout)

    # ---------------------------------------------------------------- acting

    def _user_message(
        self,
        sender: dict[str, Any] | None,
        text: str | None,
        *,
        reply_to: StoredMessage | None = None,
        sender_chat: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> StoredMessage:
        server = self.tg.server
        entities = _entities(text, server.bot_user["username"]) if text else []
        return server.store_message(
            self.state,
            from_user=sender,
            text=text,
            entities=entities,
            reply_to=reply_to,
            sender_chat=sender_chat,
            extra=extra,
        )

    def bot_sees(self, message: StoredMessage) -> bool:
        """Whether Telegram would deliver ``message`` to the bot: not after it left or was
        removed; in groups with privacy mode (the default for new bots) only commands not
        addressed to another bot, replies to the bot's messages and service messages,
        unless the bot is an administrator."""
        if self.type == "private" or self.type == "channel":
            return self.state.bot_status not in {"left", "kicked"} or self.type == "private"
        if self.state.bot_status in {"left", "kicked"}:
            return False
        if not self.tg.privacy_mode or self.state.bot_status in {"administrator", "creator"}:
            return True
        if message.extra or (message.reply_to is not None and message.reply_to.from_bot):
            return True
        match = _COMMAND.match(message.text or "")
        if match is None:
            return False
        _, _, addressee = match.group(0).partition("@")
        return not addressee or addressee.lower() == self.tg.bot_username.lower()

    def _queue(self, kind: str, message: StoredMessage) -> UpdateRecord | None:
        """Queue the update for ``message`` if the bot would receive it."""
        if not self.bot_sees(message):
            return None
        return self.tg.server.enqueue_update({kind: message.to_api()})

    def _join(self, user: User) -> None:
        self.tg._register(user)
        if self.type != "private" and self.state.members.get(user.id) in {None, "left"}:
            self.state.members[user.id] = "member"

    async def send(
        self, user: User, text: str, *, reply_to: StoredMessage | None = None
    ) -> StoredMessage:
        """``user`` writes ``text`` here (commands get ``bot_command`` entities, also
        ``/new@botname``). Returns the stored user message; its update is queued if the
        bot would receive it (see :meth:`bot_sees`)."""
        self._join(user)
        if self.type == "channel":
            raise ValueError("users do not write in channels; use chat.post()")
        if self.type == "private":
            self.tg.server.started.add(user.id)  # writing to the bot lets it answer
        message = self._user_message(user.to_api(), text, reply_to=reply_to)
        self._queue("message", message)
        return message

    async def send_ephemeral(self, user: User, text: str, *, check: bool = True) -> StoredMessage:
        """``user`` sends the command ``text`` as an ephemeral message (Bot API 10.2): only
        he and the bot see it; the bot gets a ``message`` update with ``message_id`` 0 and
        ``ephemeral_message_id``. With ``check`` (the default) the command must be one
        the bot registered with ``is_ephemeral`` (as Telegram's clients do). See
        ``ephemeral.py``."""
        if self.type not in ("group", "supergroup"):
            raise ValueError("ephemeral messages exist in groups only")
        self._join(user)
        server = self.tg.server
        match = _COMMAND.match(text)
        if check:
            name = match.group(0)[1:].partition("@")[0] if match else ""
            if not name or not server.ephemeral.command_is_ephemeral(server, name):
                raise ValueError(f"{text!r} is not a command the bot registered as ephemeral")
        entities = _entities(text, server.bot_user["username"])
        message = server.ephemeral.incoming(server, self.state, user.to_api(), text, entities)
        self._queue("message", message)
        return message

    def ephemeral(self, user: User) -> list[StoredMessage]:
        """The ephemeral messages ``user`` alone sees here (his and the bot's to him)."""
        return self.tg.server.ephemeral.visible_to(self.id, user.id)

    def wait_ephemeral(
        self,
        user: User,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        timeout: float = WAIT,
    ) -> Awaitable[StoredMessage]:
        """Wait for a new ephemeral message of the bot to ``user`` (newer than the call)."""
        from .ephemeral import ephemeral_id

        state = self.tg.server.ephemeral
        floor = state.last_id(self.id)

        def find() -> StoredMessage | None:
            for message in state.visible_to(self.id, user.id):
                new = message.from_bot and (ephemeral_id(message) or 0) > floor
                if new and (predicate is None or predicate(message)):
                    return message
            return None

        return self.wait_for(find, timeout)

    async def edit(self, user: User, message: StoredMessage, text: str) -> StoredMessage:
        """``user`` edits his own earlier message: an ``edited_message`` update."""
        if message.from_user is None or message.from_user.get("id") != user.id:
            raise ValueError("users can edit only their own messages")
        message.text = text
        message.entities = _entities(text, self.tg.server.bot_user["username"])
        message.edit_count += 1
        message.edit_date = int(time.time())
        self._queue("edited_message", message)
        return message

    def _button_data(
        self,
        message: StoredMessage,
        text: str | None,
        by_data: str | None,
        contains: str | None,
        check: bool,
    ) -> str:
        if check and message.deleted:
            raise LookupError(f"message {message.message_id} was deleted\n{self.transcript()}")
        if text is None and by_data is None and contains is None:
            raise ValueError("say which button: text=, by_data= or contains=")
        button = message.find_button(text, by_data=by_data, contains=contains)
        if button is None:
            if check or by_data is None:
                raise LookupError(
                    f"no button {text or by_data or contains!r} on message "
                    f"{message.message_id}; buttons: {message.buttons}\n{self.transcript()}"
                )
            return by_data
        data = button.get("callback_data")
        if data is None:
            raise ValueError(f"button {button.get('text')!r} is not a callback button: {button}")
        return str(data)

    async def tap(
        self,
        user: User,
        message: StoredMessage,
        text: str | None = None,
        *,
        by_data: str | None = None,
        contains: str | None = None,
        check: bool = True,
    ) -> CallbackRecord:
        """Queue a button press without waiting for the answer (double taps, races).

        ``check=False`` with ``by_data`` sends that data even if no such button is shown
        (an old client still showing a stale keyboard)."""
        if message.chat is not self.state:
            raise ValueError(f"message {message.message_id} is not in chat {self.id}")
        self._join(user)
        data = self._button_data(message, text, by_data, contains, check)
        server = self.tg.server
        record = server.new_callback(self.id, message, user.to_api(), data)
        update = server.enqueue_update(
            {
                "callback_query": {
                    "id": record.id,
                    "from": user.to_api(),
                    "message": message.to_api(),
                    "chat_instance": str(abs(self.id) * 31 + 7),
                    "data": data,
                }
            }
        )
        record.update_id = update.update_id
        record.created_at = update.queued_at
        return record

    async def press(
        self,
        user: User,
        message: StoredMessage,
        text: str | None = None,
        *,
        by_data: str | None = None,
        contains: str | None = None,
        check: bool = True,
        timeout: float = WAIT,
    ) -> CallbackAnswer:
        """``user`` taps a button of ``message`` (by its text, ``by_data`` or a text
        fragment ``contains``) and waits for the bot's ``answerCallbackQuery``.

        Raises :class:`CallbackNotAnswered` if the bot does not answer within ``timeout``.
        """
        record = await self.tap(
            user, message, text, by_data=by_data, contains=contains, check=check
        )
        return await self.tg.answer_of(record, timeout=timeout)

    def private(self, user: User) -> Chat:
        """The private chat between the bot and ``user``."""
        return self.tg.private(user)

    # ---------------------------------------------------------------- membership & hostile input

    def set_status(self, user: User, status: str) -> None:
        """Set ``user``'s member status: creator, administrator, member, left, kicked."""
        self.tg._register(user)
        self.state.members[user.id] = status

    async def user_joins(self, user: User) -> StoredMessage:
        """``user`` joins: a ``new_chat_members`` service message."""
        self._join(user)
        message = self._user_message(
            user.to_api(), None, extra={"new_chat_members": [user.to_api()]}
        )
        self._queue("message", message)
        return message

    async def user_leaves(self, user: User) -> StoredMessage:
        """``user`` leaves: a ``left_chat_member`` service message."""
        self.state.members[user.id] = "left"
        message = self._user_message(user.to_api(), None, extra={"left_chat_member": user.to_api()})
        self._queue("message", message)
        return message

    async def _bot_status_change(self, by: User, new_status: str, service: bool) -> None:
        server = self.tg.server
        self.tg._register(by)
        old = server.member_object(self.state, server.bot_id)
        self.state.bot_status = new_status
        new = server.member_object(self.state, server.bot_id)
        server.enqueue_update(
            {
                "my_chat_member": {
                    "chat": self.state.to_api(),
                    "from": by.to_api(),
                    "date": int(time.time()),
                    "old_chat_member": old,
                    "new_chat_member": new,
                }
            }
        )
        if service and self.type in {"group", "supergroup"}:
            key = "left_chat_member" if new_status in {"left", "kicked"} else "new_chat_members"
            value: Any = server.bot_user if key == "left_chat_member" else [server.bot_user]
            message = self._user_message(by.to_api(), None, extra={key: value})
            self._queue("message", message)

    async def remove_bot(self, by: User, *, kicked: bool = True, service: bool = True) -> None:
        """``by`` removes the bot: a ``my_chat_member`` update (and, with ``service``, the
        ``left_chat_member`` message). The bot's sends then fail with 403."""
        await self._bot_status_change(by, "kicked" if kicked else "left", service)

    async def add_bot(self, by: User, *, admin: bool = False, service: bool = True) -> None:
        """``by`` adds the bot back (as admin if ``admin``): ``my_chat_member`` update."""
        await self._bot_status_change(by, "administrator" if admin else "member", service)

    async def migrate_to_supergroup(
        self, by: User | None = None, new_chat_id: int | None = None
    ) -> Chat:
        """Upgrade this basic group: service messages ``migrate_to_chat_id`` (here) and
        ``migrate_from_chat_id`` (in the new supergroup) are queued; the bot's later
        sends to the old id fail with 400 + ``migrate_to_chat_id``. Returns the new chat."""
        if self.type != "group":
            raise ValueError("only basic groups migrate")
        server = self.tg.server
        new_id = new_chat_id if new_chat_id is not None else self.tg._new_chat_id()
        new_state = server.add_chat(
            ChatState(
                id=new_id,
                type="supergroup",
                bot_id=server.bot_id,
                title=self.state.title,
                members=dict(self.state.members),
                bot_status=self.state.bot_status,
            )
        )
        sender = by.to_api() if by else ANONYMOUS_ADMIN
        old_note = self._user_message(sender, None, extra={"migrate_to_chat_id": new_id})
        self.state.migrated_to = new_id
        new_chat = Chat(self.tg, new_state)
        new_note = new_chat._user_message(
            sender,
            None,
            sender_chat=new_state.to_api(),
            extra={"migrate_from_chat_id": self.id},
        )
        self._queue("message", old_note)
        new_chat._queue("message", new_note)
        return new_chat

    async def send_anonymous(self, text: str) -> StoredMessage:
        """An anonymous group admin writes: ``from`` is @GroupAnonymousBot and
        ``sender_chat`` is this chat."""
        message = self._user_message(ANONYMOUS_ADMIN, text, sender_chat=self.state.to_api())
        self._queue("message", message)
        return message

    async def send_as_channel(self, channel: Chat, text: str) -> StoredMessage:
        """A user posts here on behalf of ``channel``: ``from`` is @Channel_Bot and
        ``sender_chat`` is the channel."""
        message = self._user_message(CHANNEL_BOT, text, sender_chat=channel.state.to_api())
        self._queue("message", message)
        return message

    async def post(self, text: str) -> StoredMessage:
        """A post in this channel: a ``channel_post`` update (no ``from``)."""
        if self.type != "channel":
            raise ValueError("post() is for channels")
        message = self._user_message(None, text, sender_chat=self.state.to_api())
        self._queue("channel_post", message)
        return message

    def __repr__(self) -> str:
        return f"<Chat {self.type} {self.id} {self.title or ''}>"


class FakeTelegram:
    """A fake Telegram (server + simulated users) for one bot.

    ``async with FakeTelegram() as tg:`` starts the Bot API server on 127.0.0.1 with a
    free port; point the bot at ``tg.api_url`` with ``tg.token`` (or use
    :meth:`make_bot`). Server options: ``flood_limit`` (per-chat 429s, off by default),
    ``keep_files`` (keep every uploaded file so its file_id can be re-sent; default True),
    ``log_results`` (keep each call's result in the log; turn off for huge benchmarks),
    ``callback_answer_timeout`` (after it answering a query fails like Telegram's),
    ``privacy_mode`` (like a new BotFather bot: in groups where the bot is not an admin it
    receives only commands, replies to its messages and service messages; default True).
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_username: str = "nastolka_bot",
        bot_first_name: str = "Настолка",
        flood_limit: FloodLimit | None = None,
        keep_files: bool = True,
        log_results: bool = True,
        callback_answer_timeout: float = 15.0,
        privacy_mode: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = (
            token or f"{secrets.randbelow(9 * 10**9) + 10**9}:FAKE-{secrets.token_urlsafe(24)}"
        )
        self.server = FakeBotApi(
            self.token,
            bot_first_name=bot_first_name,
            bot_username=bot_username,
            flood_limit=flood_limit,
            keep_files=keep_files,
            log_results=log_results,
            callback_answer_timeout=callback_answer_timeout,
        )
        self.privacy_mode = privacy_mode
        self._host = host
        self._port = port
        self._chat_ids = itertools.count(1)
        self._chats: dict[int, Chat] = {}

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        await self.server.start(self._host, self._port)

    async def stop(self) -> None:
        await self.server.stop()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def api_url(self) -> str:
        """``http://127.0.0.1:<port>``: the value for ``TELEGRAM_API_URL``."""
        return self.server.api_url

    @property
    def bot_user(self) -> dict[str, Any]:
        return self.server.bot_user

    @property
    def bot_id(self) -> int:
        return self.server.bot_id

    @property
    def bot_username(self) -> str:
        return str(self.server.bot_user["username"])

    # ---------------------------------------------------------------- people and chats

    def _register(self, user: User) -> None:
        self.server.users[user.id] = user.to_api()

    def _new_chat_id(self) -> int:
        return -1001000000000 - next(self._chat_ids)

    def _wrap(self, state: ChatState) -> Chat:
        chat = self._chats.get(state.id)
        if chat is None or chat.state is not state:
            chat = self._chats[state.id] = Chat(self, state)
        return chat

    def user(
        self,
        id: int,
        first_name: str,
        username: str | None = None,
        *,
        last_name: str | None = None,
        language_code: str | None = "ru",
    ) -> User:
        """A simulated user (known to the server, but he has not started the bot)."""
        user = User(id, first_name, username, last_name, language_code)
        self._register(user)
        return user

    def group(
        self,
        chat_id: int | None = None,
        title: str = "Настольщики",
        *,
        supergroup: bool = True,
        members: Iterable[User] = (),
        admins: Iterable[User] = (),
        bot_admin: bool = False,
        username: str | None = None,
    ) -> Chat:
        """A group the bot is in (``supergroup=False`` for a basic group, which can
        :meth:`Chat.migrate_to_supergroup`). ``admins`` become administrators."""
        if chat_id is None:
            chat_id = self._new_chat_id() if supergroup else -next(self._chat_ids) - 4000000
        state = ChatState(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            bot_id=self.bot_id,
            title=title,
            username=username,
            bot_status="administrator" if bot_admin else "member",
        )
        for user in members:
            self._register(user)
            state.members[user.id] = "member"
        for user in admins:
            self._register(user)
            state.members[user.id] = "administrator"
        return self._wrap(self.server.add_chat(state))

    def channel(
        self, chat_id: int | None = None, title: str = "Канал", *, username: str | None = None
    ) -> Chat:
        """A channel where the bot is an administrator."""
        state = ChatState(
            id=chat_id if chat_id is not None else self._new_chat_id(),
            type="channel",
            bot_id=self.bot_id,
            title=title,
            username=username,
            bot_status="administrator",
        )
        return self._wrap(self.server.add_chat(state))

    def chat(self, chat_id: int) -> Chat:
        """A chat the server knows, by id."""
        return self._wrap(self.server.chat(chat_id))

    def private(self, user: User) -> Chat:
        """The private chat with ``user`` (exists even before he starts the bot; the bot
        may only write there after :meth:`start_private`)."""
        self._register(user)
        return self._wrap(self.server.private_chat(user.to_api()))

    async def start_private(self, user: User, payload: str | None = None) -> Chat:
        """``user`` opens the bot and presses Start: sending to him is allowed from now
        on and ``/start`` (``/start <payload>`` for deep links) is queued."""
        chat = self.private(user)
        self.server.started.add(user.id)
        self.server.blocked.discard(user.id)
        await chat.send(user, "/start" if payload is None else f"/start {payload}")
        return chat

    async def follow_link(self, user: User, url: str, group: Chat | None = None) -> Chat:
        """``user`` opens a ``https://t.me/<bot>?start=<payload>`` link (his private chat
        with the bot), or a ``?startgroup=<payload>`` one and picks ``group``: the bot is
        added there unless it is in already (a ``my_chat_member`` update and the service
        message), then ``/start@<bot> <payload>`` is sent there in his name, as Telegram's
        clients do. Returns the chat."""
        parsed = urlparse(url)
        if parsed.netloc not in {"t.me", "telegram.me"}:
            raise ValueError(f"not a t.me link: {url}")
        if parsed.path.strip("/").lower() != self.bot_username.lower():
            raise ValueError(f"link is for another bot: {url}")
        query = parse_qs(parsed.query, keep_blank_values=True)
        if "startgroup" not in query:
            return await self.start_private(user, query.get("start", [None])[0])
        if group is None or group.type not in {"group", "supergroup"}:
            raise ValueError("a startgroup link needs the group the user picks")
        group._join(user)
        if group.state.bot_status in {"left", "kicked"}:
            await group.add_bot(user)
        payload = query["startgroup"][0]
        command = f"/start@{self.bot_username}" + (f" {payload}" if payload else "")
        await group.send(user, command)
        return group

    def block(self, user: User) -> None:
        """``user`` blocks the bot: sends to him fail with 403 "bot was blocked by the user"."""
        self.server.blocked.add(user.id)

    # ---------------------------------------------------------------- updates and waiting

    async def push_update(self, update: dict[str, Any]) -> UpdateRecord:
        """Queue a raw update dict (``update_id`` is assigned by the server)."""
        return self.server.enqueue_update(update)

    async def answer_of(self, record: CallbackRecord, *, timeout: float = WAIT) -> CallbackAnswer:
        """Wait for the bot's answer to a callback query made with :meth:`Chat.tap`."""
        assert record.future is not None
        try:
            await asyncio.wait_for(asyncio.shield(record.future), timeout)
        except TimeoutError:
            chat = self.chat(record.chat_id)
            raise CallbackNotAnswered(
                f"callback {record.data!r} by {record.user.get('first_name')} was not answered "
                f"within {timeout}s\n{chat.transcript()}"
            ) from None
        assert record.answered_at is not None
        return CallbackAnswer(
            text=record.text,
            show_alert=record.show_alert,
            url=record.url,
            latency=record.answered_at - record.created_at,
            query_id=record.id,
            record=record,
        )

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = WAIT) -> T:
        """Wait until ``predicate()`` is truthy, re-checked after every API call."""
        return await self.server.wait_for(predicate, timeout)  # type: ignore[no-any-return]

    async def settle(self, quiet: float = 0.05, timeout: float = WAIT) -> None:
        """Wait until every queued update was taken by the bot and it made no API call
        for ``quiet`` seconds (the bot is idle)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = time.monotonic()
            last = self.server.calls[-1].time if self.server.calls else 0.0
            if not self.server.undelivered and now - last >= quiet:
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"bot did not settle within {timeout}s")
            await asyncio.sleep(max(0.005, min(quiet, quiet - (now - last))))

    def calls(self, method: str | None = None, chat_id: int | None = None) -> list[ApiCall]:
        """The API call log, optionally filtered."""
        return self.server.calls_of(method, chat_id)

    @property
    def callbacks(self) -> list[CallbackRecord]:
        return list(self.server.callbacks.values())

    @property
    def updates(self) -> list[UpdateRecord]:
        return self.server.updates

    # ---------------------------------------------------------------- running an aiogram bot

    def make_bot(self, **kwargs: Any) -> Bot:
        """An aiogram ``Bot`` for this server (``kwargs`` go to ``Bot``, e.g. ``default=``)."""
        from aiogram import Bot
        from aiogram.client.session.aiohttp import AiohttpSession
        from aiogram.client.telegram import TelegramAPIServer

        class LocalSession(AiohttpSession):
            """aiogram's session minus the 250 ms SSL-shutdown sleep in ``close()``
            (plain HTTP to 127.0.0.1 needs none); keeps test teardown fast."""

            async def close(self) -> None:
                if self._session is not None and not self._session.closed:
                    await self._session.close()

        session = LocalSession(api=TelegramAPIServer.from_base(self.api_url))
        return Bot(self.token, session=session, **kwargs)

    @contextlib.asynccontextmanager
    async def polling(
        self, dispatcher: Dispatcher, bot: Bot, **kwargs: Any
    ) -> AsyncIterator[asyncio.Task[None]]:
        """Run ``dispatcher.start_polling(bot)`` in a task for the ``async with`` body and
        stop it cleanly afterwards (the bot session is closed; errors are re-raised)."""
        kwargs.setdefault("handle_signals", False)
        kwargs.setdefault("polling_timeout", 5)
        task = asyncio.create_task(dispatcher.start_polling(bot, **kwargs))
        await self.wait_for(lambda: task.done() or self.server._poller is not None, 5.0)
        try:
            yield task
        finally:
            if not task.done():
                with contextlib.suppress(RuntimeError):
                    await dispatcher.stop_polling()
            await task

    @contextlib.asynccontextmanager
    async def webhook(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        *,
        secret_token: str | None = "fake-secret",
        path: str = "/webhook",
        handle_in_background: bool = True,
        **kwargs: Any,
    ) -> AsyncIterator[str]:
        """Serve ``dispatcher`` with aiogram's aiohttp webhook handler on a free local port,
        ``setWebhook`` to it and yield its URL; tears everything down afterwards."""
        from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
        from aiohttp import web

        app = web.Application()
        SimpleRequestHandler(
            dispatcher,
            bot,
            secret_token=secret_token,
            handle_in_background=handle_in_background,
        ).register(app, path=path)
        setup_application(app, dispatcher, bot=bot, **kwargs)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None)
        assert sockets
        port = int(sockets[0].getsockname()[1])
        url = f"http://127.0.0.1:{port}{path}"
        await bot.set_webhook(url, secret_token=secret_token)
        try:
            yield url
        finally:
            await bot.delete_webhook()
            await runner.cleanup()
            await bot.session.close()
