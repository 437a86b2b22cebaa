"""«Семидорожник»'s presses: the pressed action or compound code (`codes.py`) resolved
against the presser's legal actions, and the private refusals that say why nothing fits."""

from __future__ import annotations

from bot.presenters.base import Outcome, Refusal, TableCtx
from bot.presenters.seven_tracks.codes import (
    After,
    Back,
    CentreAll,
    Declare,
    Draw,
    EndTurn,
    Exchange,
    Label,
    Menu,
    Open,
    Pass,
    PlaceAll,
    Run,
    TrackMenu,
    Ui,
)
from bot.presenters.seven_tracks.common import EMOJI, ROLE_ORDER, T
from bot.presenters.seven_tracks.compound import Compound
from bot.presenters.seven_tracks.turns import Turns
from games import Event, IllegalAction
from games.seven_tracks import Action, Phase, State
from games.seven_tracks.model import T7, TileKind, expected_colour
from locales import Translator

Done = Outcome[State, Ui]


def _plays(kind: TileKind | None, role: TileKind | None) -> bool:
    """A redirect's `role` can be played by `kind`: its own tile or the universal (R62)."""
    return role in ROLE_ORDER and kind in (role, TileKind.UNIVERSAL)


class Press(Compound, Turns):
    def press(self, s: State, user: int, pressed: object, c: TableCtx[Ui]) -> Done:
        t, ui = c.t, c.ui
        if isinstance(pressed, Declare | Pass):
            if s.phase != Phase.FIRST_MOVE:
                raise Refusal(t("st.fm_closed"))
            return self._fm_choice(s, user, isinstance(pressed, Declare), t)
        if s.phase == Phase.FIRST_MOVE:
            raise Refusal(t("press.outdated"))
        events: list[Event] = []

        def done(new: State, toast: str | None = None, keep_menu: bool = False) -> Done:
            return Outcome(
                state=new, events=events, ui=ui if keep_menu else ui.closed(), toast=toast
            )

        match pressed:
            case Label():
                return Outcome(state=s, changed=False, toast=t("st.noop"))
            case Back():
                return Outcome(state=s, ui=ui.closed())
            case Open(menu=menu) if menu != Menu.FIFTH_SWAP or s.phase == Phase.PRE_MOVE:
                return Outcome(state=s, ui=ui.closed().model_copy(update={"menu": menu}))
            case TrackMenu(track=k) if s.phase == Phase.PLACING and k in s.turn.modes:
                return Outcome(state=s, ui=ui.closed().model_copy(update={"track": k}))
            case PlaceAll():
                return self._place_everything(s, c)
            case Run(track=k):
                if k not in s.turn.modes or k == T7:
                    raise IllegalAction("track_unavailable")
                s2, n = self._run(s, k, events)
                if n == 0 and not any(a.type in (T.DRAW, T.END_PLACING) for a in self._legal(s)):
                    # the universal as a white only when he must place and nothing else fits
                    s2, n = self._run(s, k, events, universal=True)
                if n == 0:
                    self._explain_run(s, k, t)
                return done(s2, t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile")))
            case CentreAll():
                s2, n = self._run_t7(s, events)
                if n == 0:
                    if not s.turn.is_double:
                        raise IllegalAction("not_double")
                    raise Refusal(t("st.refuse.nothing_for_centre"))
                return done(s2, t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile")))
            case Draw():
                s2, note = self._draw(s, events, t)
                return done(s2, note)
            case EndTurn():
                return done(self._end_turn(s, events, t))
            case After(kind=kind, role=role, target=target) if _plays(kind, role):

                def roles(universal: bool) -> list[Action]:
                    spent = TileKind.UNIVERSAL if universal else role
                    return [
                        Action(type=tp, kind=spent, role=role, target=target)
                        for tp in (T.WAIVE, T.AFTER_MOVE)
                    ]

                by_universal = kind == TileKind.UNIVERSAL
                return done(self._spend(s, roles, by_universal, role, events, t, True))
            case Exchange(kind=kind) if kind in (TileKind.EXCHANGE, TileKind.UNIVERSAL):

                def exchange(universal: bool) -> list[Action]:
                    spent = TileKind.UNIVERSAL if universal else TileKind.EXCHANGE
                    return [
                        Action(type=tp, kind=spent, role=TileKind.EXCHANGE)
                        for tp in (T.EXCHANGE_BEGIN, T.WAIVE)
                    ]

                by_universal = kind == TileKind.UNIVERSAL
                spent = self._spend(s, exchange, by_universal, TileKind.EXCHANGE, events, t, True)
                return done(spent)
            case Action():
                return self._action(s, pressed, c)
        raise Refusal(t("press.outdated"))

    def _action(self, s: State, a: Action, c: TableCtx[Ui]) -> Done:
        """A button that applies one engine action (the menus' choices, the dice, …)."""
        t, ui = c.t, c.ui
        events: list[Event] = []
        toast: str | None = None
        keep_menu = False
        match a.type:
            case T.CHOOSE_DICE:
                s2 = self._do(s, [a], events)
                dice = " ".join(f"[{d}]" for d in s2.turn.dice)
                toast = t("st.toast.rolled", dice=dice) if s2.turn.dice else None
            case T.PLACE | T.BLOCK | T.UNBLOCK | T.RECLAIM:
                s2 = self._named(s, a, events, t)
                keep_menu = self._keep_track_menu(s, s2, a.track or 0)
            case T.PLACE_T7 | T.DISCARD_BLACK:
                s2 = self._named(s, a, events, t)
            case T.TAKE_BONUS | T.EXCHANGE_CONFIRM | T.CANCEL_RESTRICTION:
                s2 = self._do(s, [a], events)
            case T.EXCHANGE_ADD if a.kind is not None:
                n = (len(s.exchange.selection) + 1) if s.exchange else 0
                s2 = self._do(s, [a], events)
                toast = t("st.toast.exchange_added", emoji=EMOJI[a.kind], n=n)
            case T.FIFTH_SWAP:
                s2 = self._do(s, [a], events)
                keep_menu = s2.phase == Phase.PRE_MOVE
            case T.INSTEAD_OF_MOVE | T.SHIFT if a.role is not None and _plays(a.kind, a.role):
                role = a.role

                def uses(universal: bool) -> list[Action]:
                    spent = TileKind.UNIVERSAL if universal else role
                    return [a.model_copy(update={"kind": spent})]

                s2 = self._spend(s, uses, a.kind == TileKind.UNIVERSAL, role, events, t)
            case _:  # no button applies it alone (the window's answers name no seat)
                raise Refusal(t("press.outdated"))
        return Outcome(state=s2, events=events, ui=ui if keep_menu else ui.closed(), toast=toast)

    def _place_everything(self, s: State, c: TableCtx[Ui]) -> Done:
        """«▶ Выставить всё»; the priority tiles he could play instead of drawing are
        offered once a turn (R48): the press stops there and says so."""
        t, ui = c.t, c.ui
        events: list[Event] = []
        turn_key = self.game.turn_key(s)
        offer = ui.offered != turn_key
        s2, n, drawn = self._place_all(s, events, offer)
        stopped = (
            offer
            and self._still_mine(s2, s.current, s.turn_no)
            and s2.turn.draws == 0
            and self._waivable(s2)
        )
        if stopped:
            ui = ui.model_copy(update={"offered": turn_key})
        if n == 0 and drawn == 0:
            try:
                self._explain_nothing(s, t)
            except Refusal as r:
                if not stopped:
                    raise
                # an alert like a refusal, but the offer is remembered for this turn
                return Outcome(state=s, ui=ui, toast=r.text, alert=True, visible=False)
        toast = t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile"))
        if drawn:
            toast += " " + t("st.toast.drew_count", drawn=t.plural(drawn, "unit.tile"))
        if stopped:
            tiles = self._offer(self._priority_tiles(s2))
            toast += " " + t("st.toast.priority_instead", tiles=tiles)
        return Outcome(state=s2, events=events, ui=ui.closed(), toast=toast)

    def _draw(self, s: State, events: list[Event], t: Translator) -> tuple[State, str | None]:
        """«📥 Взять из кассы»: until a tile fits; one tile at a time while a priority tile
        could be played instead (R48), so that he can stop and play it."""
        if self._waivable(s):
            s2 = self._do(s, [Action(type=T.DRAW)], events)
            note = None
            if self._still_mine(s2, s.current, s.turn_no) and self._waivable(s2):
                more = any(a.type == T.DRAW for a in self._legal(s2))
                key = "st.toast.drew_one" if more else "st.toast.drew_one_last"
                note = t(key, tiles=self._offer(self._priority_tiles(s2)))
            return s2, note
        s2, n = self._draw_until(s, events)
        if n == 0:
            self._do(s, [Action(type=T.DRAW)], events)
        return s2, None

    def _end_turn(self, s: State, events: list[Event], t: Translator) -> State:
        """«✅ Закончить ход»: END_PLACING while placing, then END_TURN."""
        seat, turn_no = s.current, s.turn_no
        s2 = s
        if s2.phase == Phase.PLACING:
            if self._waivable(s2) and not any(a.type == T.END_PLACING for a in self._legal(s2)):
                tiles = self._offer(self._priority_tiles(s2))
                raise Refusal(t("st.refuse.end_priority", tiles=tiles))
            s2 = self._do(s2, [Action(type=T.END_PLACING)], events)
        if s2.phase == Phase.POST_MOVE and s2.current == seat and s2.turn_no == turn_no:
            s2 = self._do(s2, [Action(type=T.END_TURN)], events)
        elif s2 is s:
            raise IllegalAction("wrong_phase")
        return s2

    def _keep_track_menu(self, before: State, after: State, k: int) -> bool:
        """Stay in track k's menu while the same turn can still use it."""
        return (
            after.phase == Phase.PLACING
            and after.current == before.current
            and after.turn_no == before.turn_no
            and k in after.turn.modes
        )

    def _reason(self, s: State, a: Action) -> str | None:
        """The engine's reason why `a` is illegal now, or None."""
        try:
            self.game.apply(s, a)
        except IllegalAction as e:
            return e.code
        return None

    def _need(self, kinds: list[TileKind], t: Translator) -> str:
        names = [t(f"st.tile_name.{k}") for k in kinds]
        return names[0] if len(names) == 1 else t("st.or", a=names[0], b=names[1])

    def _explain_run(self, s: State, k: int, t: Translator) -> None:
        """«▶ Дорожка k» placed nothing: the engine's reason, or the tile that is missing."""
        track = s.tracks[k - 1]
        if track.block is not None:
            white = self._reason(s, Action(type=T.UNBLOCK, kind=TileKind.WHITE, track=k))
            if white == "no_tile":
                universal = Action(type=T.UNBLOCK, kind=TileKind.UNIVERSAL, track=k)
                if self._reason(s, universal) is None:
                    raise Refusal(t("st.refuse.only_universal", k=k))
                raise Refusal(t("st.refuse.need_unblock", k=k))
            raise IllegalAction(white or "malformed")
        colour = expected_colour(k, len(track.slots) + 1)
        code = self._reason(s, Action(type=T.PLACE, kind=colour, track=k))
        if code != "no_tile":
            raise IllegalAction(code or "malformed")
        if self._reason(s, Action(type=T.PLACE, kind=TileKind.UNIVERSAL, track=k)) is None:
            raise Refusal(t("st.refuse.only_universal", k=k))
        white = self._reason(s, Action(type=T.PLACE, kind=TileKind.WHITE, track=k))
        need = [colour] if white == "two_whites" else [colour, TileKind.WHITE]
        raise Refusal(t("st.refuse.need_track", k=k, need=self._need(need, t)))

    def _named(self, s: State, a: Action, events: list[Event], t: Translator) -> State:
        """Apply an exact choice of «⋯ k»; a missing tile is named in the refusal."""
        try:
            return self._do(s, [a], events)
        except IllegalAction as e:
            if e.code != "no_tile":
                raise
            if a.type == T.RECLAIM and a.track is not None and a.slot is not None:
                need = self._need([expected_colour(a.track, a.slot)], t)
                raise Refusal(t("st.refuse.need_reclaim", need=need)) from None
            need = self._need([a.kind or TileKind.WHITE], t)
            raise Refusal(t("st.refuse.need", need=need)) from None

    def _explain_nothing(self, s: State, t: Translator) -> None:
        """Nothing fits and nothing can be drawn: say why, privately."""
        legal = self._legal(s)
        tiles = self._priority_tiles(s)
        if tiles:
            offer = self._offer(tiles)
            if any(a.type == T.END_PLACING for a in legal):
                raise Refusal(t("st.refuse.nothing_fits_end_priority", tiles=offer))
            if any(a.type == T.DRAW for a in legal):
                raise Refusal(t("st.refuse.nothing_fits_draw_priority", tiles=offer))
            raise Refusal(t("st.refuse.nothing_fits_priority", tiles=offer))
        if any(a.type == T.END_PLACING for a in legal):
            raise Refusal(t("st.refuse.nothing_fits_end"))
        if any(a.type == T.WAIVE for a in legal):
            raise Refusal(t("st.refuse.nothing_fits_waive"))
        if s.phase != Phase.PLACING:
            raise IllegalAction("wrong_phase")
        raise Refusal(t("st.refuse.nothing_fits"))
