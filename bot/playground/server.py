"""The playground server: the real bot, the tests' fake Bot API, and a web page.

    async with Playground(port=0) as pg:      # the bot runs; the page is at pg.url
        ...

Everything runs on one event loop: the fake Bot API server (on a free port of
127.0.0.1), the bot long-polling it, and the page's own aiohttp app. The page gets a
snapshot and then every change of a message (sent, edited, deleted) as server-sent
events; its clicks become the updates Telegram would send (a member's message, a
member's button press, whose `answerCallbackQuery` is returned to the page).

Why one module of ~480 lines: it is one object, `Playground` — its start and stop, the
snapshot and the live events it keeps, and the six HTTP routes that read and change that
same state — plus its command line (`main`); split, each half would reach into the
other's fields.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from aiohttp import web

from bot.app import App, StorageUnavailable
from bot.config import Settings
from fake_telegram import CallbackNotAnswered, Chat, FakeTelegram, User
from fake_telegram.ephemeral import ephemeral_id, receiver_id
from fake_telegram.files import sniff_mime
from fake_telegram.server import ApiCall, StoredMessage, UpdateRecord

log = logging.getLogger("bot.playground")

STATIC = Path(__file__).with_name("static")
GROUP_TITLE = "Настольщики"
#: the simulated members: (user id, first name, username); the first one created the group
MEMBERS: tuple[tuple[int, str, str], ...] = (
    (101, "Аня", "anya"),
    (102, "Борис", "boris"),
    (103, "Вика", "vika"),
    (104, "Гоша", "gosha"),
)
PRESS_TIMEOUT = 10.0
MAX_TEXT = 4096
_STATIC_TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript"}

Event = tuple[str, dict[str, Any]]


def playground_settings(tg: FakeTelegram, **overrides: Any) -> Settings:
    """The bot's settings from the environment (`REDIS_URL`, `TURN_SECONDS`, …), pointed
    at the fake server; never a webhook, and its own Redis key prefix so a playground
    never touches a real bot's games."""
    settings = Settings(bot_token=tg.token, telegram_api_url=tg.api_url, **overrides)
    return settings.model_copy(
        update={"webhook_url": None, "redis_prefix": f"{settings.redis_prefix}:playground"}
    )


