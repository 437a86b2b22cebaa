"""The players' side of scripts/compose_check.sh: a fake Telegram on this host for the bot
that runs in compose, three simulated players who play a «Семидорожник» game to its end
by the buttons they see, and the operator's checks while they play.

    python scripts/compose_check.py --port 18081 --token 123:x --redis-url redis://127.0.0.1:16379/0

It waits (generously) for the bot to poll or to set its webhook, then for `/healthz` to
answer 200, plays the game, and scrapes `/metrics` while the game is on and after it.
It prints what it saw, one line a check, and exits 1 if a check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.storage.redis import RedisStore
from fake_telegram import FakeTelegram
from tests.bot.e2e import open_lobby, start_game
from tests.bot.test_game_e2e import play_by_buttons

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def get(url: str) -> tuple[int, str]:
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(timeout=timeout) as http, http.get(url) as response:
        return response.status, await response.text()


async def scrape(url: str) -> Samples:
    status, text = await get(url)
    if status != 200:
        raise RuntimeError(f"/metrics answered {status}")
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def total(samples: Samples, name: str, **labels: str) -> float:
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


async def until(what: str, check: Any, limit: float) -> float:
    """Wait for `check()` (async, truthy) for at most `limit` seconds; the seconds waited."""
    start = time.monotonic()
    while True:
        try:
            if await check():
                return time.monotonic() - start
        except (aiohttp.ClientError, OSError, RuntimeError):
            pass
        if time.monotonic() - start > limit:
            raise SystemExit(f"FAIL: {what} within {limit:.0f} s")
        await asyncio.sleep(0.5)


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True, help="the fake Bot API's port")
    ap.add_argument("--token", required=True)
    ap.add_argument("--redis-url", required=True, help="the compose Redis, published here")
    ap.add_argument("--metrics", default="http://127.0.0.1:9108")
    ap.add_argument("--mode", choices=("polling", "webhook"), default="polling")
    ap.add_argument("--ready-file", help="written once the fake Telegram listens")
    args = ap.parse_args()

    failed = 0

    def report(ok: bool, line: str) -> None:
        nonlocal failed
        failed += not ok
        print(("ok    " if ok else "FAIL  ") + line, flush=True)

    async with FakeTelegram(token=args.token, host="0.0.0.0", port=args.port) as tg:
        if args.ready_file:
            with open(args.ready_file, "w") as f:
                f.write(tg.api_url)
        server = tg.server

        async def connected() -> bool:
            if args.mode == "webhook":
                return server.webhook_url is not None
            return bool(server.calls)  # getMe and the menus (getUpdates is not logged)

        waited = await until(f"the bot's first {args.mode} call", connected, 300)
        report(True, f"the bot reached the fake Telegram ({args.mode}) after {waited:.0f} s")

        async def healthy() -> bool:
            return (await get(f"{args.metrics}/healthz"))[0] == 200

        await until("/healthz 200", healthy, 120)
        status, text = await get(f"{args.metrics}/healthz")
        report(status == 200, f"/healthz {status}: {' | '.join(text.splitlines())}")

        before = await scrape(f"{args.metrics}/metrics")
        users = [tg.user(101, "Аня"), tg.user(102, "Борис"), tg.user(103, "Вика")]
        chat = tg.group(members=users)
        try:
            lobby = await open_lobby(chat, *users)
        except TimeoutError:
            report(False, f"no lobby; the webhook's last error: {server.webhook_last_error}")
            return 1
        table = await start_game(chat, users[0], lobby)
        seen: list[float] = []  # nastolka_games{seven_tracks} of every scrape while playing

        async def watch() -> None:  # the operator's Prometheus, scraping every second
            while True:
                with contextlib.suppress(aiohttp.ClientError, OSError, RuntimeError):
                    during = await scrape(f"{args.metrics}/metrics")
                    seen.append(total(during, "nastolka_games", game="seven_tracks"))
                await asyncio.sleep(1.0)

        watcher = asyncio.create_task(watch())

        store = RedisStore(args.redis_url, prefix="nastolka", ttl_seconds=3600)
        try:
            app = SimpleNamespace(store=store)
            start = time.monotonic()
            taps, refusals = await play_by_buttons(
                tg,
                chat,
                app,  # type: ignore[arg-type]  # only its store is read
                table,
                users,
                random.Random(7),
            )
            seconds = time.monotonic() - start
        finally:
            watcher.cancel()
            await store.close()
        # the gauges are read from the store at most every 10 s (bot/metrics.py)
        report(
            max(seen, default=0) == 1,
            f"{len(seen)} scrapes during the game; nastolka_games{{seven_tracks}} "
            f"was 1 in {seen.count(1)} of them",
        )
        await tg.settle(quiet=0.5)
        report(True, f"a game played to its end: {taps} taps, {refusals} refused, {seconds:.0f} s")
        after = await scrape(f"{args.metrics}/metrics")

        def grew(name: str, **labels: str) -> float:
            return total(after, name, **labels) - total(before, name, **labels)

        accepted = grew("nastolka_presses_total", outcome="accepted")
        report(accepted >= taps, f"presses accepted grew by {accepted:g} (taps {taps})")
        lag_n = grew("nastolka_table_edit_lag_seconds_count")
        lag_s = grew("nastolka_table_edit_lag_seconds_sum")
        report(lag_n > 0, f"table edits: {lag_n:g}, mean lag {lag_s / max(lag_n, 1):.3f} s")
        calls = grew("nastolka_telegram_calls_total")
        limited = grew("nastolka_telegram_calls_total", code="429")
        report(calls > 0, f"Telegram calls: {calls:g}, of them 429: {limited:g}")

        async def over() -> bool:  # within the gauges' 10 s
            latest = await scrape(f"{args.metrics}/metrics")
            return total(latest, "nastolka_games", game="seven_tracks") == 0

        waited = await until("nastolka_games{seven_tracks} back to 0", over, 60)
        report(True, f"after the game nastolka_games{{seven_tracks}}=0 (within {waited:.0f} s)")
        final = chat.bot_messages[-1].content if chat.bot_messages else ""
        report(bool(final), f"the chat's last message: {final.splitlines()[0] if final else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
