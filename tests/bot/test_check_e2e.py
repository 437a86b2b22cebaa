"""`python -m bot --check`, the command an operator runs first: the configuration, Redis
(PING) and the Bot API (`getMe`), one line per check, against the fake Telegram server
and a real Redis; exit 0 when all is well, 1 unreachable, 2 a bad configuration or token."""

from __future__ import annotations

import asyncio
import os
import sys

from fake_telegram import FakeTelegram
from tests.bot.bot_process import free_port


async def check(env: dict[str, str]) -> tuple[int, str, str]:
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEBHOOK_URL")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--check",
        env={**base, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_check_passes_with_redis_and_the_bot_api(redis_url: str) -> None:
    async with FakeTelegram() as tg:
        code, out, err = await check(
            {"BOT_TOKEN": tg.token, "TELEGRAM_API_URL": tg.api_url, "REDIS_URL": redis_url}
        )
    lines = out.splitlines()
    assert code == 0, (out, err)
    assert lines[0] == "config: ok (long polling)"
    assert lines[1] == f"redis: ok ({redis_url})"
    assert lines[2].startswith("telegram: ok (@") and f"id {tg.bot_id}" in lines[2]
    assert lines[3] == "all checks passed" and len(lines) == 4
    assert tg.token not in out + err and tg.token.partition(":")[2] not in out + err


async def test_check_names_what_fails() -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    async with FakeTelegram() as tg:
        code, out, _ = await check(
            {"BOT_TOKEN": tg.token, "TELEGRAM_API_URL": tg.api_url, "REDIS_URL": dead}
        )
        assert code == 1, out
        assert f"redis: FAILED, unreachable at {dead}: " in out
        assert "telegram: ok" in out and out.rstrip().endswith("some checks FAILED")

        wrong = tg.token.partition(":")[0] + ":" + "x" * 35
        code, out, err = await check({"BOT_TOKEN": wrong, "TELEGRAM_API_URL": tg.api_url})
        assert code == 2, out
        assert "redis: not configured" in out
        assert "telegram: FAILED, Telegram refused BOT_TOKEN" in out
        assert "x" * 35 not in out + err

    code, out, err = await check({"BOT_TOKEN": "1:abc", "METRICS_PORT": "70000"})
    assert code == 2
    assert out.strip() == "config: FAILED (the lines above)"
    assert "METRICS_PORT: expected a port number 1-65535, or 0 for none" in err
    assert "BOT_TOKEN" not in err  # 1:abc has the token's shape

    port = free_port()  # the Bot API unreachable
    code, out, _ = await check(
        {"BOT_TOKEN": "123:" + "y" * 35, "TELEGRAM_API_URL": f"http://127.0.0.1:{port}"}
    )
    assert code == 1 and "telegram: FAILED, cannot reach the Bot API" in out, out
