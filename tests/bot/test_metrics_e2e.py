"""`/healthz` and `/metrics` (METRICS_PORT) of the real bot against the fake Telegram server
and a real Redis: a played game shows in the metrics (presses accepted, Telegram calls by
method, the table-edit lag, render time, games per game), and `/healthz` names the part
that fails (Redis gone, the timer poller stopped)."""

from __future__ import annotations

import asyncio
import contextlib
import random

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.app import App
from fake_telegram import FakeTelegram
from tests.bot.bot_process import free_port
from tests.bot.conftest import OwnRedis
from tests.bot.e2e import in_group, open_lobby, running, settings_for, start_game
from tests.bot.seven_tracks_play import play_by_buttons

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(port: int) -> Samples:
    url = f"http://127.0.0.1:{port}/metrics"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over every sample of `name` that has `labels` (and any others)."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


async def healthz(port: int) -> tuple[int, str]:
    url = f"http://127.0.0.1:{port}/healthz"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def test_a_played_game_shows_in_metrics(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(metrics, "SNAPSHOT_SECONDS", 0.0)  # the gauges read at every scrape
    port = free_port()
    async with in_group(101, ["Аня", "Борис", "Вика"], redis_url, metrics_port=port) as group:
        tg, app, chat, users = group
        before = await scrape(port)
        status, text = await healthz(port)
        assert status == 200, text
        assert text.splitlines() == ["redis: ok", "polling: ok", "timers: ok", "render: ok"]

        lobby = await open_lobby(chat, *users)
        assert value(await scrape(port), "nastolka_lobbies", game="seven_tracks") == 1
        table = await start_game(chat, users[0], lobby)
        playing = await scrape(port)
        assert value(playing, "nastolka_games", game="seven_tracks") == 1
        assert value(playing, "nastolka_lobbies", game="seven_tracks") == 0
        taps, refusals = await play_by_buttons(tg, chat, app, table, users, random.Random(7))
        await tg.settle(quiet=0.3)
        after = await scrape(port)

    def grew(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    print(
        f"\n{taps} taps accepted, {refusals} refused; presses counted "
        f"{grew('nastolka_presses_total', outcome='accepted'):.0f} accepted, "
        f"{grew('nastolka_presses_total', outcome='refused'):.0f} refused; "
        f"table edits lagged {grew('nastolka_table_edit_lag_seconds_sum'):.2f}s in "
        f"{grew('nastolka_table_edit_lag_seconds_count'):.0f} rounds"
    )
    # every accepted tap of the players is a press accepted (the first-move answers too)
    assert grew("nastolka_presses_total", outcome="accepted") >= taps
    assert grew("nastolka_updates_total", kind="callback_query") >= taps + refusals
    assert grew("nastolka_updates_total", kind="message") >= 1  # /new
    assert grew("nastolka_answer_seconds_count", kind="callback_query") >= taps + refusals
    # Telegram calls by method, with their code
    assert grew("nastolka_telegram_calls_total", method="answerCallbackQuery", code="200") >= taps
    assert grew("nastolka_telegram_calls_total", method="sendPhoto", code="200") >= 1
    edits = grew("nastolka_telegram_calls_total", method="editMessageMedia", code="200")
    edits += grew("nastolka_telegram_calls_total", method="editMessageCaption", code="200")
    assert edits >= taps / 2
    assert grew("nastolka_telegram_calls_total", method="getUpdates", code="200") >= 1
    assert grew("nastolka_table_edit_lag_seconds_count", game="seven_tracks") > 0
    assert grew("nastolka_render_seconds_count", game="seven_tracks") > 0
    assert value(after, "nastolka_games", game="seven_tracks") == 0  # over
    assert value(after, "nastolka_timers_due") == 0
    assert value(after, "nastolka_render_queue") == 0
    assert ("process_resident_memory_bytes", ()) in after


async def test_healthz_names_the_failing_part(own_redis: OwnRedis) -> None:
    port = free_port()
    async with (
        FakeTelegram() as tg,
        running(settings_for(tg, own_redis.url, metrics_port=port)) as app,
    ):
        status, text = await healthz(port)
        assert status == 200, text

        own_redis.stop()  # Redis gone
        status, text = await healthz(port)
        assert status == 503, text
        assert text.startswith("redis: unreachable") or text.startswith("redis: no answer")
        assert "polling: ok" in text and "timers: ok" in text and "render: ok" in text
        own_redis.start()
        for _ in range(50):
            status, text = await healthz(port)
            if status == 200:
                break
            await asyncio.sleep(0.1)  # redis-py reconnects
        assert status == 200, text

        poller = app.service.deadlines.poller  # the timer poller dies
        assert poller is not None
        poller.cancel()
        await tg.settle(quiet=0.1)
        status, text = await healthz(port)
        assert status == 503 and "timers: stopped" in text, text
        assert "redis: ok" in text


async def test_metrics_port_is_off_by_default() -> None:
    async with FakeTelegram() as tg, running(settings_for(tg)) as app:
        assert app.ops.port is None


async def test_in_webhook_mode_the_webhook_server_serves_them(redis_url: str) -> None:
    port = free_port()
    async with FakeTelegram() as tg:
        settings = settings_for(
            tg,
            redis_url,
            webhook_url=f"http://127.0.0.1:{port}",
            webhook_secret="s3cret-" + "x" * 20,
            webhook_port=port,
            metrics_port=port,  # the same port: one server
        )
        app = App(settings)
        stop = asyncio.Event()
        task = asyncio.ensure_future(app.run_webhook(stop))
        try:
            status, text = 0, ""
            for _ in range(200):  # until the webhook server listens
                with contextlib.suppress(aiohttp.ClientError):
                    status, text = await healthz(port)
                    break
                await asyncio.sleep(0.1)
            assert status == 200, text
            assert text.splitlines() == ["redis: ok", "webhook: ok", "timers: ok", "render: ok"]
            assert app.ops.port is None  # no server of its own
            assert ("nastolka_render_queue", ()) in await scrape(port)
        finally:
            stop.set()
            await asyncio.wait_for(task, 30)
