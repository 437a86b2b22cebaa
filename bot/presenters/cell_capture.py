"""«Захват клеток» at the table: a full-information game, so the keyboard simply offers
what the public view says is possible (numbers, anchors, arrows).

- A forced choice is not asked (spec §5, Decision UI): one allowed number or one offered
  anchor is applied by `advance`; the button that would lead back to it is not shown.
- Anchors come in pages (spec §5): up to 8 on one page, else 6 per page with ◀ ▶.
- While a path is drawn the keyboard keeps one layout: the four arrows always in the order
  ⬆️ ➡️ ⬇️ ⬅️, a direction that is closed now stays as a «·» placeholder (so a fast double
  tap lands on the same arrow or on nothing), then (for k ≥ 2) the compound arrows «➡️×3»
  (the rest of the path straight in one direction) in the same columns, then ↩ / ✖ / ✅
  (✅ shows the progress «2 из 3» until the path is complete).
"""

from __future__ import annotations

import html
from typing import Any

from bot.config import Settings
from bot.presenters.base import Btn, Outcome, Presenter, Refusal, shown_page
from games import Event, IllegalAction
from games.cell_capture import GAME, Action, ActionType, CellCaptureGame, Direction, Phase, State
from games.cell_capture.engine import allowed_numbers, phase
from games.cell_capture.model import DIR_ORDER
from locales import Translator

T = ActionType
ARROWS: dict[Direction, str] = {
    Direction.UP: "⬆️",
    Direction.RIGHT: "➡️",
    Direction.DOWN: "⬇️",
    Direction.LEFT: "⬅️",
}
SWATCH: tuple[str, ...] = ("🟥", "🟦", "🟩", "🟧", "🟪", "🩵")
MAX_STEPS = 20
ONE_PAGE = 8  # anchors on a single page (+ «↩ Другое число»: 9 buttons)
PAGE = 6  # anchors per page when there are more (+ ◀ ▶)
HOLE = "·"  # a placeholder: the button's place is kept, it does nothing now


