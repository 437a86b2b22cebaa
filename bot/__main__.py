"""`python -m bot`: run the Telegram bot with settings from the environment."""

from __future__ import annotations

import asyncio
import logging
import os
import sys

from pydantic import ValidationError


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
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if argv and argv[0] == "playground":
        from bot.playground import main as playground

        return playground(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print("`python -m bot playground [--port 8080]`: play in a browser, no token needed.")
        print("Environment: BOT_TOKEN (required), REDIS_URL, TELEGRAM_API_URL, BOT_LANGUAGE,")
        print("WEBHOOK_URL, WEBHOOK_PATH, WEBHOOK_HOST, WEBHOOK_PORT, WEBHOOK_SECRET,")
        print("FIRST_MOVE_SECONDS, TURN_SECONDS, TIMEOUTS_BEFORE_REMOVAL, GAME_TTL_DAYS,")
        print("RENDER_PROCESS, RENDER_PROCESSES, RENDER_THREADS.")
        return 0
    from bot.config import Settings

    cap_malloc_arenas()
    try:
        settings = Settings()
        if "RENDER_PROCESS" not in {k.upper() for k in os.environ}:
            settings.render_process = True  # `python -m bot` draws pictures in a process
    except ValidationError as e:
        missing = [".".join(str(x) for x in err["loc"]) for err in e.errors()]
        if "bot_token" in missing:
            print(
                "BOT_TOKEN is not set: get a token from @BotFather and run "
                "`BOT_TOKEN=... python -m bot` (or try it in a browser without a token: "
                "`python -m bot playground`).",
                file=sys.stderr,
            )
        else:
            print(f"Invalid configuration:\n{e}", file=sys.stderr)
        return 2
    from aiogram.exceptions import TelegramNetworkError, TelegramUnauthorizedError

    from bot.app import StorageUnavailable, run

    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0
    except StorageUnavailable as e:
        print(str(e), file=sys.stderr)
        return 1
    except TelegramUnauthorizedError:
        print("Telegram refused BOT_TOKEN: check the token from @BotFather.", file=sys.stderr)
        return 2
    except TelegramNetworkError as e:
        where = settings.telegram_api_url or "api.telegram.org"
        print(
            f"Cannot reach the Telegram Bot API ({where}): {e.message}. "
            "Check the network (or TELEGRAM_API_URL) and start the bot again.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
