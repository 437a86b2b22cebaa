"""«Гипнозия» at the table: a full-information dice race, so the keyboard lists the legal
moves themselves («№2 +5», «Пара 1&3 +4 ⚔»); the picture marks where each one lands with
the same mark («2+5», «1&3+4»), so no button names a ring cell.

A turn for the player is one tap per die: the roll is a formality and is made by the bot
(`advance`), a move that is the only legal one is played for him too, and when more
than 8 moves are legal he first picks the die («🎲 4» / «🎲 5»), then the move.
A timed-out turn is played by the novice policy (spec §5, AFK, revised 2026-12).
"""

from __future__ import annotations

import html
from typing import Any

from bot.config import Settings
from bot.presenters.base import Btn, LengthChoice, Outcome, Presenter, Refusal
from games import Event, IllegalAction
from games.hypnosia import GAME, Action, ActionType, Hypnosia, Phase, Route, State
from games.hypnosia.model import CENTRE_VALUES, View
from locales import Translator

SWATCH: dict[str, str] = {
    "red": "🔴",
    "orange": "🟠",
    "yellow": "🟡",
    "green": "🟢",
    "blue": "🔵",
    "purple": "🟣",
}
MAX_LIST = 8  # more legal moves than this: pick the die first (spec §5)
SHORT = 16  # labels up to this long go two to a row
AUTO_STEPS = 2000  # a guard on the automatic chain (the engine always ends a game)


