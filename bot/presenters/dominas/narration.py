"""«ДОМИНА*С»'s narration: the caption's log lines for the events, and the private notes."""

from __future__ import annotations

from bot.presenters.base import TableCtx
from bot.presenters.dominas.common import BONUS_TILE, DominasBase, Ui, named_title, tile_text
from games import Event
from games.dominas import Pos, State
from games.dominas.engine import slot_numbers
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
            d = e.data
            who = self._name(c, s, e.seat)
            line: str | None = None
            if e.type == "game_started":
                line = t("dom.ev.game_started", game=d.get("game"), name=who)
            elif e.type == "placed":
                tile = str(d.get("tile"))
                floor = int(d.get("floor") or 1)
                nest = POS_MARK[Pos(str(d.get("nest")))]
                key = "dom.ev.placed_bonus" if d.get("bonus") else "dom.ev.placed"
                line = t(key, name=who, tile=tile_text(tile), nest=nest, floor=floor)
            elif e.type == "bonus_started":
                kind = BonusKind(str(d.get("kind")))
                title = named_title(BONUS_TILE[kind], t)
                if kind is BonusKind.KOLOBOK:
                    line = t("dom.ev.kolobok", name=who, title=title)
                else:
                    line = t("dom.ev.bonus_sum", name=who, title=title, sum=d.get("target"))
            elif e.type == "bonus_ended" and d.get("reason") in ("nothing_fits", "used_up"):
                line = t(f"dom.ev.bonus_{d.get('reason')}", name=who)
            elif e.type == "bonus_ended" and d.get("reason") == "timeout":
                line = t("dom.ev.timeout_bonus", name=who)
            elif e.type == "drew":
                reason = str(d.get("reason"))
                n = int(d.get("count") or 0)
                if reason == "extra":
                    line = t("dom.ev.drew_extra", name=who)
                elif reason == "timeout":
                    line = t("dom.ev.drew_penalty", name=who)
                else:
                    line = t("dom.ev.drew", name=who, n=n)
            elif e.type == "skipped":
                kinds = ", ".join(t(f"dom.run.{k}") for k in d.get("run") or [])
                line = t("dom.ev.skipped", name=who, kinds=kinds)
            elif e.type == "passed":
                line = t("dom.ev.passed", name=who)
            elif e.type == "timeout" and not d.get("penalty"):
                after = events[i + 1] if i + 1 < len(events) else None
                if after is None or after.type != "bonus_ended":  # else narrated with it
                    line = t("dom.ev.timeout_empty", name=who)  # no penalty: empty bazaar
            elif e.type == "game_over":
                line = t("dom.ev.game_over", game=d.get("game"))
            elif e.type == "player_left":
                line = t("dom.ev.left", name=who)
            if line:
                lines.append(line)
        return lines

    def private_notes(self, events: list[Event], s: State, user: int, t: Translator) -> list[str]:
        if user not in s.players:
            return []
        seat = s.players.index(user)
        drawn = [
            str(x)
            for e in events
            if e.type == "drew_tiles" and e.private_to == seat
            for x in e.data.get("tiles") or []
        ]
        if not drawn:
            return []
        number = dict(zip(s.hands[seat], slot_numbers(s, seat), strict=True))
        tiles = ", ".join(
            f"{number[x]} {tile_text(x)}" if x in number else tile_text(x) for x in drawn
        )
        return [t("dom.toast.drew", tiles=tiles)]
