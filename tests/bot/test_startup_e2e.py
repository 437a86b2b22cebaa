"""`python -m bot` as a real process, started and stopped: configuration errors in one
line, the token never printed, webhook mode refused without a secret (and junk bodies
refused with a 4xx), two pollers on one token resolved by one of them leaving, and
SIGTERM during start-up and during play (also as PID 1 of a PID namespace, as in a
container) ending the process within a few seconds after the table edit in flight."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from fake_telegram import FakeTelegram
from tests.bot.bot_process import (
    EDITS,
    BotRun,
    free_port,
    game,
    hold,
    pid_namespaces,
    play_a_turn,
    start_table,
    store_of,
)
from tests.bot.e2e import mover, open_lobby, wait_phase

LIMIT = 2.0  # POLLING_CONFLICT_SECONDS of the conflict test


@pytest.fixture(params=["process", "pid1"])
def pid1(request: pytest.FixtureRequest) -> bool:
    """The bot as an ordinary child process, or as PID 1 of its own PID namespace."""
    pid1 = bool(request.param == "pid1")
    if pid1 and not pid_namespaces():
        pytest.skip("unshare --pid is not permitted here (needs root or user namespaces)")
    return pid1


def run_bot(env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEBHOOK_URL")}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


# ---------------------------------------------------------------- 11: configuration, token


def test_configuration_errors_are_one_line_per_variable_with_exit_code_2() -> None:
    proc = run_bot(
        {
            "BOT_TOKEN": "123:abcdefghijk",
            "REDIS_URL": "localhost:6379",
            "WEBHOOK_PORT": "http",
            "TELEGRAM_API_URL": "api.example.org",
        }
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    got = lines(proc.stderr)
    assert len(got) == 3, got
    assert got[0] == (
        "REDIS_URL: expected redis://host:port/db, rediss://host:port/db or "
        "unix:///path/to.sock (got 'localhost:6379')"
    )
    assert got[1].startswith("TELEGRAM_API_URL: expected http(s)://")
    assert got[2] == "WEBHOOK_PORT: expected a port number 1-65535 (got 'http')"
    assert not proc.stdout


def test_a_malformed_token_is_said_without_repeating_it() -> None:
    proc = run_bot({"BOT_TOKEN": "no-colon-SECRETVALUE"})
    assert proc.returncode == 2
    assert lines(proc.stderr) == [
        "BOT_TOKEN: expected the token from @BotFather, <digits>:<letters, digits, _ or -> "
        "(the value is not shown)"
    ]
    assert "SECRETVALUE" not in proc.stderr


async def redirect_loop() -> tuple[web.AppRunner, str]:
    """A "Bot API" that redirects every request to itself: the HTTP client's error then
    quotes the request's URL, `.../bot<token>/getMe`."""

    async def again(request: web.Request) -> web.Response:
        raise web.HTTPFound(str(request.url))

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", again)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner, f"http://127.0.0.1:{port}"


async def test_the_token_is_never_printed(tmp_path: Path) -> None:
    token = f"4242:{secrets.token_urlsafe(24)}"
    secret_part = token.split(":")[1]
    # a Bot API URL that is not one: a configuration error, without the token
    # (before: "NonHttpUrlClientError: 127.0.0.1:9/bot<token>/getMe")
    proc = await asyncio.to_thread(run_bot, {"BOT_TOKEN": token, "TELEGRAM_API_URL": "127.0.0.1:9"})
    assert secret_part not in proc.stdout + proc.stderr
    assert proc.returncode == 2
    assert lines(proc.stderr)[0].startswith("TELEGRAM_API_URL: expected http(s)://")
    # a URL that redirects for ever: the error quotes the request URL, token masked
    runner, url = await redirect_loop()
    try:
        bot = BotRun(tmp_path, "redirect", BOT_TOKEN=token, TELEGRAM_API_URL=url)
        await bot.start()
        code = await bot.wait_exit(90)
    finally:
        await runner.cleanup()
    text = bot.text()
    assert secret_part not in text, text
    assert code == 1
    assert "Cannot reach the Telegram Bot API" in text and "/bot***/getMe" in text
    assert "Traceback" not in text


# ---------------------------------------------------------------- 5: webhook mode


def test_webhook_mode_without_a_secret_is_refused() -> None:
    proc = run_bot({"BOT_TOKEN": "77:abcdefgh", "WEBHOOK_URL": "https://bot.example.org"})
    assert proc.returncode == 2
    got = lines(proc.stderr)
    assert len(got) == 1, got
    assert got[0].startswith("WEBHOOK_SECRET: required in webhook mode")
    assert "WEBHOOK_INSECURE=1" in got[0]


def listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as in /proc/net/tcp*) of the sockets listening on `port`."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for row in Path(table).read_text().splitlines()[1:]:
                fields = row.split()
                address, _, hex_port = fields[1].partition(":")
                if fields[3] == "0A" and int(hex_port, 16) == port:  # LISTEN
                    found.add(address)
    return found


