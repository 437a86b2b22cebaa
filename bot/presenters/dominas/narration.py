"""«ДОМИНА*С»'s narration: the caption's log lines for the events, and the private notes."""

from __future__ import annotations

from bot.presenters.base import TableCtx
from bot.presenters.dominas.common import BONUS_TILE, DominasBase, Ui, named_title, tile_text
from games import Event
from games.dominas import State
from games.dominas.engine import slot_numbers
from games.dominas.events import (
    BonusEnd,
    BonusEnded,
    BonusStarted,
    DrawReason,
    Drew,
    DrewTiles,
    GameOver,
    GameStarted,
    Passed,
    PlayerLeft,
    Skipped,
    TilePlaced,
    Timeout,
)
from games.dominas.model import POS_MARK, BonusKind
from locales import Translator


class Narration(DominasBase):
    # ---------------------------------------------------------------- narration

    def narrate(self, events: list[Event], s: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        lines: list[str] = []
        for i, e in enumerate(events):
            if e.private_to is not None:
                continue
            who = self._name(c, s, e.seat)
            line: str | None = None
            match e.data:
                case GameStarted(game=game):
                    line = t("dom.ev.game_started", game=game, name=who)
                case TilePlaced(tile=tile, floor=floor, nest=nest, bonus=bonus):
                    key = "dom.ev.placed_bonus" if bonus else "dom.ev.placed"
                    mark = POS_MARK[nest]
                    line = t(key, name=who, tile=tile_text(tile), nest=mark, floor=floor)
                case BonusStarted(bonus=kind, target=target):
                    title = named_title(BONUS_TILE[kind], t)
                    if kind is BonusKind.KOLOBOK:
                        line = t("dom.ev.kolobok", name=who, title=title)
                    else:
                        line = t("dom.ev.bonus_sum", name=who, title=title, sum=target)
                case BonusEnded(reason=BonusEnd.NOTHING_FITS | BonusEnd.USED_UP as reason):
                    line = t(f"dom.ev.bonus_{reason}", name=who)
                case BonusEnded(reason=BonusEnd.TIMEOUT):
                    line = t("dom.ev.timeout_bonus", name=who)
                case Drew(reason=DrawReason.EXTRA):
                    line = t("dom.ev.drew_extra", name=who)
                case Drew(reason=DrawReason.TIMEOUT):
                    line = t("dom.ev.drew_penalty", name=who)
                case Drew(count=n):
                    line = t("dom.ev.drew", name=who, n=n)
                case Skipped(run=run):
                    kinds = ", ".join(t(f"dom.run.{k}") for k in run)
                    line = t("dom.ev.skipped", name=who, kinds=kinds)
                case Passed():
                    line = t("dom.ev.passed", name=who)
                case Timeout(penalty=False):
                    after = events[i + 1] if i + 1 < len(events) else None
                    if after is None or not isinstance(after.data, BonusEnded):
                        line = t("dom.ev.timeout_empty", name=who)  # no penalty: empty bazaar
                    # else narrated with the end of the bonus
                case GameOver(game=game):
                    line = t("dom.ev.game_over", game=game)
                case PlayerLeft():
                    line = t("dom.ev.left", name=who)
            if line:
                lines.append(line)
        return lines

    def private_notes(self, events: list[Event], s: State, user: int, t: Translator) -> list[str]:
        if user not in s.players:
            return []
        seat = s.players.index(user)
        drawn = [
            x
            for e in events
            if isinstance(e.data, DrewTiles) and e.private_to == seat
            for x in e.data.tiles
        ]
        if not drawn:
            return []
        number = dict(zip(s.hands[seat], slot_numbers(s, seat), strict=True))
        tiles = ", ".join(
            f"{number[x]} {tile_text(x)}" if x in number else tile_text(x) for x in drawn
        )
        return [t("dom.toast.drew", tiles=tiles)]
