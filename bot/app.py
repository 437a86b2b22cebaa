"""Build the Bot and the Dispatcher, and run them (long polling or webhook).

Dependencies reach the handlers through the Dispatcher's workflow data
(`service`, `store`, `settings`); there are no globals.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
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
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeDefault,
    ErrorEvent,
)

from bot.config import Settings
from bot.handlers import routers
from bot.limits import ChatSendLimiter
from bot.presenters import registry
from bot.service import GameService
from bot.storage import MemoryStore, RedisStore, Store, StoreUnavailable
from locales import LANGUAGES, get_translator

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


COMMANDS = ("new", "leave", "cancel", "rules", "help")


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
        log.info("storage: Redis at %s (persistent)", settings.redis_url.split("@")[-1])
        return RedisStore(settings.redis_url, prefix=settings.redis_prefix, ttl_seconds=ttl)
    log.warning("storage: in memory — NOT persistent, games are lost on restart (set REDIS_URL)")
    return MemoryStore(ttl_seconds=ttl)


def make_bot(settings: Settings) -> Bot:
    session = None
    if settings.telegram_api_url:
        session = AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_url))
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


def limit_sends(bot: Bot, store: Store, settings: Settings) -> ChatSendLimiter:
    limiter = ChatSendLimiter(
        store, settings.chat_messages_per_minute, settings.chat_window_seconds
    )
    bot.session.middleware(limiter)
    return limiter


def make_dispatcher(service: GameService, settings: Settings) -> Dispatcher:
    dp = Dispatcher(service=service, store=service.store, settings=settings)
    dp.include_routers(*routers())

    @dp.errors()
    async def on_error(event: ErrorEvent) -> bool:
        query = event.update.callback_query
        message = event.update.message
        if isinstance(event.exception, StoreUnavailable):
            # Redis is down: say so, keep running; redis-py reconnects when it is back
            log.warning(
                "update %s: storage unavailable: %s", event.update.update_id, event.exception
            )
            text = service.t()("error.unavailable")
            with contextlib.suppress(Exception):
                if query is not None:
                    await query.answer(text)
                elif message is not None and message.text and message.text.startswith("/"):
                    await message.answer(text)
            return True
        if stale_query(event.exception):
            log.info("update %s: %s", event.update.update_id, event.exception)
            return True
        log.exception("update failed: %s", event.exception, exc_info=event.exception)
        if query is not None:
            with contextlib.suppress(Exception):
                await query.answer(service.t()("error.internal"), show_alert=True)
        return True

    return dp


async def set_commands(bot: Bot, settings: Settings) -> None:
    for lang in LANGUAGES:
        t = get_translator(lang)
        commands = [BotCommand(command=c, description=t(f"command.{c}")) for c in COMMANDS]
        for scope in (BotCommandScopeDefault(), BotCommandScopeAllGroupChats()):
            with contextlib.suppress(Exception):
                await bot.set_my_commands(commands, scope=scope, language_code=lang)
    t = get_translator(settings.bot_language)
    commands = [BotCommand(command=c, description=t(f"command.{c}")) for c in COMMANDS]
    with contextlib.suppress(Exception):
        await bot.set_my_commands(commands)


class App:
    """The running bot: `await app.start()`, then `await app.stop()` (used by tests)."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.store = store or make_store(settings)
        self.bot = make_bot(settings)
        self.limiter = limit_sends(self.bot, self.store, settings)
        self.service = GameService(self.bot, self.store, settings, registry(settings))
        self.dp = make_dispatcher(self.service, settings)
        self._polling: asyncio.Task[Any] | None = None

    async def startup(self) -> None:
        if isinstance(self.store, RedisStore):
            try:
                await self.store.ping()
            except Exception as e:
                raise StorageUnavailable(f"Redis is unreachable at REDIS_URL: {e}") from e
        await set_commands(self.bot, self.settings)
        await self.service.pictures.start()
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

    async def stop(self) -> None:
        if self._polling is not None:
            with contextlib.suppress(RuntimeError):
                await self.dp.stop_polling()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._polling, 5)
        await self.service.close()
        await self.bot.session.close()
        await self.store.close()

    async def run_polling(self) -> None:
        try:
            await self.startup()
            await self.dp.start_polling(self.bot, handle_signals=True)
        finally:
            await self.service.close()
            await self.store.close()
            await self.bot.session.close()

    async def run_webhook(self, stop: asyncio.Event | None = None) -> None:
        """Serve updates on WEBHOOK_HOST:WEBHOOK_PORT until `stop` is set (or cancelled)."""
        from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
        from aiohttp import web

        s = self.settings
        assert s.webhook_url
        secret = s.webhook_secret.get_secret_value() if s.webhook_secret else None
        runner: web.AppRunner | None = None
        try:
            await self.startup()
            await self.bot.set_webhook(
                s.webhook_url.rstrip("/") + s.webhook_path,
                secret_token=secret,
                allowed_updates=self.dp.resolve_used_update_types(),
            )
            app = web.Application()
            SimpleRequestHandler(dispatcher=self.dp, bot=self.bot, secret_token=secret).register(
                app, path=s.webhook_path
            )
            setup_application(app, self.dp, bot=self.bot)
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, s.webhook_host, s.webhook_port)
            await site.start()
            log.info("webhook listening on %s:%s%s", s.webhook_host, s.webhook_port, s.webhook_path)
            await (stop or asyncio.Event()).wait()
        finally:
            if runner is not None:
                await runner.cleanup()
            await self.service.close()
            await self.store.close()
            await self.bot.session.close()


async def run(settings: Settings) -> None:
    """Run the bot until stopped: webhook mode when WEBHOOK_URL is set, else long polling."""
    app = App(settings)
    if settings.webhook_url:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        await app.run_webhook(stop)
    else:
        await app.run_polling()
