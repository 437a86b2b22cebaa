"""Stored values that do not load: how a store reads a record and what it keeps aside.

A chat's value is *unreadable* when it is not a `GameRecord` (junk bytes, invalid JSON,
a failing field) or when the store's `check` refuses it (the service's: a game id the
bot doesn't know, a state its engine can't load). Both stores then move the value, as
it was, to the chat's quarantine list (nothing is destroyed), mark the chat as told (so
the one notice is not repeated after a restart or by another instance), log it once
and report it to `on_unreadable`; the read gives None, so that chat is free for `/new`
and no other chat notices anything.

    >>> info = salvage(b'{"uid": "a1b2c3", "language": "en", "table_message_id": 7, "x')
    >>> info.uid, info.language, info.table_message_id
    ('a1b2c3', 'en', 7)
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from bot.storage import schema
from bot.storage.base import GameRecord

log = logging.getLogger("bot.storage")

RecordCheck = Callable[[GameRecord], object]
"""Raises when a parsed record cannot be played (the store then treats it as unreadable)."""

NOTICE_QUIET = 3600.0
"""Seconds after a notice about a chat's lost game in which no second one is posted there
(covers a record whose game id could not be read, and forged presses)."""

_FIELDS = {
    "uid": re.compile(rb'"uid"\s*:\s*"([0-9A-Za-z_-]{1,32})"'),
    "language": re.compile(rb'"language"\s*:\s*"([a-z]{2})"'),
    "status": re.compile(rb'"status"\s*:\s*"([a-z]{1,16})"'),
    "table_message_id": re.compile(rb'"table_message_id"\s*:\s*(\d{1,12})'),
    "lobby_message_id": re.compile(rb'"lobby_message_id"\s*:\s*(\d{1,12})'),
}


@dataclass(frozen=True)
class Unreadable:
    """A chat's stored value that did not load, and what could still be read from it."""

    chat_id: int
    raw: bytes
    reason: str
    uid: str | None = None
    language: str | None = None
    status: str | None = None
    table_message_id: int | None = None
    lobby_message_id: int | None = None


def salvage(raw: bytes) -> Unreadable:
    """The few fields the bot needs to tell the chat (and clear its keyboards), read
    from whatever is left of a record (chat_id 0 and no reason: the caller fills those)."""
    found: dict[str, Any] = {}
    for name, pattern in _FIELDS.items():
        match = pattern.search(raw[:65536])
        if match:
            text = match.group(1).decode("ascii")
            found[name] = int(text) if name.endswith("_id") else text
    return Unreadable(chat_id=0, raw=raw, reason="", **found)


def as_bytes(raw: str | bytes) -> bytes:
    if isinstance(raw, bytes):
        return raw
    return raw.encode("utf-8", "surrogateescape")


def decode(chat_id: int, raw: str | bytes, check: RecordCheck | None) -> GameRecord | Unreadable:
    """The record in `raw`, or what is known about it when it does not load."""
    try:
        rec = schema.load(raw)  # an older format is upgraded first
        if rec.chat_id != chat_id:
            raise ValueError(f"the record is of chat {rec.chat_id}")
        if check is not None:
            check(rec)
        return rec
    except Exception as e:  # anything that stops it loading costs this chat only
        data = as_bytes(raw)
        info = salvage(data)
        if isinstance(e, ValidationError):
            text = "; ".join(
                f"{'.'.join(map(str, err['loc'])) or 'value'}: {err['msg']}"
                for err in e.errors(include_url=False)[:3]
            )
        else:
            text = f"{type(e).__name__}: {e}"
        reason = " ".join(text.split())[:300]
        return Unreadable(
            chat_id=chat_id,
            raw=data,
            reason=reason,
            uid=info.uid,
            language=info.language,
            status=info.status,
            table_message_id=info.table_message_id,
            lobby_message_id=info.lobby_message_id,
        )


def reported(info: Unreadable, where: str, hook: Callable[[Unreadable], None] | None) -> None:
    """Log the quarantine (once: only the store call that moved the value gets here) and
    hand it to the service's hook."""
    log.error(
        "chat %s: the stored game does not load (%s); the value (%d bytes) is kept in %s",
        info.chat_id,
        info.reason,
        len(info.raw),
        where,
    )
    if hook is not None:
        try:
            hook(info)
        except Exception:
            log.exception("chat %s: the unreadable-record hook failed", info.chat_id)
