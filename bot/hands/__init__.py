"""A player's private hand in the group, per game: what his ephemeral hand message shows.

A `HandKeeper` (one per game with hidden hands: its presenter's `hand_keeper()`, a module
`bot/hands/<game id>.py`) turns the state into
what one player alone may see — `view`: his tiles as a picture, a caption and, when it is
his decision, the buttons that depend on his hand — and says which of the table's public
buttons the private hand replaces (`public`). The buttons carry the presenter's short
codes (with the record's `seq`, like the table's), so a press on them goes through the
same checks as any press (bot/service/moves.py) and says nothing of the hand beyond
what the player himself sees.

    >>> from bot.presenters import registry
    >>> p = registry()["dominas"]
    >>> s = p.game.new([1, 2], seed=3)
    >>> v = p.hand_keeper().view(s, s.players[s.current], p.context(get_translator("ru"), {}))
    >>> v is not None and v.picture()[:4] == b"\\x89PNG" and bool(v.buttons)
    True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from bot.presenters.base import Btn, TableCtx
from locales import get_translator

__all__ = ["HandKeeper", "HandView", "Shown", "get_translator"]


class Shown(StrEnum):
    """How the player to move sees his hand now (what the public keyboard may leave out)."""

    NONE = "none"  # he has not opened it yet
    EPHEMERAL = "ephemeral"  # an ephemeral message in the group, kept up to date
    FALLBACK = "fallback"  # ephemeral messages failed: the popup, the private chat, the table


@dataclass(frozen=True)
class HandView:
    """One player's private hand: `caption` (HTML), `buttons` (only on his decision) and
    the picture, drawn by `picture()`; `picture_key` changes exactly when it would.
    `text` (HTML) is the same hand in words for the private chat (the fallback), which
    shows no picture: his tiles once, and «your turn» only on his turn."""

    caption: str
    buttons: list[list[Btn]]
    picture_key: str
    picture: Callable[[], bytes] = field(compare=False)
    text: str = ""

    def key(self, seq: int) -> str:
        """What the message shows (the `seq` only while it has buttons): equal keys, no edit."""
        rows = [[(b.text, b.code) for b in row] for row in self.buttons]
        payload = json.dumps(
            [self.caption, self.text, rows, self.picture_key, seq if rows else None],
            ensure_ascii=False,
        )
        return hashlib.sha1(payload.encode()).hexdigest()[:16]


def digest(value: Any) -> str:
    return hashlib.sha1(json.dumps(value, ensure_ascii=False).encode()).hexdigest()[:16]


class HandKeeper(Protocol):
    def view(self, state: Any, user: int, c: TableCtx[Any]) -> HandView | None:
        """What `user` alone sees of his hand (None: he holds no hand in this game), in
        the table's context `c` (its language, names and state between presses)."""
        ...

    def public(self, state: Any, buttons: list[list[Btn]], shown: Shown) -> list[list[Btn]]:
        """The table's keyboard without what the private hand of the player to move,
        shown as `shown`, carries."""
        ...


def without(buttons: list[list[Btn]], drop: Callable[[str], bool]) -> list[list[Btn]]:
    """`buttons` without those whose code `drop` says; empty rows go too."""
    rows = [[b for b in row if not drop(b.code)] for row in buttons]
    return [row for row in rows if row]
