"""Wasted Telegram calls of a run, counted by the fake server: edits that change nothing
(«message is not modified») and pictures uploaded again with the same bytes.

Edits are counted by the kind of message edited, told by the callback data its keyboard
had when it was sent (`kind_of`): the lobby (`L1:`), the table (`P1:`), and the other
messages (a leave's offer, a question, a private hand…), so a «not modified» says where
it came from.

    >>> w = Waste(lobby_edits=40, lobby_not_modified=7, uploads=10, reuploads=1)
    >>> f"{w.lobby_share * 100:.1f} %"
    '17.5 %'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fake_telegram.server import ApiCall

if TYPE_CHECKING:
    from bench.e2e import Scenario
    from fake_telegram.server import FakeBotApi

EDITS = ("editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")
# a message's kind by the prefix of its buttons' callback data (bot/callbacks.py & co.)
KINDS = {"L1": "lobby", "P1": "table", "H1": "hand", "K1": "offer", "V1": "leave", "C1": "cancel"}


@dataclass
class Waste:
    lobby_edits: int = 0
    lobby_not_modified: int = 0
    table_edits: int = 0
    table_not_modified: int = 0
    uploads: int = 0  # photos uploaded (bytes sent), new or not
    reuploads: int = 0  # uploads whose bytes had been uploaded before
    by_file_id: int = 0  # photos sent or edited in by a file_id (no upload)
    other_edits: int = 0  # edits of any other message
    other_not_modified: Counter[str] = field(default_factory=Counter)  # by kind

    @property
    def lobby_share(self) -> float:
        return self.lobby_not_modified / self.lobby_edits if self.lobby_edits else 0.0


def not_modified(call: ApiCall) -> bool:
    return not call.ok and "not modified" in (call.description or "")


def uploaded(call: ApiCall) -> bool:
    return any(key.startswith("<upload:") for key in call.params)


def photo_calls(calls: Sequence[ApiCall]) -> list[ApiCall]:
    return [c for c in calls if c.method in ("sendPhoto", "editMessageMedia")]


def kind_of(server: FakeBotApi, call: ApiCall) -> str:
    """The kind of message an edit is for (`KINDS`; "other" without known buttons)."""
    chat = server.chats.get(call.chat_id) if isinstance(call.chat_id, int) else None
    message = chat.messages.get(call.message_id) if chat and call.message_id else None
    if message is None:
        return "other"
    first = message.history[0][3] if message.history else message.reply_markup
    for row in (first or {}).get("inline_keyboard", []):
        for button in row:
            prefix = str(button.get("callback_data") or "").partition(":")[0]
            if prefix in KINDS:
                return KINDS[prefix]
    return "other"


def count(server: FakeBotApi) -> Waste:
    """The whole run's waste (the lobby's edits come before the measured window)."""
    calls = list(server.calls)
    w = Waste()
    for call in calls:
        if call.method not in EDITS:
            continue
        kind, wasted = kind_of(server, call), not_modified(call)
        if kind == "lobby":
            w.lobby_edits += 1
            w.lobby_not_modified += wasted
        elif kind == "table":
            w.table_edits += 1
            w.table_not_modified += wasted
        else:
            w.other_edits += 1
            if wasted:
                w.other_not_modified[kind] += 1
    photos = photo_calls(calls)
    w.uploads = sum(server.upload_digests.values())
    w.reuploads = sum(n - 1 for n in server.upload_digests.values())
    w.by_file_id = sum(c.ok and not uploaded(c) for c in photos)
    return w


def others(w: Waste) -> str:
    """The other messages' «not modified» of all their edits, by kind."""
    kinds = ", ".join(f"{k} {n}" for k, n in w.other_not_modified.most_common())
    return f"{sum(w.other_not_modified.values())}/{w.other_edits}" + (f" ({kinds})" * bool(kinds))


def waste_table(results: Sequence[Scenario]) -> str:
    from bench.report import table

    rows = [
        [
            s.kind,
            str(s.games),
            f"{w.lobby_not_modified}/{w.lobby_edits} ({w.lobby_share * 100:.1f} %)",
            f"{w.table_not_modified}/{w.table_edits}",
            others(w),
            f"{w.reuploads}/{w.uploads}",
            str(w.by_file_id),
        ]
        for s in results
        if (w := s.waste) is not None and s.kind != "echo"
    ]
    head = [
        "bot",
        "games",
        "lobby edits not modified",
        "table edits not modified",
        "other edits not modified",
        "re-uploads/uploads",
        "photos by file_id",
    ]
    return "Wasted calls (whole run, the fake server's count; target: 0 and 0)\n" + table(
        head, rows
    )
