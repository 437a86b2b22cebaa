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

The harness is three modules: ``users.py`` (:class:`User`), ``chat_view.py`` and
``chat.py`` (:class:`Chat`: reading and waiting, then acting) and this one,
:class:`FakeTelegram`, which starts the server and makes users and chats. ``Chat``,
``User``, ``CallbackAnswer`` and ``CallbackNotAnswered`` are re-exported here, so
``from fake_telegram.harness import Chat`` keeps working.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qs, urlparse

from .chat import CallbackAnswer, CallbackNotAnswered, Chat
from .records import ApiCall, CallbackRecord, ChatState, FloodLimit, UpdateRecord
from .server import FakeBotApi
from .state import DEFAULT, GLOBAL_LIMIT, PRIVATE_LIMIT, WAIT, Default
from .users import User

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


class FakeTelegram:
    """A fake Telegram (server + simulated users) for one bot.

    ``async with FakeTelegram() as tg:`` starts the Bot API server on 127.0.0.1 with a
    free port; point the bot at ``tg.api_url`` with ``tg.token`` (or use
    :meth:`make_bot`). Server options, Telegram's flood limits (``limits.py``; each a
    :class:`FloodLimit`, ``None`` turns it off): ``flood_limit`` (per group: 20 sends,
    edits and deletes in any 60 s — or in ``$FAKE_TELEGRAM_GROUP_WINDOW`` seconds when
    that is set — on by default), ``private_limit`` (per private chat:
    3 new messages in any 3 s, on), ``global_limit`` (the whole bot: 30 new messages a
    second, on), ``ephemeral_limit`` (per chat and receiver of ephemeral messages: off);
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
        flood_limit: FloodLimit | Default | None = DEFAULT,
        private_limit: FloodLimit | None = PRIVATE_LIMIT,
        global_limit: FloodLimit | None = GLOBAL_LIMIT,
        ephemeral_limit: FloodLimit | None = None,
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
            private_limit=private_limit,
            global_limit=global_limit,
            ephemeral_limit=ephemeral_limit,
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
