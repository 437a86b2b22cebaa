"""«ДОМИНА*С»'s presses (a number, a nest, a tile at a nest from the private hand,
«Хватит», a page) and their private refusals."""

from __future__ import annotations

from typing import Any

from bot.presenters.base import Outcome, Page, Refusal, TableCtx, ToPage
from bot.presenters.dominas.common import (
    COLOUR_MARK,
    AtNest,
    DominasBase,
    Number,
    Put,
    Sel,
    Spot,
    T,
    Ui,
    tile_name,
    tile_text,
    utf16_len,
)
from games import IllegalAction
from games.dominas import Action, Phase, Pos, State
from games.dominas.engine import placements, slot_numbers
from games.dominas.figure import edges_of, far, is_far_nest, parent_colour, required, sides_for
from games.dominas.model import POS_MARK
from games.dominas.tiles import pips, sort_key
from locales import Translator

TOAST_LIMIT = 120  # a nest's toast, with room for «the hand is at the bottom» after it


class Press(DominasBase):
    # ---------------------------------------------------------------- pressing

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

    def press(self, s: State, user: int, pressed: object, c: TableCtx[Ui]) -> Outcome[State, Ui]:
        t = c.t
        if s.phase is Phase.OVER:
            raise IllegalAction("game_over")
        seat = s.current
        by_number = dict(zip(slot_numbers(s, seat), s.hands[seat], strict=True))
        match pressed:
            case Action(type=T.STOP):
                new, events = self.game.apply(s, pressed)
                return Outcome(state=new, events=events, ui=Ui(), toast=t("dom.toast.stopped"))
            case ToPage(n=n):
                ui = Ui(sel=c.ui.sel, at=c.ui.at, page=Page(n=n, v=s.version))
                return Outcome(state=s, ui=ui)
            case Number(k=k) if k in by_number:
                return self._number(s, k, by_number[k], c)
            case Put(k=k, pos=pos, variant=variant) if k in by_number:  # the private hand
                return self._at_nest(s, pos, variant, k, by_number, c)
            case AtNest(pos=pos, variant=variant):
                return self._at_nest(s, pos, variant, self._selected(c.ui, s), by_number, c)
        raise Refusal(t("press.outdated"))

    def _placed(self, s: State, a: Action, c: TableCtx[Ui]) -> Outcome[State, Ui]:
        """`a` applied: the number chosen and the page are forgotten."""
        new, events = self.game.apply(s, a)
        assert a.tile is not None
        toast = c.t("dom.toast.placed", tile=tile_text(a.tile), nest=self._place_text(a))
        return Outcome(state=new, events=events, ui=Ui(), toast=toast)

    def _put(
        self, s: State, k: int, tile: str, pos: Pos, variant: int, c: TableCtx[Ui]
    ) -> Outcome[State, Ui]:
        """The tile numbered `k` at the nest `pos`, or a refusal naming what it needs."""
        t = c.t
        action = Action(type=T.PLACE, tile=tile, nest=pos, variant=variant)
        try:
            return self._placed(s, action, c)
        except IllegalAction as e:
            at = [n for n in s.nests if n.pos is pos]
            reason = self._reason(s, e.code, t, at)
            raise Refusal(t("dom.refuse.tile", k=k, tile=tile_text(tile), reason=reason)) from e

    def _number(self, s: State, k: int, tile: str, c: TableCtx[Ui]) -> Outcome[State, Ui]:
        """The number `k` pressed: into the nest chosen first, else its one placement, or
        it waits for a nest."""
        t = c.t
        spot = self._spot(c.ui, s)
        if spot is not None:
            return self._put(s, k, tile, spot[0], spot[1], c)
        options = placements(s, tile, s.bonus)
        if not options:
            reason = self._reason(s, self._why_not(s, tile), t)
            raise Refusal(t("dom.refuse.tile", k=k, tile=tile_text(tile), reason=reason))
        if len(options) == 1:
            return self._placed(s, options[0], c)
        where = " · ".join(self._option_text(s, a) for a in options)
        toast = t("dom.toast.chosen", k=k, tile=tile_text(tile), nests=where)
        # the table shows the number chosen; its buttons stay valid (no new version)
        ui = Ui(sel=Sel(k=k, v=s.version), page=c.ui.page)
        return Outcome(state=s, ui=ui, toast=toast, visible=False)

    def _at_nest(
        self,
        s: State,
        pos: Pos,
        variant: int,
        k: int | None,
        by_number: dict[int, str],
        c: TableCtx[Ui],
    ) -> Outcome[State, Ui]:
        """A nest pressed, with the number `k` chosen (or none): that tile goes there, or
        the one tile that fits there; where several fit, the nest is chosen and waits for
        its tile, which his private hand (opened for him) offers in one tap each."""
        t = c.t
        if variant not in (0, 1) or not any(n.pos is pos for n in s.nests):
            raise Refusal(t("press.outdated"))
        if k is not None and k in by_number:
            return self._put(s, k, by_number[k], pos, variant, c)
        here = [
            a
            for a in self.game.legal_actions(s)
            if a.type is T.PLACE and a.nest is pos and a.variant == variant
        ]
        if len(here) == 1:
            return self._placed(s, here[0], c)
        nest = next(n for n in s.nests if n.pos is pos)
        symbol = required(s.figure, nest)
        if not here:
            where = self._place_text_pos(pos, variant)
            if symbol is not None:
                raise Refusal(t("dom.refuse.nothing_here_need", nest=where, need=symbol))
            raise Refusal(t("dom.refuse.nothing_here", nest=where))
        # named as his hand shows them (its buttons' order)
        tiles = sorted({a.tile for a in here if a.tile is not None}, key=sort_key)
        label = self._nest_label(pos, symbol, variant, t)
        toast = t("dom.toast.at_nest", nest=label, tiles=", ".join(map(tile_name, tiles)))
        if utf16_len(toast) > TOAST_LIMIT:
            toast = t("dom.toast.at_nest_many", nest=label, n=len(tiles))
        ui = Ui(at=Spot(pos=pos, variant=variant, v=s.version), page=c.ui.page)
        return Outcome(state=s, ui=ui, toast=toast, visible=False, hand=True)

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
