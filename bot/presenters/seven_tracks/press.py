"""«Семидорожник»'s presses: a button resolved against the presser's legal actions, and
the private refusals that say why nothing fits."""

from __future__ import annotations

from typing import Any

from bot.presenters.base import Outcome, Refusal
from bot.presenters.seven_tracks.common import EMOJI, ROLE_ORDER, T
from bot.presenters.seven_tracks.compound import Compound
from bot.presenters.seven_tracks.turns import Turns
from games import Event, IllegalAction
from games.seven_tracks import Action, Phase, State
from games.seven_tracks.model import (
    BLACK,
    EXCHANGE,
    KINDS,
    SHIFTS,
    T7,
    UNIVERSAL,
    WHITE,
    expected_colour,
)
from locales import Translator


class Press(Compound, Turns):
    def press(
        self,
        s: State,
        user: int,
        code: str,
        ui: dict[str, Any],
        t: Translator,
        now: float,
    ) -> Outcome[State, Any]:
        events: list[Event] = []
        ui = dict(ui)
        parts = code.split(".")
        head = parts[0]

        def done(
            new: State, toast: str | None = None, keep_menu: bool = False
        ) -> Outcome[State, Any]:
            if not keep_menu:
                ui.pop("menu", None)
            return Outcome(state=new, events=events, ui=ui, toast=toast)

        def menu(name: str | None) -> Outcome[State, Any]:
            if name is None:
                ui.pop("menu", None)
            else:
                ui["menu"] = name
            return Outcome(state=s, ui=ui, visible=True)

        if s.phase == Phase.FIRST_MOVE:
            if head not in ("fmd", "fmp"):
                raise Refusal(t("press.outdated"))
            return self._fm_choice(s, user, head, ui, t)
        if head in ("fmd", "fmp"):
            raise Refusal(t("st.fm_closed"))
        if head == "noop":
            return Outcome(state=s, ui=ui, changed=False, toast=t("st.noop"))
        if head == "back":
            return menu(None)
        if head == "m" and len(parts) == 2:
            name = parts[1]
            if name in ("pri", "priu") or (name == "fs" and s.phase == Phase.PRE_MOVE):
                return menu(name)
            if name.startswith("t") and name[1:].isdigit() and s.phase == Phase.PLACING:
                k = int(name[1:])
                if k in s.turn.modes:
                    return menu(name)
            raise Refusal(t("press.outdated"))
        if head in ("cd1", "cd2"):
            n = 1 if head == "cd1" else 2
            s2 = self._do(s, [Action(type=T.CHOOSE_DICE, n=n)], events)
            dice = " ".join(f"[{d}]" for d in s2.turn.dice)
            return done(s2, t("st.toast.rolled", dice=dice) if s2.turn.dice else None)
        if head == "all":
            turn_key = self.turn_id(s)
            offer = ui.get("offered") != turn_key  # the priority offer, once a turn
            s2, n, drawn = self._place_all(s, events, offer)
            stopped = (
                offer
                and self._still_mine(s2, s.current, s.turn_no)
                and s2.turn.draws == 0
                and self._waivable(s2)
            )
            if stopped:
                ui["offered"] = turn_key
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
            return done(s2, toast)
        if head.startswith("run") and head[3:].isdigit():
            k = int(head[3:])
            if k not in s.turn.modes or k == T7:
                raise IllegalAction("track_unavailable")
            s2, n = self._run(s, k, events)
            if n == 0 and not any(a.type in (T.DRAW, T.END_PLACING) for a in self._legal(s)):
                # the universal as a white only when he must place and nothing else fits
                s2, n = self._run(s, k, events, universal=True)
            if n == 0:
                self._explain_run(s, k, t)
            return done(s2, t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile")))
        if head == "t7all":
            s2, n = self._run_t7(s, events)
            if n == 0:
                if not s.turn.is_double:
                    raise IllegalAction("not_double")
                raise Refusal(t("st.refuse.nothing_for_centre"))
            return done(s2, t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile")))
        if head == "t7" and len(parts) == 2:
            return done(self._named(s, Action(type=T.PLACE_T7, kind=parts[1]), events, t))
        if head in ("pl", "bl", "ub", "rc") and len(parts) == 3 and parts[1].isdigit():
            k = int(parts[1])
            arg = parts[2]
            if head == "pl":
                if arg == "c":
                    if not 1 <= k <= 6:
                        raise IllegalAction("track_unavailable")
                    arg = expected_colour(k, len(s.tracks[k - 1].slots) + 1)
                a = Action(type=T.PLACE, kind=arg, track=k)
            elif head == "bl":
                a = Action(type=T.BLOCK, kind=arg, track=k)
            elif head == "ub":
                a = Action(type=T.UNBLOCK, kind=arg, track=k)
            else:
                if not arg.isdigit():
                    raise Refusal(t("press.outdated"))
                a = Action(type=T.RECLAIM, track=k, slot=int(arg))
            s2 = self._named(s, a, events, t)
            return done(s2, keep_menu=self._keep_track_menu(s, s2, k))
        if head == "tb" and len(parts) == 2:
            return done(self._do(s, [Action(type=T.TAKE_BONUS, kind=parts[1])], events))
        if head == "db":
            return done(self._named(s, Action(type=T.DISCARD_BLACK, kind=BLACK), events, t))
        if head == "dr":
            if self._waivable(s):
                # R48: one tile at a time, so that he can stop and play his priority tile
                s2 = self._do(s, [Action(type=T.DRAW)], events)
                note = None
                if self._still_mine(s2, s.current, s.turn_no) and self._waivable(s2):
                    more = any(a.type == T.DRAW for a in self._legal(s2))
                    key = "st.toast.drew_one" if more else "st.toast.drew_one_last"
                    note = t(key, tiles=self._offer(self._priority_tiles(s2)))
                return done(s2, note)
            s2, n = self._draw_until(s, events)
            if n == 0:
                self._do(s, [Action(type=T.DRAW)], events)
            return done(s2)
        if head == "end":
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
            return done(s2)
        if head in ("im", "am", "imu", "amu") and len(parts) in (2, 3):
            role = parts[1]
            if role not in ROLE_ORDER:
                raise Refusal(t("press.outdated"))
            target = int(parts[2]) if len(parts) == 3 and parts[2].isdigit() else None
            base = head[:2]

            def roles(universal: bool) -> list[Action]:
                return self._priority_options(s, base, role, target, universal)

            universal = head.endswith("u")
            return done(self._spend(s, roles, universal, role, events, t, base == "am"))
        if head in ("xb", "xbu"):

            def exchange(universal: bool) -> list[Action]:
                kind = UNIVERSAL if universal else EXCHANGE
                return [
                    Action(type=T.EXCHANGE_BEGIN, kind=kind, role=EXCHANGE),
                    Action(type=T.WAIVE, kind=kind, role=EXCHANGE),
                ]

            return done(self._spend(s, exchange, head == "xbu", EXCHANGE, events, t, True))
        if head == "xa" and len(parts) == 2 and parts[1] in KINDS:
            n = (len(s.exchange.selection) + 1) if s.exchange else 0
            s2 = self._do(s, [Action(type=T.EXCHANGE_ADD, kind=parts[1])], events)
            return done(s2, t("st.toast.exchange_added", emoji=EMOJI[parts[1]], n=n))
        if head == "xc":
            return done(self._do(s, [Action(type=T.EXCHANGE_CONFIRM)], events))
        if head == "fs" and len(parts) == 2:
            s2 = self._do(s, [Action(type=T.FIFTH_SWAP, kind=parts[1])], events)
            return done(s2, keep_menu=s2.phase == Phase.PRE_MOVE)
        if head == "cr":
            return done(self._do(s, [Action(type=T.CANCEL_RESTRICTION, kind=UNIVERSAL)], events))
        if head in ("sh", "shu") and len(parts) == 3 and parts[1].isdigit() and parts[2] in SHIFTS:
            die, shift = int(parts[1]), parts[2]

            def shifts(universal: bool) -> list[Action]:
                kind = UNIVERSAL if universal else shift
                return [Action(type=T.SHIFT, kind=kind, role=shift, die=die)]

            return done(self._spend(s, shifts, head == "shu", shift, events, t))
        raise Refusal(t("press.outdated"))

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

    def _need(self, kinds: list[str], t: Translator) -> str:
        names = [t(f"st.tile_name.{k}") for k in kinds]
        return names[0] if len(names) == 1 else t("st.or", a=names[0], b=names[1])

    def _explain_run(self, s: State, k: int, t: Translator) -> None:
        """«▶ Дорожка k» placed nothing: the engine's reason, or the tile that is missing."""
        track = s.tracks[k - 1]
        if track.block is not None:
            white = self._reason(s, Action(type=T.UNBLOCK, kind=WHITE, track=k))
            if white == "no_tile":
                if self._reason(s, Action(type=T.UNBLOCK, kind=UNIVERSAL, track=k)) is None:
                    raise Refusal(t("st.refuse.only_universal", k=k))
                raise Refusal(t("st.refuse.need_unblock", k=k))
            raise IllegalAction(white or "malformed")
        colour = expected_colour(k, len(track.slots) + 1)
        code = self._reason(s, Action(type=T.PLACE, kind=colour, track=k))
        if code != "no_tile":
            raise IllegalAction(code or "malformed")
        if self._reason(s, Action(type=T.PLACE, kind=UNIVERSAL, track=k)) is None:
            raise Refusal(t("st.refuse.only_universal", k=k))
        white = self._reason(s, Action(type=T.PLACE, kind=WHITE, track=k))
        need = [colour] if white == "two_whites" else [colour, WHITE]
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
            raise Refusal(t("st.refuse.need", need=self._need([a.kind or WHITE], t))) from None

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