class Playground:
    """The fake Telegram with the group «Настольщики», its members, the running bot and
    the web page. ``port=0`` picks a free port (see :attr:`url`)."""

    def __init__(
        self,
        *,
        port: int = 8080,
        settings: dict[str, Any] | None = None,
    ) -> None:
        self.port = port
        # privacy mode off for the group: the bot sees every message, as with a bot
        # that BotFather was told so (or that is an admin of the group)
        self.tg = FakeTelegram(privacy_mode=False)
        self.members: list[User] = [
            self.tg.user(uid, name, username) for uid, name, username in MEMBERS
        ]
        self.group: Chat | None = None
        self.app: App | None = None
        self._settings = settings or {}
        self._clients: set[asyncio.Queue[Event | None]] = set()
        self._seen: dict[tuple[int, int], tuple[int, bool, bool]] = {}
        self._dirty: set[int] = set()
        self._flush_scheduled = False
        self._remove_listener: Callable[[], None] | None = None
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Start the fake server, the bot (each member has started it in private) and
        the page. Raises `StorageUnavailable` (unreachable Redis) or `OSError` (port)."""
        await self.tg.start()
        try:
            self.group = self.tg.group(title=GROUP_TITLE, members=self.members)
            self.group.set_status(self.members[0], "creator")
            self._remove_listener = self.tg.server.add_listener(
                on_call=self._on_call, on_update=self._on_update
            )
            await self._start_web()  # first: a busy port fails before the bot starts
            self.app = App(playground_settings(self.tg, **self._settings))
            await self.app.start()
            for member in self.members:
                await self.tg.start_private(member)
            # the bot has answered every /start (and so knows it may write to them)
            with contextlib.suppress(TimeoutError):
                await self.tg.wait_for(self._all_started, timeout=15)
        except BaseException:
            await self.stop()
            raise

    async def stop(self) -> None:
        for queue in list(self._clients):
            queue.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.app is not None:
            await self.app.stop()
            self.app = None
        if self._remove_listener is not None:
            self._remove_listener()
            self._remove_listener = None
        await self.tg.stop()

    async def __aenter__(self) -> Playground:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def _start_web(self) -> None:
        app = web.Application(client_max_size=64 * 1024)
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/photo/{file_id}", self._photo)
        app.router.add_post("/api/send", self._send)
        app.router.add_post("/api/press", self._press)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None)
        if sockets:
            self.port = int(sockets[0].getsockname()[1])

    def _all_started(self) -> bool:
        return all(
            any(m.from_bot for m in self.tg.private(member).messages) for member in self.members
        )

    # ------------------------------------------------------------------ what the page sees

    def member(self, user_id: int) -> User:
        for member in self.members:
            if member.id == user_id:
                return member
        raise KeyError(user_id)

    def _chat_ids(self) -> list[int]:
        assert self.group is not None
        return [self.group.id, *(member.id for member in self.members)]

    def message_view(self, message: StoredMessage) -> dict[str, Any]:
        """The fake server's view of a message, with its photo or animation served by this
        app (`/photo/<file_id>`, whatever the file). An
        ephemeral message (Bot API 10.2) has `visible_to` (the one member who sees it:
        the page shows it only in his view of the group, «видно только вам») and
        `ephemeral_id`, and a `message_id` of its own below 0 (its real one is 0)."""
        view = self.tg.server.message_view(message)
        for kind in ("photo", "animation"):  # a table's picture, a /replay's GIF
            media = view.get(kind)
            if media is not None:
                media["url"] = f"/photo/{media['file_id']}" if media.get("url") else None
        eid = ephemeral_id(message)
        if eid is not None:
            sender = (message.from_user or {}).get("id")
            view["visible_to"] = receiver_id(message) if message.from_bot else sender
            view["ephemeral_id"] = eid
            view["message_id"] = -eid
        return view

    def ephemeral_messages(self, chat_id: int) -> list[StoredMessage]:
        """The chat's ephemeral messages (every member's; the page shows each to its one)."""
        found = self.tg.server.ephemeral.messages.items()
        return [m for (chat, _), m in sorted(found, key=lambda x: x[0]) if chat == chat_id]

    def commands(self, chat_type: str) -> list[dict[str, Any]]:
        """The bot's command menu as a member's app would show it in a chat of this type
        (`group` or `private`): the most specific scope and language the bot set."""
        scopes = ["all_group_chats" if chat_type == "group" else "all_private_chats", "default"]
        language = self.members[0].language_code or ""
        for scope in scopes:
            for lang in (language, ""):
                key = (json.dumps({"type": scope}, sort_keys=True), lang)
                if self.tg.server.commands.get(key):
                    return list(self.tg.server.commands[key])
        return []

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows: the bot, the members, the group and the private
        chats with their messages."""
        assert self.group is not None
        chats = []
        for chat_id in self._chat_ids():
            state = self.tg.server.chats.get(chat_id)
            if state is None:
                continue
            chats.append(
                {
                    **state.to_api(),
                    "members": sum(
                        1 for status in state.members.values() if status not in ("left", "kicked")
                    ),
                    "messages": [
                        self.message_view(m)
                        for m in [*state.messages.values(), *self.ephemeral_messages(chat_id)]
                    ],
                }
            )
        return {
            "bot": self.tg.bot_user,
            "group_id": self.group.id,
            "members": [
                {"id": m.id, "name": m.full_name, "username": m.username} for m in self.members
            ],
            "chats": chats,
            "commands": {kind: self.commands(kind) for kind in ("group", "private")},
        }

    # ------------------------------------------------------------------ live updates

    def _on_call(self, call: ApiCall) -> None:
        if call.method.lower() in ("setmycommands", "deletemycommands") and self.group is not None:
            commands = {kind: self.commands(kind) for kind in ("group", "private")}
            self._broadcast([("commands", commands)])
        chat_id = call.chat_id
        if isinstance(chat_id, str):
            with contextlib.suppress(ValueError):
                chat_id = int(chat_id)
        if isinstance(chat_id, int):
            self.touch(chat_id)

    def _on_update(self, record: UpdateRecord) -> None:
        message = record.payload.get(record.type)
        if isinstance(message, dict):
            chat = message.get("chat") or (message.get("message") or {}).get("chat") or {}
            if isinstance(chat.get("id"), int):
                self.touch(chat["id"])

    def touch(self, chat_id: int) -> None:
        """Something in this chat may have changed: tell the pages (coalesced)."""
        self._dirty.add(chat_id)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_scheduled = False
        dirty, self._dirty = self._dirty, set()
        shown = set(self._chat_ids()) if self.group is not None else set()
        events: list[Event] = []
        for chat_id in dirty & shown:
            state = self.tg.server.chats.get(chat_id)
            if state is None:
                continue
            for message in [*state.messages.values(), *self.ephemeral_messages(chat_id)]:
                key = (chat_id, message.message_id or -(ephemeral_id(message) or 0))
                signature = (message.edit_count, message.deleted, message.pinned)
                if self._seen.get(key) != signature:
                    self._seen[key] = signature
                    events.append(("msg", self.message_view(message)))
        self._broadcast(events)

    def _broadcast(self, events: list[Event]) -> None:
        if not events:
            return
        for queue in list(self._clients):
            if queue.qsize() > 5000:  # a stuck page: drop it, it reconnects with a snapshot
                queue.put_nowait(None)
                self._clients.discard(queue)
                continue
            for event in events:
                queue.put_nowait(event)

    # ------------------------------------------------------------------ HTTP handlers

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._file(STATIC / "index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = STATIC / name
        if "/" in name or name.startswith(".") or path.suffix not in _STATIC_TYPES:
            raise web.HTTPNotFound()
        if not path.is_file():
            raise web.HTTPNotFound()
        return self._file(path)

    @staticmethod
    def _file(path: Path) -> web.Response:
        return web.Response(
            body=path.read_bytes(),
            content_type=_STATIC_TYPES[path.suffix],
            charset="utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    async def _photo(self, request: web.Request) -> web.StreamResponse:
        file_id = request.match_info["file_id"]
        record = self.tg.server.files.get(file_id)
        if record is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=record.data,
            content_type=sniff_mime(record.data),
            headers={"Cache-Control": "public, max-age=31536000, immutable"},
        )

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: `snapshot` first, then `msg` for every changed message."""
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        queue: asyncio.Queue[Event | None] = asyncio.Queue()
        self._clients.add(queue)
        try:
            await self._write_event(response, "snapshot", self.snapshot())
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), 15)
                except TimeoutError:
                    await response.write(b": ping\n\n")
                    continue
                if event is None:
                    break
                await self._write_event(response, *event)
        except (ConnectionError, RuntimeError):
            pass  # the page went away
        finally:
            self._clients.discard(queue)
        return response

    @staticmethod
    async def _write_event(response: web.StreamResponse, event: str, data: Any) -> None:
        payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        await response.write(f"event: {event}\ndata: {payload}\n\n".encode())

    async def _body(self, request: web.Request) -> dict[str, Any]:
        # a JSON body only: a cross-site form cannot post here without a CORS preflight
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text="JSON only")
        try:
            body = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text="bad JSON") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="bad JSON")
        return body

    def _user(self, body: dict[str, Any]) -> User:
        try:
            return self.member(int(body["user"]))
        except (KeyError, TypeError, ValueError):
            raise web.HTTPBadRequest(text="unknown member") from None

    async def _send(self, request: web.Request) -> web.StreamResponse:
        """A member writes in the group (`chat: "group"`) or to the bot (`"private"`)."""
        body = await self._body(request)
        user = self._user(body)
        text = str(body.get("text") or "").strip()[:MAX_TEXT]
        if not text:
            raise web.HTTPBadRequest(text="empty message")
        assert self.group is not None
        chat = self.group if body.get("chat") == "group" else self.tg.private(user)
        message = await chat.send(user, text)
        self.touch(chat.id)
        return web.json_response({"message_id": message.message_id})

    async def _press(self, request: web.Request) -> web.StreamResponse:
        """A member presses an inline button; the bot's callback answer is returned."""
        body = await self._body(request)
        user = self._user(body)
        try:
            chat_id, message_id = int(body["chat_id"]), int(body["message_id"])
            data = str(body["data"])
        except (KeyError, TypeError, ValueError):
            raise web.HTTPBadRequest(text="chat_id, message_id and data") from None
        if chat_id not in self._chat_ids() or (chat_id > 0 and chat_id != user.id):
            raise web.HTTPForbidden(text="not this member's chat")
        chat = self.tg.chat(chat_id)
        message = chat.state.messages.get(message_id)
        if body.get("ephemeral_id") is not None:  # only its one member may press it
            try:
                key = (chat_id, int(body["ephemeral_id"]))
            except (TypeError, ValueError):
                raise web.HTTPBadRequest(text="ephemeral_id") from None
            message = self.tg.server.ephemeral.messages.get(key)
            if message is not None and self.message_view(message).get("visible_to") != user.id:
                raise web.HTTPForbidden(text="not this member's message")
        if message is None or message.deleted:
            return web.json_response({"error": "Сообщение удалено"})
        try:
            answer = await chat.press(user, message, by_data=data, timeout=PRESS_TIMEOUT)
        except LookupError:
            return web.json_response({"error": "Этой кнопки уже нет"})
        except CallbackNotAnswered:
            return web.json_response({"error": "Бот не ответил на нажатие"})
        return web.json_response(
            {"text": answer.text, "show_alert": answer.show_alert, "url": answer.url}
        )


# ---------------------------------------------------------------------- command line


async def serve(port: int, stop: asyncio.Event | None = None) -> None:
    """Run the playground until SIGINT/SIGTERM (or `stop` is set)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    async with Playground(port=port) as playground:
        print(
            f"\n  Песочница «Настолки»: {playground.url}\n"
            f"  Откройте в браузере; группа «{GROUP_TITLE}», участники "
            f"{', '.join(m.first_name for m in playground.members)}. Ctrl+C — выход.\n",
            flush=True,
        )
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot playground",
        description="Play in a browser: the real bot against a local fake Telegram "
        "(no token needed). Serves http://127.0.0.1:PORT.",
    )
    parser.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 (8080)")
    args = parser.parse_args(argv)
    logging.getLogger("aiogram.event").setLevel(logging.WARNING)
    try:
        asyncio.run(serve(args.port))
    except KeyboardInterrupt:
        return 0
    except StorageUnavailable as e:
        print(str(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"Cannot serve on 127.0.0.1:{args.port}: {e} (try --port)", file=sys.stderr)
        return 1
    return 0
