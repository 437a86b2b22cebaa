"""What every part of «ДОМИНА*С»'s presenter shares: the tiles' names and marks, and the
base class (the lobby, names of players and teams, nests' and places' labels, the number
chosen)."""

from __future__ import annotations

import html
from typing import Any

from bot.presenters.base import LengthChoice, Presenter
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

T = ActionType
SLOTS_PER_ROW = 8
SLOTS_PER_PAGE = 24
POPUP_LIMIT = 200
BONUS_TILE = {BonusKind.KOLOBOK: "З1", BonusKind.SUM9: "О11", BonusKind.SUM10: "О15"}
COLOUR_MARK = {"О": "🔴", "М": "🟡", "З": "🟢", "В": "🔵"}  # Огонь, Металл, Земля, Вода


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


class DominasBase(Presenter[State, Any]):
    game_id = "dominas"
    strings = "dom"
    title_key = "game.dominas.title"
    title_short_key = "game.dominas.short"
    aliases = ("доминас", "домина*с", "домина", "домино", "dominas", "domino")
    game: Dominas

    def __init__(self) -> None:
        self.game = GAME

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

    def _name(self, names: dict[int, str], s: State | View, seat: int | None) -> str:
        if seat is None:
            return "?"
        players = [p.player for p in s.players] if isinstance(s, View) else s.players
        if not 0 <= seat < len(players):
            return "?"
        user = players[seat]
        return html.escape(names.get(user) or str(user))

    def _side_name(self, names: dict[int, str], s: State, side: int, t: Translator) -> str:
        if s.options.mode is Mode.TEAMS:
            return t("dom.team", team=team_mark(side, t))
        return self._name(names, s, side)

    @staticmethod
    def _nest_label(pos: Pos, symbol: int | None, variant: int, t: Translator) -> str:
        sym = t("dom.any") if symbol is None else str(symbol)
        return f"{POS_MARK[pos]} {sym}" + (" ⟲" if variant else "")

    @staticmethod
    def _place_text(a: Action) -> str:
        assert a.nest is not None
        return POS_MARK[a.nest] + ("⟲" if a.variant else "")

    @staticmethod
    def _selected(ui: dict[str, Any], s: State) -> int | None:
        """The number chosen in this state (waiting for its nest), if any."""
        sel = ui.get("sel")
        if isinstance(sel, dict) and sel.get("v") == s.version:
            k = int(sel.get("k") or 0)
            return k or None
        return None
