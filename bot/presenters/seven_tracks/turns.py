"""«Семидорожник»'s first-move window at the table, and the table after what the bot
plays by itself.

The window is the engine's simultaneous decision (R58): the bot gives it its short timer
and, when it runs out, passes everyone still silent (`timeout_turn`); a player for whom
it is no choice is passed at once, and a turn in which nothing can be done after the
roll is ended (R66) — the engine's `forced` actions, played by `advance`.
"""

from __future__ import annotations

from bot.presenters.base import Outcome, Refusal, TableCtx
from bot.presenters.seven_tracks.codes import Ui
from bot.presenters.seven_tracks.common import SevenTracksBase, T
from games import IllegalAction
from games.seven_tracks import Action, State, Status
from games.seven_tracks.model import TileKind, kind_of
from locales import Translator


class Turns(SevenTracksBase):
    def _fm_choice(self, s: State, user: int, declare: bool, t: Translator) -> Outcome[State, Ui]:
        """His answer in the first-move window, applied at once with his seat (R58: all
        answer at the same time). The table is not redrawn until the window closes."""
        seat = s.players.index(user)
        if s.status[seat] != Status.ACTIVE:
            raise Refusal(t("st.fm_not_active"))
        kinds = {kind_of(x) for x in s.hands[seat]}
        if TileKind.FIRST_MOVE not in kinds and TileKind.UNIVERSAL not in kinds:
            # Nothing to declare (and passed as the window opened: `forced`): the same
            # answer all through the window, which tells him nothing about the others.
            if declare:
                raise Refusal(t("st.fm_nothing"))
            return Outcome(state=s, toast=t("st.fm_passed_toast"), changed=False)
        legal = self.game.legal_actions_for(s, user)
        if not legal:
            if TileKind.FIRST_MOVE not in kinds and s.fm_u_declarer not in (None, seat):
                # another declared his universal first, and he was passed (`forced`)
                if declare:
                    raise IllegalAction("fm_u_taken")
                return Outcome(state=s, toast=t("st.fm_passed_toast"), changed=False)
            raise Refusal(t("error.fm_answered"))
        if declare:
            kind = TileKind.FIRST_MOVE if TileKind.FIRST_MOVE in kinds else TileKind.UNIVERSAL
            action = Action(type=T.FM_DECLARE, kind=kind, seat=seat)
            toast = t(
                "st.fm_declared_toast" if kind == TileKind.FIRST_MOVE else "st.fm_declared_u_toast"
            )
        else:
            action = Action(type=T.FM_PASS, seat=seat)
            toast = t("st.fm_passed_toast")
        new, events = self.game.apply(s, action)  # the engine's reason: `fm_u_taken`
        return Outcome(state=new, events=events, toast=toast, visible=False)

    def advance(self, state: State, c: TableCtx[Ui]) -> Outcome[State, Ui]:
        """The engine's formalities (`forced`); an open menu closes when the bot played."""
        out = super().advance(state, c)
        if out.events:
            out.ui = c.ui.closed()
        return out
