"""«Семидорожник»'s caption: the phase, whose turn, the open menu."""

from __future__ import annotations

from bot.presenters.base import TableCtx
from bot.presenters.seven_tracks.codes import Ui
from bot.presenters.seven_tracks.common import SevenTracksBase, tiles_text
from games.seven_tracks import Phase, State, Status
from games.seven_tracks.model import T7, kind_of
from locales import Translator


class Caption(SevenTracksBase):
    # ---------------------------------------------------------------- caption

    def caption(self, s: State, c: TableCtx[Ui]) -> str:
        t, log = c.t, c.log
        v = self.game.view(s, None)  # in the first-move window it names nobody
        length = t("st.len_one_round") if v.single_round else t("st.len_target", n=v.target_score)
        lines = [t("st.header", round=v.round_no, length=length)]
        who = self.seat_name(c, s, v.current)
        turn = v.turn
        if v.phase == Phase.FIRST_MOVE:
            seconds = max(1, round(self.first_move_seconds))
            lines.append(t("st.phase.first_move", seconds=seconds))
        elif v.phase == Phase.PRE_MOVE:
            lines.append(t("st.phase.pre_move", name=who))
        elif v.phase == Phase.PLACING:
            lines.append(t("st.phase.placing", name=who))
        elif v.phase == Phase.POST_MOVE:
            lines.append(t("st.phase.post_move", name=who))
        elif v.phase == Phase.EXCHANGE:
            lines.append(t("st.phase.exchange", name=who, n=v.exchange_size or 0))
        elif v.phase == Phase.GAME_OVER:
            winners = ", ".join(c.name(w) for w in v.winners)
            lines.append(t("st.phase.game_over", names=winners or "—"))
        if v.phase in (Phase.PLACING, Phase.POST_MOVE, Phase.EXCHANGE) and turn.dice:
            dice = " ".join(f"[{d}]" for d in turn.dice)
            where = ", ".join(str(k) for k in sorted(turn.modes) if k != T7)
            if turn.is_double:
                where += t("st.and_centre")
            draws, most = turn.draws, s.options.max_draws
            lines.append(t("st.dice", dice=dice, tracks=where or "—", draws=draws, max=most))
        if v.phase not in (Phase.FIRST_MOVE, Phase.GAME_OVER):
            lines += self._menu_title(c.ui, t)
        if turn.restricted or v.restricted_left:
            lines.append(t("st.restricted", n=v.restricted_left))
        if turn.final or v.final_left:
            lines.append(t("st.final", n=v.final_left))
        store = tiles_text([kind_of(x) for x in v.store])
        lines.append(t("st.bank", n=v.bank_size, store=store or "—"))
        if log:
            lines.append("")
            lines.extend(log[-3:])
        lines.append("")
        for p in v.players:
            name = c.name(p.player)
            mark = "▶ " if p.seat == v.current and v.phase != Phase.GAME_OVER else ""
            if p.status == Status.ELIMINATED:
                status = t("st.status.eliminated")
            elif p.status == Status.OUT:
                status = t("st.status.out")
            else:
                status = t("st.tiles", n=p.hand_count)
            score = t.plural(p.score, "unit.point")
            lines.append(t("st.player", mark=mark, name=name, status=status, score=score))
        return "\n".join(lines)

    def _menu_title(self, ui: Ui, t: Translator) -> list[str]:
        """The open menu's title line (none without a menu)."""
        if ui.track == T7:
            return [t("st.menu.centre")]
        if ui.track is not None:
            return [t("st.menu.track", k=ui.track)]
        return [t(f"st.menu.{ui.menu.value}")] if ui.menu else []
