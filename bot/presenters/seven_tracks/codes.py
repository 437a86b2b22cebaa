"""«Семидорожник»'s compound button codes (bot/presenters/buttons.py) and the table's
state between presses (`Ui`).

Every other button of the table and of the private hand is the engine action it applies
(`CD,,,,,,,2`, `PL,W,3`, `IM,U,,,,OP,1`, …).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, model_validator

from bot.presenters.buttons import Code
from games.seven_tracks.model import TileKind


class Menu(StrEnum):
    """A menu of the table opened by its button (a track's menu is `Ui.track`)."""

    PRIORITY = "pri"  # «⭐ Приоритет…»: the priority tiles, spending the original tile
    PRIORITY_U = "priu"  # «✨ Универсальной…»: the same, spending the universal
    FIFTH_SWAP = "fs"  # the fifth-tile swap (R57), before the roll


class Ui(BaseModel):
    """The table between presses: the menu open (`menu`, or a track's: `track`, 7 the
    centre's) and the turn (`turn_key`) in which «▶ Выставить всё» has already offered the
    priority tiles instead of drawing (R48, once a turn).

    A record stored by the older bot holds the same keys, its track menus as "t3": read
    as `track=3` (its "fm" of the first-move window went with the record format 2,
    bot/storage/schema.py).

        >>> Ui.model_validate({"menu": "t3", "offered": "1:1:4"})
        Ui(menu=None, track=3, offered='1:1:4')
    """

    menu: Menu | None = None
    track: int | None = None
    offered: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _older(cls, data: Any) -> Any:
        menu = data.get("menu") if isinstance(data, dict) else None
        if isinstance(menu, str) and menu.startswith("t") and menu[1:].isdigit():
            return {**data, "menu": None, "track": int(menu[1:])}
        return data

    def closed(self) -> Ui:
        """The table without an open menu."""
        return self.model_copy(update={"menu": None, "track": None})


@dataclass(frozen=True)
class Declare(Code):
    """«⭐ Заявить право первого хода» in the first-move window: his FM, else his universal
    (R58). Public and the same for all: it names neither the tile nor the seat (the
    presser's)."""

    tag = "fmd"
    versioned = False  # the window's table is not redrawn while it runs


@dataclass(frozen=True)
class Pass(Code):
    """«Не использовать» in the first-move window."""

    tag = "fmp"
    versioned = False


@dataclass(frozen=True)
class Run(Code):
    """«▶ Дорожка k»: the longest run of his tiles on track k."""

    tag = "run"
    track: int


@dataclass(frozen=True)
class PlaceAll(Code):
    """«▶ Выставить всё»: the runs everywhere, drawing until a tile fits (R44)."""

    tag = "all"


@dataclass(frozen=True)
class CentreAll(Code):
    """«▶ Центр»: every colour of his the centre still lacks (a double)."""

    tag = "t7all"


@dataclass(frozen=True)
class Draw(Code):
    """«📥 Взять из кассы»: until a tile fits, or one at a time beside a priority tile."""

    tag = "dr"


@dataclass(frozen=True)
class EndTurn(Code):
    """«✅ Закончить ход»: END_PLACING (while placing) and END_TURN."""

    tag = "end"


@dataclass(frozen=True)
class After(Code):
    """A priority tile after the move: spending `kind` (the role's own tile, or U) as
    `role` (against `target`'s seat for «🔄»): a WAIVE when it applies, else END_PLACING
    (while placing) and AFTER_MOVE."""

    tag = "am"
    kind: TileKind
    role: TileKind
    target: int | None = None


@dataclass(frozen=True)
class Exchange(Code):
    """«🔀 Замена фишек»: spending `kind` (EX, or U): EXCHANGE_BEGIN, or a WAIVE as the
    exchange, ending the placing first when it must."""

    tag = "xb"
    kind: TileKind


@dataclass(frozen=True)
class Open(Code):
    """Opens one of the table's menus."""

    tag = "m"
    menu: Menu


@dataclass(frozen=True)
class TrackMenu(Code):
    """«⋯ k»: track k's exact choices (7: the centre's colours)."""

    tag = "mt"
    track: int


@dataclass(frozen=True)
class Back(Code):
    """«« Назад»: closes the menu."""

    tag = "back"


@dataclass(frozen=True)
class Label(Code):
    """A row's title inside a menu («— Вместо хода —»): its press only says so."""

    tag = "noop"


CODES: tuple[type[Code], ...] = (
    Declare,
    Pass,
    Run,
    PlaceAll,
    CentreAll,
    Draw,
    EndTurn,
    After,
    Exchange,
    Open,
    TrackMenu,
    Back,
    Label,
)
