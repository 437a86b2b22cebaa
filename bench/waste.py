"""Wasted Telegram calls of a run, counted by the fake server: edits that change nothing
(«message is not modified») and pictures uploaded again with the same bytes.

    >>> w = Waste(lobby_edits=40, lobby_not_modified=7, uploads=10, reuploads=1)
    >>> f"{w.lobby_share * 100:.1f} %"
    '17.5 %'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fake_telegram.server import ApiCall

if TYPE_CHECKING:
    from bench.e2e import Scenario
    from fake_telegram.server import FakeBotApi

LOBBY = ("editMessageText",)  # the lobby is the bot's only edited text message in a game
TABLE = ("editMessageCaption", "editMessageMedia")


@dataclass
class Waste:
    lobby_edits: int = 0
    lobby_not_modified: int = 0
    table_edits: int = 0
    table_not_modified: int = 0
    uploads: int = 0  # photos uploaded (bytes sent), new or not
    reuploads: int = 0  # uploads whose bytes had been uploaded before
    by_file_id: int = 0  # photos sent or edited in by a file_id (no upload)

    @property
    def lobby_share(self) -> float:
        return self.lobby_not_modified / self.lobby_edits if self.lobby_edits else 0.0


def not_modified(call: ApiCall) -> bool:
    return not call.ok and "not modified" in (call.description or "")


def uploaded(call: ApiCall) -> bool:
    return any(key.startswith("<upload:") for key in call.params)


def photo_calls(calls: Sequence[ApiCall]) -> list[ApiCall]:
    return [c for c in calls if c.method in ("sendPhoto", "editMessageMedia")]


def count(server: FakeBotApi) -> Waste:
    """The whole run's waste (the lobby's edits come before the measured window)."""
    calls = list(server.calls)
    lobby = [c for c in calls if c.method in LOBBY]
    tables = [c for c in calls if c.method in TABLE]
    photos = photo_calls(calls)
    return Waste(
        lobby_edits=len(lobby),
        lobby_not_modified=sum(map(not_modified, lobby)),
        table_edits=len(tables),
        table_not_modified=sum(map(not_modified, tables)),
        uploads=sum(server.upload_digests.values()),
        reuploads=sum(n - 1 for n in server.upload_digests.values()),
        by_file_id=sum(c.ok and not uploaded(c) for c in photos),
    )


def waste_table(results: Sequence[Scenario]) -> str:
    from bench.report import table

    rows = [
        [
            s.kind,
            str(s.games),
            f"{w.lobby_not_modified}/{w.lobby_edits} ({w.lobby_share * 100:.1f} %)",
            f"{w.table_not_modified}/{w.table_edits}",
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
        "re-uploads/uploads",
        "photos by file_id",
    ]
    return "Wasted calls (whole run, the fake server's count; target: 0 and 0)\n" + table(
        head, rows
    )
