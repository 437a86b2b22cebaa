"""«Семидорожник»'s narration: the caption's log lines for the events, and the private
notes."""

from __future__ import annotations

from collections.abc import Callable

from bot.presenters.base import TableCtx
from bot.presenters.seven_tracks.codes import Ui
from bot.presenters.seven_tracks.common import EMOJI, SevenTracksBase, T, tiles_text
from games import Event
from games.automation import FORCED
from games.seven_tracks import State
from games.seven_tracks.model import kind_of
from locales import Translator

Who = Callable[[int | None], str]  # a seat's name as shown


class Narration(SevenTracksBase):
    # ---------------------------------------------------------------- narration

    def narrate(self, events: list[Event], state: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        lines: list[str] = []

        def who(seat: int | None) -> str:
            return self.seat_name(c, state, seat)

        pending: list[tuple[int | None, str, list[str]]] = []  # grouped placements

        def flush() -> None:
            for seat, where, kinds in pending:
                if where == "drew":
                    n = len(kinds)
                    lines.append(t("st.ev.drew", name=who(seat), n=n))
                    continue
                lines.append(t("st.ev.placed", name=who(seat), where=where, tiles="".join(kinds)))
            pending.clear()

        ended = False  # the turn the bot just ended: its `placing_ended` is not told
        for e in events:
            if e.private_to is not None:
                continue
            if e.type == "placing_ended" and ended:
                ended = False
                continue
            ended = e.type == FORCED and self._forced(e) == T.END_PLACING
            d = e.data
            if e.type == "drew":
                if pending and pending[-1][0] == e.seat and pending[-1][1] == "drew":
                    pending[-1][2].append("")
                else:
                    flush()
                    pending.append((e.seat, "drew", [""]))
                continue
            if e.type in ("placed", "placed_t7"):
                where = (
                    t("st.where.track", k=d.get("track"))
                    if e.type == "placed"
                    else t("st.where.centre")
                )
                emoji = EMOJI.get(str(d.get("kind")), "?")
                if pending and pending[-1][0] == e.seat and pending[-1][1] == where:
                    pending[-1][2].append(emoji)
                else:
                    flush()
                    pending.append((e.seat, where, [emoji]))
                continue
            flush()
            line = self._event_line(e, who, t)
            if line:
                lines.append(line)
        flush()
        return lines

    def _forced(self, e: Event) -> T:
        """The type of the action a `forced` event announces."""
        return self.game.decode_action(str(e.data.get("action"))).type

    def _event_line(self, e: Event, who: Who, t: Translator) -> str | None:
        d = e.data
        name = who(e.seat)
        match e.type:
            case "rolled":
                dice = " ".join(f"[{x}]" for x in d.get("dice", []))
                extra = t("st.ev.double") if d.get("double") else ""
                return t("st.ev.rolled", name=name, dice=dice) + extra
            case "dice_off":
                rolls = d.get("rolls", {})
                parts = [f"{who(int(seat))} {v}" for seat, v in rolls.items()]
                return t("st.ev.dice_off", rolls=", ".join(parts))
            case "fm_declared":
                return t("st.ev.fm_declared", name=name, tile=EMOJI.get(str(d.get("kind")), ""))
            case "first_move":
                return t("st.ev.first_move", name=name)
            case "track_completed":
                return t("st.ev.track_completed", name=name, k=d.get("track"))
            case "t7_completed":
                return t("st.ev.t7_completed", name=name)
            case "blocked":
                return t(
                    "st.ev.blocked",
                    name=name,
                    k=d.get("track"),
                    tile=EMOJI.get(str(d.get("kind")), ""),
                )
            case "unblocked":
                return t(
                    "st.ev.unblocked",
                    name=name,
                    k=d.get("track"),
                    tile=EMOJI.get(str(d.get("kind")), ""),
                )
            case "reclaimed":
                return t("st.ev.reclaimed", name=name, k=d.get("track"), slot=d.get("slot"))
            case "bonus_taken":
                return t("st.ev.bonus_taken", name=name, tile=EMOJI.get(str(d.get("kind")), ""))
            case "black_discarded":
                return t("st.ev.black_discarded", name=name)
            case "fm_discarded":
                return t("st.ev.fm_discarded", name=name)
            case "fifth_swap":
                return t("st.ev.fifth_swap", name=name, tile=EMOJI.get(str(d.get("kind")), ""))
            case "exchange_started":
                return t("st.ev.exchange_started", name=name)
            case "priority_used":
                return self._priority_line(e, name, who, t)
            case "went_out":
                key = "st.ev.went_out_first" if d.get("first") else "st.ev.went_out"
                return t(key, name=name)
            case "final_turns":
                return t("st.ev.final_turns", n=d.get("count", 1))
            case "player_left":
                return t("st.ev.player_left", name=name)
            case "placing_ended":
                return None if d.get("obligation_met") else t("st.ev.passed", name=name)
            case "forced" if self._forced(e) == T.END_PLACING:  # R66: a dead turn, ended
                return t("st.ev.turn_auto_ended", name=name)
            case "round_ended":
                return t("st.ev.round_ended")
        return None

    def _priority_line(self, e: Event, name: str, who: Who, t: Translator) -> str:
        d = e.data
        kind = str(d.get("kind"))
        role = str(d.get("role") or kind)
        use = str(d.get("use"))
        tile = EMOJI.get(kind, "")
        role_text = t(f"st.role.{role}") if t.has(f"st.role.{role}") else role
        if use == "shift":
            return t(
                "st.ev.shift", name=name, tile=tile, src=d.get("track_from"), dst=d.get("track_to")
            )
        if use == "exchange":
            return t("st.ev.exchange", name=name, tile=tile, n=d.get("size", 0))
        if use == "cancel":
            return t("st.ev.cancel", name=name)
        target = d.get("target")
        suffix = t("st.ev.target", name=who(int(target))) if target is not None else ""
        return t(f"st.ev.use_{use}", name=name, tile=tile, role=role_text) + suffix

    def private_notes(
        self, events: list[Event], state: State, user: int, t: Translator
    ) -> list[str]:
        players = list(state.players)
        if user not in players:
            return []
        seat = players.index(user)
        drawn = [
            kind_of(str(e.data.get("tile")))
            for e in events
            if e.type == "drew_tile" and e.private_to == seat
        ]
        if not drawn:
            return []
        return [t("st.toast.drew", tiles=tiles_text(drawn))]