async def test_webhook_opt_out_listens_on_localhost_only_by_default(tmp_path: Path) -> None:
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs /proc/net/tcp (Linux) to see the listening address")
    async with FakeTelegram() as tg:
        anna = tg.user(3101, "Аня")
        chat = tg.group(members=[anna])
        port = free_port()
        bot = BotRun(
            tmp_path,
            "insecure",
            BOT_TOKEN=tg.token,
            TELEGRAM_API_URL=tg.api_url,
            WEBHOOK_URL=f"http://127.0.0.1:{port}",
            WEBHOOK_PORT=str(port),
            WEBHOOK_INSECURE="1",
        )
        await bot.start()
        try:
            await bot.wait_log("webhook listening", 60)
            assert listening_addresses(port) == {"0100007F"}  # 127.0.0.1, not 0.0.0.0
            assert "WITHOUT a secret" in bot.text()
            await chat.send(anna, "/help")
            msg = await chat.wait_message(timeout=10)
            assert "/new" in msg.content
            code, took = await bot.terminate()  # webhook mode stops as fast as polling
        finally:
            await bot.stop()
        assert code == 0, bot.text()
        assert took < 6, took


JUNK: list[tuple[str, bytes, int]] = [
    ("not JSON", b"{'update_id': 1,", 400),
    ("empty", b"", 400),
    ("deeply nested", b"[" * 100_000 + b"]" * 100_000, 400),
    ("nested below an update", b'{"update_id": 5, "x": ' + b"[" * 200 + b"]" * 200 + b"}", 400),
    ("a list", b"[1, 2, 3]", 400),
    ("a string", b'"update"', 400),
    ("no update_id", b'{"message": {}}', 400),
    ("a string update_id", b'{"update_id": "7"}', 400),
    ("a wrong message", b'{"update_id": 8, "message": {"chat": 5, "text": []}}', 400),
    ("too big", b'{"update_id": 9, "x": "' + b"a" * (2 << 20) + b'"}', 413),
]


async def test_webhook_refuses_junk_with_4xx_and_no_traceback(tmp_path: Path) -> None:
    secret = "s3cret-" + secrets.token_hex(8)
    async with FakeTelegram() as tg:
        anna = tg.user(3201, "Аня")
        chat = tg.group(members=[anna])
        port = free_port()
        bot = BotRun(
            tmp_path,
            "junk",
            BOT_TOKEN=tg.token,
            TELEGRAM_API_URL=tg.api_url,
            WEBHOOK_URL=f"http://127.0.0.1:{port}",
            WEBHOOK_PORT=str(port),
            WEBHOOK_SECRET=secret,
        )
        await bot.start()
        url = f"http://127.0.0.1:{port}/webhook"
        try:
            await bot.wait_log("webhook listening", 60)
            async with aiohttp.ClientSession() as session:
                header = {"X-Telegram-Bot-Api-Secret-Token": secret}
                statuses = {}
                for name, body, _ in JUNK:
                    async with session.post(url, data=body, headers=header) as response:
                        statuses[name] = response.status
                assert statuses == {name: status for name, _, status in JUNK}
                update = {"update_id": 10, "message": {"message_id": 1}}
                for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
                    async with session.post(url, json=update, headers=headers) as response:
                        assert response.status == 401
                async with session.post(url, data=b"x" * 10, headers=header) as response:
                    assert response.status == 400
            for raw in (b"GARBAGE\r\n\r\n", b"POST /webhook HTTP/1.1\r\nContent-Length: x\r\n\r\n"):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(raw)  # not HTTP at all
                assert (await asyncio.wait_for(reader.read(12), 10)).endswith(b" 400")
                writer.close()
            # real updates, delivered by Telegram with the secret, are still handled
            await chat.send(anna, "/help")
            msg = await chat.wait_message(timeout=10)
            assert "/new" in msg.content
        finally:
            await bot.stop()
        text = bot.text()
        assert "Traceback" not in text, text
        assert "Error handling request" not in text and "never retrieved" not in text
        refusals = [line for line in text.splitlines() if "webhook: refused a request" in line]
        assert refusals and len(refusals) <= 2, refusals  # one line per 10 s, with a count
        assert bot.proc is not None and bot.proc.returncode == 0


# ---------------------------------------------------------------- 8: two pollers


