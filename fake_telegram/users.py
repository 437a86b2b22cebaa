"""Simulated Telegram users, and the entities their app adds to what they write
(``bot_command`` and ``mention``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .formatting import utf16_len

COMMAND = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?")
MENTION = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}")


@dataclass(frozen=True)
class User:
    """A simulated Telegram user. ``to_api()`` is the Bot API ``User`` object."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "ru"
    is_bot: bool = False

    def to_api(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "id": self.id,
            "is_bot": self.is_bot,
            "first_name": self.first_name,
        }
        if self.last_name is not None:
            body["last_name"] = self.last_name
        if self.username is not None:
            body["username"] = self.username
        if self.language_code is not None:
            body["language_code"] = self.language_code
        return body

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


def client_entities(text: str, bot_username: str) -> list[dict[str, Any]]:
    """Entities Telegram's client would attach: bot commands and @mentions."""
    found: list[dict[str, Any]] = []
    for pattern, kind in ((COMMAND, "bot_command"), (MENTION, "mention")):
        for match in pattern.finditer(text):
            if kind == "mention" and match.start() > 0 and text[match.start() - 1] == "/":
                continue
            found.append(
                {
                    "type": kind,
                    "offset": utf16_len(text[: match.start()]),
                    "length": utf16_len(match.group(0)),
                }
            )
    # a command with @botname is one bot_command entity, not a mention as well
    commands = [e for e in found if e["type"] == "bot_command"]
    found = [
        e
        for e in found
        if e["type"] == "bot_command"
        or not any(c["offset"] <= e["offset"] < c["offset"] + c["length"] for c in commands)
    ]
    return sorted(found, key=lambda e: e["offset"])
