"""«Семидорожник»'s narration: the caption's log lines for the events, and the private
notes."""

from __future__ import annotations

from collections.abc import Callable

from bot.presenters.base import TableCtx
from bot.presenters.seven_tracks.codes import Ui
from bot.presenters.seven_tracks.common import EMOJI, SevenTracksBase, T, tiles_text
from games import Event
from games.automation import Forced
from games.seven_tracks import State
from games.seven_tracks.events import (
    BlackDiscarded,
    Blocked,
    BonusTaken,
    DiceOff,
    Drew,
    DrewTile,
    ExchangeStarted,
    FifthSwap,
    FinalTurns,
    FirstMove,
    FmDeclared,
    FmDiscarded,
    Placed,
    PlacedT7,
    PlacingEnded,
    PlayerLeft,
    PriorityUse,
    PriorityUsed,
    Reclaimed,
    Rolled,
    RoundEnded,
    T7Completed,
    TrackCompleted,
    Unblocked,
    WentOut,
)
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

        def group(seat: int | None, where: str, mark: str) -> None:
            """One more tile in a run of the same player's on the same track (or draws)."""
            if pending and pending[-1][0] == seat and pending[-1][1] == where:
                pending[-1][2].append(mark)
            else:
                flush()
                pending.append((seat, where, [mark]))

        ended = False  # the turn the bot just ended: its `placing_ended` is not told
        for e in events:
            if e.private_to is not None:
                continue
            if isinstance(e.data, PlacingEnded) and ended:
                ended = False
                continue
            ended = self._forced(e) == T.END_PLACING
            match e.data:
                case Drew():
                    group(e.seat, "drew", "")
                case Placed(tile=tile, track=k):
                    group(e.seat, t("st.where.track", k=k), EMOJI[tile])
                case PlacedT7(tile=tile):
                    group(e.seat, t("st.where.centre"), EMOJI[tile])
                case _:
                    flush()
                    line = self._event_line(e, who, t)
                    if line:
                        lines.append(line)
        flush()
        return lines

    def _forced(self, e: Event) -> T | None:
        """The type of the action a `forced` event announces (None for another event)."""
        if not isinstance(e.data, Forced):
            return None
        return self.game.decode_action(e.data.action).type

    def _event_line(self, e: Event, who: Who, t: Translator) -> str | None:
        name = who(e.seat)
        match e.data:
            case Rolled(dice=dice, double=double):
                shown = " ".join(f"[{x}]" for x in dice)
                return t("st.ev.rolled", name=name, dice=shown) + (
                    t("st.ev.double") if double else ""
                )
            case DiceOff(rolls=rolls):
                parts = [f"{who(seat)} {v}" for seat, v in rolls.items()]
                return t("st.ev.dice_off", rolls=", ".join(parts))
            case FmDeclared(tile=tile):
                return t("st.ev.fm_declared", name=name, tile=EMOJI[tile])
            case FirstMove():
                return t("st.ev.first_move", name=name)
            case TrackCompleted(track=k):
                return t("st.ev.track_completed", name=name, k=k)
            case T7Completed():
                return t("st.ev.t7_completed", name=name)
            case Blocked(tile=tile, track=k):
                return t("st.ev.blocked", name=name, k=k, tile=EMOJI[tile])
            case Unblocked(tile=tile, track=k):
                return t("st.ev.unblocked", name=name, k=k, tile=EMOJI[tile])
            case Reclaimed(track=k, slot=slot):
                return t("st.ev.reclaimed", name=name, k=k, slot=slot)
            case BonusTaken(tile=tile):
                return t("st.ev.bonus_taken", name=name, tile=EMOJI[tile])
            case BlackDiscarded():
                return t("st.ev.black_discarded", name=name)
            case FmDiscarded():
                return t("st.ev.fm_discarded", name=name)
            case FifthSwap(tile=tile):
                return t("st.ev.fifth_swap", name=name, tile=EMOJI[tile])
            case ExchangeStarted():
                return t("st.ev.exchange_started", name=name)
            case PriorityUsed() as used:
                return self._priority_line(used, name, who, t)
            case WentOut(first=first):
                return t("st.ev.went_out_first" if first else "st.ev.went_out", name=name)
            case FinalTurns(count=count):
                return t("st.ev.final_turns", n=count)
            case PlayerLeft():
                return t("st.ev.player_left", name=name)
            case PlacingEnded(obligation_met=met):
                return None if met else t("st.ev.passed", name=name)
            case Forced() if self._forced(e) == T.END_PLACING:  # R66: a dead turn, ended
                return t("st.ev.turn_auto_ended", name=name)
            case RoundEnded():
                return t("st.ev.round_ended")
        return None

    def _priority_line(self, used: PriorityUsed, name: str, who: Who, t: Translator) -> str:
        tile = EMOJI[used.tile]
        match used:
            case PriorityUsed(use=PriorityUse.SHIFT, track_from=src, track_to=dst):
                return t("st.ev.shift", name=name, tile=tile, src=src, dst=dst)
            case PriorityUsed(use=PriorityUse.EXCHANGE, size=size):
                if not size:  # R60: an empty selection; the tile is spent all the same
                    return t("st.ev.exchange_none", name=name, tile=tile)
                return t("st.ev.exchange", name=name, tile=tile, n=size)
            case PriorityUsed(use=PriorityUse.CANCEL):
                return t("st.ev.cancel", name=name)
        role = used.role or used.tile
        role_text = t(f"st.role.{role}") if t.has(f"st.role.{role}") else role
        target = used.target
        suffix = t("st.ev.target", name=who(target)) if target is not None else ""
        return t(f"st.ev.use_{used.use}", name=name, tile=tile, role=role_text) + suffix

    def private_notes(
        self, events: list[Event], state: State, user: int, t: Translator
    ) -> list[str]:
        players = list(state.players)
        if user not in players:
            return []
        seat = players.index(user)
        drawn = [
            kind_of(e.data.tile_id)
            for e in events
            if isinstance(e.data, DrewTile) and e.private_to == seat
        ]
        if not drawn:
            return []
        return [t("st.toast.drew", tiles=tiles_text(drawn))]
