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
from games.seven_tracks.model import RoundSummary, kind_of
from locales import Translator


class Summaries(SevenTracksBase):
    # ---------------------------------------------------------------- summaries

    def summaries(self, events: list[Event], s: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        out: list[str] = []

        def name(seat: int) -> str:
            return self.seat_name(c, s, seat)

        for e in events:
            match e.data:
                case RoundEnded(summary=summary):
                    out.append(self._round_text(summary, s, name, t))
                case GameOver():
                    out.append(self._final_text(s, c))
        return out

    def _round_text(
        self, summary: RoundSummary, s: State, name: Callable[[int], str], t: Translator
    ) -> str:
        lines = [t("st.sum.title", round=summary.round)]
        first = summary.first_out
        if summary.stalled:
            lines.append(t("st.sum.stalled"))
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
        if summary.eliminated:
            lines.append("")
            names = ", ".join(name(x) for x in summary.eliminated)
            lines.append(t("st.sum.eliminated", names=names))
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
        return "\n".join(lines)
