"""`python -m bot`: run the Telegram bot with settings from the environment."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from typing import Any


def cap_malloc_arenas() -> None:
    """`MALLOC_ARENA_MAX=2` unless the environment sets it (the Dockerfile does): glibc
    gives every thread that allocates its own arena, which kept 2–28 MB per extra game
    of RSS once pictures were drawn on several threads."""
    if "MALLOC_ARENA_MAX" in os.environ or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from bot import logs

    logs.setup()  # LOG_LEVEL, LOG_FORMAT (a bad value: INFO, text; the check says so)
    if argv and argv[0] == "playground":
        from bot.playground import main as playground

        return playground(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print("`python -m bot playground [--port 8080]`: play in a browser, no token needed.")
        print("`python -m bot --check`: check the configuration, Redis and the token (getMe),")
        print("one line per check; exit 0 when all is well (the command to run first).")
        print("Environment: BOT_TOKEN (required), REDIS_URL, TELEGRAM_API_URL, BOT_LANGUAGE,")
        print("WEBHOOK_URL, WEBHOOK_PATH, WEBHOOK_HOST (default 127.0.0.1), WEBHOOK_PORT,")
        print("WEBHOOK_SECRET (required in webhook mode unless WEBHOOK_INSECURE=1),")
        print("FIRST_MOVE_SECONDS, TURN_SECONDS, TIMEOUTS_BEFORE_REMOVAL, GAME_TTL_DAYS,")
        print("RENDER_PROCESS, RENDER_PROCESSES, RENDER_THREADS, RENDER_ZLIB,")
        print("POLLING_CONFLICT_SECONDS,")
        print("METRICS_PORT (/healthz and /metrics; default 0: off), METRICS_HOST (127.0.0.1),")
        print("LOG_LEVEL (INFO; DEBUG, WARNING, ERROR), LOG_FORMAT (text, or json: a line each).")
        print("Exit codes: 0 stopped (SIGTERM/SIGINT), 1 Redis or Telegram unreachable,")
        print("2 bad configuration or token, 3 another instance polls with this token.")
        return 0
    check = bool(argv and argv[0] == "--check")
    if argv and not check:
        say(f"unknown argument {argv[0]!r}: see `python -m bot --help`")
        return 2
    signal.signal(signal.SIGTERM, _stop_early)  # until the bot's own handler (bot/lifecycle.py)
    try:
        return _run(check=check)
    except KeyboardInterrupt:  # SIGINT or SIGTERM before the event loop took them over
        return 0


def _check(settings: object, live_checks: Any) -> int:
    """`--check`: one line per check on stdout, the exit code of the worst."""
    from bot.redact import scrub

    logging.getLogger().setLevel(logging.WARNING)  # the checks' lines only
    mode = "webhook" if getattr(settings, "webhook_url", None) else "long polling"
    print(scrub(f"config: ok ({mode})"))
    code, lines = asyncio.run(live_checks(settings))
    for line in lines:
        print(scrub(line))
    print("all checks passed" if code == 0 else "some checks FAILED")
    return int(code)


def _stop_early(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def say(line: str) -> None:
    """One line for the operator on stderr, secrets masked."""
    from bot.redact import scrub

    print(scrub(line), file=sys.stderr)


def _run(*, check: bool = False) -> int:
    from pydantic import ValidationError

    from bot.config import Settings
    from bot.config_checks import describe, live_checks, webhook_refusal

    cap_malloc_arenas()
    try:
        settings = Settings()
        if "RENDER_PROCESS" not in {k.upper() for k in os.environ}:
            settings.render_process = True  # `python -m bot` draws pictures in a process
    except ValidationError as e:
        missing = [err["loc"][0] for err in e.errors() if err["type"] == "missing" and err["loc"]]
        if "bot_token" in missing:
            say(
                "BOT_TOKEN is not set: get a token from @BotFather and run "
                "`BOT_TOKEN=... python -m bot` (or try it in a browser without a token: "
                "`python -m bot playground`)."
            )
        for line in describe(e):
            if not line.startswith("BOT_TOKEN: is not set"):
                say(line)
        if check:
            print("config: FAILED (the lines above)")
        return 2
    refusal = webhook_refusal(settings)
    if refusal:
        say(refusal)
        if check:
            print("config: FAILED (the line above)")
        return 2
    from bot import logs, redact

    logs.setup(settings.log_level, settings.log_format)
    redact.install(
        settings.bot_token.get_secret_value(),
        settings.webhook_secret.get_secret_value() if settings.webhook_secret else None,
        redact.url_password(settings.redis_url),
    )
    if check:
        return _check(settings, live_checks)
    from aiogram.exceptions import TelegramNetworkError, TelegramUnauthorizedError

    from bot.app import StorageUnavailable, run
    from bot.polling_conflict import EXIT_CODE, PollingConflict

    try:
        asyncio.run(run(settings))
    except StorageUnavailable as e:
        say(str(e))
        return 1
    except TelegramUnauthorizedError:
        say("Telegram refused BOT_TOKEN: check the token from @BotFather.")
        return 2
    except TelegramNetworkError as e:
        where = settings.telegram_api_url or "api.telegram.org"
        say(
            f"Cannot reach the Telegram Bot API ({where}): {e.message}. "
            "Check the network (or TELEGRAM_API_URL) and start the bot again."
        )
        return 1
    except PollingConflict:
        return EXIT_CODE  # said once in the log
    except Exception:
        logging.getLogger("bot").exception("the bot stopped on an unexpected error")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
