"""«Морской крест» at the table: a full-information dice race, so the keyboard simply
offers the legal moves the public view lists, one button each («№2 ▸ +5 ⚔ 🏠»).

Every button is one engine action and carries its encoding («M,2,5», «E», «J,1», «R»);
the game has no compound codes and keeps nothing between presses (`NoUi`).

Formalities are played by the bot (spec §5 "UI" decision): the roll (the only action
before a move) and any move that is the only legal one are the engine's `forced`
actions, applied at once and narrated («(единственный ход)»), so a player taps only
when he has a real choice — usually one or two taps a turn. The roll-off for the first
player is made by the engine; the table opens at the first real choice with one line:
who starts and how many rolls the bot made before it (the picture shows where they put
the tokens). A timed-out turn is the engine's `timeout_turn`: the whole turn, the roll or
the first move in canonical order.
"""

from __future__ import annotations

from bot.config import Settings
from bot.presenters.base import Btn, NoUi, Outcome, Presenter, Refusal, TableCtx
from games import Event, Fact
from games.automation import Forced
from games.sea_cross import GAME, Action, ActionType, Phase, SeaCross, State, rolloff_events
from games.sea_cross.events import (
    Captured,
    DiceLapsed,
    Entered,
    ExtraRoll,
    FirstPlayer,
    GameOver,
    Jumped,
    JumpsVoid,
    Moved,
    Passed,
    PlayerLeft,
    Rolled,
    RollOff,
)
from games.sea_cross.model import EMOJI, HOME, ActionInfo, View
from locales import Translator

T = ActionType
PER_ROW = 3


class Resume(Fact):
    """Narration only: the roll a move continues (its line was left out of the log while
    the choice was pending, since the caption shows the dice then)."""

    kind = "resume"
    player: int
    dice: list[int]


