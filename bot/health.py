"""`/healthz` and `/metrics` on an HTTP port of their own (`METRICS_PORT`, off by default).

On `METRICS_HOST:METRICS_PORT` (127.0.0.1 unless set; `0.0.0.0` in a container a
Prometheus in another container scrapes). In webhook mode with `METRICS_PORT` equal to
`WEBHOOK_PORT` the two paths are served by the webhook's own server instead.

`/healthz` answers 200 `ok` when every part is alive, else 503, one line per part with
the failing ones named, e.g.::

    redis: ok
    polling: no answer to getUpdates for 97s
    timers: ok
    render: ok

The parts: Redis reachable (a PING within 2 s; the in-memory store is always "ok"),
the update loop (long polling: its task runs and a `getUpdates` succeeded within the
last `POLL_SILENCE` seconds; webhook: the server listens), the timer poller's task runs,
the pictures have a renderer (a render process alive; with RENDER_PROCESS=0 the threads).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from aiohttp import web

from bot import metrics

if TYPE_CHECKING:
    from bot.app import App

log = logging.getLogger(__name__)

PING_TIMEOUT = 2.0
POLL_SILENCE = 90.0  # seconds without a successful getUpdates: polling is not alive


class Ops:
    """The health check and the metrics of one running `App`."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.snapshot = metrics.Snapshot(app)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None  # the port it listens on, once started

    # -------------------------------------------------------------- the checks

    async def check_redis(self) -> str | None:
        from bot.storage import RedisStore

        store = self.app.store
        if not isinstance(store, RedisStore):
            return None
        try:
            await asyncio.wait_for(store.ping(), PING_TIMEOUT)
        except TimeoutError:
            return f"no answer to PING within {PING_TIMEOUT:g}s"
        except Exception as e:
            return f"unreachable ({type(e).__name__})"
        return None

    def check_loop(self) -> tuple[str, str | None]:
        app = self.app
        if app.settings.webhook_url:
            return "webhook", None if app.webhook_listening else "the server is not listening"
        task = app.loop_task
        if task is None:
            return "polling", "not started"
        if task.done():
            return "polling", "stopped"
        last = app.calls.last_ok.get("getUpdates")
        silent = time.monotonic() - (last if last is not None else app.loop_started)
        if silent > POLL_SILENCE:
            return "polling", f"no answer to getUpdates for {silent:.0f}s"
        return "polling", None

    def check_timers(self) -> str | None:
        poller = self.app.service.deadlines.poller
        if poller is None:
            return "not started"
        if poller.done():
            return "stopped"
        return None

    def check_render(self) -> str | None:
        pictures = self.app.service.pictures
        if self.app.settings.render_process and not pictures.in_process:
            return "no render process alive (pictures drawn in threads)"
        return None

    async def health(self) -> tuple[bool, list[str]]:
        loop_name, loop_bad = self.check_loop()
        parts = [
            ("redis", await self.check_redis()),
            (loop_name, loop_bad),
            ("timers", self.check_timers()),
            ("render", self.check_render()),
        ]
        ok = all(bad is None for _, bad in parts)
        return ok, [f"{name}: {bad or 'ok'}" for name, bad in parts]

    # -------------------------------------------------------------- HTTP

    async def healthz(self, request: web.Request) -> web.Response:
        ok, lines = await self.health()
        return web.Response(
            status=200 if ok else 503, text="\n".join(lines) + "\n", content_type="text/plain"
        )

    async def metrics(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(self.snapshot.refresh(), 5.0)
        except Exception as e:  # the gauges keep their last values
            log.info("metrics: the gauges were not refreshed (%s)", type(e).__name__)
        body, content_type = metrics.exposition()
        response = web.Response(body=body)
        response.headers["Content-Type"] = content_type
        return response

    def register(self, app: web.Application) -> None:
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)

    def shares_webhook(self) -> bool:
        s = self.app.settings
        return bool(s.webhook_url) and s.metrics_port == s.webhook_port

    async def start(self) -> None:
        """Listen on METRICS_HOST:METRICS_PORT (nothing when it is unset, or when the
        webhook's server serves the two paths)."""
        s = self.app.settings
        if not s.metrics_port or self.shares_webhook() or self._runner is not None:
            return
        web_app = web.Application()
        self.register(web_app)
        runner = web.AppRunner(web_app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, s.metrics_host, s.metrics_port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = s.metrics_port
        log.info("health and metrics on http://%s:%s/healthz", s.metrics_host, s.metrics_port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
