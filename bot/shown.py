"""What a chat's lobby message shows now, so an edit to the same content is never sent.

Each press in a lobby starts an edit to the latest stored lobby (bot/service/lobby.py,
`show`); when presses come close together, the first edit already shows the state of
the later ones, and their edits would only earn «message is not modified» (a call of the
chat's and the bot's budget spent for nothing). `Shown` remembers, per chat, the message,
the record's `seq` and a digest of its text and keyboard as last edited (or sent), and
says when an edit would change nothing. It is this instance's memory only, hence the
`seq`: only an edit of the very record version already shown is skipped — a lobby that
another instance edited meanwhile and that then came back to an earlier look is edited
again (at worst one «not modified», which is harmless).

An edit that an earlier one already covers is not even prepared (`covers`): each press
asks for the lobby as of its own version, and when this instance has since edited the
message to that version or a later one, the press is on screen. Without it, a press
whose edit came after the game had moved on (a move at the table: a later `seq`, the same
«Игра началась» look) edited the lobby again, for «not modified».

    >>> shown = Shown(limit=2)
    >>> shown.same(-1, 5, 3, "Лобби", None)
    False
    >>> shown.remember(-1, 5, 3, "Лобби", None)
    >>> shown.same(-1, 5, 3, "Лобби", None), shown.same(-1, 5, 3, "Лобби: Аня", None)
    (True, False)
    >>> shown.same(-1, 5, 4, "Лобби", None)  # a later version that looks the same
    False
    >>> shown.covers(-1, 5, 2), shown.covers(-1, 5, 3), shown.covers(-1, 5, 4)
    (True, True, False)
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from aiogram.types import InlineKeyboardMarkup


def digest(text: str, markup: InlineKeyboardMarkup | None) -> str:
    keyboard = "" if markup is None else markup.model_dump_json(exclude_none=True)
    return hashlib.sha1(f"{text}\x00{keyboard}".encode()).hexdigest()


class Shown:
    """Chat → (message id, record seq, digest of what it shows), the least recently
    edited dropped beyond `limit` chats."""

    def __init__(self, limit: int = 8192) -> None:
        self.limit = limit
        self._shown: OrderedDict[int, tuple[int, int, str]] = OrderedDict()

    def same(
        self,
        chat_id: int,
        message_id: int,
        seq: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
    ) -> bool:
        """Whether the message already shows exactly this text and keyboard, edited by
        this instance for this version (`seq`) of the record."""
        return self._shown.get(chat_id) == (message_id, seq, digest(text, markup))

    def covers(self, chat_id: int, message_id: int | None, seq: int) -> bool:
        """Whether this instance last edited (or sent) the message at version `seq` or a
        later one: what version `seq` changed is shown already."""
        known = self._shown.get(chat_id)
        return known is not None and known[0] == message_id and known[1] >= seq

    def remember(
        self,
        chat_id: int,
        message_id: int,
        seq: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
    ) -> None:
        self._shown[chat_id] = (message_id, seq, digest(text, markup))
        self._shown.move_to_end(chat_id)
        while len(self._shown) > self.limit:
            self._shown.popitem(last=False)

    def forget(self, chat_id: int) -> None:
        self._shown.pop(chat_id, None)
