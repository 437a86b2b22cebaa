"""The bot's Prometheus metrics (`prometheus-client`), served on `/metrics` (bot/health.py).

Counted at a few choke points, each a one-line call into this module:

- every Telegram call, its method and its result code: a request middleware of the bot's
  session (`TelegramCalls`, put on by `bot.app.make_bot`);
- the flood waits: `bot/sender.py` (`flood_wait`);
- every update, its kind and how long it took to answer: a middleware of the dispatcher
  (`UpdateMetrics`, `bot.app.make_dispatcher`);
- presses accepted or refused and why (`press`), the table-edit lag (`table_kicked`,
  `table_since`, `table_lag`), render time (`rendered`): the service and the pictures;
- the gauges (render queue, lobbies and games per game, timers due) are read when
  `/metrics` is asked (`Snapshot`, at most every `SNAPSHOT_SECONDS`).

Metric names (all prefixed `nastolka_`):

    updates_total{kind}                      counter
    answer_seconds{kind}                     histogram: an update's handling
    presses_total{outcome,reason}            counter: accepted | refused (+ why)
    table_edit_lag_seconds{game}             histogram: a change -> the table shows it
    telegram_calls_total{method,code}        counter: code 200, 429, 400, ..., network
    telegram_call_seconds{method}            histogram
    flood_wait_seconds{reason}               histogram: window | hold | retry_after
    render_seconds{game}                     histogram: one table picture drawn
    render_queue                             gauge: pictures waiting for a renderer
    lobbies{game}, games{game}               gauges: open lobbies, games being played
    timers_due                               gauge: deadlines passed and not run yet
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.client.session.middlewares.base import NextRequestMiddlewareType
    from aiogram.methods import Response, TelegramMethod
    from aiogram.types import TelegramObject

    from bot.app import App
    from bot.storage import GameRecord

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)

UPDATES = Counter("nastolka_updates", "Updates received, by kind", ["kind"], registry=REGISTRY)
ANSWER = Histogram(
    "nastolka_answer_seconds",
    "Seconds from an update's arrival to its handling done (a press: answered)",
    ["kind"],
    buckets=FAST,
    registry=REGISTRY,
)
PRESSES = Counter(
    "nastolka_presses",
    "Presses on a table: accepted, or refused and why",
    ["outcome", "reason"],
    registry=REGISTRY,
)
TABLE_LAG = Histogram(
    "nastolka_table_edit_lag_seconds",
    "Seconds from a change of a game (a move, a timer) to its table brought up to date",
    ["game"],
    buckets=SLOW,
    registry=REGISTRY,
)
CALLS = Counter(
    "nastolka_telegram_calls",
    "Bot API calls by method and result code (200, 429, 400, 403, ..., network)",
    ["method", "code"],
    registry=REGISTRY,
)
CALL_SECONDS = Histogram(
    "nastolka_telegram_call_seconds",
    "Seconds a Bot API call took",
    ["method"],
    buckets=FAST,
    registry=REGISTRY,
)
FLOOD_WAIT = Histogram(
    "nastolka_flood_wait_seconds",
    "Waits for Telegram's flood limits: window (our per-chat budget), hold (a chat on "
    "hold after a 429), retry_after (a 429 waited out)",
    ["reason"],
    buckets=SLOW,
    registry=REGISTRY,
)
RENDER = Histogram(
    "nastolka_render_seconds",
    "Seconds one table picture took to draw (from its hand-out to a renderer)",
    ["game"],
    buckets=FAST,
    registry=REGISTRY,
)
RENDER_QUEUE = Gauge(
    "nastolka_render_queue", "Table pictures waiting for a renderer", registry=REGISTRY
)
LOBBIES = Gauge("nastolka_lobbies", "Open lobbies, by game", ["game"], registry=REGISTRY)
GAMES = Gauge("nastolka_games", "Games being played, by game", ["game"], registry=REGISTRY)
TIMERS_DUE = Gauge(
    "nastolka_timers_due",
    "Deadlines (turn timers, automatic steps, lobby expiries) passed and not run yet",
    registry=REGISTRY,
)

SNAPSHOT_SECONDS = 10.0  # the store is read for the gauges at most this often
TIMER_GRACE = 5.0  # seconds a deadline may be late before it counts as due


# ------------------------------------------------------------------ Telegram calls


def code_of(e: BaseException) -> str:
    from aiogram import exceptions as x

    if isinstance(e, x.TelegramRetryAfter):
        return "429"
    if isinstance(e, x.TelegramNetworkError):
        return "network"
    if isinstance(e, x.TelegramAPIError):
        codes: list[tuple[type[BaseException], str]] = [
            (x.TelegramBadRequest, "400"),
            (x.TelegramUnauthorizedError, "401"),
            (x.TelegramForbiddenError, "403"),
            (x.TelegramNotFound, "404"),
            (x.TelegramConflictError, "409"),
            (x.TelegramEntityTooLarge, "413"),
            (x.TelegramServerError, "5xx"),
        ]
        for cls, code in codes:
            if isinstance(e, cls):
                return code
        return "error"
    return "exception"


class TelegramCalls:
    """Every Bot API call of the session: counted by method and code, timed. Also keeps
    when each method last succeeded (the health check's "is polling alive")."""

    def __init__(self) -> None:
        self.last_ok: dict[str, float] = {}

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Response[Any]:
        name = method.__api_method__
        started = time.monotonic()
        try:
            response = await make_request(bot, method)
        except BaseException as e:
            if not isinstance(e, asyncio.CancelledError):
                CALLS.labels(name, code_of(e)).inc()
            raise
        finally:
            CALL_SECONDS.labels(name).observe(time.monotonic() - started)
        CALLS.labels(name, "200").inc()
        self.last_ok[name] = time.monotonic()
        return response


def flood_wait(reason: str, seconds: float) -> None:
    """A wait for a flood limit (bot/sender.py); nothing if it was not a wait at all."""
    if seconds > 0.001:
        FLOOD_WAIT.labels(reason).observe(seconds)


# ------------------------------------------------------------------ updates


def update_kind(update: TelegramObject) -> str:
    try:
        return str(update.event_type)  # type: ignore[attr-defined]
    except Exception:
        return "unknown"


class UpdateMetrics:
    """An outer middleware of the dispatcher's updates: counted by kind and timed."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        kind = update_kind(event) if hasattr(event, "update_id") else "unknown"
        UPDATES.labels(kind).inc()
        started = time.monotonic()
        try:
            return await handler(event, data)
        finally:
            ANSWER.labels(kind).observe(time.monotonic() - started)


# ------------------------------------------------------------------ the game service


def press(reason: str) -> None:
    """A press on a table: `accepted`, or the reason it was refused."""
    if reason == "accepted":
        PRESSES.labels("accepted", "").inc()
    else:
        PRESSES.labels("refused", reason).inc()


_kicked: dict[int, float] = {}  # chat -> when its table first fell behind the game


def table_kicked(chat_id: int) -> None:
    """The chat's game changed: its table is behind from now (unless it was already)."""
    _kicked.setdefault(chat_id, time.monotonic())


def table_since(chat_id: int) -> float | None:
    """A round of the table worker begins: since when the table has been behind."""
    return _kicked.pop(chat_id, None)


def table_lag(since: float | None, rec: GameRecord | None) -> None:
    """The round brought the table up to date with `rec`."""
    if since is not None and rec is not None and rec.state is not None:
        TABLE_LAG.labels(rec.game_id).observe(time.monotonic() - since)


def forget_chat(chat_id: int) -> None:
    _kicked.pop(chat_id, None)


def rendered(game_id: str, started: float) -> None:
    """A table picture of `game_id` drawn, handed out at loop time `started`."""
    try:
        now = asyncio.get_running_loop().time()
    except RuntimeError:
        return
    RENDER.labels(game_id or "unknown").observe(max(0.0, now - started))


# ------------------------------------------------------------------ gauges


class Snapshot:
    """The gauges that are a state (not an event), read when `/metrics` is asked."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.at = -SNAPSHOT_SECONDS

    async def refresh(self) -> None:
        pictures = self.app.service.pictures
        RENDER_QUEUE.set(pictures.waiting())
        if time.monotonic() - self.at < SNAPSHOT_SECONDS:
            return
        self.at = time.monotonic()
        from bot import idle
        from bot.storage import RecordStatus

        store, settings = self.app.store, self.app.settings
        lobbies: dict[str, int] = dict.fromkeys(self.app.service.presenters, 0)
        games = dict(lobbies)
        due = 0
        now = self.app.service.clock()
        for chat_id in await store.chats():
            try:
                rec = await store.get(chat_id)
            except Exception:
                continue
            if rec is None:
                continue
            if rec.status == RecordStatus.LOBBY:
                lobbies[rec.game_id] = lobbies.get(rec.game_id, 0) + 1
                when = idle.lobby_expires_at(rec, settings)
            elif rec.status == RecordStatus.PLAYING:
                games[rec.game_id] = games.get(rec.game_id, 0) + 1
                when = rec.deadline
            else:
                continue
            if when is not None and when + TIMER_GRACE < now:
                due += 1
        for gauge, counts in ((LOBBIES, lobbies), (GAMES, games)):
            for game, n in counts.items():
                gauge.labels(game).set(n)
        TIMERS_DUE.set(due)


def exposition() -> tuple[bytes, str]:
    """The registry in Prometheus's text format, and its content type."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