class SeaCrossPresenter(Presenter[State, NoUi]):
    game_id = "sea_cross"
    strings = "sc"
    title_key = "game.sea_cross.title"
    title_short_key = "game.sea_cross.short"
    aliases = ("морской крест", "крест", "морской", "sea cross", "sea", "cross", "лудо")
    game: SeaCross
    ui_type = NoUi

    def __init__(self) -> None:
        super().__init__(GAME)

    def _view(self, state: State) -> View:
        return self.game.view(state, None)

    def _who(self, v: View, c: TableCtx[NoUi], player: int | None, bold: bool = False) -> str:
        """«🔵 Аня»: the player's colour and name."""
        info = next((p for p in v.players if p.player == player), None)
        mark = EMOJI[info.arm] if info is not None else ""
        name = c.name(player)
        if bold:
            name = f"<b>{name}</b>"
        return f"{mark} {name}".strip()

    # ---------------------------------------------------------------- caption

    @staticmethod
    def _dice(v: View) -> str:
        """«6:3», the used dice struck through while the player moves."""
        if not v.dice:
            return ""
        unused = list(v.unused)
        parts = []
        for d in v.dice:
            if v.phase == Phase.AWAIT_MOVE and d in unused:
                unused.remove(d)
                parts.append(str(d))
            else:
                parts.append(f"<s>{d}</s>" if v.phase == Phase.AWAIT_MOVE else str(d))
        return ":".join(parts)

    def caption(self, state: State, c: TableCtx[NoUi]) -> str:
        t, log = c.t, c.log
        v = self._view(state)
        lines = [t("sc.header")]
        if v.over:
            winners = ", ".join(self._who(v, c, w, bold=True) for w in v.winners)
            lines.append(t("sc.phase.over", names=winners or "—"))
        else:
            who = self._who(v, c, v.to_act, bold=True)
            if v.phase == Phase.AWAIT_ROLL:
                lines.append(t("sc.phase.roll", who=who))
            else:
                key = "sc.phase.jump" if v.forced_jumps > 0 else "sc.phase.move"
                lines.append(t(key, who=who, dice=self._dice(v)))
                if v.double:
                    lines[-1] += t("sc.phase.double")
        if log:
            lines.append("")
            lines.extend(log[-3:])
        lines.append("")
        for p in v.players:
            mark = "▶ " if p.seat == v.to_act_seat and not v.over else ""
            who = self._who(v, c, p.player)
            if not p.active:
                lines.append(t("sc.player_left", mark=mark, who=who))
                continue
            field = sum(1 for x in p.tokens if x.where == "loop")
            lines.append(
                t(
                    "sc.player",
                    mark=mark,
                    who=who,
                    home=p.home_count,
                    field=field,
                    reserve=p.reserve_count,
                )
            )
        return "\n".join(lines)

    # ---------------------------------------------------------------- keyboard

    def label(self, a: ActionInfo, t: Translator) -> str:
        """The button of one legal action: «№2 ▸ +5 ⚔ 🏠», «⚓ Вывести (6)», «№1 ⤳ прыжок»."""
        if a.type is T.ENTER:
            text = t("sc.btn.enter")
        elif a.type is T.JUMP:
            text = t("sc.btn.jump", token=a.token)
        elif a.type is T.MOVE:
            text = t("sc.btn.move", token=a.token, die=a.die)
        else:
            text = t("sc.btn.roll")
        if a.captures:
            text += " ⚔"
        if a.home:
            text += " 🏠"
        return text

    def keyboard(self, state: State, c: TableCtx[NoUi]) -> list[list[Btn]]:
        t = c.t
        v = self._view(state)
        if v.over:
            return []
        if v.phase == Phase.AWAIT_ROLL:  # (the roll is `forced`: the bot makes it at once)
            return [[Btn(t("sc.btn.roll"), self.buttons.action(Action(type=T.ROLL)))]]
        groups: dict[str, list[Btn]] = {}
        for a in v.actions:
            key = "j" if a.type is T.JUMP else str(6 if a.type is T.ENTER else a.die)
            groups.setdefault(key, []).append(Btn(self.label(a, t), a.code))  # its encoding
        rows: list[list[Btn]] = []
        for key in sorted(groups, key=lambda k: (k != "j", k)):
            btns = groups[key]
            rows += [btns[i : i + PER_ROW] for i in range(0, len(btns), PER_ROW)]
        return rows

    # ---------------------------------------------------------------- hand

    def hand_popup(self, state: State, user: int, t: Translator) -> str:
        return t("sc.no_hand")

    # ---------------------------------------------------------------- pressing

    def press(
        self, state: State, user: int, pressed: object, c: TableCtx[NoUi]
    ) -> Outcome[State, NoUi]:
        if not isinstance(pressed, Action):
            raise Refusal(c.t("press.outdated"))
        s, events = self.game.apply(state, pressed)
        return Outcome(state=s, events=[*self._resume(state), *events])

    def _resume(self, s: State) -> list[Event]:
        """A narration-only event: the roll a move continues (its line was left out of the
        log while the choice was pending, since the caption shows the dice then)."""
        if s.phase != Phase.AWAIT_MOVE:
            return []
        return [Event.of(Resume(player=s.players[s.current], dice=s.dice), s.current)]

    def advance(self, state: State, c: TableCtx[NoUi]) -> Outcome[State, NoUi]:
        """The roll-off story at the start; then the engine's formalities (`forced`: the
        roll and every move that is the only legal one), until a player has a real
        choice (or the game is over)."""
        out = super().advance(state, c)
        if state.version == 0:
            out.events[:0] = rolloff_events(state)
            out.changed = True
        return out

    def timeout_move(self, state: State, user: int) -> Outcome[State, NoUi]:
        """The absent player's turn played to its end (the engine's `timeout_turn`: the
        roll, or the first move in canonical order, spec §5 AFK decision), told from the
        roll it continues."""
        out = super().timeout_move(state, user)
        out.events[:0] = self._resume(state)
        return out

    # ---------------------------------------------------------------- narration

    def narrate(self, events: list[Event], state: State, c: TableCtx[NoUi]) -> list[str]:
        """One line per roll: «🔵 Аня 🎲 6:3: ⚓ №1 на кон, №1 +3». Rolls nobody could use
        in a row share one line: «Без ходов: 🟢 Борис 5:3, 🔵 Аня 2:4»."""
        t = c.t
        v = self._view(state)
        entries: list[tuple[str, str]] = []  # (kind, text); kind "pass" = a wasted roll
        head: str | None = None
        who_of_head: int | None = None
        dice = ""
        frags: list[str] = []
        only = False  # the next move is the only legal one (played by the bot)
        moves: list[int] = []  # indices in `frags` of the moves, and of those the bot played
        autos: list[int] = []
        if any(isinstance(e.data, FirstPlayer) for e in events):  # R4: the game's start
            return [self._opening(events, state, v, c)]

        def flush() -> None:
            nonlocal head, frags, dice
            if moves and len(autos) == len(moves):  # «… (без выбора)» once, after the last move
                frags[moves[-1]] += t("sc.ev.only" if len(moves) == 1 else "sc.ev.only_all")
            else:
                for i in autos:
                    frags[i] += t("sc.ev.only")
            moves.clear()
            autos.clear()
            if head is None and not frags:
                return
            if frags == [t("sc.ev.passed")] and head is not None:
                entries.append(("pass", f"{self._who(v, c, who_of_head)} 🎲 {dice}"))
            else:
                text = head if head is not None else self._who(v, c, who_of_head)
                if frags:
                    text += ": " + ", ".join(frags)
                entries.append(("line", text))
            head, frags, dice = None, [], ""

        for e in events:
            match e.data:
                case Rolled(player=player, dice=values) | Resume(player=player, dice=values):
                    flush()
                    dice = ":".join(str(x) for x in values)
                    who_of_head = player
                    head = t("sc.ev.rolled", who=self._who(v, c, player), dice=dice)
                    if len(values) == 2 and values[0] == values[1]:
                        head += t("sc.ev.double")
                case Forced(action=action):  # the bot's own move (its roll goes without saying)
                    if self.game.decode_action(action).type is not T.ROLL:
                        only = True
                case Entered() | Moved() | Jumped() as move:
                    if head is None and not frags:
                        who_of_head = move.player
                    if only:
                        autos.append(len(frags))
                    only = False
                    moves.append(len(frags))
                    frags.append(self._move_text(move, t))
                case Captured(victim=victim, token=token):
                    text = t("sc.ev.captured", victim=self._who(v, c, victim), token=token)
                    if frags:
                        frags[-1] += " " + text
                    else:
                        frags.append(text)
                case JumpsVoid():
                    frags.append(t("sc.ev.jumps_void"))
                case Passed():
                    frags.append(t("sc.ev.passed"))
                case DiceLapsed(unused=unused):
                    frags.append(t("sc.ev.lapsed", dice=", ".join(str(x) for x in unused)))
                case ExtraRoll():
                    frags.append(t("sc.ev.extra_roll"))
                case PlayerLeft(player=player):
                    flush()
                    entries.append(("line", t("sc.ev.left", who=self._who(v, c, player))))
                case GameOver(winner=winner):
                    flush()
                    entries.append(("line", t("sc.ev.won", who=self._who(v, c, winner, bold=True))))
        if head is not None and not frags and not self.game.is_over(state):
            head = None  # the roll now waiting for a choice: the caption shows it
        flush()
        lines: list[str] = []
        run: list[str] = []
        for kind, text in [*entries, ("end", "")]:
            if kind == "pass":
                run.append(text)
                continue
            if len(run) == 1:
                lines.append(t("sc.ev.pass_one", who=run[0]))
            elif run:
                lines.append(t("sc.ev.pass_many", rolls=", ".join(run)))
            run = []
            if kind == "line":
                lines.append(text)
        return lines

    @staticmethod
    def _move_text(move: Entered | Moved | Jumped, t: Translator) -> str:
        """«⚓ №1 на кон», «№2 +5 → 🏠 Д2», «№3 ⤳ прыжок»: one token's move."""
        match move:
            case Entered(token=token):
                return t("sc.ev.entered", token=token)
            case Jumped(token=token, past_home=past_home):
                return t("sc.ev.jumped", token=token) + (t("sc.ev.past_home") if past_home else "")
            case Moved(token=token, die=die, to_rel=to_rel):
                text = t("sc.ev.moved", token=token, die=die)
                if to_rel >= HOME:
                    text += t("sc.ev.home", cell=to_rel - HOME + 1)
                return text

    def _opening(self, events: list[Event], state: State, v: View, c: TableCtx[NoUi]) -> str:
        """The game's first narration, one line: the roll-off's deciding round and who
        starts, and how many rolls the bot made itself before the first real choice (no
        move, or one only; the picture shows the tokens they brought out). The roll now
        waiting for a choice is the caption's."""
        t = c.t
        rounds = [e.data for e in events if isinstance(e.data, RollOff)]
        first = next(e.data.player for e in events if isinstance(e.data, FirstPlayer))
        who = self._who(v, c, first)
        line = t("sc.ev.first_player", who=who)
        if rounds:
            last = rounds[-1]
            rolls = ", ".join(
                f"{self._who(v, c, p)} {x}" for p, x in zip(last.players, last.dice, strict=False)
            )
            key = "sc.ev.roll_off" if len(rounds) == 1 else "sc.ev.roll_off_again"
            line = t(key, rolls=rolls, who=who)
        rolled = sum(isinstance(e.data, Rolled) for e in events)
        if state.phase == Phase.AWAIT_MOVE and not self.game.is_over(state):
            rolled -= 1  # its dice are in the caption
        if rolled > 0:
            line += t("sc.ev.opening", rolls=t.plural(rolled, "sc.unit.roll"))
        return line

    def summaries(self, events: list[Event], state: State, c: TableCtx[NoUi]) -> list[str]:
        t = c.t
        v = self._view(state)
        out: list[str] = []
        for e in events:
            if not isinstance(e.data, GameOver):
                continue
            lines = [t("sc.final.title")]
            for st in e.data.standings:
                who = self._who(v, c, st.player)
                if st.left:
                    line = t("sc.final.left", place=st.place, who=who)
                else:
                    line = t(
                        "sc.final.line",
                        place=st.place,
                        who=who,
                        home=st.home_count,
                        progress=t.plural(st.progress, "sc.unit.step"),
                    )
                if st.player == e.data.winner:
                    line += " 🏆"
                lines.append(line)
            out.append("\n".join(lines))
        return out


def make_presenter(settings: Settings | None) -> SeaCrossPresenter:
    return SeaCrossPresenter()
