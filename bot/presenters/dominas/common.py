"""What every part of «ДОМИНА*С»'s presenter shares: the tiles' names and marks, the
table's state between presses (`Ui`), the compound button codes, and the base class (the
lobby, the house rule, names of players and teams, nests' and places' labels, the number
chosen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.presenters.base import LengthChoice, Page, Presenter, Rule, TableCtx, ToPage
from bot.presenters.buttons import Code
from games.dominas import GAME, Action, ActionType, Dominas, Mode, Pos, State
from games.dominas.model import POS_MARK, BonusKind, View
from games.dominas.tiles import (
    NAMED,
    colour_of,
    is_samohod,
    number_of,
    symbols_of,
    to_ascii,
)
from locales import Translator

if TYPE_CHECKING:
    from bot.hands import HandKeeper

T = ActionType
SLOTS_PER_ROW = 8
SLOTS_PER_PAGE = 24
POPUP_LIMIT = 200
BONUS_TILE = {BonusKind.KOLOBOK: "З1", BonusKind.SUM9: "О11", BonusKind.SUM10: "О15"}
COLOUR_MARK = {"О": "🔴", "М": "🟡", "З": "🟢", "В": "🔵"}  # Огонь, Металл, Земля, Вода


class Sel(BaseModel):
    """The hand number `k` chosen for the table version `v`, waiting for its nest."""

    k: int
    v: int


class Spot(BaseModel):
    """The nest (`pos`, `variant`) pressed first for the table version `v`, where
    several of the hand's tiles fit: waiting for its tile."""

    pos: Pos
    variant: int
    v: int


class Ui(BaseModel):
    """The table between presses: the number chosen (`sel`), the nest chosen (`at`) and
    the numbers' page chosen with ◀ ▶ (`page`), each for the state version it was chosen
    in. The older bot kept the same dict (`{"sel": {"k", "v"}, "page": {"n", "v"}}`),
    read as it is."""

    sel: Sel | None = None
    at: Spot | None = None
    page: Page | None = None


@dataclass(frozen=True)
class Number(Code):
    """A tile's hand number `k` (public: the table knows which numbers a seat holds): one
    placement is played at once, several wait for a nest (`Ui.sel`)."""

    tag = "h"
    k: int


@dataclass(frozen=True)
class AtNest(Code):
    """A nest (`variant` 1: a far nest's second way): the number chosen goes there, or the
    one tile of the hand that fits there."""

    tag = "n"
    pos: Pos
    variant: int


@dataclass(frozen=True)
class Put(Code):
    """The private hand's button: the tile numbered `k` at a nest, in one tap."""

    tag = "q"
    k: int
    pos: Pos
    variant: int


def team_mark(side: int, t: Translator) -> str:
    """A team's letter in the chat's language: А/Б, A/B (as on the pictures)."""
    return t(f"dom.side.{side % 2}")


def named_title(tile: str, t: Translator) -> str:
    """A named tile's title (★) in the chat's language: «Горыныч», Gorynych."""
    return t(f"dom.named.{to_ascii(tile).lower()}")


def tile_name(tile: str) -> str:
    """A tile's one name everywhere (hand, toasts, narration): colour and number, `🟢12`,
    `🔵⚙` for a самоход, ★ for a named tile."""
    rest = "⚙" if is_samohod(tile) else str(number_of(tile))
    return COLOUR_MARK[colour_of(tile)] + rest + ("★" if tile in NAMED else "")


def tile_text(tile: str) -> str:
    """The name and the symbols: `🟢12 0-3-6`."""
    sym = symbols_of(tile)
    return tile_name(tile) + ("" if sym is None else " " + "-".join(map(str, sym)))


def utf16_len(text: str) -> int:
    """Telegram measures texts in UTF-16 code units (an emoji such as 🟢 counts 2)."""
    return len(text.encode("utf-16-le")) // 2


class DominasBase(Presenter[State, Ui]):
    game_id = "dominas"
    strings = "dom"
    title_key = "game.dominas.title"
    title_short_key = "game.dominas.short"
    aliases = ("доминас", "домина*с", "домина", "домино", "dominas", "domino")
    house_rules: tuple[Rule, ...] = (Rule("fill_direction", ("clockwise", "counterclockwise")),)
    game: Dominas
    ui_type = Ui

    def __init__(self) -> None:
        super().__init__(GAME)

    def codes(self) -> tuple[type[Code], ...]:
        return (Number, AtNest, Put, ToPage)

    def hand_keeper(self) -> HandKeeper:
        """The private hand in the group (bot/hands/dominas.py)."""
        from bot.hands.dominas import DominasHand

        return DominasHand(self)

    # ---------------------------------------------------------------- lobby

    def choices(self) -> list[LengthChoice]:
        return [
            LengthChoice("m2", "game.dominas.len.match", {"match_games": 2}),
            LengthChoice("m1", "game.dominas.len.one", {"match_games": 1}),
            LengthChoice("t2", "game.dominas.len.teams", {"match_games": 2, "mode": "teams"}),
            LengthChoice("t1", "game.dominas.len.teams_one", {"match_games": 1, "mode": "teams"}),
        ]

    def new_state(self, players: list[int], seed: int, options: dict[str, Any]) -> State:
        """Teams need 4, 6 or 8 players; with another count the match is played solo
        (the caption says which)."""
        opts = dict(options or {})
        if opts.get("mode") == Mode.TEAMS.value and len(players) not in (4, 6, 8):
            opts.pop("mode")
        return self.game.new(players=players, seed=seed, options=opts or None)

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def _name(c: TableCtx[Ui], s: State | View, seat: int | None) -> str:
        """The name of the player in `seat`, HTML-escaped; «?» for none."""
        players = [p.player for p in s.players] if isinstance(s, View) else s.players
        if seat is None or not 0 <= seat < len(players):
            return "?"
        return c.name(players[seat])

    def _side_name(self, c: TableCtx[Ui], s: State, side: int) -> str:
        if s.options.mode is Mode.TEAMS:
            return c.t("dom.team", team=team_mark(side, c.t))
        return self._name(c, s, side)

    @staticmethod
    def _nest_label(pos: Pos, symbol: int | None, variant: int, t: Translator) -> str:
        sym = t("dom.any") if symbol is None else str(symbol)
        return f"{POS_MARK[pos]} {sym}" + (" ⟲" if variant else "")

    @staticmethod
    def _place_text(a: Action) -> str:
        assert a.nest is not None
        return POS_MARK[a.nest] + ("⟲" if a.variant else "")

    @staticmethod
    def _selected(ui: Ui, s: State) -> int | None:
        """The number chosen in this state (waiting for its nest), if any."""
        if ui.sel is not None and ui.sel.v == s.version:
            return ui.sel.k or None
        return None

    @staticmethod
    def _spot(ui: Ui, s: State) -> tuple[Pos, int] | None:
        """The nest chosen in this state (waiting for its tile), if it is still open."""
        at = ui.at
        if at is None or at.v != s.version or not any(n.pos is at.pos for n in s.nests):
            return None
        return at.pos, at.variant
