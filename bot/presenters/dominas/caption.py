"""«ДОМИНА*С»'s caption: the match, the figure's open nests, whose turn and how he moves,
the number or the nest chosen."""

from __future__ import annotations

from bot.presenters.base import TableCtx
from bot.presenters.dominas.common import DominasBase, Ui, team_mark
from games.dominas import Mode, Phase, State
from games.dominas.model import BonusKind


class Caption(DominasBase):
    # ---------------------------------------------------------------- caption

    def caption(self, s: State, c: TableCtx[Ui]) -> str:
        t, log = c.t, c.log
        v = self.game.view(s, None)
        mode = t("dom.mode.teams") if v.mode is Mode.TEAMS else t("dom.mode.solo")
        lines = [t("dom.header", game=v.game_no, games=v.match_games, mode=mode)]
        if v.phase is Phase.OVER:
            if v.mode is Mode.TEAMS:
                sides = sorted({v.players[x].side for x in v.winners})
                won = ", ".join(t("dom.team", team=team_mark(x, t)) for x in sides)
            else:
                won = ", ".join(self._name(c, v, x) for x in v.winners)
            lines.append(t("dom.phase.over", names=won or "—"))
        else:
            who = self._name(c, v, v.current)
            hand = v.players[v.current].hand_count if v.current is not None else 0
            if v.bonus is not None:
                b = v.bonus
                if b.kind is BonusKind.KOLOBOK:
                    lines.append(t("dom.phase.kolobok", name=who, n=hand))
                else:
                    lines.append(t("dom.phase.sum", name=who, n=hand, left=b.left, sum=b.target))
            elif not v.figure:
                lines.append(t("dom.phase.first", name=who, n=hand))
            else:
                lines.append(t("dom.phase.play", name=who, n=hand))
            lines.append(t("dom.table", bazaar=v.bazaar_size, floor=v.floor))
            chosen = self._selected(c.ui, s)
            spot = self._spot(c.ui, s)
            if chosen is not None:
                lines.append(t("dom.chosen", name=who, k=chosen))
            elif spot is not None:
                nest = next(n for n in v.nests if n.pos is spot[0])
                label = self._nest_label(nest.pos, nest.symbol, spot[1], t)
                lines.append(t("dom.chosen_nest", name=who, nest=label))
        if log:
            lines.append("")
            lines.extend(log[-3:])
        lines.append("")
        for p in v.players:
            mark = "▶ " if p.seat == v.current and v.phase is not Phase.OVER else ""
            team = f"[{team_mark(p.side, t)}] " if v.mode is Mode.TEAMS else ""
            name = self._name(c, v, p.seat)
            if not p.present:
                lines.append(t("dom.player_left", mark=mark, team=team, name=name))
                continue
            drawn = t("dom.drawn", n=p.drawn) if p.drawn else ""
            points = (
                "" if v.mode is Mode.TEAMS else " · " + t.plural(v.totals[p.side], "unit.point")
            )
            lines.append(
                t(
                    "dom.player",
                    mark=mark,
                    team=team,
                    name=name,
                    tiles=t.plural(p.hand_count, "unit.tile"),
                    drawn=drawn,
                    points=points,
                )
            )
        if v.mode is Mode.TEAMS:
            lines.append(
                t(
                    "dom.team_points",
                    a=t.plural(v.totals[0], "unit.point"),
                    b=t.plural(v.totals[1] if len(v.totals) > 1 else 0, "unit.point"),
                )
            )
        return "\n".join(lines)
