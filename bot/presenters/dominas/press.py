"""«ДОМИНА*С»'s presses (a number, a nest, «Хватит»), their private refusals, and the turn
timer's move."""

from __future__ import annotations

from typing import Any

from bot.presenters.base import Outcome, Refusal
from bot.presenters.dominas.common import COLOUR_MARK, POPUP_LIMIT, DominasBase, T, tile_text
from games import Event, IllegalAction
from games.dominas import Action, Phase, Pos, State
from games.dominas.engine import placements, slot_numbers
from games.dominas.figure import edges_of, far, is_far_nest, parent_colour, required, sides_for
from games.dominas.model import POS_MARK
from games.dominas.tiles import (
    pips,
)
from locales import Translator


class Press(DominasBase):
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
        s: State,
        user: int,
        code: str,
        ui: dict[str, Any],
        t: Translator,
        now: float,
    ) -> Outcome[State, Any]:
        ui = dict(ui)
        events: list[Event] = []
        if s.phase is Phase.OVER:
            raise IllegalAction("game_over")
        seat = s.current
        hand = s.hands[seat]
        by_number = dict(zip(slot_numbers(s, seat), hand, strict=True))
        number_of_tile = {tile: k for k, tile in by_number.items()}

        def placed(a: Action) -> Outcome[State, Any]:
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
        text = DominasBase._place_text(a)
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

    # ---------------------------------------------------------------- timer

    def turn_id(self, s: State) -> str | None:
        if s.phase is Phase.OVER:
            return None
        return f"{s.game_no}:{s.turn_no}"

    def timeout_move(self, state: State, user: int) -> Outcome[State, Any]:
        """The engine's timeout (R27, `game.timeout`): a penalty tile and the turn passes
        (in a bonus: the series ends as with «Хватит»). No button can send it."""
        s, events = self.game.timeout(state)
        return Outcome(state=s, events=list(events))
