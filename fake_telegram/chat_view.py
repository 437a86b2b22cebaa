"""A chat as the simulated users see it: its messages (and what one user sees in place of
one, ``seen_by``), a readable transcript, and waiting for the bot (``wait_for``,
``wait_message``, ``wait_edit``, ``wait_ephemeral``). What the users do in it is
:class:`~fake_telegram.chat.Chat`'s, which builds on this."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from .ephemeral import ephemeral_id
from .records import ApiCall, ChatState, StoredMessage
from .state import WAIT

if TYPE_CHECKING:
    from .harness import FakeTelegram
    from .users import User

T = TypeVar("T")


class ChatView:
    """Reading a chat and waiting for the bot in it (the base of
    :class:`~fake_telegram.chat.Chat`); the server's :class:`ChatState` is ``self.state``."""

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

    def ephemeral(self, user: User) -> list[StoredMessage]:
        """The ephemeral messages ``user`` alone sees here (his and the bot's to him)."""
        return self.tg.server.ephemeral.visible_to(self.id, user.id)

    def seen_by(self, user: User, message: StoredMessage) -> StoredMessage:
        """What ``user`` sees where ``message`` (a message of this chat) is: the bot's
        ephemeral message to him that replaces it (sent for his press on it with
        ``replace_callback_query_message``; the newest, not deleted), else ``message``
        itself. Deleting the copy (``deleteEphemeralMessage``) shows him the original
        again; a deleted original is returned as it is (``deleted``), copy or not."""
        if message.deleted or ephemeral_id(message) is not None:
            return message
        copy = self.tg.server.ephemeral.replacement(self.id, user.id, message.message_id)
        return message if copy is None else copy

    def wait_ephemeral(
        self,
        user: User,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        timeout: float = WAIT,
    ) -> Awaitable[StoredMessage]:
        """Wait for a new ephemeral message of the bot to ``user`` (newer than the call)."""
        state = self.tg.server.ephemeral
        floor = state.last_id(self.id)

        def find() -> StoredMessage | None:
            for message in state.visible_to(self.id, user.id):
                new = message.from_bot and (ephemeral_id(message) or 0) > floor
                if new and (predicate is None or predicate(message)):
                    return message
            return None

        return self.wait_for(find, timeout)
