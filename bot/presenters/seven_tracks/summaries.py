"""«Семидорожник»'s messages that stay in the chat: the round's summary, the final
standings."""

from __future__ import annotations

from collections.abc import Callable

from bot.presenters.base import TableCtx
from bot.presenters.seven_tracks.codes import Ui
from bot.presenters.seven_tracks.common import SevenTracksBase, tiles_text
from games import Event
from games.seven_tracks import State
from games.seven_tracks.events import GameOver, RoundEnded
from games.seven_tracks.model import RoundSummary, TileKind, kind_of
from locales import Translator

# the priority tiles a player can play instead of a move (R49, R66.1): a blocked round in
# which some were left in hand ended by the backstop (R66.2) because nobody played them
PLAYABLE = frozenset(
    {
        TileKind.SKIP,
        TileKind.PREVIOUS,
        TileKind.OPPOSITE,
        TileKind.RESTRICT,
        TileKind.EXCHANGE,
        TileKind.UNIVERSAL,
    }
)


class Summaries(SevenTracksBase):
    # ---------------------------------------------------------------- summaries

    def summaries(self, events: list[Event], s: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        out: list[str] = []

        def name(seat: int) -> str:
            return self.seat_name(c, s, seat)

        for e in events:
            match e.data:
                case RoundEnded(summary=summary, dead=dead):
                    out.append(self._round_text(summary, s, name, t, dead))
                case GameOver():
                    out.append(self._final_text(s, c))
        return out

    def _round_text(
        self,
        summary: RoundSummary,
        s: State,
        name: Callable[[int], str],
        t: Translator,
        dead: bool = False,
    ) -> str:
        lines = [t("st.sum.title", round=summary.round)]
        first = summary.first_out
        if summary.stalled:  # R66: which case, and why priority tiles in hand did not help
            lines.append(t("st.sum.stalled_dead" if dead else "st.sum.stalled_idle"))
            held = {kind_of(x) for hand in summary.hands.values() for x in hand}
            if not dead and held & PLAYABLE:
                lines.append(t("st.sum.stalled_priority"))
        elif first is not None:
            lines.append(t("st.sum.first_out", name=name(first), bonus=s.options.first_out_bonus))
        hands = summary.hands
        lines.append("")
        lines.append(t("st.sum.hands"))
        for seat in sorted(hands):
            tiles = tiles_text([kind_of(x) for x in hands[seat]]) or t("st.sum.empty")
            value = summary.hand_values.get(seat, 0)
            lines.append(t("st.sum.hand_line", name=name(seat), tiles=tiles, value=value))
        lines.append("")
        lines.append(t("st.sum.scores"))
        after = summary.scores_after
        shown = [x for x in after if x in hands]
        bonus = s.options.first_out_bonus
        for seat in sorted(shown, key=lambda x: (after[x], x)):
            b, a = summary.scores_before.get(seat, 0), after[seat]
            value = summary.hand_values.get(seat, 0)
            fields = {"name": name(seat), "before": b, "value": value, "after": a, "bonus": bonus}
            if seat == first and not summary.stalled:
                # the sum a player can follow: before + hand − bonus, floored at 0 (R67)
                floored = b + value - bonus < 0
                key = "st.sum.score_line_floor" if floored else "st.sum.score_line_bonus"
                lines.append(t(key, **fields))
            else:
                lines.append(t("st.sum.score_line", **fields))
        if summary.eliminated and not s.options.single_round:  # one round: the game ends
            lines.append("")
            names = t.listing([name(x) for x in summary.eliminated])
            points = t.plural(s.options.target_score, "unit.point")
            n = len(summary.eliminated)
            lines.append(t("st.sum.eliminated", n=n, names=names, points=points))
        return "\n".join(lines)

    def _final_text(self, s: State, c: TableCtx[Ui]) -> str:
        t = c.t
        res = self.game.result(s)
        lines = [t("st.final.title")]
        for st in res.standings:
            n = c.name(st.player)
            crown = " 🏆" if st.player in res.winners else ""
            score = t.plural(st.score, "unit.point")
            lines.append(t("st.final.line", place=st.place, name=n, score=score) + crown)
        lines.append("")
        lines.append(self._final_note(s, c))
        return "\n".join(lines)

    def _final_note(self, s: State, c: TableCtx[Ui]) -> str:
        """How the game ended and how its places go: fewer points is better (R67, R70,
        R71) — a one-round game ends with its round, however short."""
        t = c.t
        if not s.options.single_round:
            return t("st.final.to_target", points=t.plural(s.options.target_score, "unit.point"))
        last = s.last_round
        if last is not None and not last.stalled and last.out_order:
            note = t("st.final.one_round_out", name=self.seat_name(c, s, last.out_order[0]))
        else:
            note = t("st.final.one_round")
        return note + (t("st.final.left_last") if s.left else "")
