"""Secrets never reach the log or the terminal.

aiogram's method URLs are `{api}/bot<token>/<method>`, and an HTTP client's error quotes
its URL, so a network error could print the token. `install()` puts a formatter on every
root handler that replaces the secrets (the token's secret part, `WEBHOOK_SECRET`, a Redis
password) with `***` in every formatted line, tracebacks included; `scrub()` does the same
for the lines `python -m bot` prints itself.
"""

from __future__ import annotations

import logging
from urllib.parse import quote, unquote, urlsplit

MASK = "***"
_secrets: list[str] = []


def remember(*values: str | None) -> None:
    """Add secrets to hide: each value, its secret part (a token's after the colon) and
    their URL-encoded forms. Short values (< 6 characters) are not worth hiding."""
    for value in values:
        if not value:
            continue
        forms = {value, value.partition(":")[2]}
        forms |= {quote(f, safe="") for f in forms}
        for form in forms:
            if len(form) >= 6 and form not in _secrets:
                _secrets.append(form)
    _secrets.sort(key=len, reverse=True)  # the whole token before its part


def url_password(url: str | None) -> str | None:
    if not url:
        return None
    try:
        password = urlsplit(url).password
    except ValueError:
        return None
    return unquote(password) if password else None


def scrub(text: str) -> str:
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


class RedactingFormatter(logging.Formatter):
    """A formatter whose every line (message, traceback, stack) has the secrets masked."""

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        return scrub(self.inner.format(record))


def install(*values: str | None) -> None:
    """Remember the secrets and mask them in everything the root logger's handlers write
    (and in warnings, which are routed to the log)."""
    remember(*values)
    logging.captureWarnings(True)
    for handler in logging.getLogger().handlers:
        if not isinstance(handler.formatter, RedactingFormatter):
            handler.setFormatter(RedactingFormatter(handler.formatter))
