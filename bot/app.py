"""Build the Bot and the Dispatcher, and run them (long polling or webhook).

Dependencies reach the handlers through the Dispatcher's workflow data
(`service`, `store`, `settings`); there are no globals.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import PRODUCTION, TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import (
    AnswerCallbackQuery,
    DeleteMessage,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    GetMe,
    GetUpdates,
    SendMessage,
    SendPhoto,
)
from aiogram.methods.base import Response
from aiogram.types import ErrorEvent

from bot import lean_json, logs, metrics
from bot.budget import GlobalBudget
from bot.command_menus import set_commands
from bot.config import Settings
from bot.descriptions import set_descriptions
from bot.handlers import routers
from bot.health import Ops
from bot.language import user_translator
from bot.lifecycle import GRACE, InFlightUpdates, StopSignals, until_stopped
from bot.limits import ChatLimiter, chat_limiter
from bot.polling_conflict import ConflictGuard, PollingConflict
from bot.presenters import registry
from bot.replies import Asked
from bot.service import GameService
from bot.storage import MemoryStore, RedisStore, Store, StoreUnavailable

log = logging.getLogger("bot")

# aiogram checks every reply with `Response[method.__returning__]`, and pydantic keeps its
# parametrised generics only weakly: after a full garbage collection each of these was
# rebuilt on the event loop (1–4 ms apiece, ~250 times in 30 s at 100 games). Held here
# for good.
_RESPONSES = [
    Response[m.__returning__]  # type: ignore[name-defined]
    for m in (
        GetUpdates,
        AnswerCallbackQuery,
        SendMessage,
        SendPhoto,
        EditMessageMedia,
        EditMessageCaption,
        EditMessageText,
        EditMessageReplyMarkup,
        GetChatMember,
        DeleteMessage,
        GetMe,
    )
]


_frozen = False


def freeze_heap() -> None:
    """Once per process, after startup: a full collection, then `gc.freeze()`. The started
    bot's ~2e5 long-lived objects (aiogram's and pydantic's types, render caches) leave
    the collector's view: a full collection took 130 ms idle and 340–370 ms under load,
    stalling the event loop; afterwards it scans only what was allocated since."""
    global _frozen
    if _frozen:
        return
    _frozen = True
    gc.collect()
    gc.freeze()


class StorageUnavailable(RuntimeError):
    """The configured storage cannot be reached at startup."""


def stale_query(e: BaseException) -> bool:
    """Answering a callback query twice or too late (e.g. an update delivered again after
    a restart): harmless, the press was already answered or its player has moved on."""
    return isinstance(e, TelegramBadRequest) and "query is too old" in str(e).lower()


def make_store(settings: Settings) -> Store:
    ttl = settings.game_ttl_days * 86400
    sentinels = settings.sentinel_list()
    if sentinels:
        log.info("storage: Redis %r via Sentinel %s", settings.redis_sentinel_master, sentinels)
        return RedisStore(
            settings.redis_url or "redis://",
            prefix=settings.redis_prefix,
            ttl_seconds=ttl,
            sentinels=sentinels,
            sentinel_master=settings.redis_sentinel_master,
        )
    if settings.redis_url:
        where = settings.redis_url.split("@")[-1]
        log.info("storage: Redis%s at %s (persistent)", " Cluster" * settings.redis_cluster, where)
        return RedisStore(
            settings.redis_url,
            prefix=settings.redis_prefix,
            ttl_seconds=ttl,
            cluster=settings.redis_cluster,
        )
    log.warning("storage: in memory — NOT persistent, games are lost on restart (set REDIS_URL)")
    return MemoryStore(ttl_seconds=ttl)


def make_bot(settings: Settings) -> Bot:
    api = PRODUCTION
    if settings.telegram_api_url:
        api = TelegramAPIServer.from_base(settings.telegram_api_url)
    session = AiohttpSession(api=api, json_loads=lean_json.loads)  # no keyboards read back
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


def limit_sends(bot: Bot, store: Store, settings: Settings) -> ChatLimiter:
    limiter = chat_limiter(store, settings)
    bot.session.middleware(limiter)
    return limiter


def make_dispatcher(service: GameService, settings: Settings) -> Dispatcher:
    # No FSM: the bot keeps no per-user conversation state, and aiogram's default memory
    # storage would keep a record for every (chat, user) that ever sent an update.
    dp = Dispatcher(service=service, store=service.store, settings=settings, disable_fsm=True)
    dp.include_routers(*routers())
    dp.update.outer_middleware(logs.UpdateContext())  # the update's ids on its log lines
    dp.update.outer_middleware(metrics.UpdateMetrics())  # updates by kind, answer latency

    @dp.errors()
    async def on_error(event: ErrorEvent) -> bool:
        query = event.update.callback_query
        message = event.update.message
        user = query.from_user if query else message.from_user if message else None
        t = user_translator(service, user)  # no store read: it may be what failed
        if isinstance(event.exception, StoreUnavailable):
            # Redis is down: say so, keep running; redis-py reconnects when it is back
            log.warning(
                "update %s: storage unavailable: %s", event.update.update_id, event.exception
            )
            text = t("error.unavailable")
            with contextlib.suppress(Exception):
                if query is not None:
                    await query.answer(text)
                elif message is not None and message.text and message.text.startswith("/"):
                    await service.replies.answer(Asked.of(message), text, t, topic="unavailable")
            return True
        if stale_query(event.exception):
            log.info("update %s: %s", event.update.update_id, event.exception)
            return True
        log.exception("update failed: %s", event.exception, exc_info=event.exception)
        if query is not None:
            with contextlib.suppress(Exception):
                await query.answer(t("error.internal"), show_alert=True)
        return True

    return dp


class App:
    """The running bot: `await app.start()`, then `await app.stop()` (used by tests)."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.store = store or make_store(settings)
        self.bot = make_bot(settings)
        self.limiter = limit_sends(self.bot, self.store, settings)
        # all instances together under TELEGRAM_MESSAGES_PER_SECOND (bot/budget.py)
        self.budget = GlobalBudget(self.store, settings.telegram_messages_per_second)
        if settings.telegram_messages_per_second > 0:
            self.bot.session.middleware(self.budget)
        self.service = GameService(
            self.bot, self.store, settings, registry(settings), limiter=self.limiter
        )
        self.sender = self.service.sender  # every send, edit and delete (bot/sender.py)
        self.dp = make_dispatcher(self.service, settings)
        self.inflight = InFlightUpdates()  # waited for on a stop (bot/lifecycle.py)
        self.dp.update.outer_middleware(self.inflight)
        self.conflicts = ConflictGuard(settings.polling_conflict_seconds)
        self.bot.session.middleware(self.conflicts)
        self.calls = metrics.TelegramCalls()  # innermost: every HTTP request (bot/metrics.py)
        self.bot.session.middleware(self.calls)
        self.ops = Ops(self)  # /healthz and /metrics on METRICS_PORT (bot/health.py)
        self._polling: asyncio.Task[Any] | None = None
        self.loop_task: asyncio.Task[Any] | None = None  # long polling (for /healthz)
        self.loop_started = 0.0
        self.webhook_listening = False

    async def startup(self) -> None:
        await self.ops.start()
        if self.settings.telegram_messages_per_second > 0:
            await self.budget.start()
        if isinstance(self.store, RedisStore):
            try:
                await self.store.ping()
            except Exception as e:
                raise StorageUnavailable(f"Redis is unreachable at REDIS_URL: {e}") from e
            if moved := await self.store.migrate_keys():
                log.info("storage: %d keys of the older format renamed", moved)
        await self.service.pictures.start()  # first: its imports overlap what follows
        titles = [p.title_key for p in self.service.presenters.values()]
        await set_commands(self.bot, self.settings.bot_language, titles)
        await set_descriptions(self.bot, self.settings, titles)  # the profile (bot/descriptions.py)
        freeze_heap()
        await self.service.resume()
        self.service.start_timers()

    async def start(self) -> None:
        """Start long polling in the background."""
        await self.startup()
        self._polling = asyncio.ensure_future(
            self.dp.start_polling(
                self.bot, handle_signals=False, close_bot_session=False, polling_timeout=1
            )
        )
        self._polling_started(self._polling)

    def _polling_started(self, task: asyncio.Task[Any]) -> None:
        self.loop_task, self.loop_started = task, time.monotonic()

    async def stop(self) -> None:
        if self._polling is not None:
            with contextlib.suppress(RuntimeError):
                await self.dp.stop_polling()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._polling, 5)
        await self.service.close()
        await self.budget.stop()
        await self.bot.session.close()
        await self.store.close()
        await self.ops.stop()

    async def run_polling(
        self, stop: asyncio.Event | None = None, hurry: asyncio.Event | None = None
    ) -> None:
        """Long polling until `stop` is set; a polling conflict with another instance that
        persists raises `PollingConflict` (bot/polling_conflict.py)."""
        stop = stop or asyncio.Event()
        polling: asyncio.Task[Any] | None = None
        try:
            started, _ = await until_stopped(self.startup(), stop)
            if not started:
                return
            polling = asyncio.ensure_future(
                self.dp.start_polling(self.bot, handle_signals=False, close_bot_session=False)
            )
            self._polling_started(polling)
            waiters = [
                asyncio.ensure_future(stop.wait()),
                asyncio.ensure_future(self.conflicts.tripped.wait()),
            ]
            try:
                await asyncio.wait({polling, *waiters}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waiters:
                    waiter.cancel()
            if polling.done():
                polling.result()  # its error (Telegram unreachable, the token refused)
                return
            await self._stop_polling(polling)
            if self.conflicts.verdict is not None:
                raise PollingConflict(self.conflicts.verdict)
        finally:
            if polling is not None and not polling.done():
                await self._stop_polling(polling)
            await self.shutdown(hurry or asyncio.Event())

    async def _stop_polling(self, polling: asyncio.Task[Any]) -> None:
        try:
            await asyncio.wait_for(self.dp.stop_polling(), 5)
        except (RuntimeError, TimeoutError):  # not started yet, or stuck: cancel it
            polling.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(polling, 5)

    async def shutdown(self, hurry: asyncio.Event) -> None:
        """Once no update comes in any more: the updates and then the table edits in
        flight finish (for at most GRACE seconds in all; `hurry` ends the wait), and
        everything closes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + GRACE
        await self.inflight.drain(GRACE, hurry)
        await until_stopped(self.service.finish_work(max(0.0, deadline - loop.time())), hurry)
        await self.service.close()
        await self.budget.stop()
        await self.store.close()
        await self.bot.session.close()
        await self.ops.stop()

    async def run_webhook(
        self, stop: asyncio.Event | None = None, hurry: asyncio.Event | None = None
    ) -> None:
        """Serve updates on WEBHOOK_HOST:WEBHOOK_PORT until `stop` is set (or cancelled)."""
        from aiogram.webhook.aiohttp_server import setup_application
        from aiohttp import web

        from bot.webhook import MAX_BODY, UpdateHandler

        s = self.settings
        assert s.webhook_url
        stop = stop or asyncio.Event()
        secret = s.webhook_secret.get_secret_value() if s.webhook_secret else None
        runner: web.AppRunner | None = None
        try:
            started, _ = await until_stopped(self.startup(), stop)
            if not started:
                return
            registered, _ = await until_stopped(
                self.bot.set_webhook(
                    s.webhook_url.rstrip("/") + s.webhook_path,
                    secret_token=secret,
                    allowed_updates=self.dp.resolve_used_update_types(),
                ),
                stop,
            )
            if not registered:
                return
            app = web.Application(client_max_size=MAX_BODY)
            UpdateHandler(self.dp, self.bot, secret).register(app, path=s.webhook_path)
            setup_application(app, self.dp, bot=self.bot)
            if self.ops.shares_webhook():
                self.ops.register(app)  # /healthz and /metrics on the webhook's port
            runner = web.AppRunner(app, shutdown_timeout=GRACE)
            await runner.setup()
            site = web.TCPSite(runner, s.webhook_host, s.webhook_port)
            await site.start()
            self.webhook_listening = True
            log.info("webhook listening on %s:%s%s", s.webhook_host, s.webhook_port, s.webhook_path)
            if secret is None:
                log.warning(
                    "webhook mode WITHOUT a secret (WEBHOOK_INSECURE=1): anyone who can reach "
                    "%s:%s can post updates",
                    s.webhook_host,
                    s.webhook_port,
                )
            await stop.wait()
        finally:
            self.webhook_listening = False
            if runner is not None:
                await runner.cleanup()
            await self.shutdown(hurry or asyncio.Event())


async def run(settings: Settings) -> None:
    """Run the bot until SIGTERM/SIGINT: webhook mode when WEBHOOK_URL is set, else long
    polling. The signal handlers come first, so a stop during start-up works too."""
    signals = StopSignals().install()
    try:
        app = App(settings)
        if settings.webhook_url:
            await app.run_webhook(signals.stop, signals.hurry)
        else:
            await app.run_polling(signals.stop, signals.hurry)
    finally:
        signals.remove()
        log.info("stopped")
