"""Checks of the environment's values, and configuration errors said in one line each.

`Settings` (bot/config.py) calls the `check_*` functions from its validators; they raise
`ValueError("expected ...")`. `describe()` turns pydantic's `ValidationError` into one
line per bad variable, naming it and what is expected, e.g.
`REDIS_URL: expected redis://host:port/db, rediss://host:port/db or unix:///path/to.sock
(got 'localhost:6379')`; secrets are never repeated and a URL's password is masked.
`webhook_refusal()` is the one line that refuses webhook mode without `WEBHOOK_SECRET`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from pydantic_core import PydanticCustomError

if TYPE_CHECKING:
    from bot.config import Settings

SECRET_FIELDS = frozenset({"bot_token", "webhook_secret"})
URL_FIELDS = frozenset({"redis_url", "telegram_api_url", "webhook_url"})
# What a variable holds, for pydantic's own errors (a number that does not parse, or out of range)
EXPECTED = {
    "webhook_port": "a port number 1-65535",
    "render_process": "1 or 0 (true/false, yes/no)",
    "webhook_insecure": "1 or 0 (true/false, yes/no)",
    "metrics_port": "a port number 1-65535, or 0 for none",
    "log_level": "DEBUG, INFO, WARNING, ERROR or CRITICAL",
    "log_format": "text or json",
}
TOKEN = re.compile(r"\d+:[A-Za-z0-9_-]+")
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
SHOWN = 80  # characters of a bad value repeated in its error


def check_token(value: str) -> str:
    value = value.strip()
    if not value:  # BOT_TOKEN= is said like an unset BOT_TOKEN
        raise PydanticCustomError("missing", "Field required")
    if not TOKEN.fullmatch(value):
        raise ValueError(
            "expected the token from @BotFather, <digits>:<letters, digits, _ or -> "
            "(the value is not shown)"
        )
    return value


def check_redis_url(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    scheme = value.partition("://")[0].lower() if "://" in value else ""
    if scheme not in ("redis", "rediss", "unix"):
        raise ValueError(
            "expected redis://host:port/db, rediss://host:port/db or unix:///path/to.sock"
        )
    try:
        urlsplit(value).port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ValueError("expected redis://host:port/db with a port 1-65535") from None
    return value


def _http_url(value: str, schemes: tuple[str, ...], expected: str) -> str:
    value = value.strip().rstrip("/")
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ValueError(expected) from None
    if parts.scheme.lower() not in schemes or not parts.hostname or parts.query:
        raise ValueError(expected)
    return value


def check_api_url(value: str | None) -> str | None:
    if value is None:
        return None
    return _http_url(value, ("http", "https"), "expected http(s)://host[:port] of a Bot API server")


def check_webhook_url(value: str | None, api_url: str | None) -> str | None:
    """Telegram delivers webhooks to HTTPS only; a self-hosted Bot API server
    (TELEGRAM_API_URL) may deliver to plain HTTP as well."""
    if value is None:
        return None
    if api_url:
        return _http_url(value, ("http", "https"), "expected http(s)://host[:port] (public)")
    return _http_url(
        value,
        ("https",),
        "expected https://host[:port], the public HTTPS address Telegram posts to "
        "(plain http only with a self-hosted Bot API server in TELEGRAM_API_URL)",
    )


def check_webhook_path(value: str) -> str:
    value = value.strip()
    if not value.startswith("/") or any(c.isspace() for c in value) or "?" in value:
        raise ValueError("expected a path such as /webhook")
    return value


def check_webhook_secret(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    value = value.strip()
    if not WEBHOOK_SECRET.fullmatch(value):
        raise ValueError(
            "expected 1-256 characters A-Z, a-z, 0-9, _ or - (Telegram's rule; "
            "the value is not shown)"
        )
    return value


def check_sentinels(value: str | None) -> str | None:
    if value is None:
        return None
    for item in value.split(","):
        host, _, port = item.strip().rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError("expected host:port[,host:port...]")
    return value


def masked(field: str, value: object) -> str:
    """How a bad value is repeated in its error line: never a secret, never a password."""
    if field in SECRET_FIELDS:
        return ""
    text = str(value)
    if field in URL_FIELDS or "@" in text:
        text = re.sub(r"(://[^/@]*?:)[^/@]*@", r"\1***@", text)  # user:password@
    if len(text) > SHOWN:
        text = text[:SHOWN] + "..."
    return f" (got {text!r})"


def _num(value: object) -> str:
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def describe_error(err: Any) -> str:
    loc = [str(x) for x in err.get("loc", ())]
    field = loc[0] if loc else ""
    name = field.upper() or "configuration"
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return f"{name}: is not set"
    if kind == "value_error":
        message = str(ctx.get("error", err.get("msg", "")))
    elif field in EXPECTED:
        message = f"expected {EXPECTED[field]}"
    elif kind in ("int_parsing", "int_from_float"):
        message = "expected a whole number"
    elif kind == "float_parsing":
        message = "expected a number"
    elif kind == "bool_parsing":
        message = "expected 1 or 0 (true/false, yes/no)"
    elif kind == "greater_than_equal":
        message = f"expected a number >= {_num(ctx.get('ge'))}"
    elif kind == "greater_than":
        message = f"expected a number > {_num(ctx.get('gt'))}"
    elif kind == "less_than_equal":
        message = f"expected a number <= {_num(ctx.get('le'))}"
    else:
        message = str(err.get("msg", "invalid value"))
    value = err.get("input")
    got = masked(field, value) if isinstance(value, str | int | float) else ""
    if got and repr(str(value)) in message:
        got = ""
    return f"{name}: {message}{got}"


def describe(e: ValidationError) -> list[str]:
    """One line per bad variable (the first error of each)."""
    lines: list[str] = []
    seen: set[str] = set()
    for err in e.errors():
        loc = err.get("loc", ())
        key = str(loc[0]) if loc else ""
        if key in seen:
            continue
        seen.add(key)
        lines.append(describe_error(err))
    return lines


def webhook_refusal(settings: Settings) -> str | None:
    """Webhook mode without a secret would execute any forged POST: refused, unless the
    operator opted out with WEBHOOK_INSECURE=1."""
    if not settings.webhook_url or settings.webhook_secret or settings.webhook_insecure:
        return None
    return (
        "WEBHOOK_SECRET: required in webhook mode (without it anyone who can reach "
        "WEBHOOK_HOST:WEBHOOK_PORT can post forged updates): set WEBHOOK_SECRET to a long "
        "random string of A-Z, a-z, 0-9, _ or -, or WEBHOOK_INSECURE=1 to run without one"
    )


# ------------------------------------------------------------ `python -m bot --check`


async def live_checks(settings: Settings) -> tuple[int, list[str]]:
    """`python -m bot --check` after the configuration parsed: Redis answers PING and the
    Bot API knows the token (`getMe`). The exit code (0 all well, 1 unreachable, 2 the
    token refused) and one line per check."""
    import asyncio

    from aiogram.exceptions import TelegramNetworkError, TelegramUnauthorizedError

    from bot.app import make_bot, make_store
    from bot.storage import RedisStore

    code = 0
    lines: list[str] = []
    store = make_store(settings)
    try:
        if isinstance(store, RedisStore):
            where = (settings.redis_url or "Sentinel").split("@")[-1]
            try:
                await asyncio.wait_for(store.ping(), 5)
                lines.append(f"redis: ok ({where})")
            except Exception as e:
                lines.append(f"redis: FAILED, unreachable at {where}: {type(e).__name__}: {e}")
                code = 1
        else:
            lines.append("redis: not configured (REDIS_URL unset: games live in memory only)")
    finally:
        await store.close()
    bot = make_bot(settings)
    api = settings.telegram_api_url or "api.telegram.org"
    try:
        me = await asyncio.wait_for(bot.get_me(), 15)
        lines.append(f"telegram: ok (@{me.username}, id {me.id}, via {api})")
    except TelegramUnauthorizedError:
        lines.append("telegram: FAILED, Telegram refused BOT_TOKEN (check it with @BotFather)")
        code = 2
    except (TelegramNetworkError, TimeoutError, OSError) as e:
        lines.append(f"telegram: FAILED, cannot reach the Bot API ({api}): {e}")
        code = code or 1
    except Exception as e:
        lines.append(f"telegram: FAILED, {type(e).__name__}: {e}")
        code = code or 1
    finally:
        await bot.session.close()
    return code, lines
