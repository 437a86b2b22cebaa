"""Pictures Telegram already has: a picture's key → the `file_id` Telegram gave it.

A table picture identical to one uploaded before (the table sent anew at the bottom of
the chat, or after its message was lost; a board that comes back to an earlier look) is
sent by its `file_id` instead of being uploaded again (bot/table.py). Bounded (the least
recently used are dropped), one per bot (`for_sender`), this instance's memory only; a
`file_id` Telegram refuses is forgotten and the picture uploaded after all. The key is
the game's uid and its `picture_key` (which changes exactly when the picture would), so
the same board drawn again — cold or warm, bytes a little apart — is still the same
picture.

    >>> known = Uploaded(limit=2)
    >>> known.put("g1:a", "AgAC1"); known.put("g1:b", "AgAC2"); known.put("g1:c", "AgAC3")
    >>> known.get("g1:a"), known.get("g1:c")
    (None, 'AgAC3')
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any

from aiogram.exceptions import TelegramBadRequest

LIMIT = 4096  # pictures remembered (a digest and a file_id: ~150 bytes each)


class Uploaded:
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._ids: OrderedDict[str, str] = OrderedDict()

    def get(self, k: str) -> str | None:
        file_id = self._ids.get(k)
        if file_id is not None:
            self._ids.move_to_end(k)
        return file_id

    def put(self, k: str, file_id: str) -> None:
        self._ids[k] = file_id
        self._ids.move_to_end(k)
        while len(self._ids) > self.limit:
            self._ids.popitem(last=False)

    def drop(self, k: str) -> None:
        self._ids.pop(k, None)

    def learn(self, k: str, message: Any) -> None:
        """Remember the file_id of the largest size of a sent or edited photo message."""
        photo = getattr(message, "photo", None)
        if photo:
            self.put(k, str(photo[-1].file_id))


_BY_SENDER: weakref.WeakKeyDictionary[object, Uploaded] = weakref.WeakKeyDictionary()


def for_sender(sender: object) -> Uploaded:
    """The cache of the bot that `sender` speaks for (file_ids belong to one bot)."""
    known = _BY_SENDER.get(sender)
    if known is None:
        known = _BY_SENDER[sender] = Uploaded()
    return known


def refused(e: TelegramBadRequest) -> bool:
    """Telegram no longer takes the file_id (the picture is uploaded instead)."""
    text = str(e).lower()
    return "file" in text and ("identifier" in text or "reference" in text or "id" in text)
