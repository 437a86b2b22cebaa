"""What the simulated users do in a chat: write, edit, press buttons, join and leave,
remove or add the bot, migrate a group, write anonymously or as a channel. Each act queues
the update Telegram would deliver (if the bot would see it: :meth:`Chat.bot_sees`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .chat_view import ChatView
from .records import (
    ANONYMOUS_ADMIN,
    CHANNEL_BOT,
    CallbackRecord,
    ChatState,
    StoredMessage,
    UpdateRecord,
)
from .state import WAIT
from .users import COMMAND, User, client_entities


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


class Chat(ChatView):
    """A chat as the simulated users see it, with helpers to act in it.

    ``chat.messages`` is the visible history (bot's and users' messages, deleted ones
    hidden); the underlying :class:`ChatState` is ``chat.state``.
    """

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
        entities = client_entities(text, server.bot_user["username"]) if text else []
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
        match = COMMAND.match(message.text or "")
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
        match = COMMAND.match(text)
        if check:
            name = match.group(0)[1:].partition("@")[0] if match else ""
            if not name or not server.ephemeral.command_is_ephemeral(server, name):
                raise ValueError(f"{text!r} is not a command the bot registered as ephemeral")
        entities = client_entities(text, server.bot_user["username"])
        message = server.ephemeral.incoming(server, self.state, user.to_api(), text, entities)
        self._queue("message", message)
        return message

    async def edit(self, user: User, message: StoredMessage, text: str) -> StoredMessage:
        """``user`` edits his own earlier message: an ``edited_message`` update."""
        if message.from_user is None or message.from_user.get("id") != user.id:
            raise ValueError("users can edit only their own messages")
        message.text = text
        message.entities = client_entities(text, self.tg.server.bot_user["username"])
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
