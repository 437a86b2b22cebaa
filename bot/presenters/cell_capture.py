"""«Захват клеток» at the table: a full-information game, so the keyboard simply offers
what the public view says is possible (numbers, anchors, arrows).

- A forced choice is not asked (spec §5, Decision UI): one allowed number or one offered
  anchor is the engine's `forced` move, which the bot plays; the button that would lead
  back to it is not shown.
- The buttons are the engine's actions (numbers, anchors, arrows, ↩ ✖ ✅) and three
  compound codes: «➡️×3» (`Straight`), a closed place «·» (`Hole`) and ◀ ▶ (`ToPage`).
- Anchors come in pages (spec §5): up to 8 on one page, else 6 per page with ◀ «1/2» ▶
  (5 when «↩ Другое число» is under them: never more than 9 buttons).
- While a path is drawn the keyboard keeps its rows, with at most 9 buttons (spec §5): the
  four arrows always in the order ⬆️ ➡️ ⬇️ ⬅️, a direction that is closed now staying as a
  «·» placeholder (so a fast double tap lands on the same arrow or on nothing); then (for
  k ≥ 2) a row of the compound arrows that can finish the path, «➡️×3» (the rest of the
  path straight in one direction), or one «·» when none can (so a double tap on «➡️×3»,
  which completes the path, lands on nothing); then ↩ / ✖, and ✅ once the path is
  complete (its progress «2 из 3» is in the caption).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from bot.config import Settings
from bot.presenters.base import (
    Btn,
    Outcome,
    Page,
    Presenter,
    Refusal,
    Rule,
    TableCtx,
    ToPage,
    flag,
    page_row,
    shown_page,
)
from bot.presenters.buttons import Code
from games import Event, IllegalAction
from games.cell_capture import GAME, Action, ActionType, CellCaptureGame, Direction, Phase, State
from games.cell_capture.engine import phase
from games.cell_capture.events import Captured, GameOver, PlayerLeft, RoundStarted, Stuck
from games.cell_capture.model import DIR_ORDER, View
from locales import Translator

T = ActionType
ARROWS: dict[Direction, str] = {
    Direction.UP: "⬆️",
    Direction.RIGHT: "➡️",
    Direction.DOWN: "⬇️",
    Direction.LEFT: "⬅️",
}
SWATCH: tuple[str, ...] = ("🟥", "🟦", "🟩", "🟧", "🟪", "🩵")
MAX_BUTTONS = 9  # visible at once (spec §5)
ONE_PAGE = 8  # anchors on a single page (+ «↩ Другое число»: 9 buttons)
PAGE = 6  # anchors per page when there are more (+ ◀ «1/2» ▶; 5 with «↩ Другое число»)
HOLE = "·"  # a placeholder: the button's place is kept, it does nothing now


class Ui(BaseModel):
    """The table between presses: the anchors' page chosen with ◀ ▶."""

    page: Page | None = None


@dataclass(frozen=True)
class Straight(Code):
    """«➡️×3»: the rest of the path straight in one direction."""

    tag = "r"
    dir: Direction


@dataclass(frozen=True)
class Hole(Code):
    """A placeholder «·» where an arrow or a button is closed now: its press only says
    why (`what`: the arrow's direction, «u» undo, «c» confirm)."""

    tag = "z"
    what: str


