"""«Семидорожник»'s messages that stay in the chat: the round's summary, the final
standings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.presenters.base import TableCtx
from bot.presenters.seven_tracks.codes import Ui
from bot.presenters.seven_tracks.common import SevenTracksBase, tiles_text
from games import Event
from games.seven_tracks import State
from games.seven_tracks.model import kind_of
from locales import Translator


class Summaries(SevenTracksBase):
    # ---------------------------------------------------------------- summaries

    def summaries(self, events: list[Event], s: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        out: list[str] = []

        def name(seat: int) -> str:
            return self.seat_name(c, s, seat)

        for e in events:
            if e.type == "round_ended":
                out.append(self._round_text(e.data.get("summary") or {}, s, name, t))
            elif e.type == "game_over":
                out.append(self._final_text(s, c))
        return out

    def _round_text(
        self, summary: dict[str, Any], s: State, name: Callable[[int], str], t: Translator
    ) -> str:
        lines = [t("st.sum.title", round=summary.get("round", s.round_no))]
        first = summary.get("first_out")
        if summary.get("stalled"):
            lines.append(t("st.sum.stalled"))
        elif first is not None:
            lines.append(
                t("st.sum.first_out", name=name(int(first)), bonus=s.options.first_out_bonus)
            )
        hands: dict[Any, list[str]] = summary.get("hands") or {}
        values: dict[Any, int] = summary.get("hand_values") or {}
        before: dict[Any, int] = summary.get("scores_before") or {}
        after: dict[Any, int] = summary.get("scores_after") or {}
        lines.append("")
        lines.append(t("st.sum.hands"))
        for seat_key in sorted(hands, key=lambda x: int(x)):
            seat = int(seat_key)
            tiles = tiles_text([kind_of(x) for x in hands[seat_key]]) or t("st.sum.empty")
            lines.append(
                t("st.sum.hand_line", name=name(seat), tiles=tiles, value=values.get(seat_key, 0))
            )
        lines.append("")
        lines.append(t("st.sum.scores"))
        shown = [x for x in after if x in hands or str(x) in hands or int(x) in hands]
        bonus = s.options.first_out_bonus
        for seat_key in sorted(shown, key=lambda x: (int(after[x]), int(x))):
            seat = int(seat_key)
            b, a = int(before.get(seat_key, 0)), int(after[seat_key])
            value = int(values.get(seat_key, 0))
            fields = {"name": name(seat), "before": b, "value": value, "after": a, "bonus": bonus}
            if first is not None and seat == int(first) and not summary.get("stalled"):
                # the sum a player can follow: before + hand − bonus, floored at 0 (R67)
                floored = b + value - bonus < 0
                key = "st.sum.score_line_floor" if floored else "st.sum.score_line_bonus"
                lines.append(t(key, **fields))
            else:
                lines.append(t("st.sum.score_line", **fields))
        eliminated = [int(x) for x in summary.get("eliminated") or []]
        if eliminated:
            lines.append("")
            lines.append(t("st.sum.eliminated", names=", ".join(name(x) for x in eliminated)))
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
