"""«Семидорожник»'s moves made by the bot: the turn timer, the first-move window, the
turns passed or ended for a player who cannot act (R66)."""

from __future__ import annotations

from typing import Any

from bot.presenters.base import Outcome, Refusal
from bot.presenters.seven_tracks.common import MAX_STEPS, SevenTracksBase, T
from games import Event, IllegalAction
from games.seven_tracks import Action, Phase, State, Status
from games.seven_tracks.engine import turn_is_dead
from games.seven_tracks.model import FIRST_MOVE, UNIVERSAL, kind_of
from locales import Translator


class Turns(SevenTracksBase):
    # ---------------------------------------------------------------- turn timer

    def turn_id(self, s: State) -> str | None:
        if s.phase in (Phase.FIRST_MOVE, Phase.GAME_OVER):
            return None  # the first-move window has its own short timer
        return f"{s.cycle_no}:{s.round_no}:{s.turn_no}"

    def timeout_move(self, state: State, user: int) -> Outcome[State, Any]:
        """An absent player's turn, played by the engine's timeout policy (the novice, from
        his view): two dice, place what fits, draw if he must, finish; no priority tile is
        ever spent for him."""
        s = state
        events: list[Event] = []
        seat, turn_no = s.current, s.turn_no
        for _ in range(4 * MAX_STEPS):
            if s.current != seat or s.turn_no != turn_no or s.phase == Phase.GAME_OVER:
                break
            s, ev = self.game.timeout(s)
            events.extend(ev)
        return Outcome(state=s, events=events)

    # ---------------------------------------------------------------- first move window

    def _fm_choice(
        self, s: State, user: int, head: str, ui: dict[str, Any], t: Translator
    ) -> Outcome[State, Any]:
        """His answer in the first-move window, applied at once with his seat (R58: all
        answer at the same time). The table is not redrawn until the window closes."""
        seat = s.players.index(user)
        if s.status[seat] != Status.ACTIVE:
            raise Refusal(t("st.fm_not_active"))
        kinds = {kind_of(x) for x in s.hands[seat]}
        if FIRST_MOVE not in kinds and UNIVERSAL not in kinds:
            # Nothing to declare (and passed as the window opened, `advance`): the same
            # answer all through the window, which tells him nothing about the others.
            if head == "fmd":
                raise Refusal(t("st.fm_nothing"))
            return Outcome(state=s, ui=ui, toast=t("st.fm_passed_toast"), changed=False)
        legal = self.game.legal_actions_for(s, user)
        if not legal:
            if FIRST_MOVE not in kinds and s.fm_u_declarer not in (None, seat):
                # another declared his universal first, and he was passed (`advance`)
                if head == "fmd":
                    raise IllegalAction("fm_u_taken")
                return Outcome(state=s, ui=ui, toast=t("st.fm_passed_toast"), changed=False)
            raise Refusal(t("error.fm_answered"))
        if head == "fmd":
            kind = FIRST_MOVE if FIRST_MOVE in kinds else UNIVERSAL
            action = Action(type=T.FM_DECLARE, kind=kind, seat=seat)
            toast = t("st.fm_declared_toast" if kind == FIRST_MOVE else "st.fm_declared_u_toast")
        else:
            action = Action(type=T.FM_PASS, seat=seat)
            toast = t("st.fm_passed_toast")
        new, events = self.game.apply(s, action)  # the engine's reason: `fm_u_taken`
        return Outcome(state=new, events=events, ui=ui, toast=toast, visible=False)

    def _old_choices(self, s: State, ui: dict[str, Any], events: list[Event]) -> State:
        """A window stored before 2026-12 kept the answers not yet applied in the ui
        (`choices`: user → "D" or "P"): they are applied now, with their seats."""
        window = ui.get("fm") or {}
        choices = window.get("choices")
        if not choices:
            return s
        ui["fm"] = {k: v for k, v in window.items() if k != "choices"}
        for user in self.game.deciders(s):
            legal = self.game.legal_actions_for(s, user)
            choice = choices.get(str(user))
            wanted = [a for a in legal if a.type == (T.FM_DECLARE if choice == "D" else T.FM_PASS)]
            if choice in ("D", "P") and wanted and s.phase == Phase.FIRST_MOVE:
                s, ev = self.game.apply(s, wanted[0])
                events.extend(ev)
        return s

    def _pass_the_empty_handed(self, s: State, events: list[Event]) -> State:
        """Everyone still to answer whose only answer is FM_PASS (no FM, and no U or one
        already declared) passes: nobody waits for an answer that is no choice."""
        for user in self.game.deciders(s):
            legal = self.game.legal_actions_for(s, user)
            if s.phase == Phase.FIRST_MOVE and [a.type for a in legal] == [T.FM_PASS]:
                s, ev = self.game.apply(s, legal[0])
                events.extend(ev)
        return s

    def _end_dead_turn(self, s: State, events: list[Event]) -> State:
        """R66 (revised 2026-12): after his roll the player can place nothing, cannot draw
        and can use no priority tile, so END_PLACING and END_TURN are all he can do: the
        bot plays them and the table says so in one line (`turn_auto_ended`)."""
        if not turn_is_dead(s):
            return s
        seat = s.current
        s2, ended = self.game.apply(s, Action(type=T.END_PLACING))
        s3, turned = self.game.apply(s2, Action(type=T.END_TURN))
        events.append(Event(type="turn_auto_ended", seat=seat))
        events.extend(e for e in [*ended, *turned] if e.type != "placing_ended")
        return s3

    def advance(self, state: State, ui: dict[str, Any], now: float) -> Outcome[State, Any]:
        s = state
        ui = dict(ui)
        events: list[Event] = []
        before = s
        s = self._end_dead_turn(s, events)
        changed = s is not before
        for _ in range(MAX_STEPS):  # a round may end in its window (R63): a new one opens
            if s.phase != Phase.FIRST_MOVE:
                break
            key = [s.round_no, s.cycle_no, s.turn_no]
            window = ui.get("fm") or {}
            if window.get("round") != key or "deadline" not in window:
                ui["fm"] = {"round": key, "deadline": now + self.first_move_seconds}
                changed = True
            before = s
            s = self._old_choices(s, ui, events)
            s = self._pass_the_empty_handed(s, events)
            if s.phase == Phase.FIRST_MOVE and now >= float(ui["fm"]["deadline"]):
                s, ev = self.game.timeout(s)  # everyone still to answer passes (R58)
                events.extend(ev)
            if s is before:
                break
            changed = True
        deadline = None
        if s.phase == Phase.FIRST_MOVE:
            deadline = float((ui.get("fm") or {}).get("deadline") or now)
        else:
            ui.pop("fm", None)
        if events:
            ui.pop("menu", None)
        return Outcome(state=s, events=events, ui=ui, deadline=deadline, changed=changed)
