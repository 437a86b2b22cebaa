"""The fake Telegram Bot API server (aiohttp) that a real aiogram bot can talk to.

The bot reaches it through ``TelegramAPIServer.from_base(api_url)``; every method lives at
``{api_url}/bot{token}/{method}`` and accepts JSON, urlencoded or multipart bodies (aiogram
sends multipart with ``attach://<name>`` references for uploads). Replies are Telegram-shaped
``{"ok": true, "result": ...}`` / ``{"ok": false, "error_code": ..., "description": ...}``.

The server keeps everything a test wants to look at: chats with their ordered messages
(including uploaded photo bytes and the keyboards as sent), a log of every API call, callback
queries and their answers, and the queue of updates (served by long polling ``getUpdates`` or
POSTed to a webhook). Simulated users live in :mod:`fake_telegram.harness`.

:class:`FakeBotApi` is assembled here from one part a module (each part builds on the parts
it uses; all on ``state.ServerState``): the records it stores are in ``records.py``, the HTTP
wire in ``wire.py``; this module adds the aiohttp application and its lifecycle. It also
re-exports the records, so ``from fake_telegram.server import StoredMessage`` keeps working.
"""

from __future__ import annotations

import functools
import json

from aiohttp import web

from .bot_profile import ProfileMethods
from .callbacks import CallbackMethods
from .chats import ChatMethods
from .files import sniff_mime
from .messages import MessageMethods
from .records import (
    ANONYMOUS_ADMIN,
    CHANNEL_BOT,
    ApiCall,
    Button,
    CallbackRecord,
    ChatState,
    FileRecord,
    FloodCounter,
    FloodLimit,
    StoredMessage,
    TelegramError,
    UpdateRecord,
    bad_request,
)
from .state import WAIT
from .views import ViewMethods
from .webhook import WebhookMethods
from .wire import json_response, read_params

__all__ = [
    "ANONYMOUS_ADMIN",
    "CHANNEL_BOT",
    "WAIT",
    "ApiCall",
    "Button",
    "CallbackRecord",
    "ChatState",
    "FakeBotApi",
    "FileRecord",
    "FloodCounter",
    "FloodLimit",
    "StoredMessage",
    "TelegramError",
    "UpdateRecord",
]


class FakeBotApi(
    MessageMethods, WebhookMethods, ChatMethods, CallbackMethods, ProfileMethods, ViewMethods
):
    """The fake Bot API: state plus an aiohttp application serving it.

    Its parts, one module each: ``messages.py`` (send, edit, delete, pin; the message
    parts in ``content.py``), ``ephemeral_methods.py``, ``files.py``, ``updates.py`` and
    ``webhook.py``, ``calls.py`` (running and logging a call) with ``limits.py``,
    ``chats.py``, ``callbacks.py``, ``bot_profile.py``, ``views.py``; the constructor and
    the state are ``state.ServerState``'s. Add a Bot API method by writing
    ``async def m_<methodName>(self, params, uploads)`` in the part it belongs to.

    Use :meth:`start` / :meth:`stop` (or the :class:`~fake_telegram.harness.FakeTelegram`
    harness, which does it for you). Everything runs on the event loop that called
    :meth:`start`; state may be read freely from that loop.
    """

    @functools.cached_property
    def app(self) -> web.Application:
        """The aiohttp application: the Bot API methods and the file downloads."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        return app

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

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return json_response(TelegramError(401, "Unauthorized").to_json(), 401)
        method = request.match_info["method"]
        try:
            params, uploads = await read_params(request)
        except (ValueError, json.JSONDecodeError) as exc:
            return json_response(bad_request(f"can't parse request: {exc}").to_json(), 400)
        handler = self._methods.get(method.lower())
        if handler is None:
            return json_response(TelegramError(404, "Not Found").to_json(), 404)
        status, body = await self.execute(method, params, uploads)
        return json_response(body, status)

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            raise web.HTTPUnauthorized()
        file_id = request.match_info["path"].rsplit("/", 1)[-1].split(".", 1)[0]
        record = self.files.get(file_id)
        if record is None:
            raise web.HTTPNotFound()
        return web.Response(body=record.data, content_type=sniff_mime(record.data))