class CellCapturePresenter(Presenter[State, Ui]):
    game_id = "cell_capture"
    strings = "cc"
    title_key = "game.cell_capture.title"
    title_short_key = "game.cell_capture.short"
    aliases = ("захват клеток", "захват", "клетки", "cell capture", "cells")
    house_rules: tuple[Rule, ...] = (flag("allow_two_players"),)
    game: CellCaptureGame
    ui_type = Ui

    def __init__(self) -> None:
        super().__init__(GAME)

    def codes(self) -> tuple[type[Code], ...]:
        return (Straight, Hole, ToPage)

    def fewest_players(self, options: dict[str, object]) -> int:
        """R1 (revised 2026-12): two players with the house rule `allow_two_players`."""
        return 2 if options.get("allow_two_players") else self.min_players

    def _act(self, text: str, action: Action) -> Btn:
        return Btn(text, self.buttons.action(action))

    # ---------------------------------------------------------------- caption

    def caption(self, s: State, c: TableCtx[Ui]) -> str:
        t, log = c.t, c.log
        v = self.game.view(s, None)
        lines = [t("cc.header", round=v.round_no, size=v.size, free=v.free_cells)]
        who = c.name(v.to_act)
        colour = SWATCH[v.to_act_seat % len(SWATCH)] if v.to_act_seat is not None else ""
        k = v.draft.k if v.draft else None
        if v.over:
            winners = ", ".join(c.name(w) for w in v.winners)
            lines.append(t("cc.phase.over", names=winners or "—"))
        elif v.phase == Phase.PICK_K:
            allowed = ", ".join(str(x) for x in v.allowed)
            lines.append(t("cc.phase.pick_k", name=who, colour=colour, allowed=allowed))
        elif v.phase == Phase.PICK_ANCHOR:
            lines.append(t("cc.phase.pick_anchor", name=who, colour=colour, k=k))
        elif v.phase == Phase.DRAW:
            done = len(v.draft.path) if v.draft else 0
            lines.append(t("cc.phase.draw", name=who, colour=colour, done=done, k=k))
        elif v.phase == Phase.READY:
            lines.append(t("cc.phase.ready", name=who, colour=colour, k=k))
        if log:
            lines.append("")
            lines.extend(log[-3:])
        lines.append("")
        for seat in self._listed(v):  # as the picture's legend: the order of play
            p = v.players[seat]
            mark = "▶ " if p.seat == v.to_act_seat and not v.over else ""
            name = c.name(p.player)
            status = "" if p.active else t("cc.left")
            lines.append(
                t(
                    "cc.player",
                    mark=mark,
                    colour=SWATCH[p.seat % len(SWATCH)],
                    name=name,
                    cells=t.plural(p.cells, "unit.cell"),
                    status=status,
                )
            )
        return "\n".join(lines)

    @staticmethod
    def _listed(v: View) -> list[int]:
        """The seats in the caption's list, as in the picture's legend: this round's order
        of play, then the players who left; by place once the game is over."""
        if v.over:
            return [p.seat for p in sorted(v.players, key=lambda p: (p.place or 99, p.seat))]
        seats = [s for s in v.order if v.players[s].active]
        return seats + [p.seat for p in v.players if p.seat not in seats]

    # ---------------------------------------------------------------- keyboard

    def keyboard(self, s: State, c: TableCtx[Ui]) -> list[list[Btn]]:
        t = c.t
        v = self.game.view(s, None)
        if v.over:
            return []
        rows: list[list[Btn]] = []
        if v.phase == Phase.PICK_K:
            nums = [self._act(t("cc.btn.k", k=k), Action(type=T.CHOOSE_K, k=k)) for k in v.allowed]
            rows += [nums[i : i + 6] for i in range(0, len(nums), 6)]
        elif v.phase == Phase.PICK_ANCHOR:
            anchors = [
                self._act(f"⚓ {a}", Action(type=T.CHOOSE_ANCHOR, cell=a))
                for a in v.offered_anchors
            ]
            back = not self._forced_k(s)  # «back» would only choose the same number again
            if len(anchors) <= ONE_PAGE:
                rows += [anchors[i : i + 4] for i in range(0, len(anchors), 4)]
            else:
                per = PAGE - back  # at most 9 buttons with the page row (spec §5)
                pages = -(-len(anchors) // per)
                page = shown_page(c.ui.page, s.version, pages)
                shown = anchors[page * per : (page + 1) * per]
                rows += [shown[i : i + 3] for i in range(0, len(shown), 3)]
                rows.append(page_row(page, pages))
            if back:
                rows.append([self._act(t("cc.btn.back"), Action(type=T.BACK))])
        elif v.phase in (Phase.DRAW, Phase.READY):
            steps = set(v.steps)
            hole = {d: Btn(HOLE, Hole(d.value).code()) for d in DIR_ORDER}
            rows.append(
                [
                    self._act(ARROWS[d], Action(type=T.STEP, dir=d)) if d in steps else hole[d]
                    for d in DIR_ORDER
                ]
            )
            done = len(v.draft.path) if v.draft else 0
            k = (v.draft.k if v.draft else None) or 0
            back_to_anchor = done == 0 and self._forced_anchor(s)
            last = [
                Btn(HOLE, Hole("u").code())
                if back_to_anchor
                else self._act(t("cc.btn.undo"), Action(type=T.UNDO)),
                self._act(t("cc.btn.cancel"), Action(type=T.CANCEL)),
            ]
            if v.phase == Phase.READY:
                last.append(self._act(t("cc.btn.confirm"), Action(type=T.CONFIRM)))
            if k >= 2:  # a row for the whole path (k does not change while drawing)
                room = MAX_BUTTONS - len(rows[0]) - len(last)  # 3: the centre's first path
                runs = [  # may offer four (every other tip has an owned neighbour)
                    Btn(f"{ARROWS[d]}×{n}", Straight(d).code())
                    for d in DIR_ORDER
                    if d in steps and (n := self._straight(s, d)) > 1
                ][:room]
                rows.append(runs or [Btn(HOLE, Hole("s").code())])
            rows.append(last)
        return rows

    def _forced_k(self, s: State) -> bool:
        """Only one number is allowed this turn: the bot chooses it (`forced`)."""
        return phase(s) is Phase.PICK_K and self.game.forced(s) is not None

    def _forced_anchor(self, s: State) -> bool:
        """The drawn path's number has a single anchor (the bot chose it: `forced`)."""
        if phase(s) is not Phase.DRAW or s.draft.path:
            return False
        try:
            back, _ev = self.game.apply(s, Action(type=T.UNDO))
        except IllegalAction:
            return False
        return self.game.forced(back) is not None

    def _straight(self, s: State, d: Direction) -> int:
        """How many steps in direction `d` finish the path (0 when they can't)."""
        k = s.draft.k or 0
        remaining = k - len(s.draft.path)
        cur = s
        for _ in range(remaining):
            if d not in self.game.view(cur, None).steps:
                return 0
            cur, _ev = self.game.apply(cur, Action(type=T.STEP, dir=d))
        return remaining

    # ---------------------------------------------------------------- hand

    def hand_popup(self, state: State, user: int, t: Translator) -> str:
        return t("cc.no_hand")

    # ---------------------------------------------------------------- pressing

    def press(self, s: State, user: int, pressed: object, c: TableCtx[Ui]) -> Outcome[State, Ui]:
        t = c.t
        match pressed:
            case Hole(what=what):  # nothing happens, the reason is told privately
                ready = phase(s) is Phase.READY
                key = {
                    "u": "cc.refuse.no_undo",
                    "c": "cc.error.path_incomplete",  # the progress of an older keyboard
                    "s": "cc.error.path_complete" if ready else "cc.refuse.no_straight",
                }.get(what, "cc.error.path_complete" if ready else "cc.error.dead_end")
                return Outcome(state=s, toast=t(key), changed=False)
            case ToPage(n=n):
                return Outcome(state=s, ui=Ui(page=Page(n=n, v=s.version)))
            case Straight(dir=d):
                n = self._straight(s, d)
                if n == 0:
                    raise IllegalAction("dead_end")
                actions = [Action(type=T.STEP, dir=d)] * n
            case Action():
                actions = [pressed]
            case _:
                raise Refusal(t("press.outdated"))
        events: list[Event] = []
        for a in actions:
            s, ev = self.game.apply(s, a)
            events.extend(ev)
        return Outcome(state=s, events=events, ui=Ui())

    # ---------------------------------------------------------------- narration

    def narrate(self, events: list[Event], state: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        lines: list[str] = []
        for e in events:
            match e.data:
                case Captured(player=player, cells=cells):
                    where = cells[0] if len(cells) == 1 else f"{cells[0]}–{cells[-1]}"
                    lines.append(
                        t("cc.ev.captured", name=c.name(player), n=len(cells), where=where)
                    )
                case Stuck(player=player):
                    lines.append(t("cc.ev.stuck", name=c.name(player)))
                case RoundStarted(round=n, order=order):
                    names = ", ".join(c.name(p) for p in order)
                    lines.append(t("cc.ev.round", round=n, order=names))
                case PlayerLeft(player=player):
                    lines.append(t("cc.ev.left", name=c.name(player)))
        return lines

    def summaries(self, events: list[Event], state: State, c: TableCtx[Ui]) -> list[str]:
        t = c.t
        out: list[str] = []
        for e in events:
            if not isinstance(e.data, GameOver):
                continue
            lines = [t("cc.final.title")]
            for st in e.data.standings:
                crown = " 🏆" if st.player in e.data.winners else ""
                lines.append(
                    t(
                        "cc.final.line",
                        place=st.place,
                        name=c.name(st.player),
                        cells=t.plural(st.score, "unit.cell"),
                    )
                    + crown
                )
            out.append("\n".join(lines))
        return out


def make_presenter(settings: Settings | None) -> CellCapturePresenter:
    return CellCapturePresenter()
