"""«ДОМИНА*С»'s messages that stay in the chat: a game's result, the match's final standings."""

from __future__ import annotations

from bot.presenters.base import TableCtx
from bot.presenters.dominas.common import DominasBase, Ui
from games import Event
from games.dominas import Mode, State
from games.dominas.events import GameEnd, GameOver, MatchOver, TilePlaced


class Summaries(DominasBase):
    # ---------------------------------------------------------------- summaries

    def summaries(self, events: list[Event], s: State, c: TableCtx[Ui]) -> list[str]:
        out: list[str] = []
        last_seat: int | None = None
        for e in events:
            match e.data:
                case TilePlaced():
                    last_seat = e.seat
                case GameOver() as over:
                    out.append(self._game_text(over, s, c, last_seat))
                case MatchOver():
                    text = self._final_text(s, c)
                    if out:
                        out[-1] += "\n\n" + text
                    else:
                        out.append(text)
        return out

    def _sides(self, s: State) -> list[int]:
        return sorted(set(s.side_of))

    def _game_text(
        self,
        d: GameOver,
        s: State,
        c: TableCtx[Ui],
        last_seat: int | None = None,
    ) -> str:
        t = c.t
        winner = d.winner_side
        lines = [t("dom.sum.title", game=d.game)]
        if d.reason is GameEnd.WIN and winner is not None:
            if s.options.mode is Mode.TEAMS and last_seat is not None:
                team = self._side_name(c, s, winner)
                who = self._name(c, s, last_seat)
                lines.append(t("dom.sum.win_team", team=team, name=who))
            else:
                lines.append(t("dom.sum.win", name=self._side_name(c, s, winner)))
        elif d.reason is GameEnd.FISH:
            lines.append(t("dom.sum.fish"))
        else:
            lines.append(t("dom.sum.abandoned"))
        tiles, scores, totals = d.tiles, d.scores, d.totals
        lines.append("")
        for side in self._sides(s):
            if side >= len(scores):
                continue
            who = self._side_name(c, s, side)
            if s.options.mode is Mode.TEAMS:
                members = ", ".join(
                    self._name(c, s, x) for x in range(len(s.players)) if s.side_of[x] == side
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

    def _final_text(self, s: State, c: TableCtx[Ui]) -> str:
        t = c.t
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
                    self._name(c, s, x) for x in range(len(s.players)) if s.side_of[x] == side
                )
                name = f"{self._side_name(c, s, side)} ({members})"
                crown = " 🏆" if st.player in res.winners else ""
                points = t.plural(st.score, "unit.point")
                lines.append(t("dom.final.line", place=st.place, name=name, points=points) + crown)
            return "\n".join(lines)
        for st in res.standings:
            name = c.name(st.player)
            crown = " 🏆" if st.player in res.winners else ""
            points = t.plural(st.score, "unit.point")
            lines.append(t("dom.final.line", place=st.place, name=name, points=points) + crown)
        return "\n".join(lines)