class HypnosiaPresenter(Presenter[State, Any]):
    game_id = "hypnosia"
    strings = "hy"
    title_key = "game.hypnosia.title"
    title_short_key = "game.hypnosia.short"
    aliases = ("гипнозия", "гипноз", "hypnosia")
    game: Hypnosia

    def __init__(self) -> None:
        self.game = GAME

    def _name(self, names: dict[int, str], user: int | None) -> str:
        if user is None:
            return "?"
        return html.escape(names.get(user) or str(user))

    def _seat_name(self, s: State, names: dict[int, str], seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(s.players):
            return "?"
        return self._name(names, s.players[seat])

    def _swatch(self, v: View, seat: int | None) -> str:
        if seat is None:
            return ""
        return SWATCH.get(v.players[seat].colour, "")

    def choices(self) -> list[LengthChoice]:
        return [
            LengthChoice("std", "game.hypnosia.opt.classic", {}),
            LengthChoice("pb", "game.hypnosia.opt.pairs", {"pairs_cross_bridges": True}),
        ]

    # ---------------------------------------------------------------- the die choice

    def _chosen_die(self, s: State, ui: dict[str, Any]) -> int | None:
        """The die picked with «🎲 N» for this very state (None: none, or out of date)."""
        die = ui.get("die")
        if ui.get("v") != s.version or not isinstance(die, int) or die not in s.unused:
            return None
        return die

    def _needs_die_choice(self, legal: list[Action]) -> bool:
        return len(legal) > MAX_LIST and len({a.die for a in legal}) > 1

    # ---------------------------------------------------------------- caption

    def caption(
        self,
        s: State,
        names: dict[int, str],
        ui: dict[str, Any],
        log: list[str],
        t: Translator,
    ) -> str:
        v = self.game.view(s, None)
        free = [str(x) for x, holder in zip(CENTRE_VALUES, v.centre, strict=True) if holder is None]
        lines = [
            t(
                "hy.header",
                round=v.round_no,
                free="·".join(free) if free else t("hy.centre_full"),
                variant=t("hy.variant_pairs") if v.pairs_cross_bridges else "",
            )
        ]
        who = self._seat_name(s, names, v.current)
        colour = self._swatch(v, v.current)
        if s.phase == Phase.GAME_OVER:
            winners = ", ".join(self._name(names, w) for w in v.winners)
            lines.append(t("hy.phase.over", names=winners or "—"))
        elif s.phase == Phase.ROLL:
            lines.append(t("hy.phase.roll", name=who, colour=colour))
        else:
            dice = self._dice_text(s.unused, t)
            legal = self.game.legal_actions(s)
            die = self._chosen_die(s, ui)
            if die is not None:
                lines.append(t("hy.phase.move_die", name=who, colour=colour, dice=dice, die=die))
            elif self._needs_die_choice(legal):
                lines.append(t("hy.phase.pick_die", name=who, colour=colour, dice=dice))
            else:
                lines.append(t("hy.phase.move", name=who, colour=colour, dice=dice))
        if log:
            lines.append("")
            lines.extend(log[-3:])
        lines.append("")
        n = len(v.players)
        order = [(v.first + i) % n for i in range(n)]
        if s.phase == Phase.GAME_OVER:
            order = [p.seat for p in sorted(v.players, key=lambda p: (p.place or 99, p.seat))]
        for seat in order:
            p = v.players[seat]
            mark = "▶ " if seat == v.current and s.phase != Phase.GAME_OVER else ""
            lines.append(
                t(
                    "hy.player",
                    mark=mark,
                    colour=self._swatch(v, seat),
                    name=self._name(names, p.player),
                    points=self._points(p.score, t),
                    details=self._details(v, seat, t),
                )
            )
        return "\n".join(lines)

    def _points(self, score: int, t: Translator) -> str:
        """«7 очков», «−1 очко» (a true minus sign)."""
        text = t.plural(score, "hy.unit.point")
        return "−" + text[1:] if text.startswith("-") else text

    def _dice_text(self, dice: list[int], t: Translator) -> str:
        if len(dice) == 2:
            return t("hy.dice.two", a=dice[0], b=dice[1])
        return t("hy.dice.one", a=dice[0]) if dice else ""

    def _details(self, v: View, seat: int, t: Translator) -> str:
        p = v.players[seat]
        parts = []
        if p.left:
            parts.append(t("hy.d.left"))
        elif v.phase != Phase.GAME_OVER:
            parts.append(t("hy.d.in_play", n=p.in_play))
        if p.centre_fields:
            parts.append(t("hy.d.centre", fields="+".join(map(str, p.centre_fields))))
        if p.captured:
            parts.append(t("hy.d.captured", n=p.captured))
        if p.lost:
            parts.append(t("hy.d.lost", n=p.lost))
        return "".join(f" · {x}" for x in parts)

    # ---------------------------------------------------------------- keyboard

    def label(self, s: State, a: Action, t: Translator) -> str:
        """«№2 +5», «Пара 1&3 +4 ⚔», «№1 ⤵ +3», «№4 ⤵ +1 → центр (5)». No ring cell: the
        picture marks each move's destination with the move's mark (`move_tag`: «2+5»,
        «1&3+4», «1⤵3»), which these labels spell out."""
        if a.type is ActionType.ROLL:
            return t("hy.btn.roll")
        p = self.game.preview(s, a)
        if len(p.tokens) == 2:
            unit = t("hy.btn.pair", a=p.tokens[0], b=p.tokens[1])
        elif a.token is not None and self._in_pair(s, a.token):
            unit = t("hy.btn.split", n=a.token)
        else:
            unit = t("hy.btn.token", n=a.token)
        route = " ⤵" if a.route is Route.BRIDGE else ""
        dest = ""
        if p.dest == "C":
            dest = " → " + t("hy.btn.centre", fields="+".join(map(str, p.fields)))
        capture = ""
        if p.captures == 1:
            capture = " ⚔"
        elif p.captures > 1:
            capture = f" ⚔{p.captures}"
        return f"{unit}{route} +{a.die}{dest}{capture}"

    def _in_pair(self, s: State, token: int) -> bool:
        pos = s.tokens[s.current][token - 1]
        return "." in pos and s.tokens[s.current].count(pos) > 1

    def keyboard(
        self, s: State, ui: dict[str, Any], names: dict[int, str], t: Translator
    ) -> list[list[Btn]]:
        if s.phase == Phase.GAME_OVER:
            return []
        if s.phase == Phase.ROLL:
            return [[Btn(t("hy.btn.roll"), "R")]]
        # Everything in this game is public (spec §6): the legal moves are the public view.
        legal = self.game.legal_actions(s)
        die = self._chosen_die(s, ui)
        rows: list[list[Btn]] = []
        if die is None and self._needs_die_choice(legal):
            dice = sorted({a.die for a in legal if a.die is not None})
            buttons = []
            for d in dice:
                moves = t.plural(sum(1 for a in legal if a.die == d), "hy.unit.move")
                buttons.append(Btn(t("hy.btn.die", die=d, moves=moves), f"d{d}"))
            return [buttons]
        shown = [a for a in legal if die is None or a.die == die]
        buttons = [Btn(self.label(s, a, t), a.encode()) for a in shown]
        row: list[Btn] = []
        for b in buttons:
            if len(b.text) > SHORT:
                if row:
                    rows.append(row)
                    row = []
                rows.append([b])
                continue
            row.append(b)
            if len(row) == 2:
                rows.append(row)
                row = []
        if row:
            rows.append(row)
        if die is not None:
            rows.append([Btn(t("hy.btn.other_die"), "b")])
        return rows

    # ---------------------------------------------------------------- hand

    def hand_popup(self, state: State, user: int, t: Translator) -> str:
        return t("hy.no_hand")

    # ---------------------------------------------------------------- pressing

    def press(
        self,
        state: State,
        user: int,
        code: str,
        ui: dict[str, Any],
        t: Translator,
        now: float,
    ) -> Outcome[State, Any]:
        s = state
        if s.phase == Phase.GAME_OVER:
            raise IllegalAction("game_over")
        if code.startswith("d") and code[1:].isdigit():
            die = int(code[1:])
            if s.phase != Phase.MOVE or die not in s.unused:
                raise Refusal(t("press.outdated"))
            if not any(a.die == die for a in self.game.legal_actions(s)):
                raise IllegalAction("no_such_die")
            return Outcome(state=s, ui={"die": die, "v": s.version})
        if code == "b":
            return Outcome(state=s, ui={})
        try:
            action = Action.decode(code)
        except ValueError as e:
            raise Refusal(t("press.outdated")) from e
        s2, events = self.game.apply(s, action)
        return Outcome(state=s2, events=events, ui={})

    def advance(self, state: State, ui: dict[str, Any], now: float) -> Outcome[State, Any]:
        """The formalities: the roll, and a move that is the only legal one."""
        s = state
        events: list[Event] = []
        for _ in range(AUTO_STEPS):
            if s.phase == Phase.GAME_OVER:
                break
            legal = self.game.legal_actions(s)
            if s.phase == Phase.MOVE and len(legal) != 1:
                break
            action = legal[0]
            if action.type is ActionType.MOVE:
                events.append(Event(type="auto_move", seat=s.current))
            s, ev = self.game.apply(s, action)
            events.extend(ev)
        if not events:
            keep = ui if self._chosen_die(s, ui) is not None else {}
            return Outcome(state=s, ui=keep, changed=keep != ui)
        return Outcome(state=s, events=events, ui={})

    def turn_id(self, s: State) -> str | None:
        if s.phase == Phase.GAME_OVER:
            return None
        return str(s.turn_no)

    def timeout_move(self, state: State, user: int) -> Outcome[State, Any]:
        """The rest of the absent player's turn, played by the engine's timeout policy
        (the novice computer player, from his view: spec §5 AFK decision): the roll, then
        a move for each die that brings tokens off the start and across the bridges."""
        s = state
        turn = s.turn_no
        events: list[Event] = []
        while s.phase != Phase.GAME_OVER and s.turn_no == turn and self.game.to_act(s) == user:
            s, ev = self.game.timeout(s)
            events.extend(ev)
        return Outcome(state=s, events=events, ui={})

    # ---------------------------------------------------------------- narration

    def _unit(self, tokens: list[int], t: Translator) -> str:
        """«№2», «Пара 1&amp;3» (escaped: the caption is HTML)."""
        if len(tokens) == 2:
            return html.escape(t("hy.btn.pair", a=tokens[0], b=tokens[1]))
        return t("hy.btn.token", n=tokens[0] if tokens else "?")

    def narrate(
        self, events: list[Event], s: State, names: dict[int, str], t: Translator
    ) -> list[str]:
        v = self.game.view(s, None)
        lines: list[str] = []
        auto = False
        for e in events:
            d = e.data
            who = self._seat_name(s, names, e.seat)
            colour = self._swatch(v, e.seat) if e.seat is not None else ""
            if e.type == "auto_move":
                auto = True
            elif e.type == "rolled":
                dice = list(d.get("dice") or [])
                lines.append(
                    t("hy.ev.rolled", colour=colour, name=who, dice=self._dice_text(dice, t))
                )
            elif e.type == "moved":
                route = " ⤵" if d.get("route") == Route.BRIDGE.value else ""
                to = str(d.get("to"))
                if to == "C":
                    fields = "+".join(str(x) for x in d.get("fields") or [])
                    dest = t("hy.btn.centre", fields=fields)
                else:
                    dest = to
                line = t(
                    "hy.ev.moved",
                    colour=colour,
                    name=who,
                    unit=self._unit(list(d.get("tokens") or []), t),
                    route=route,
                    die=d.get("die"),
                    dest=dest,
                )
                if auto:
                    line += t("hy.ev.only_move")
                    auto = False
                lines.append(line)
            elif e.type == "captured":
                n = len(d.get("tokens") or [])
                line = t(
                    "hy.ev.captured",
                    victim=self._seat_name(s, names, d.get("victim")),
                    tokens=t.plural(n, "hy.unit.token"),
                )
                if lines:
                    lines[-1] += " " + line
                else:
                    lines.append(line)
            elif e.type == "dice_lapsed":
                dice = list(d.get("dice") or [])
                key = "hy.ev.lapsed_one" if len(dice) == 1 else "hy.ev.lapsed_two"
                lines.append(t(key, name=who, dice=t("hy.ev.dice_and").join(map(str, dice))))
            elif e.type == "player_left":
                lines.append(t("hy.ev.left", name=who))
            elif e.type == "game_over":
                lines.append(t("hy.ev.over", reason=t(f"hy.end.{d.get('reason')}")))
        return lines

    def summaries(
        self, events: list[Event], s: State, names: dict[int, str], t: Translator
    ) -> list[str]:
        out: list[str] = []
        for e in events:
            if e.type != "game_over":
                continue
            v = self.game.view(s, None)
            lines = [t("hy.final.title", reason=t(f"hy.end.{e.data.get('reason')}"))]
            for p in sorted(v.players, key=lambda p: (p.place or 99, p.seat)):
                crown = " 🏆" if p.player in v.winners else ""
                lines.append(
                    t(
                        "hy.final.line",
                        place=p.place,
                        colour=self._swatch(v, p.seat),
                        name=self._name(names, p.player),
                        points=self._points(p.score, t),
                        details=self._details(v, p.seat, t),
                    )
                    + crown
                )
            out.append("\n".join(lines))
        return out


def make_presenter(settings: Settings | None) -> HypnosiaPresenter:
    return HypnosiaPresenter()