class CellCapturePresenter(Presenter[State]):
    game_id = "cell_capture"
    strings = "cc"
    title_key = "game.cell_capture.title"
    title_short_key = "game.cell_capture.short"
    aliases = ("захват клеток", "захват", "клетки", "cell capture", "cells")
    game: CellCaptureGame

    def __init__(self) -> None:
        self.game = GAME

    def _name(self, names: dict[int, str], user: int | None) -> str:
        if user is None:
            return "?"
        return html.escape(names.get(user) or str(user))

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
        lines = [t("cc.header", round=v.round_no, size=v.size, free=v.free_cells)]
        who = self._name(names, v.to_act)
        colour = SWATCH[v.to_act_seat % len(SWATCH)] if v.to_act_seat is not None else ""
        k = v.draft.k if v.draft else None
        if v.over:
            winners = ", ".join(self._name(names, w) for w in v.winners)
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
        for p in v.players:
            mark = "▶ " if p.seat == v.to_act_seat and not v.over else ""
            name = self._name(names, p.player)
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

    # ---------------------------------------------------------------- keyboard

    def keyboard(
        self, s: State, ui: dict[str, Any], names: dict[int, str], t: Translator
    ) -> list[list[Btn]]:
        v = self.game.view(s, None)
        if v.over:
            return []
        rows: list[list[Btn]] = []
        if v.phase == Phase.PICK_K:
            nums = [Btn(t("cc.btn.k", k=k), f"k.{k}") for k in v.allowed]
            rows += [nums[i : i + 6] for i in range(0, len(nums), 6)]
        elif v.phase == Phase.PICK_ANCHOR:
            anchors = [Btn(f"⚓ {a}", f"a.{a}") for a in v.offered_anchors]
            if len(anchors) <= ONE_PAGE:
                rows += [anchors[i : i + 4] for i in range(0, len(anchors), 4)]
            else:
                pages = -(-len(anchors) // PAGE)
                page = shown_page(ui, s.version, pages)
                shown = anchors[page * PAGE : (page + 1) * PAGE]
                rows += [shown[i : i + 3] for i in range(0, len(shown), 3)]
                rows.append(
                    [
                        Btn("◀", f"p.{(page - 1) % pages}"),
                        Btn(f"{page + 1}/{pages}", f"p.{page}"),
                        Btn("▶", f"p.{(page + 1) % pages}"),
                    ]
                )
            if not self._forced_k(s):  # «back» would only choose the same number again
                rows.append([Btn(t("cc.btn.back"), "b")])
        elif v.phase in (Phase.DRAW, Phase.READY):
            steps = set(v.steps)
            rows.append(
                [
                    Btn(ARROWS[d], f"s.{d.value}") if d in steps else Btn(HOLE, f"z.{d.value}")
                    for d in DIR_ORDER
                ]
            )
            straight: list[Btn] = []
            for d in DIR_ORDER:
                n = self._straight(s, d) if d in steps else 0
                straight.append(
                    Btn(f"{ARROWS[d]}×{n}", f"r.{d.value}") if n > 1 else Btn(HOLE, f"z.{d.value}")
                )
            done = len(v.draft.path) if v.draft else 0
            k = (v.draft.k if v.draft else None) or 0
            if k >= 2:  # the same for the whole path (k does not change while drawing)
                rows.append(straight)
            back_to_anchor = done == 0 and self._forced_anchor(s)
            rows.append(
                [
                    Btn(HOLE, "z.u") if back_to_anchor else Btn(t("cc.btn.undo"), "u"),
                    Btn(t("cc.btn.cancel"), "x"),
                    Btn(t("cc.btn.confirm"), "c")
                    if v.phase == Phase.READY
                    else Btn(t("cc.btn.progress", done=done, k=k), "z.c"),
                ]
            )
        return rows

    def _seat(self, s: State) -> int | None:
        return None if s.over else s.order[s.turn_idx]

    def _forced_k(self, s: State) -> bool:
        """Only one number is allowed this turn: `advance` chooses it by itself."""
        seat = self._seat(s)
        return seat is not None and len(allowed_numbers(s, seat)) == 1

    def _forced_anchor(self, s: State) -> bool:
        """The drawn path's number has a single anchor (`advance` chose it by itself)."""
        if phase(s) is not Phase.DRAW or s.draft.path:
            return False
        try:
            back, _ev = self.game.apply(s, Action(type=T.UNDO))
        except IllegalAction:
            return False
        return len(self.game.view(back, None).offered_anchors) == 1

    def advance(self, state: State, ui: dict[str, Any], now: float) -> Outcome[State]:
        """A forced choice is not asked: one allowed number, then one offered anchor, are
        applied at once (spec §5, Decision UI)."""
        s = state
        events: list[Event] = []
        changed = False
        for _ in range(2):
            if s.over:
                break
            v = self.game.view(s, None)
            if v.phase == Phase.PICK_K and len(v.allowed) == 1:
                a = Action(type=T.CHOOSE_K, k=v.allowed[0])
            elif v.phase == Phase.PICK_ANCHOR and len(v.offered_anchors) == 1:
                a = Action(type=T.CHOOSE_ANCHOR, cell=v.offered_anchors[0])
            else:
                break
            s, ev = self.game.apply(s, a)
            events.extend(ev)
            changed = True
        return Outcome(state=s, events=events, ui=ui, changed=changed)

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

    def press(
        self,
        state: State,
        user: int,
        code: str,
        ui: dict[str, Any],
        t: Translator,
        now: float,
    ) -> Outcome[State]:
        s = state
        head, _, arg = code.partition(".")
        events: list[Event] = []
        if head == "z":  # a placeholder: nothing happens, the reason is told privately
            key = {
                "u": "cc.refuse.no_undo",
                "c": "cc.error.path_incomplete",
            }.get(arg, "cc.error.path_complete" if phase(s) is Phase.READY else "cc.error.dead_end")
            return Outcome(state=s, ui=ui, toast=t(key), changed=False)
        if head == "p" and arg.isdigit():
            ui = {**ui, "page": {"n": int(arg), "v": s.version}}
            return Outcome(state=s, ui=ui)
        try:
            if head == "k" and arg.isdigit():
                actions = [Action(type=T.CHOOSE_K, k=int(arg))]
            elif head == "a":
                actions = [Action(type=T.CHOOSE_ANCHOR, cell=arg)]
            elif head == "s":
                actions = [Action(type=T.STEP, dir=Direction(arg))]
            elif head == "r":
                d = Direction(arg)
                n = self._straight(s, d)
                if n == 0:
                    raise IllegalAction("dead_end")
                actions = [Action(type=T.STEP, dir=d)] * n
            elif head in ("b", "u", "x", "c"):
                kind = {"b": T.BACK, "u": T.UNDO, "x": T.CANCEL, "c": T.CONFIRM}[head]
                actions = [Action(type=kind)]
            else:
                raise Refusal(t("press.outdated"))
        except ValueError as e:
            raise Refusal(t("press.outdated")) from e
        for a in actions:
            s, ev = self.game.apply(s, a)
            events.extend(ev)
        ui = {x: y for x, y in ui.items() if x != "page"}
        return Outcome(state=s, events=events, ui=ui)

    def turn_id(self, s: State) -> str | None:
        if s.over:
            return None
        return f"{s.round_no}:{s.turn_idx}"

    def timeout_move(self, state: State, user: int) -> Outcome[State]:
        s = state
        events: list[Event] = []
        for a in self.game.auto_actions(s):
            s, ev = self.game.apply(s, a)
            events.extend(ev)
        return Outcome(state=s, events=events)

    # ---------------------------------------------------------------- narration

    def narrate(
        self, events: list[Event], state: State, names: dict[int, str], t: Translator
    ) -> list[str]:
        lines: list[str] = []
        for e in events:
            d = e.data
            who = self._name(names, d.get("player"))
            if e.type == "captured":
                cells = list(d.get("cells") or [])
                where = cells[0] if len(cells) == 1 else f"{cells[0]}–{cells[-1]}"
                lines.append(
                    t(
                        "cc.ev.captured",
                        name=who,
                        n=len(cells),
                        where=where,
                    )
                )
            elif e.type == "stuck":
                lines.append(t("cc.ev.stuck", name=who))
            elif e.type == "round_start":
                order = ", ".join(self._name(names, p) for p in d.get("order") or [])
                lines.append(t("cc.ev.round", round=d.get("round"), order=order))
            elif e.type == "player_left":
                lines.append(t("cc.ev.left", name=who))
        return lines

    def summaries(
        self, events: list[Event], state: State, names: dict[int, str], t: Translator
    ) -> list[str]:
        out: list[str] = []
        for e in events:
            if e.type != "game_over":
                continue
            lines = [t("cc.final.title")]
            for st in e.data.get("standings") or []:
                player = int(st["player"])
                crown = " 🏆" if player in (e.data.get("winners") or []) else ""
                lines.append(
                    t(
                        "cc.final.line",
                        place=st["place"],
                        name=self._name(names, player),
                        cells=t.plural(int(st["score"]), "unit.cell"),
                    )
                    + crown
                )
            out.append("\n".join(lines))
        return out


def make_presenter(settings: Settings | None) -> CellCapturePresenter:
    return CellCapturePresenter()
