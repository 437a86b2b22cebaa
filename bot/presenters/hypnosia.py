"""«Гипнозия» at the table: a full-information dice race, so the keyboard lists the legal
moves themselves («№2 +5», «Пара 1&3 +4 ⚔»); the picture marks where each one lands with
the same mark («2+5», «1&3+4»), so no button names a ring cell.

A turn for the player is one tap per die: the roll is a formality and is made by the bot,
a move that is the only legal one is played for him too (both the engine's `forced`
actions; the table says «(единственный ход)»), and when more than 8 moves are legal he
first picks the die («🎲 4» / «🎲 5»), then the move. A timed-out turn is the engine's
`timeout_turn`: the novice policy plays the rest of it (spec §5, AFK, revised 2026-12).

Buttons: every move (and the roll) is one engine action and carries its encoding
(«M,2,5,r», «M,1,3,r,p», «R»); two compound codes choose what the keyboard lists — «🎲 4»
(`PickDie`, «d.4») and «↩ Другой кубик» (`OtherDie`, «b»). The picked die is the table's
state between presses (`Ui`), for the one position it was picked at.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from pydantic import BaseModel

from bot.config import Settings
from bot.presenters.base import Btn, LengthChoice, Outcome, Presenter, Refusal, TableCtx
from bot.presenters.buttons import Code
from games import Event, IllegalAction
from games.automation import Forced
from games.hypnosia import GAME, Action, ActionType, Hypnosia, Phase, Route, State
from games.hypnosia.events import (
    Captured,
    DiceLapsed,
    EnteredCentre,
    GameOver,
    Moved,
    OutOfTokens,
    PlayerLeft,
    Rolled,
)
from games.hypnosia.model import CENTRE_VALUES, View, is_bridge, parse_cell
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


class Ui(BaseModel):
    """The table between presses: the die picked with «🎲 N» (`die`) at the table's
    version `v`. The older bot stored the same dict ({"die": 5, "v": 12}, or {} for
    none), which reads as it is; anything else there reads as no die picked."""

    die: int | None = None
    v: int | None = None


@dataclass(frozen=True)
class PickDie(Code):
    """«🎲 4 (9 ходов)»: list only the moves of the die `die` (more than 8 are legal)."""

    tag = "d"
    die: int


@dataclass(frozen=True)
class OtherDie(Code):
    """«↩ Другой кубик»: back to the choice of the die."""

    tag = "b"


class HypnosiaPresenter(Presenter[State, Ui]):
    game_id = "hypnosia"
    strings = "hy"
    title_key = "game.hypnosia.title"
    title_short_key = "game.hypnosia.short"
    aliases = ("гипнозия", "гипноз", "hypnosia")
    game: Hypnosia
    ui_type = Ui

    def __init__(self) -> None:
        super().__init__(GAME)

    def codes(self) -> tuple[type[Code], ...]:
        return (PickDie, OtherDie)

    def _seat_name(self, s: State, c: TableCtx[Ui], seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(s.players):
            return "?"
        return c.name(s.players[seat])

    def _swatch(self, v: View, seat: int | None) -> str:
        if seat is None:
            return ""
        return SWATCH.get(v.players[seat].colour, "")

    def choices(self) -> list[LengthChoice]:
        return [
            LengthChoice("std", "game.hypnosia.opt.classic", {}, "game.hypnosia.opt.classic.about"),
            LengthChoice(
                "pb",
                "game.hypnosia.opt.pairs",
                {"pairs_cross_bridges": True},
                "game.hypnosia.opt.pairs.about",
            ),
        ]

    # ---------------------------------------------------------------- the die choice

    def _chosen_die(self, s: State, ui: Ui) -> int | None:
        """The die picked with «🎲 N» for this very state (None: none, or out of date)."""
        if ui.v != s.version or ui.die is None or ui.die not in s.unused:
            return None
        return ui.die

    def _needs_die_choice(self, legal: list[Action]) -> bool:
        return len(legal) > MAX_LIST and len({a.die for a in legal}) > 1

    # ---------------------------------------------------------------- caption

    def caption(self, s: State, c: TableCtx[Ui]) -> str:
        t, log = c.t, c.log
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
        who = self._seat_name(s, c, v.current)
        colour = self._swatch(v, v.current)
        if s.phase == Phase.GAME_OVER:
            winners = ", ".join(c.name(w) for w in v.winners)
            lines.append(t("hy.phase.over", names=winners or "—"))
        elif s.phase == Phase.ROLL:
            lines.append(t("hy.phase.roll", name=who, colour=colour))
        else:
            dice = self._dice_text(s.unused, t)
            legal = self.game.legal_actions(s)
            die = self._chosen_die(s, c.ui)
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
                    name=c.name(p.player),
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
            parts.append(t("hy.d.in_play", n=p.in_play) if p.in_play else t("hy.d.done"))
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

    def keyboard(self, s: State, c: TableCtx[Ui]) -> list[list[Btn]]:
        t = c.t
        if s.phase == Phase.GAME_OVER:
            return []
        if s.phase == Phase.ROLL:  # (the roll is `forced`: the bot makes it at once)
            return [[Btn(t("hy.btn.roll"), self.buttons.action(Action(type=ActionType.ROLL)))]]
        # Everything in this game is public (spec §6): the legal moves are the public view.
        legal = self.game.legal_actions(s)
        die = self._chosen_die(s, c.ui)
        rows: list[list[Btn]] = []
        if die is None and self._needs_die_choice(legal):
            dice = sorted({a.die for a in legal if a.die is not None})
            buttons = []
            for d in dice:
                moves = t.plural(sum(1 for a in legal if a.die == d), "hy.unit.move")
                buttons.append(Btn(t("hy.btn.die", die=d, moves=moves), PickDie(d).code()))
            return [buttons]
        shown = [a for a in legal if die is None or a.die == die]
        buttons = [Btn(self.label(s, a, t), self.buttons.action(a)) for a in shown]
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
            rows.append([Btn(t("hy.btn.other_die"), OtherDie().code())])
        return rows

    # ---------------------------------------------------------------- hand

    def hand_popup(self, state: State, user: int, t: Translator) -> str:
        return t("hy.no_hand")

    # ---------------------------------------------------------------- pressing

    def press(self, s: State, user: int, pressed: object, c: TableCtx[Ui]) -> Outcome[State, Ui]:
        t = c.t
        if s.phase == Phase.GAME_OVER:
            raise IllegalAction("game_over")
        match pressed:
            case PickDie(die=die):
                if s.phase != Phase.MOVE or die not in s.unused:
                    raise Refusal(t("press.outdated"))
                if not any(a.die == die for a in self.game.legal_actions(s)):
                    raise IllegalAction("no_such_die")
                return Outcome(state=s, ui=Ui(die=die, v=s.version))
            case OtherDie():
                return Outcome(state=s, ui=Ui())
            case Action():
                s2, events = self.game.apply(s, pressed)
                return Outcome(state=s2, events=events, ui=Ui())
            case _:
                raise Refusal(t("press.outdated"))

    def advance(self, s: State, c: TableCtx[Ui]) -> Outcome[State, Ui]:
        """The engine's formalities (`forced`: the roll, and a move that is the only legal
        one); a die picked for another position is forgotten."""
        out = super().advance(s, c)
        if c.ui != Ui() and self._chosen_die(out.state, c.ui) is None:
            out.ui, out.changed = Ui(), True
        return out

    # ---------------------------------------------------------------- narration

    def _unit(self, tokens: list[int], t: Translator) -> str:
        """«№2», «Пара 1&amp;3» (escaped: the caption is HTML)."""
        if len(tokens) == 2:
            return html.escape(t("hy.btn.pair", a=tokens[0], b=tokens[1]))
        return t("hy.btn.token", n=tokens[0] if tokens else "?")

    def narrate(self, events: list[Event], s: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        v = self.game.view(s, None)
        lines: list[str] = []
        auto = False
        home: list[tuple[int, int, int]] = []  # R17d: (seat, token, field) run home at once
        for e in events:
            if not isinstance(e.data, EnteredCentre | GameOver):
                home = []  # a token's own entry into the centre follows its move
            who = self._seat_name(s, c, e.seat)
            colour = self._swatch(v, e.seat) if e.seat is not None else ""
            match e.data:
                case Forced(action=action):  # the bot's own move (its roll goes without saying)
                    if self.game.decode_action(action).type is ActionType.MOVE:
                        auto = True
                case Rolled(dice=dice):
                    lines.append(
                        t("hy.ev.rolled", colour=colour, name=who, dice=self._dice_text(dice, t))
                    )
                case Moved(tokens=tokens, die=die, route=route, to=to, fields=fields):
                    cell = parse_cell(to)
                    if to == "C":
                        where = t("hy.btn.centre", fields="+".join(str(x) for x in fields))
                        dest = t("hy.ev.to", place=where)
                    elif cell is not None and is_bridge(*cell):
                        dest = t("hy.ev.to", place=t("hy.ev.bridge"))
                    else:
                        dest = ""  # the picture shows where: no cell is named
                    line = t(
                        "hy.ev.moved",
                        colour=colour,
                        name=who,
                        unit=self._unit(tokens, t),
                        route=" ⤵" if route is Route.BRIDGE else "",
                        die=die,
                        dest=dest,
                    )
                    if auto:
                        line += t("hy.ev.only_move")
                        auto = False
                    lines.append(line)
                case Captured(victim=victim, tokens=tokens):
                    line = t(
                        "hy.ev.captured",
                        victim=self._seat_name(s, c, victim),
                        tokens=t.plural(len(tokens), "hy.unit.token"),
                    )
                    if lines:
                        lines[-1] += " " + line
                    else:
                        lines.append(line)
                case DiceLapsed(dice=dice):
                    key = "hy.ev.lapsed_one" if len(dice) == 1 else "hy.ev.lapsed_two"
                    lines.append(t(key, name=who, dice=t("hy.ev.dice_and").join(map(str, dice))))
                case PlayerLeft():
                    lines.append(t("hy.ev.left", name=who))
                case EnteredCentre(token=token, field=value):
                    home.append((e.seat if e.seat is not None else -1, token, value))
                case GameOver(reason=reason):
                    if reason == "last_racer" and home:
                        racer = home[0][0]
                        lines.append(
                            t(
                                "hy.ev.run_home",
                                colour=self._swatch(v, racer),
                                name=self._seat_name(s, c, racer),
                                tokens=", ".join(t("hy.btn.token", n=n) for _, n, _ in home),
                                fields="+".join(str(x) for _, _, x in home),
                            )
                        )
                    lines.append(t("hy.ev.over", reason=t(f"hy.end.{reason}")))
        return lines

    def summaries(self, events: list[Event], s: State, c: TableCtx[Ui]) -> list[str]:
        """A message of its own that stays in the chat: to a player whose last token left
        play while the game goes on (R18: his score is final, nothing waits for him), and
        the final standings."""
        t = c.t
        out: list[str] = []
        for e in events:
            if isinstance(e.data, OutOfTokens) and not self.game.is_over(s):
                who = html.escape(self._seat_name(s, c, e.seat))
                out.append(t("hy.ev.out", name=who, points=self._points(e.data.score, t)))
            if not isinstance(e.data, GameOver):
                continue
            v = self.game.view(s, None)
            lines = [t("hy.final.title", reason=t(f"hy.end.{e.data.reason}"))]
            for p in sorted(v.players, key=lambda p: (p.place or 99, p.seat)):
                crown = " 🏆" if p.player in v.winners else ""
                lines.append(
                    t(
                        "hy.final.line",
                        place=p.place,
                        colour=self._swatch(v, p.seat),
                        name=c.name(p.player),
                        points=self._points(p.score, t),
                        details=self._details(v, p.seat, t),
                    )
                    + crown
                )
            out.append("\n".join(lines))
        return out


def make_presenter(settings: Settings | None) -> HypnosiaPresenter:
    return HypnosiaPresenter()