async def test_a_second_poller_on_the_token_says_so_once_and_exits_3(tmp_path: Path) -> None:
    """Each instance with its own in-memory games (which store does not matter here)."""
    async with FakeTelegram() as tg:
        anna, boris = tg.user(3301, "Аня"), tg.user(3302, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users)
        env = {
            "BOT_TOKEN": tg.token,
            "TELEGRAM_API_URL": tg.api_url,
            "POLLING_CONFLICT_SECONDS": str(LIMIT),
        }
        # pid1 given: then no key of `env` can stand for it (mypy)
        first = BotRun(tmp_path, "first", pid1=False, **env)
        second = BotRun(tmp_path, "second", pid1=False, **env)
        await first.start()
        try:
            await first.wait_log("Start polling", 60)
            started = time.monotonic()
            lobby = await open_lobby(chat, anna, boris)
            table = await start_table(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик", timeout=15)
            await tg.settle()
            # the first instance must have polled alone for LIMIT seconds to count as the
            # one that was there first (usually it has by now)
            await asyncio.sleep(max(0.0, LIMIT + 0.5 - (time.monotonic() - started)))
            await second.start()
            assert await second.wait_exit(90) == 3, second.text()
            said = [line for line in second.text().splitlines() if "Polling conflict" in line]
            assert len(said) == 1, second.text()
            assert "another instance is polling Telegram with this BOT_TOKEN" in said[0]
            assert "it was polling before this one started, so this one stops" in said[0]
            assert "webhook mode" in said[0]
            assert "Failed to fetch updates" not in second.text()
            assert "Traceback" not in second.text()
            # the first one plays on
            assert first.proc is not None and first.proc.returncode is None
            await tg.settle(timeout=10)
            assert await play_a_turn(chat, table, users) >= 1
        finally:
            await first.stop()
            await second.stop()
        assert first.proc is not None and first.proc.returncode == 0, first.text()
        assert "Polling conflict" not in first.text()
        assert "Traceback" not in first.text(), first.text()


# ---------------------------------------------------------------- 11: SIGTERM


async def test_sigterm_during_start_up_exits_at_once(pid1: bool, tmp_path: Path) -> None:
    """Start-up waits for Telegram (setMyCommands does not answer); SIGTERM ends it."""
    async with FakeTelegram() as tg:
        with hold(tg, "setMyCommands") as h:
            bot = BotRun(
                tmp_path,
                "startup",
                pid1=pid1,
                BOT_TOKEN=tg.token,
                TELEGRAM_API_URL=tg.api_url,
            )
            await bot.start()
            try:
                await asyncio.wait_for(h.arrived.wait(), 60)
                sent = time.monotonic()
                await bot.send(signal.SIGTERM)
                code = await bot.wait_exit(15)
                took = time.monotonic() - sent
            finally:
                await bot.stop()
        assert code == 0, (code, bot.text())
        assert took < 6, took
        assert "Traceback" not in bot.text(), bot.text()
        assert "SIGTERM: stopping" in bot.text()


async def test_sigterm_during_play_finishes_the_table_edit_in_flight_then_exits(
    pid1: bool, redis_url: str, tmp_path: Path
) -> None:
    prefix = f"term-{secrets.token_hex(4)}"
    slow = 2.0  # seconds the table edit takes at the (fake) Telegram
    async with FakeTelegram() as tg, store_of(redis_url, prefix) as store:
        anna, boris = tg.user(3401, "Аня"), tg.user(3402, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users)
        bot = BotRun(
            tmp_path,
            "play",
            pid1=pid1,
            BOT_TOKEN=tg.token,
            TELEGRAM_API_URL=tg.api_url,
            REDIS_URL=redis_url,
            REDIS_PREFIX=prefix,
        )
        await bot.start()
        try:
            await bot.wait_log("Start polling", 60)
            lobby = await open_lobby(chat, anna, boris)
            table = await start_table(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик", timeout=15)
            await tg.settle(quiet=0.3, timeout=10)
            before, _ = await game(store, chat)
            player = mover(table, users)
            assert player is not None and before.shown_text
            with hold(
                tg, *EDITS, seconds=slow, match=lambda p: p.get("message_id") == table.message_id
            ) as h:
                answer = await chat.press(player, table, "🎲🎲 Два кубика", timeout=10)
                assert "Выпало" in (answer.text or "")
                await asyncio.wait_for(h.arrived.wait(), 10)  # the table edit is in flight
                sent = time.monotonic()
                await bot.send(signal.SIGTERM)
                code = await bot.wait_exit(20)
                took = time.monotonic() - sent
            assert h.done_at is not None and bot.exited_at is not None
        finally:
            await bot.stop()
        assert code == 0, (code, bot.text())
        assert bot.exited_at >= h.done_at  # it waited for the edit ...
        assert took < slow + 5, took  # ... and no longer than a few seconds
        after, _ = await game(store, chat)
        assert after.seq == before.seq + 1
        # the bot saw the edit through: the stored record says the table shows this move
        assert after.shown_text != before.shown_text
        assert "Traceback" not in bot.text(), bot.text()
        calls = [c for c in tg.calls() if c.method in EDITS and c.message_id == table.message_id]
        assert calls and calls[-1].ok


def test_help_names_the_new_variables() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], capture_output=True, text=True, timeout=30
    ).stdout
    for name in ("WEBHOOK_INSECURE", "POLLING_CONFLICT_SECONDS", "127.0.0.1"):
        assert name in out
