"""«ДОМИНА*С» at the table: private hands behind a public two-step keyboard (spec §6).

The group keyboard depends only on the public view: one button per open nest with its
required symbol (`▲ 2`; a far nest also gets `▲ 2 ⟲`, the second way to attach), the
numbers of the tiles in the hand of the player to move, «🂠 Мои фишки» and, during a
bonus series, «⏹ Хватит». A tile keeps its number while it is in the hand (the engine's
`slot_numbers`: the dealt tiles are numbered at random, each drawn one gets the next
number), so a button never changes meaning when another tile leaves; which numbers are
left reveals nothing. A tile is named by its colour and number, `🟢12 0-3-6` (no colour
letter that reads as a digit: З12 looks like 312). Everything that depends on his hand is
resolved when he presses:

- a number whose tile has one legal placement is placed at once (one tap);
- a number with several placements is remembered in the bot's session (`ui["sel"]`,
  valid for this state version only): the toast lists its nests, and the table shows the
  number chosen («[7]», and a line in the caption) until a nest completes PLACE;
- a nest pressed with no number chosen places the one tile that fits there, or tells him
  privately which numbers fit;
- anything illegal is refused privately with the reason, naming the symbol (or colour,
  or pip sum) the open nests need — public facts only.

The turn timer plays the engine's timeout (a penalty tile, or the end of a bonus series).
"""

from __future__ import annotations

import html
from typing import Any

from pydantic import BaseModel

from bot.config import Settings
from bot.presenters.base import Btn, LengthChoice, Outcome, Presenter, Refusal, shown_page
from games import Event, IllegalAction
from games.dominas import GAME, Action, ActionType, Dominas, Mode, Phase, Pos, State
from games.dominas.engine import placements, slot_numbers
from games.dominas.figure import edges_of, far, is_far_nest, parent_colour, required, sides_for
from games.dominas.model import POS_MARK, BonusKind, View
from games.dominas.tiles import (
    NAMED,
    colour_of,
    is_samohod,
    number_of,
    pips,
    sort_key,
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


class DominasPresenter(Presenter):
    game_id = "dominas"
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

    def new_state(self, players: list[int], seed: int, options: dict[str, Any]) -> BaseModel:
        """Teams need 4, 6 or 8 players; with another count the match is played solo
        (the caption says which)."""
        opts = dict(options or {})
        if opts.get("mode") == Mode.TEAMS.value and len(players) not in (4, 6, 8):
            opts.pop("mode")
        return self.game.new(players=players, seed=seed, options=opts or None)

    # ---------------------------------------------------------------- helpers

    def _st(self, state: BaseModel) -> State:
        assert isinstance(state, State)
        return state

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

    # ---------------------------------------------------------------- caption

    def caption(
        self,
        state: BaseModel,
        names: dict[int, str],
        ui: dict[str, Any],
        log: list[str],
        t: Translator,
    ) -> str:
        s = self._st(state)
        v = self.game.view(s, None)
        mode = t("dom.mode.teams") if v.mode is Mode.TEAMS else t("dom.mode.solo")
        lines = [t("dom.header", game=v.game_no, games=v.match_games, mode=mode)]
        if v.phase is Phase.OVER:
            if v.mode is Mode.TEAMS:
                sides = sorted({v.players[x].side for x in v.winners})
                won = ", ".join(t("dom.team", team=team_mark(x, t)) for x in sides)
            else:
                won = ", ".join(self._name(names, v, x) for x in v.winners)
            lines.append(t("dom.phase.over", names=won or "—"))
        else:
            who = self._name(names, v, v.current)
            hand = v.players[v.current].hand_count if v.current is not None else 0
            if v.bonus is not None:
                b = v.bonus
                if b.kind is BonusKind.KOLOBOK:
                    lines.append(t("dom.phase.kolobok", name=who, n=hand))
                else:
                    lines.append(t("dom.phase.sum", name=who, n=hand, left=b.left, sum=b.target))
            elif not v.figure:
                lines.append(t("dom.phase.first", name=who, n=hand))
            else:
                lines.append(t("dom.phase.play", name=who, n=hand))
            lines.append(t("dom.table", bazaar=v.bazaar_size, floor=v.floor))
            chosen = self._selected(ui, s)
            if chosen is not None:
                lines.append(t("dom.chosen", name=who, k=chosen))
        if log:
            lines.append("")
            lines.extend(log[-3:])
        lines.append("")
        for p in v.players:
            mark = "▶ " if p.seat == v.current and v.phase is not Phase.OVER else ""
            team = f"[{team_mark(p.side, t)}] " if v.mode is Mode.TEAMS else ""
            name = self._name(names, v, p.seat)
            if not p.present:
                lines.append(t("dom.player_left", mark=mark, team=team, name=name))
                continue
            drawn = t("dom.drawn", n=p.drawn) if p.drawn else ""
            points = (
                "" if v.mode is Mode.TEAMS else " · " + t.plural(v.totals[p.side], "unit.point")
            )
            lines.append(
                t(
                    "dom.player",
                    mark=mark,
                    team=team,
                    name=name,
                    tiles=t.plural(p.hand_count, "unit.tile"),
                    drawn=drawn,
                    points=points,
                )
            )
        if v.mode is Mode.TEAMS:
            lines.append(
                t(
                    "dom.team_points",
                    a=t.plural(v.totals[0], "unit.point"),
                    b=t.plural(v.totals[1] if len(v.totals) > 1 else 0, "unit.point"),
                )
            )
        return "\n".join(lines)

    # ---------------------------------------------------------------- keyboard

    def keyboard(
        self, state: BaseModel, ui: dict[str, Any], names: dict[int, str], t: Translator
    ) -> list[list[Btn]]:
        s = self._st(state)
        v = self.game.view(s, None)
        if v.phase is Phase.OVER or v.current is None:
            return []
        rows: list[list[Btn]] = []
        nests: list[Btn] = []
        for n in v.nests:
            nests.append(Btn(self._nest_label(n.pos, n.symbol, 0, t), f"n{n.pos.value}0"))
            if n.far:
                nests.append(Btn(self._nest_label(n.pos, n.symbol, 1, t), f"n{n.pos.value}1"))
        rows += [nests[i : i + 4] for i in range(0, len(nests), 4)]
        numbers = v.players[v.current].slots
        size = len(numbers)
        pages = max(1, -(-size // SLOTS_PER_PAGE))
        page = shown_page(ui, s.version, pages)
        first = page * SLOTS_PER_PAGE
        chosen = self._selected(ui, s)
        slots = [
            Btn(f"[{k}]" if k == chosen else str(k), f"h{k}")
            for k in numbers[first : first + SLOTS_PER_PAGE]
        ]
        if slots:  # balanced rows of at most SLOTS_PER_ROW (10 tiles: 5 + 5)
            per = -(-len(slots) // -(-len(slots) // SLOTS_PER_ROW))
            rows += [slots[i : i + per] for i in range(0, len(slots), per)]
        if pages > 1:
            rows.append(
                [
                    Btn("◀", f"pg{(page - 1) % pages}"),
                    Btn(f"{page + 1}/{pages}", f"pg{page}"),
                    Btn("▶", f"pg{(page + 1) % pages}"),
                ]
            )
        last = [Btn(t("dom.btn.hand"), "hand")]
        if v.phase is Phase.BONUS:
            last.append(Btn(t("dom.btn.stop"), "s"))
        rows.append(last)
        return rows

    @staticmethod
    def _selected(ui: dict[str, Any], s: State) -> int | None:
        """The number chosen in this state (waiting for its nest), if any."""
        sel = ui.get("sel")
        if isinstance(sel, dict) and sel.get("v") == s.version:
            k = int(sel.get("k") or 0)
            return k or None
        return None

    # ---------------------------------------------------------------- hand

    def _fits(self, s: State, seat: int, tile: str) -> list[Action]:
        bonus = s.bonus if seat == s.current else None
        return placements(s, tile, bonus)

    def hand_popup(self, state: BaseModel, user: int, t: Translator) -> str:
        """One tile per line, by colour and number: `7 🟢12 0-3-6 ✓` (7 is its button);
        a long hand drops the symbols of tiles that do not fit now, then puts several
        tiles on a line."""
        s = self._st(state)
        if user not in s.players:
            return t("dom.not_in_game")
        seat = s.players.index(user)
        v = self.game.view(s, user)
        hand = v.hand or []
        if not hand:
            return t("dom.hand_empty")
        numbers = v.hand_slots or list(range(1, len(hand) + 1))
        rows = sorted(zip(hand, numbers, strict=True), key=lambda x: sort_key(x[0]))
        marks = {tile: bool(self._fits(s, seat, tile)) for tile in hand}
        head = t("dom.hand", n=len(hand))

        def item(k: int, tile: str, full: bool) -> str:
            text = tile_text(tile) if full else tile_name(tile)
            return f"{k} {text}" + (" ✓" if marks[tile] else "")

        text = ""
        for mode in ("all", "fitting", "short"):
            parts = [
                item(k, tile, mode == "all" or (mode == "fitting" and marks[tile]))
                for tile, k in rows
            ]
            text = head + "\n" + "\n".join(parts)
            if utf16_len(text) <= POPUP_LIMIT:
                break
        if utf16_len(text) > POPUP_LIMIT:  # a big hand: several short tiles a line
            text = head + "\n" + " · ".join(item(k, tile, False) for tile, k in rows)
        while utf16_len(text) > POPUP_LIMIT:
            text = text[:-2] + "…"
        if v.remembered:
            extra = "\n" + t("dom.remembered_short", tiles=" ".join(map(tile_name, v.remembered)))
            if utf16_len(text + extra) <= POPUP_LIMIT:
                text += extra
        return text

    def hand_message(self, state: BaseModel, user: int, t: Translator) -> str | None:
        s = self._st(state)
        if user not in s.players or s.phase is Phase.OVER:
            return None
        seat = s.players.index(user)
        v = self.game.view(s, user)
        hand = v.hand or []
        numbers = v.hand_slots or list(range(1, len(hand) + 1))
        lines = [t("dom.pm.title", n=len(hand))]
        for tile, k in sorted(zip(hand, numbers, strict=True), key=lambda x: sort_key(x[0])):
            where = sorted({self._place_text(a) for a in self._fits(s, seat, tile)})
            fit = t("dom.pm.fits", nests=", ".join(where)) if where else ""
            name = f" ({named_title(tile, t)})" if tile in NAMED else ""
            lines.append(f"<b>{k}</b> · {html.escape(tile_text(tile))}{name}{fit}")
        if v.remembered:
            lines.append("")
            lines.append(t("dom.pm.remembered", tiles=" ".join(map(tile_name, v.remembered))))
        if s.current == seat:
            lines.append("")
            lines.append(t("dom.pm.how"))
        return "\n".join(lines)

    # ---------------------------------------------------------------- pressing

    def _apply(self, s: State, a: Action, events: list[Event]) -> State:
        s2, ev = self.game.apply(s, a)
        events.extend(ev)
        return s2

    def _why_not(self, s: State, tile: str) -> str:
        """The engine's reason why `tile` has no placement now."""
        b = s.bonus
        if b is not None and b.target is not None and pips(tile) != b.target:
            return "bonus_sum"
        codes = [
            sides_for(s.figure, s.floor, s.nests, n, tile, s.options.fill_direction)
            for n in s.nests
        ]
        found = [c for c in codes if isinstance(c, str)]
        for code in ("wrong_colour", "samohod_first", "no_match"):
            if code in found:
                return code
        return "no_match"

    def _reason(self, s: State, code: str, t: Translator, nests: list[Any] | None = None) -> str:
        """The refusal's reason, naming what the open nests (all, or `nests`) need: the
        symbol, the colour for a самоход, the pip sum in a bonus (all public)."""
        open_nests = s.nests if nests is None else nests
        if code == "no_match":
            need = sorted({x for n in open_nests if (x := required(s.figure, n)) is not None})
            if need:
                return t("dom.error.no_match_need", need=self._or(need, t))
        elif code == "wrong_colour":
            colours = {parent_colour(s.figure, n) for n in open_nests} - {None}
            if colours:
                marks = " ".join(COLOUR_MARK[c] for c in COLOUR_MARK if c in colours)
                return t("dom.error.wrong_colour_need", colours=marks)
        elif code == "bonus_sum" and s.bonus is not None and s.bonus.target is not None:
            return t("dom.error.bonus_sum_need", sum=s.bonus.target)
        return self.error_text(code, t)

    @staticmethod
    def _or(items: list[int], t: Translator) -> str:
        words = [str(x) for x in items]
        if len(words) == 1:
            return words[0]
        return ", ".join(words[:-1]) + " " + t("dom.or") + " " + words[-1]

    def press(
        self,
        state: BaseModel,
        user: int,
        code: str,
        ui: dict[str, Any],
        t: Translator,
        now: float,
    ) -> Outcome:
        s = self._st(state)
        ui = dict(ui)
        events: list[Event] = []
        if s.phase is Phase.OVER:
            raise IllegalAction("game_over")
        seat = s.current
        hand = s.hands[seat]
        by_number = dict(zip(slot_numbers(s, seat), hand, strict=True))
        number_of_tile = {tile: k for k, tile in by_number.items()}

        def placed(a: Action) -> Outcome:
            new = self._apply(s, a, events)
            ui.pop("sel", None)
            ui.pop("page", None)
            assert a.tile is not None
            toast = t("dom.toast.placed", tile=tile_text(a.tile), nest=self._place_text(a))
            return Outcome(state=new, events=events, ui=ui, toast=toast)

        if code == "s":
            new = self._apply(s, Action(type=T.STOP), events)
            ui.pop("sel", None)
            ui.pop("page", None)
            return Outcome(state=new, events=events, ui=ui, toast=t("dom.toast.stopped"))
        if code.startswith("q") and code[1:].partition(".")[0].isdigit():
            number, _, code = code[1:].partition(".")  # a tile and its nest (private hand)
            if int(number) not in by_number:
                raise Refusal(t("press.outdated"))
            ui["sel"], code = {"k": int(number), "v": s.version}, "n" + code
        if code.startswith("pg") and code[2:].isdigit():
            ui["page"] = {"n": int(code[2:]), "v": s.version}
            return Outcome(state=s, ui=ui)
        if code.startswith("h") and code[1:].isdigit():
            k = int(code[1:])
            if k not in by_number:
                raise Refusal(t("press.outdated"))
            tile = by_number[k]
            options = placements(s, tile, s.bonus)
            if not options:
                reason = self._reason(s, self._why_not(s, tile), t)
                raise Refusal(t("dom.refuse.tile", k=k, tile=tile_text(tile), reason=reason))
            if len(options) == 1:
                return placed(options[0])
            ui["sel"] = {"k": k, "v": s.version}
            where = " · ".join(self._option_text(s, a) for a in options)
            toast = t("dom.toast.chosen", k=k, tile=tile_text(tile), nests=where)
            # the table shows the number chosen; its buttons stay valid (no new version)
            return Outcome(state=s, ui=ui, toast=toast, visible=False)
        if len(code) == 3 and code[0] == "n" and code[2] in "01":
            try:
                pos = Pos(code[1])
            except ValueError as e:
                raise Refusal(t("press.outdated")) from e
            variant = int(code[2])
            if not any(n.pos is pos for n in s.nests):
                raise Refusal(t("press.outdated"))
            k = self._selected(ui, s) or 0
            if k in by_number:
                tile = by_number[k]
                action = Action(type=T.PLACE, tile=tile, nest=pos, variant=variant)
                try:
                    return placed(action)
                except IllegalAction as e:
                    at = [n for n in s.nests if n.pos is pos]
                    reason = self._reason(s, e.code, t, at)
                    raise Refusal(
                        t("dom.refuse.tile", k=k, tile=tile_text(tile), reason=reason)
                    ) from e
            here = [
                a
                for a in self.game.legal_actions(s)
                if a.type is T.PLACE and a.nest is pos and a.variant == variant
            ]
            if len(here) == 1:
                return placed(here[0])
            if not here:
                nest = next(n for n in s.nests if n.pos is pos)
                symbol = required(s.figure, nest)
                where = self._place_text_pos(pos, variant)
                if symbol is not None:
                    raise Refusal(t("dom.refuse.nothing_here_need", nest=where, need=symbol))
                raise Refusal(t("dom.refuse.nothing_here", nest=where))
            slots = sorted({number_of_tile[a.tile] for a in here if a.tile is not None})
            text = t("dom.refuse.choose", slots=", ".join(f"№{x}" for x in slots))
            if len(text) > POPUP_LIMIT:
                text = t("dom.refuse.choose_many", n=len(slots))
            raise Refusal(text)
        raise Refusal(t("press.outdated"))

    @staticmethod
    def _option_text(s: State, a: Action) -> str:
        """`◢⟲ (→3)`: at a far nest, the symbol the next nest will then need."""
        text = DominasPresenter._place_text(a)
        nest = next((n for n in s.nests if n.pos is a.nest), None)
        if nest is None or a.tile is None or not is_far_nest(s.floor, s.nests, nest):
            return text
        fill = s.options.fill_direction
        sides = sides_for(s.figure, s.floor, s.nests, nest, a.tile, fill)
        if isinstance(sides, str) or a.variant >= len(sides) or sides[a.variant] is None:
            return text
        side = sides[a.variant]
        assert side is not None
        edges = edges_of(a.tile, required(s.figure, nest))
        return f"{text} (→{edges[far(side, fill)]})"

    @staticmethod
    def _place_text_pos(pos: Pos, variant: int) -> str:
        return POS_MARK[pos] + ("⟲" if variant else "")

    def error_text(self, code: str, t: Translator) -> str:
        key = f"dom.error.{code}"
        return t(key) if t.has(key) else super().error_text(code, t)

    # ---------------------------------------------------------------- timer

    def turn_id(self, state: BaseModel) -> str | None:
        s = self._st(state)
        if s.phase is Phase.OVER:
            return None
        return f"{s.game_no}:{s.turn_no}"

    def timeout_move(self, state: BaseModel, user: int) -> Outcome:
        """The engine's timeout (R27, `game.timeout`): a penalty tile and the turn passes
        (in a bonus: the series ends as with «Хватит»). No button can send it."""
        s, events = self.game.timeout(self._st(state))
        return Outcome(state=s, events=list(events))

    # ---------------------------------------------------------------- narration

    def narrate(
        self, events: list[Event], state: BaseModel, names: dict[int, str], t: Translator
    ) -> list[str]:
        s = self._st(state)
        lines: list[str] = []
        for i, e in enumerate(events):
            if e.private_to is not None:
                continue
            d = e.data
            who = self._name(names, s, e.seat)
            line: str | None = None
            if e.type == "game_started":
                line = t("dom.ev.game_started", game=d.get("game"), name=who)
            elif e.type == "placed":
                tile = str(d.get("tile"))
                floor = int(d.get("floor") or 1)
                nest = POS_MARK[Pos(str(d.get("nest")))]
                key = "dom.ev.placed_bonus" if d.get("bonus") else "dom.ev.placed"
                line = t(key, name=who, tile=tile_text(tile), nest=nest, floor=floor)
            elif e.type == "bonus_started":
                kind = BonusKind(str(d.get("kind")))
                title = named_title(BONUS_TILE[kind], t)
                if kind is BonusKind.KOLOBOK:
                    line = t("dom.ev.kolobok", name=who, title=title)
                else:
                    line = t("dom.ev.bonus_sum", name=who, title=title, sum=d.get("target"))
            elif e.type == "bonus_ended" and d.get("reason") in ("nothing_fits", "used_up"):
                line = t(f"dom.ev.bonus_{d.get('reason')}", name=who)
            elif e.type == "bonus_ended" and d.get("reason") == "timeout":
                line = t("dom.ev.timeout_bonus", name=who)
            elif e.type == "drew":
                reason = str(d.get("reason"))
                n = int(d.get("count") or 0)
                if reason == "extra":
                    line = t("dom.ev.drew_extra", name=who)
                elif reason == "timeout":
                    line = t("dom.ev.drew_penalty", name=who)
                else:
                    line = t("dom.ev.drew", name=who, n=n)
            elif e.type == "skipped":
                kinds = ", ".join(t(f"dom.run.{k}") for k in d.get("run") or [])
                line = t("dom.ev.skipped", name=who, kinds=kinds)
            elif e.type == "passed":
                line = t("dom.ev.passed", name=who)
            elif e.type == "timeout" and not d.get("penalty"):
                after = events[i + 1] if i + 1 < len(events) else None
                if after is None or after.type != "bonus_ended":  # else narrated with it
                    line = t("dom.ev.timeout_empty", name=who)  # no penalty: empty bazaar
            elif e.type == "game_over":
                line = t("dom.ev.game_over", game=d.get("game"))
            elif e.type == "player_left":
                line = t("dom.ev.left", name=who)
            if line:
                lines.append(line)
        return lines

    def private_notes(
        self, events: list[Event], state: BaseModel, user: int, t: Translator
    ) -> list[str]:
        s = self._st(state)
        if user not in s.players:
            return []
        seat = s.players.index(user)
        drawn = [
            str(x)
            for e in events
            if e.type == "drew_tiles" and e.private_to == seat
            for x in e.data.get("tiles") or []
        ]
        if not drawn:
            return []
        number = dict(zip(s.hands[seat], slot_numbers(s, seat), strict=True))
        tiles = ", ".join(
            f"{number[x]} {tile_text(x)}" if x in number else tile_text(x) for x in drawn
        )
        return [t("dom.toast.drew", tiles=tiles)]

    # ---------------------------------------------------------------- summaries

    def summaries(
        self, events: list[Event], state: BaseModel, names: dict[int, str], t: Translator
    ) -> list[str]:
        s = self._st(state)
        out: list[str] = []
        last_seat: int | None = None
        for e in events:
            if e.type == "placed":
                last_seat = e.seat
            elif e.type == "game_over":
                out.append(self._game_text(e.data, s, names, t, last_seat))
            elif e.type == "match_over":
                text = self._final_text(s, names, t)
                if out:
                    out[-1] += "\n\n" + text
                else:
                    out.append(text)
        return out

    def _sides(self, s: State) -> list[int]:
        return sorted(set(s.side_of))

    def _game_text(
        self,
        d: dict[str, Any],
        s: State,
        names: dict[int, str],
        t: Translator,
        last_seat: int | None = None,
    ) -> str:
        game = d.get("game")
        reason = str(d.get("reason"))
        winner = d.get("winner_side")
        lines = [t("dom.sum.title", game=game)]
        if reason == "win" and winner is not None:
            if s.options.mode is Mode.TEAMS and last_seat is not None:
                team = self._side_name(names, s, int(winner), t)
                who = self._name(names, s, last_seat)
                lines.append(t("dom.sum.win_team", team=team, name=who))
            else:
                lines.append(t("dom.sum.win", name=self._side_name(names, s, int(winner), t)))
        elif reason == "fish":
            lines.append(t("dom.sum.fish"))
        else:
            lines.append(t("dom.sum.abandoned"))
        tiles: list[int] = list(d.get("tiles") or [])
        scores: list[int] = list(d.get("scores") or [])
        totals: list[int] = list(d.get("totals") or [])
        lines.append("")
        for side in self._sides(s):
            if side >= len(scores):
                continue
            who = self._side_name(names, s, side, t)
            if s.options.mode is Mode.TEAMS:
                members = ", ".join(
                    self._name(names, s, x) for x in range(len(s.players)) if s.side_of[x] == side
                )
                who = f"{who} ({members})"
            lines.append(
                t(
                    "dom.sum.line",
                    name=who,
                    tiles=t.plural(tiles[side] if side < len(tiles) else 0, "unit.tile"),
                    score=scores[side],
                    total=totals[side] if side < len(totals) else scores[side],
                )
            )
        return "\n".join(lines)

    def _final_text(self, s: State, names: dict[int, str], t: Translator) -> str:
        res = self.game.result(s)
        lines = [t("dom.final.title")]
        if s.options.mode is Mode.TEAMS:
            seen: set[int] = set()
            for st in res.standings:
                side = s.side_of[s.players.index(st.player)]
                if side in seen:
                    continue
                seen.add(side)
                members = ", ".join(
                    self._name(names, s, x) for x in range(len(s.players)) if s.side_of[x] == side
                )
                name = f"{self._side_name(names, s, side, t)} ({members})"
                crown = " 🏆" if st.player in res.winners else ""
                points = t.plural(st.score, "unit.point")
                lines.append(t("dom.final.line", place=st.place, name=name, points=points) + crown)
            return "\n".join(lines)
        for st in res.standings:
            name = html.escape(names.get(st.player) or str(st.player))
            crown = " 🏆" if st.player in res.winners else ""
            points = t.plural(st.score, "unit.point")
            lines.append(t("dom.final.line", place=st.place, name=name, points=points) + crown)
        return "\n".join(lines)


def make_presenter(settings: Settings | None) -> DominasPresenter:
    return DominasPresenter()
