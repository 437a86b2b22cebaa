"""«Семидорожник» at the table: caption, public keyboard, compound buttons, narration.

The group keyboard depends only on the public phase and board, never on a hand: every
button is resolved against the acting player's legal actions when he presses it, and
refused privately with the engine's reason when nothing matches. Compound buttons
expand into several atomic actions:

- «▶ Дорожка k»: the longest run of his tiles on track k (colours, a white when the
  colour is missing; removes a block with a white first);
- «▶ Выставить всё»: that on every available track and the centre; if nothing fits,
  it draws from the bank until a tile fits (R44) and places it. A player who could
  play a priority tile instead of drawing (R48) is told so first, privately, once a
  turn; pressed again, it draws on;
- «📥 Взять из кассы»: draws until a tile fits, or one tile at a time while a priority
  tile could be played instead (R48);
- «✅ Закончить ход»: END_PLACING + END_TURN;
- the priority menu's «после хода» uses: WAIVE when it applies, else END_PLACING + AFTER_MOVE.
  Its plain buttons spend only the original tile; «✨ Универсальной…» opens the same
  menu for the universal, which is never spent in place of a missing original.

Every hint and refusal that says nothing fits names the priority tiles the player could
play; a refusal for a missing tile names it («нужна 🟧 оранжевая или ⬜ белая»).

A typical turn is three taps: «Два кубика», «▶ Выставить всё», «✅ Закончить ход». A turn
in which, after the roll, nothing can be placed, drawn or played is ended by the bot,
and the table says so in one line (R66).
"""

from __future__ import annotations

import hashlib
import html
from collections import Counter
from typing import Any

from pydantic import BaseModel

from bot.config import Settings
from bot.names import shorten
from bot.presenters.base import (
    Btn,
    LengthChoice,
    Outcome,
    Presenter,
    Refusal,
    language_key,
)
from games import Event, IllegalAction
from games.engine import Batch
from games.seven_tracks import (
    GAME,
    Action,
    ActionType,
    Phase,
    SevenTracks,
    State,
    Status,
    View,
)
from games.seven_tracks.engine import op_targets, turn_is_dead
from games.seven_tracks.model import (
    BLACK,
    COLOURS,
    EXCHANGE,
    FIRST_MOVE,
    KINDS,
    OPPOSITE,
    PREVIOUS,
    RESTRICT,
    SHIFTS,
    SKIP,
    T7,
    UNIVERSAL,
    WHITE,
    Mode,
    expected_colour,
    is_white_like,
    kind_of,
)
from locales import DEFAULT_LANGUAGE, Translator

T = ActionType

EMOJI: dict[str, str] = {
    "R": "🟥",
    "O": "🟧",
    "Y": "🟨",
    "G": "🟩",
    "C": "🩵",
    "B": "🟦",
    "V": "🟪",
    "W": "⬜",
    "K": "⬛",
    "SK": "⏭",
    "PV": "⏮",
    "OP": "🔄",
    "RS": "⛔",
    "FM": "🥇",
    "EX": "🔀",
    "U": "✨",
}
ROLE_ORDER: tuple[str, ...] = (SKIP, PREVIOUS, OPPOSITE, RESTRICT)
MAX_STEPS = 60


def tiles_text(kinds: list[str], compact: bool = True) -> str:
    """'🟥×2 🟨 ⬜' in KINDS order."""
    counts = Counter(kinds)
    parts = []
    for k in KINDS:
        n = counts.get(k, 0)
        if n:
            parts.append(EMOJI[k] + (f"×{n}" if n > 1 else ""))
    return (" " if compact else ", ").join(parts)


def _seat_user(state: State, seat: int | None) -> int | None:
    if seat is None or not 0 <= seat < len(state.players):
        return None
    return state.players[seat]


class SevenTracksPresenter(Presenter):
    game_id = "seven_tracks"
    title_key = "game.seven_tracks.title"
    title_short_key = "game.seven_tracks.short"
    aliases = ("семидорожник", "7", "шестигранник", "seven tracks", "seventracks", "st")
    game: SevenTracks

    def __init__(self, first_move_seconds: float = 20.0) -> None:
        self.game = GAME
        self.first_move_seconds = first_move_seconds

    # ---------------------------------------------------------------- lobby

    def choices(self) -> list[LengthChoice]:
        return [
            LengthChoice("r1", "game.seven_tracks.len.one_round", {"single_round": True}),
            LengthChoice("s72", "game.seven_tracks.len.to72", {"target_score": 72}),
            LengthChoice("s144", "game.seven_tracks.len.to144", {"target_score": 144}),
        ]

    # ---------------------------------------------------------------- helpers

    def _st(self, state: BaseModel) -> State:
        assert isinstance(state, State)
        return state

    def actor(self, state: BaseModel) -> int | None:
        s = self._st(state)
        if s.phase == Phase.FIRST_MOVE:
            return None  # the window is open to everyone at once (DESIGN)
        return self.game.to_act(s)

    def versioned(self, code: str) -> bool:
        return code not in ("fmd", "fmp")

    def seq_changes(self, old: BaseModel, new: BaseModel) -> bool:
        """Inside one first-move window nothing visible changes (its buttons carry no
        version): the table must not reveal that the window moved on past someone."""
        a, b = self._st(old), self._st(new)
        if a.phase == b.phase == Phase.FIRST_MOVE and (a.round_no, a.cycle_no) == (
            b.round_no,
            b.cycle_no,
        ):
            return False
        return super().seq_changes(old, new)

    def public_view(self, state: BaseModel) -> View:
        """The table's view; in the first-move window it names nobody: whose decision is
        pending would tell who holds the FM or a universal."""
        s = self._st(state)
        v = self.game.view(s, None)
        if s.phase == Phase.FIRST_MOVE:
            v = v.model_copy(update={"current": None})
        return v

    def _name(self, names: dict[int, str], state: State, seat: int | None) -> str:
        user = _seat_user(state, seat)
        if user is None:
            return "?"
        return html.escape(names.get(user) or str(user))

    # ---------------------------------------------------------------- caption

    def caption(
        self,
        state: BaseModel,
        names: dict[int, str],
        ui: dict[str, Any],
        log: list[str],
        t: Translator,
    ) -> str:
        s = self._st(state)
        v = self.public_view(s)
        length = t("st.len_one_round") if v.single_round else t("st.len_target", n=v.target_score)
        lines = [t("st.header", round=v.round_no, length=length)]
        who = self._name(names, s, v.current)
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
            winners = ", ".join(html.escape(names.get(w) or str(w)) for w in v.winners)
            lines.append(t("st.phase.game_over", names=winners or "—"))
        if v.phase in (Phase.PLACING, Phase.POST_MOVE, Phase.EXCHANGE) and turn.get("dice"):
            dice = " ".join(f"[{d}]" for d in turn["dice"])
            tracks = [int(k) for k in turn.get("modes", {}) if int(k) != T7]
            where = ", ".join(str(k) for k in sorted(tracks))
            if turn.get("is_double"):
                where += t("st.and_centre")
            lines.append(
                t(
                    "st.dice",
                    dice=dice,
                    tracks=where or "—",
                    draws=turn.get("draws", 0),
                    max=s.options.max_draws,
                )
            )
        menu = ui.get("menu")
        if menu and v.phase not in (Phase.FIRST_MOVE, Phase.GAME_OVER):
            lines.append(self._menu_title(str(menu), t))
        if turn.get("restricted") or v.restricted_left:
            lines.append(t("st.restricted", n=v.restricted_left))
        if turn.get("final") or v.final_left:
            lines.append(t("st.final", n=v.final_left))
        store = tiles_text([kind_of(x) for x in v.store])
        lines.append(t("st.bank", n=v.bank_size, store=store or "—"))
        if log:
            lines.append("")
            lines.extend(log[-3:])
        lines.append("")
        for p in v.players:
            name = html.escape(names.get(p.player) or str(p.player))
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

    def _menu_title(self, menu: str, t: Translator) -> str:
        if menu.startswith("t") and menu[1:].isdigit():
            k = int(menu[1:])
            if k == T7:
                return t("st.menu.centre")
            return t("st.menu.track", k=k)
        return t(f"st.menu.{menu}")

    # ---------------------------------------------------------------- keyboard

    def keyboard(
        self, state: BaseModel, ui: dict[str, Any], names: dict[int, str], t: Translator
    ) -> list[list[Btn]]:
        s = self._st(state)
        v = self.game.view(s, None)  # public view only: the keyboard must not leak a hand
        hand = Btn(t("st.btn.hand"), "hand")
        menu = str(ui.get("menu") or "")
        if v.phase == Phase.FIRST_MOVE:
            return [
                [Btn(t("st.btn.fm_declare"), "fmd")],
                [Btn(t("st.btn.fm_pass"), "fmp"), hand],
            ]
        if v.phase == Phase.GAME_OVER:
            return []
        if v.phase == Phase.EXCHANGE:
            kinds = [
                *COLOURS,
                WHITE,
                BLACK,
                SKIP,
                PREVIOUS,
                OPPOSITE,
                RESTRICT,
                FIRST_MOVE,
                EXCHANGE,
                UNIVERSAL,
            ]
            rows = [[Btn(EMOJI[k], f"xa.{k}") for k in kinds[i : i + 4]] for i in range(0, 16, 4)]
            rows.append([Btn(t("st.btn.exchange_confirm", n=v.exchange_size or 0), "xc"), hand])
            return rows
        if menu in ("pri", "priu"):
            rows = self._priority_menu(s, names, t, universal=menu == "priu")
            back = "m.pri" if menu == "priu" else "back"
            return [*rows, [Btn(t("st.btn.back"), back), hand]]
        if menu == "fs" and v.phase == Phase.PRE_MOVE:
            kinds = [*COLOURS, WHITE, BLACK]
            rows = [[Btn(EMOJI[k], f"fs.{k}") for k in kinds[i : i + 5]] for i in range(0, 9, 5)]
            rows.append([Btn(t("st.btn.back"), "back"), hand])
            return rows
        if menu.startswith("t") and v.phase == Phase.PLACING:
            k = int(menu[1:]) if menu[1:].isdigit() else 0
            if k == T7 and s.turn.is_double:
                # only the colours the centre still lacks, and none after a restricted
                # turn's one tile (R37, R56)
                taken = {kind_of(x) for x in s.t7}
                done_one = s.turn.restricted and s.turn.placed_total > 0
                free = [Btn(EMOJI[c], f"t7.{c}") for c in COLOURS if c not in taken]
                rows = [free[:4], free[4:]] if free and not done_one else []
                rows = [r for r in rows if r] or [[Btn(t("st.menu.centre_nothing"), "noop")]]
                rows.append([Btn(t("st.btn.back"), "back"), hand])
                return rows
            if k in s.turn.modes and k != T7:
                return [*self._track_menu(s, k, t), [Btn(t("st.btn.back"), "back"), hand]]
        if v.phase == Phase.PRE_MOVE:
            return [
                [Btn(t("st.btn.one_die"), "cd1"), Btn(t("st.btn.two_dice"), "cd2")],
                [Btn(t("st.btn.priority"), "m.pri"), hand],
            ]
        if v.phase == Phase.PLACING:
            rows = [[Btn(t("st.btn.place_all"), "all")]]
            tracks = sorted(k for k in s.turn.modes if k != T7)
            for k in tracks:
                rows.append(
                    [
                        Btn(t("st.btn.run", k=k), f"run{k}"),
                        Btn(t("st.btn.track_menu", k=k), f"m.t{k}"),
                    ]
                )
            if s.turn.is_double:
                rows.append(
                    [Btn(t("st.btn.centre_all"), "t7all"), Btn(t("st.btn.centre_menu"), "m.t7")]
                )
            extra = []
            if s.turn.double_six:
                in_store = {kind_of(x) for x in s.store}
                if WHITE in in_store:
                    extra.append(Btn(t("st.btn.bonus_white"), "tb.W"))
                if UNIVERSAL in in_store:
                    extra.append(Btn(t("st.btn.bonus_universal"), "tb.U"))
            if self._black_discards_left(s):
                extra.append(Btn(t("st.btn.discard_black"), "db"))
            if extra:
                rows.append(extra)
            rows.append([Btn(t("st.btn.draw"), "dr"), Btn(t("st.btn.end_turn"), "end")])
            rows.append([Btn(t("st.btn.priority"), "m.pri"), hand])
            return rows
        if v.phase == Phase.POST_MOVE:
            return [
                [Btn(t("st.btn.end_turn"), "end")],
                [Btn(t("st.btn.priority"), "m.pri"), hand],
            ]
        return [[hand]]

    def _role_buttons(
        self, s: State, prefix: str, names: dict[int, str], t: Translator, universal: bool = False
    ) -> list[Btn]:
        out: list[Btn] = []
        code = prefix + ("u" if universal else "")

        def label(text: str) -> str:
            return t("st.role_u", role=text) if universal else text

        for role in ROLE_ORDER:
            if role == OPPOSITE:
                for target in op_targets(s, s.current):
                    if target is None:
                        out.append(Btn(label(t(f"st.role.{role}")), f"{code}.{role}"))
                    else:
                        user = s.players[target]
                        name = shorten(names.get(user) or "?", 14)  # between clusters
                        text = label(t("st.role.OP_to", name=name))
                        out.append(Btn(text, f"{code}.{role}.{target}"))
            else:
                out.append(Btn(label(t(f"st.role.{role}")), f"{code}.{role}"))
        return out

    def _priority_menu(
        self, s: State, names: dict[int, str], t: Translator, universal: bool = False
    ) -> list[list[Btn]]:
        """The priority tiles by public facts. The plain buttons spend only the original
        tile; «✨ Универсальной…» opens the same menu whose buttons spend the universal,
        so a 25-point universal is never spent without the player choosing it."""
        turn = s.turn
        rows: list[list[Btn]] = []
        u = "u" if universal else ""
        exchange = Btn(
            t("st.role_u", role=t("st.btn.exchange")) if universal else t("st.btn.exchange"),
            "xb" + u,
        )

        def chunk(btns: list[Btn], n: int = 2) -> list[list[Btn]]:
            return [btns[i : i + n] for i in range(0, len(btns), n)]

        if s.phase == Phase.PRE_MOVE:
            if not turn.restricted and not turn.final:
                rows.append([Btn(t("st.menu.instead_label"), "noop")])
                rows += chunk(self._role_buttons(s, "im", names, t, universal))
            elif turn.restricted and not universal:
                rows.append([Btn(t("st.btn.cancel_restriction"), "cr")])
            if universal:
                rows.append([exchange])
            else:
                rows.append([exchange, Btn(t("st.btn.fifth_swap"), "m.fs")])
        elif s.phase == Phase.PLACING:
            if not turn.board_action_done and not turn.priority_used:
                rows.append([Btn(t("st.menu.shift_label"), "noop")])
                shift_btns = []
                for die, track in enumerate(turn.die_tracks):
                    for role in (SKIP, OPPOSITE, PREVIOUS):
                        new = (track - 1 + SHIFTS[role]) % 6 + 1
                        emoji = (EMOJI[UNIVERSAL] if universal else "") + EMOJI[role]
                        shift_btns.append(
                            Btn(
                                t("st.btn.shift", src=track, dst=new, emoji=emoji),
                                f"sh{u}.{die}.{role}",
                            )
                        )
                rows += chunk(shift_btns, 3)
            if turn.restricted and not turn.board_action_done and not universal:
                rows.append([Btn(t("st.btn.cancel_restriction"), "cr")])
            if not turn.priority_used:
                rows.append([Btn(t("st.menu.after_label"), "noop")])
                rows += chunk([*self._role_buttons(s, "am", names, t, universal), exchange])
        elif s.phase == Phase.POST_MOVE and not turn.priority_used:
            rows.append([Btn(t("st.menu.after_label"), "noop")])
            rows += chunk([*self._role_buttons(s, "am", names, t, universal), exchange])
        if not rows:
            rows.append([Btn(t("st.menu.nothing"), "noop")])
        elif not universal and not turn.priority_used and s.phase != Phase.EXCHANGE:
            rows.append([Btn(t("st.btn.universal_menu"), "m.priu")])
        return rows

    def _black_discards_left(self, s: State) -> bool:
        """R39 from public facts: a black discard is still allowed this turn."""
        turn = s.turn
        extra = 1 if s.options.black_discard_on_any_double and turn.is_double else 0
        return not turn.restricted and turn.black_discards < turn.t7_completions + extra

    def _track_menu(self, s: State, k: int, t: Translator) -> list[list[Btn]]:
        """Track k's exact choices, only those the public facts allow now (the hand is
        checked when a button is pressed, and a refusal names the tile that is missing)."""
        track = s.tracks[k - 1]
        turn = s.turn
        rows: list[list[Btn]] = []
        room = not (turn.restricted and turn.placed_total > 0) and not (
            turn.modes.get(k) == Mode.SINGLE and turn.placements.get(k, 0) >= 1
        )
        if track.block is None:
            if room:
                colour = expected_colour(k, len(track.slots) + 1)
                place = [Btn(t("st.btn.place_colour", emoji=EMOJI[colour]), f"pl.{k}.c")]
                if not (track.slots and is_white_like(track.slots[-1])):
                    place += [
                        Btn(t("st.btn.place_white"), f"pl.{k}.W"),
                        Btn(t("st.btn.place_universal"), f"pl.{k}.U"),
                    ]
                rows.append(place)
            placed_here = turn.placements.get(k, 0) > 0 or (
                s.options.black_anywhere_after_move and sum(turn.placements.values()) > 0
            )
            if track.slots and placed_here and not turn.restricted:  # R33, public facts
                block = [Btn(t("st.btn.block"), f"bl.{k}.K")]
                if not turn.priority_used:
                    block.append(Btn(t("st.btn.block_universal"), f"bl.{k}.U"))
                rows.append(block)
            reclaim = [
                Btn(t("st.btn.reclaim", slot=i + 1), f"rc.{k}.{i + 1}")
                for i, x in enumerate(track.slots)
                if is_white_like(x)
            ]
            if reclaim and not turn.restricted:  # R32
                rows.append(reclaim)
        elif room and (track.block.turn != s.turn_no or s.options.allow_same_turn_unblock):  # R35
            rows.append(
                [
                    Btn(t("st.btn.unblock_white"), f"ub.{k}.W"),
                    Btn(t("st.btn.unblock_universal"), f"ub.{k}.U"),
                ]
            )
        if not rows:
            rows.append([Btn(t("st.menu.track_nothing", k=k), "noop")])
        return rows

    # ---------------------------------------------------------------- picture

    def picture_key(self, state: BaseModel, language: str = DEFAULT_LANGUAGE) -> str:
        # the round summary is not drawn: a new round alone must not re-send the picture
        raw = self.public_view(state).model_dump_json(exclude={"last_round"})
        return language_key(hashlib.sha1(raw.encode()).hexdigest()[:16], language)

    # ---------------------------------------------------------------- hand

    def hand_popup(self, state: BaseModel, user: int, t: Translator) -> str:
        s = self._st(state)
        v = self.game.view(s, user)
        hand = [kind_of(x) for x in (v.hand or [])]
        text = t("st.hand", n=len(hand), tiles=tiles_text(hand) or "—")
        hint = self._hint(s, user, t)
        if hint and len(text) + len(hint) < 195:
            text += "\n" + hint
        return text[:200]

    def _hint(self, s: State, user: int, t: Translator) -> str:
        """What fits where now (only for the player to move; private)."""
        if self.game.to_act(s) != user or s.phase != Phase.PLACING:
            return ""
        fits: dict[str, list[str]] = {}
        for a in self.game.legal_actions(s):
            if a.type == T.PLACE and a.track is not None and a.kind is not None:
                fits.setdefault(str(a.track), []).append(a.kind)
            elif a.type == T.PLACE_T7 and a.kind is not None:
                fits.setdefault("7", []).append(a.kind)
        if not fits:
            tiles = self._priority_tiles(s)
            if tiles:
                return t("st.hint_nothing_priority", tiles=self._offer(tiles))
            return t("st.hint_nothing")
        parts = [f"{k}: {tiles_text(kinds)}" for k, kinds in sorted(fits.items())]
        return t("st.hint", fits="; ".join(parts))

    def hand_message(self, state: BaseModel, user: int, t: Translator) -> str | None:
        s = self._st(state)
        if user not in s.players:
            return None
        v = self.game.view(s, user)
        hand = [kind_of(x) for x in (v.hand or [])]
        return t("st.hand_private", n=len(hand), tiles=tiles_text(hand, compact=False) or "—")

    # ---------------------------------------------------------------- pressing

    def _legal(self, s: State) -> list[Action]:
        return self.game.legal_actions(s)

    def _apply(self, s: State, a: Action, events: list[Event]) -> State:
        s2, ev = self.game.apply(s, a)
        events.extend(ev)
        return s2

    def _first_legal(self, s: State, options: list[Action]) -> Action | None:
        return self.game.first_legal(s, options)

    def _do(self, s: State, options: list[Action], events: list[Event]) -> State:
        """Apply the first legal option, or raise the engine's reason for the first one."""
        a = self._first_legal(s, options)
        if a is None:
            self.game.apply(s, options[0])  # raises IllegalAction with the reason
            raise IllegalAction("malformed")
        return self._apply(s, a, events)

    def _still_mine(self, s: State, seat: int, turn_no: int) -> bool:
        return s.current == seat and s.turn_no == turn_no and s.phase == Phase.PLACING

    # The multi-tile presses below apply their tiles on one batch (one copy of the state).

    def _run(
        self, s: State, k: int, events: list[Event], universal: bool = False
    ) -> tuple[State, int]:
        b = self.game.batch(s)
        n = self._run_on(b, k, universal)
        events.extend(b.events)
        return b.state, n

    def _run_t7(self, s: State, events: list[Event]) -> tuple[State, int]:
        b = self.game.batch(s)
        n = self._run_t7_on(b)
        events.extend(b.events)
        return b.state, n

    def _place_all(
        self, s: State, events: list[Event], offer: bool = False
    ) -> tuple[State, int, int]:
        b = self.game.batch(s)
        placed, drawn = self._place_all_on(b, offer)
        events.extend(b.events)
        return b.state, placed, drawn

    def _draw_until(self, s: State, events: list[Event]) -> tuple[State, int]:
        b = self.game.batch(s)
        n = self._draw_on(b)
        events.extend(b.events)
        return b.state, n

    def _run_on(self, b: Batch[State, Action], k: int, universal: bool = False) -> int:
        """The longest run of the mover's tiles on main track k (greedy: colour, else a white;
        a universal as a white only when `universal`)."""
        seat, turn_no = b.state.current, b.state.turn_no
        placed = 0
        for _ in range(MAX_STEPS):
            s = b.state
            if not self._still_mine(s, seat, turn_no):
                break
            track = s.tracks[k - 1]
            if track.block is not None:
                options = [Action(type=T.UNBLOCK, kind=WHITE, track=k)]
                if universal:
                    options.append(Action(type=T.UNBLOCK, kind=UNIVERSAL, track=k))
            else:
                colour = expected_colour(k, len(track.slots) + 1)
                options = [
                    Action(type=T.PLACE, kind=colour, track=k),
                    Action(type=T.PLACE, kind=WHITE, track=k),
                ]
                if universal:
                    options.append(Action(type=T.PLACE, kind=UNIVERSAL, track=k))
            if b.first(options) is None:
                break
            placed += 1
        return placed

    def _run_t7_on(self, b: Batch[State, Action]) -> int:
        seat, turn_no = b.state.current, b.state.turn_no
        placed = 0
        for _ in range(MAX_STEPS):
            if not self._still_mine(b.state, seat, turn_no) or not b.state.turn.is_double:
                break
            if b.first([Action(type=T.PLACE_T7, kind=c) for c in COLOURS]) is None:
                break
            placed += 1
        return placed

    def _everywhere_on(self, b: Batch[State, Action], universal: bool = False) -> int:
        total = 0
        seat, turn_no = b.state.current, b.state.turn_no
        for k in sorted(x for x in b.state.turn.modes if x != T7):
            if not self._still_mine(b.state, seat, turn_no):
                break
            total += self._run_on(b, k, universal)
        if self._still_mine(b.state, seat, turn_no) and b.state.turn.is_double:
            total += self._run_t7_on(b)
        return total

    def _place_all_on(self, b: Batch[State, Action], offer: bool = False) -> tuple[int, int]:
        """«Выставить всё»: the longest runs everywhere; while the obligation is unmet and
        the bank allows, draw until a tile fits and place again (R42–R45)."""
        seat, turn_no = b.state.current, b.state.turn_no
        placed = drawn = 0
        for _ in range(MAX_STEPS):
            placed += self._everywhere_on(b)
            if not self._still_mine(b.state, seat, turn_no):
                break
            if offer and b.state.turn.draws == 0 and self._waivable(b.state):
                # R48: he may play a priority tile instead of drawing: stop and tell him
                # (once a turn); pressed again, or once he has drawn, it draws on.
                break
            d = self._draw_on(b)
            drawn += d
            if d:
                continue
            # the only tile that fits may be a universal: use it rather than stall
            legal = self._legal(b.state)
            if not any(a.type in (T.DRAW, T.END_PLACING) for a in legal):
                n = self._everywhere_on(b, universal=True)
                placed += n
                if n:
                    continue
            break
        return placed, drawn

    def _draw_on(self, b: Batch[State, Action]) -> int:
        seat, turn_no = b.state.current, b.state.turn_no
        drawn = 0
        for _ in range(MAX_STEPS):
            if not self._still_mine(b.state, seat, turn_no):
                break
            if b.first([Action(type=T.DRAW)]) is None:
                break
            drawn += 1
        return drawn

    def _waivable(self, s: State) -> bool:
        """R48: nothing fits, and he may play a priority tile instead of (more) drawing."""
        return any(a.type == T.WAIVE for a in self._legal(s))

    def _priority_tiles(self, s: State) -> list[str]:
        """The priority tiles the mover could play now instead of placing or drawing (a
        waive, a shift, or an after-move use once his placing may end); private."""
        if s.phase != Phase.PLACING:
            return []
        kinds: set[str] = set()
        legal = self._legal(s)
        kinds.update(a.kind for a in legal if a.type in (T.WAIVE, T.SHIFT) and a.kind)
        if any(a.type == T.END_PLACING for a in legal):
            s2, _ = self.game.apply(s, Action(type=T.END_PLACING))
            if s2.phase == Phase.POST_MOVE and s2.current == s.current:
                kinds.update(
                    a.kind
                    for a in self._legal(s2)
                    if a.type in (T.AFTER_MOVE, T.EXCHANGE_BEGIN) and a.kind
                )
        order = (*ROLE_ORDER, EXCHANGE, UNIVERSAL)
        return [k for k in order if k in kinds]

    @staticmethod
    def _offer(tiles: list[str]) -> str:
        return " / ".join(EMOJI[k] for k in tiles)

    def _priority_options(
        self, s: State, prefix: str, role: str, target: int | None, universal: bool = False
    ) -> list[Action]:
        types = {"im": [T.INSTEAD_OF_MOVE], "am": [T.WAIVE, T.AFTER_MOVE]}[prefix]
        kind = UNIVERSAL if universal else role
        return [Action(type=tp, kind=kind, role=role, target=target) for tp in types]

    def _spend(
        self,
        s: State,
        build: Any,
        universal: bool,
        tile: str,
        events: list[Event],
        t: Translator,
        after_move: bool = False,
    ) -> State:
        """A priority use with the original tile, or with the universal when he chose it
        («✨ Универсальной…»); never the universal in place of a missing original. In
        PLACING an after-move use that is not a waive ends the placing first."""
        options: list[Action] = build(universal)
        if self._first_legal(s, options) is not None:
            return self._do(s, options, events)
        self._no_original(s, build, universal, tile, t)
        if after_move and s.phase == Phase.PLACING:
            trial: list[Event] = []
            s2 = self._do(s, [Action(type=T.END_PLACING)], trial)
            if s2.phase == Phase.POST_MOVE and s2.current == s.current:
                chosen = self._first_legal(s2, options)
                if chosen is None:
                    self._no_original(s2, build, universal, tile, t)
                    self.game.apply(s2, options[-1])  # raises the engine's reason
                    raise IllegalAction("malformed")
                events.extend(trial)
                return self._apply(s2, chosen, events)
        return self._do(s, options, events)  # raises the engine's reason

    def _no_original(self, s: State, build: Any, universal: bool, tile: str, t: Translator) -> None:
        """He lacks the original but the universal would do: say so, spend nothing."""
        if not universal and self._first_legal(s, build(True)) is not None:
            raise Refusal(t("st.refuse.use_universal", tile=EMOJI[tile]))

    def press(
        self,
        state: BaseModel,
        user: int,
        code: str,
        ui: dict[str, Any],
        t: Translator,
        now: float,
    ) -> Outcome:
        s = self._st(state)
        events: list[Event] = []
        ui = dict(ui)
        parts = code.split(".")
        head = parts[0]

        def done(new: State, toast: str | None = None, keep_menu: bool = False) -> Outcome:
            if not keep_menu:
                ui.pop("menu", None)
            return Outcome(state=new, events=events, ui=ui, toast=toast)

        def menu(name: str | None) -> Outcome:
            if name is None:
                ui.pop("menu", None)
            else:
                ui["menu"] = name
            return Outcome(state=s, ui=ui, visible=True)

        if s.phase == Phase.FIRST_MOVE:
            if head not in ("fmd", "fmp"):
                raise Refusal(t("press.outdated"))
            return self._fm_choice(s, user, head, ui, t)
        if head in ("fmd", "fmp"):
            raise Refusal(t("st.fm_closed"))
        if head == "noop":
            return Outcome(state=s, ui=ui, changed=False, toast=t("st.noop"))
        if head == "back":
            return menu(None)
        if head == "m" and len(parts) == 2:
            name = parts[1]
            if name in ("pri", "priu") or (name == "fs" and s.phase == Phase.PRE_MOVE):
                return menu(name)
            if name.startswith("t") and name[1:].isdigit() and s.phase == Phase.PLACING:
                k = int(name[1:])
                if k in s.turn.modes:
                    return menu(name)
            raise Refusal(t("press.outdated"))
        if head in ("cd1", "cd2"):
            n = 1 if head == "cd1" else 2
            s2 = self._do(s, [Action(type=T.CHOOSE_DICE, n=n)], events)
            dice = " ".join(f"[{d}]" for d in s2.turn.dice)
            return done(s2, t("st.toast.rolled", dice=dice) if s2.turn.dice else None)
        if head == "all":
            turn_key = self.turn_id(s)
            offer = ui.get("offered") != turn_key  # the priority offer, once a turn
            s2, n, drawn = self._place_all(s, events, offer)
            stopped = (
                offer
                and self._still_mine(s2, s.current, s.turn_no)
                and s2.turn.draws == 0
                and self._waivable(s2)
            )
            if stopped:
                ui["offered"] = turn_key
            if n == 0 and drawn == 0:
                try:
                    self._explain_nothing(s, t)
                except Refusal as r:
                    if not stopped:
                        raise
                    # an alert like a refusal, but the offer is remembered for this turn
                    return Outcome(state=s, ui=ui, toast=r.text, alert=True, visible=False)
            toast = t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile"))
            if drawn:
                toast += " " + t("st.toast.drew_count", drawn=t.plural(drawn, "unit.tile"))
            if stopped:
                tiles = self._offer(self._priority_tiles(s2))
                toast += " " + t("st.toast.priority_instead", tiles=tiles)
            return done(s2, toast)
        if head.startswith("run") and head[3:].isdigit():
            k = int(head[3:])
            if k not in s.turn.modes or k == T7:
                raise IllegalAction("track_unavailable")
            s2, n = self._run(s, k, events)
            if n == 0 and not any(a.type in (T.DRAW, T.END_PLACING) for a in self._legal(s)):
                # the universal as a white only when he must place and nothing else fits
                s2, n = self._run(s, k, events, universal=True)
            if n == 0:
                self._explain_run(s, k, t)
            return done(s2, t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile")))
        if head == "t7all":
            s2, n = self._run_t7(s, events)
            if n == 0:
                if not s.turn.is_double:
                    raise IllegalAction("not_double")
                raise Refusal(t("st.refuse.nothing_for_centre"))
            return done(s2, t("st.toast.placed", n=n, placed=t.plural(n, "unit.tile")))
        if head == "t7" and len(parts) == 2:
            return done(self._named(s, Action(type=T.PLACE_T7, kind=parts[1]), events, t))
        if head in ("pl", "bl", "ub", "rc") and len(parts) == 3 and parts[1].isdigit():
            k = int(parts[1])
            arg = parts[2]
            if head == "pl":
                if arg == "c":
                    if not 1 <= k <= 6:
                        raise IllegalAction("track_unavailable")
                    arg = expected_colour(k, len(s.tracks[k - 1].slots) + 1)
                a = Action(type=T.PLACE, kind=arg, track=k)
            elif head == "bl":
                a = Action(type=T.BLOCK, kind=arg, track=k)
            elif head == "ub":
                a = Action(type=T.UNBLOCK, kind=arg, track=k)
            else:
                if not arg.isdigit():
                    raise Refusal(t("press.outdated"))
                a = Action(type=T.RECLAIM, track=k, slot=int(arg))
            s2 = self._named(s, a, events, t)
            return done(s2, keep_menu=self._keep_track_menu(s, s2, k))
        if head == "tb" and len(parts) == 2:
            return done(self._do(s, [Action(type=T.TAKE_BONUS, kind=parts[1])], events))
        if head == "db":
            return done(self._named(s, Action(type=T.DISCARD_BLACK, kind=BLACK), events, t))
        if head == "dr":
            if self._waivable(s):
                # R48: one tile at a time, so that he can stop and play his priority tile
                s2 = self._do(s, [Action(type=T.DRAW)], events)
                note = None
                if self._still_mine(s2, s.current, s.turn_no) and self._waivable(s2):
                    more = any(a.type == T.DRAW for a in self._legal(s2))
                    key = "st.toast.drew_one" if more else "st.toast.drew_one_last"
                    note = t(key, tiles=self._offer(self._priority_tiles(s2)))
                return done(s2, note)
            s2, n = self._draw_until(s, events)
            if n == 0:
                self._do(s, [Action(type=T.DRAW)], events)
            return done(s2)
        if head == "end":
            seat, turn_no = s.current, s.turn_no
            s2 = s
            if s2.phase == Phase.PLACING:
                if self._waivable(s2) and not any(a.type == T.END_PLACING for a in self._legal(s2)):
                    tiles = self._offer(self._priority_tiles(s2))
                    raise Refusal(t("st.refuse.end_priority", tiles=tiles))
                s2 = self._do(s2, [Action(type=T.END_PLACING)], events)
            if s2.phase == Phase.POST_MOVE and s2.current == seat and s2.turn_no == turn_no:
                s2 = self._do(s2, [Action(type=T.END_TURN)], events)
            elif s2 is s:
                raise IllegalAction("wrong_phase")
            return done(s2)
        if head in ("im", "am", "imu", "amu") and len(parts) in (2, 3):
            role = parts[1]
            if role not in ROLE_ORDER:
                raise Refusal(t("press.outdated"))
            target = int(parts[2]) if len(parts) == 3 and parts[2].isdigit() else None
            base = head[:2]

            def roles(universal: bool) -> list[Action]:
                return self._priority_options(s, base, role, target, universal)

            universal = head.endswith("u")
            return done(self._spend(s, roles, universal, role, events, t, base == "am"))
        if head in ("xb", "xbu"):

            def exchange(universal: bool) -> list[Action]:
                kind = UNIVERSAL if universal else EXCHANGE
                return [
                    Action(type=T.EXCHANGE_BEGIN, kind=kind, role=EXCHANGE),
                    Action(type=T.WAIVE, kind=kind, role=EXCHANGE),
                ]

            return done(self._spend(s, exchange, head == "xbu", EXCHANGE, events, t, True))
        if head == "xa" and len(parts) == 2 and parts[1] in KINDS:
            n = (len(s.exchange.selection) + 1) if s.exchange else 0
            s2 = self._do(s, [Action(type=T.EXCHANGE_ADD, kind=parts[1])], events)
            return done(s2, t("st.toast.exchange_added", emoji=EMOJI[parts[1]], n=n))
        if head == "xc":
            return done(self._do(s, [Action(type=T.EXCHANGE_CONFIRM)], events))
        if head == "fs" and len(parts) == 2:
            s2 = self._do(s, [Action(type=T.FIFTH_SWAP, kind=parts[1])], events)
            return done(s2, keep_menu=s2.phase == Phase.PRE_MOVE)
        if head == "cr":
            return done(self._do(s, [Action(type=T.CANCEL_RESTRICTION, kind=UNIVERSAL)], events))
        if head in ("sh", "shu") and len(parts) == 3 and parts[1].isdigit() and parts[2] in SHIFTS:
            die, shift = int(parts[1]), parts[2]

            def shifts(universal: bool) -> list[Action]:
                kind = UNIVERSAL if universal else shift
                return [Action(type=T.SHIFT, kind=kind, role=shift, die=die)]

            return done(self._spend(s, shifts, head == "shu", shift, events, t))
        raise Refusal(t("press.outdated"))

    def _keep_track_menu(self, before: State, after: State, k: int) -> bool:
        """Stay in track k's menu while the same turn can still use it."""
        return (
            after.phase == Phase.PLACING
            and after.current == before.current
            and after.turn_no == before.turn_no
            and k in after.turn.modes
        )

    def _reason(self, s: State, a: Action) -> str | None:
        """The engine's reason why `a` is illegal now, or None."""
        try:
            self.game.apply(s, a)
        except IllegalAction as e:
            return e.code
        return None

    def _need(self, kinds: list[str], t: Translator) -> str:
        names = [t(f"st.tile_name.{k}") for k in kinds]
        return names[0] if len(names) == 1 else t("st.or", a=names[0], b=names[1])

    def _explain_run(self, s: State, k: int, t: Translator) -> None:
        """«▶ Дорожка k» placed nothing: the engine's reason, or the tile that is missing."""
        track = s.tracks[k - 1]
        if track.block is not None:
            white = self._reason(s, Action(type=T.UNBLOCK, kind=WHITE, track=k))
            if white == "no_tile":
                if self._reason(s, Action(type=T.UNBLOCK, kind=UNIVERSAL, track=k)) is None:
                    raise Refusal(t("st.refuse.only_universal", k=k))
                raise Refusal(t("st.refuse.need_unblock", k=k))
            raise IllegalAction(white or "malformed")
        colour = expected_colour(k, len(track.slots) + 1)
        code = self._reason(s, Action(type=T.PLACE, kind=colour, track=k))
        if code != "no_tile":
            raise IllegalAction(code or "malformed")
        if self._reason(s, Action(type=T.PLACE, kind=UNIVERSAL, track=k)) is None:
            raise Refusal(t("st.refuse.only_universal", k=k))
        white = self._reason(s, Action(type=T.PLACE, kind=WHITE, track=k))
        need = [colour] if white == "two_whites" else [colour, WHITE]
        raise Refusal(t("st.refuse.need_track", k=k, need=self._need(need, t)))

    def _named(self, s: State, a: Action, events: list[Event], t: Translator) -> State:
        """Apply an exact choice of «⋯ k»; a missing tile is named in the refusal."""
        try:
            return self._do(s, [a], events)
        except IllegalAction as e:
            if e.code != "no_tile":
                raise
            if a.type == T.RECLAIM and a.track is not None and a.slot is not None:
                need = self._need([expected_colour(a.track, a.slot)], t)
                raise Refusal(t("st.refuse.need_reclaim", need=need)) from None
            raise Refusal(t("st.refuse.need", need=self._need([a.kind or WHITE], t))) from None

    def _explain_nothing(self, s: State, t: Translator) -> None:
        """Nothing fits and nothing can be drawn: say why, privately."""
        legal = self._legal(s)
        tiles = self._priority_tiles(s)
        if tiles:
            offer = self._offer(tiles)
            if any(a.type == T.END_PLACING for a in legal):
                raise Refusal(t("st.refuse.nothing_fits_end_priority", tiles=offer))
            if any(a.type == T.DRAW for a in legal):
                raise Refusal(t("st.refuse.nothing_fits_draw_priority", tiles=offer))
            raise Refusal(t("st.refuse.nothing_fits_priority", tiles=offer))
        if any(a.type == T.END_PLACING for a in legal):
            raise Refusal(t("st.refuse.nothing_fits_end"))
        if any(a.type == T.WAIVE for a in legal):
            raise Refusal(t("st.refuse.nothing_fits_waive"))
        if s.phase != Phase.PLACING:
            raise IllegalAction("wrong_phase")
        raise Refusal(t("st.refuse.nothing_fits"))

    # ---------------------------------------------------------------- turn timer

    def turn_id(self, state: BaseModel) -> str | None:
        s = self._st(state)
        if s.phase in (Phase.FIRST_MOVE, Phase.GAME_OVER):
            return None  # the first-move window has its own short timer
        return f"{s.cycle_no}:{s.round_no}:{s.turn_no}"

    def timeout_move(self, state: BaseModel, user: int) -> Outcome:
        """An absent player's turn, played by the engine's timeout policy (the novice, from
        his view): two dice, place what fits, draw if he must, finish; no priority tile is
        ever spent for him."""
        s = self._st(state)
        events: list[Event] = []
        seat, turn_no = s.current, s.turn_no
        for _ in range(4 * MAX_STEPS):
            if s.current != seat or s.turn_no != turn_no or s.phase == Phase.GAME_OVER:
                break
            s, ev = self.game.timeout(s)
            events.extend(ev)
        return Outcome(state=s, events=events)

    # ---------------------------------------------------------------- first move window

    def _fm_choice(
        self, s: State, user: int, head: str, ui: dict[str, Any], t: Translator
    ) -> Outcome:
        """His answer in the first-move window, applied at once with his seat (R58: all
        answer at the same time). The table is not redrawn until the window closes."""
        seat = s.players.index(user)
        if s.status[seat] != Status.ACTIVE:
            raise Refusal(t("st.fm_not_active"))
        kinds = {kind_of(x) for x in s.hands[seat]}
        if FIRST_MOVE not in kinds and UNIVERSAL not in kinds:
            # Nothing to declare (and passed as the window opened, `advance`): the same
            # answer all through the window, which tells him nothing about the others.
            if head == "fmd":
                raise Refusal(t("st.fm_nothing"))
            return Outcome(state=s, ui=ui, toast=t("st.fm_passed_toast"), changed=False)
        legal = self.game.legal_actions_for(s, user)
        if not legal:
            if FIRST_MOVE not in kinds and s.fm_u_declarer not in (None, seat):
                # another declared his universal first, and he was passed (`advance`)
                if head == "fmd":
                    raise IllegalAction("fm_u_taken")
                return Outcome(state=s, ui=ui, toast=t("st.fm_passed_toast"), changed=False)
            raise Refusal(t("error.fm_answered"))
        if head == "fmd":
            kind = FIRST_MOVE if FIRST_MOVE in kinds else UNIVERSAL
            action = Action(type=T.FM_DECLARE, kind=kind, seat=seat)
            toast = t("st.fm_declared_toast" if kind == FIRST_MOVE else "st.fm_declared_u_toast")
        else:
            action = Action(type=T.FM_PASS, seat=seat)
            toast = t("st.fm_passed_toast")
        new, events = self.game.apply(s, action)  # the engine's reason: `fm_u_taken`
        return Outcome(state=new, events=events, ui=ui, toast=toast, visible=False)

    def _old_choices(self, s: State, ui: dict[str, Any], events: list[Event]) -> State:
        """A window stored before 2026-12 kept the answers not yet applied in the ui
        (`choices`: user → "D" or "P"): they are applied now, with their seats."""
        window = ui.get("fm") or {}
        choices = window.get("choices")
        if not choices:
            return s
        ui["fm"] = {k: v for k, v in window.items() if k != "choices"}
        for user in self.game.deciders(s):
            legal = self.game.legal_actions_for(s, user)
            choice = choices.get(str(user))
            wanted = [a for a in legal if a.type == (T.FM_DECLARE if choice == "D" else T.FM_PASS)]
            if choice in ("D", "P") and wanted and s.phase == Phase.FIRST_MOVE:
                s, ev = self.game.apply(s, wanted[0])
                events.extend(ev)
        return s

    def _pass_the_empty_handed(self, s: State, events: list[Event]) -> State:
        """Everyone still to answer whose only answer is FM_PASS (no FM, and no U or one
        already declared) passes: nobody waits for an answer that is no choice."""
        for user in self.game.deciders(s):
            legal = self.game.legal_actions_for(s, user)
            if s.phase == Phase.FIRST_MOVE and [a.type for a in legal] == [T.FM_PASS]:
                s, ev = self.game.apply(s, legal[0])
                events.extend(ev)
        return s

    def _end_dead_turn(self, s: State, events: list[Event]) -> State:
        """R66 (revised 2026-12): after his roll the player can place nothing, cannot draw
        and can use no priority tile, so END_PLACING and END_TURN are all he can do: the
        bot plays them and the table says so in one line (`turn_auto_ended`)."""
        if not turn_is_dead(s):
            return s
        seat = s.current
        s2, ended = self.game.apply(s, Action(type=T.END_PLACING))
        s3, turned = self.game.apply(s2, Action(type=T.END_TURN))
        events.append(Event(type="turn_auto_ended", seat=seat))
        events.extend(e for e in [*ended, *turned] if e.type != "placing_ended")
        return s3

    def advance(self, state: BaseModel, ui: dict[str, Any], now: float) -> Outcome:
        s = self._st(state)
        ui = dict(ui)
        events: list[Event] = []
        before = s
        s = self._end_dead_turn(s, events)
        changed = s is not before
        for _ in range(MAX_STEPS):  # a round may end in its window (R63): a new one opens
            if s.phase != Phase.FIRST_MOVE:
                break
            key = [s.round_no, s.cycle_no, s.turn_no]
            window = ui.get("fm") or {}
            if window.get("round") != key or "deadline" not in window:
                ui["fm"] = {"round": key, "deadline": now + self.first_move_seconds}
                changed = True
            before = s
            s = self._old_choices(s, ui, events)
            s = self._pass_the_empty_handed(s, events)
            if s.phase == Phase.FIRST_MOVE and now >= float(ui["fm"]["deadline"]):
                s, ev = self.game.timeout(s)  # everyone still to answer passes (R58)
                events.extend(ev)
            if s is before:
                break
            changed = True
        deadline = None
        if s.phase == Phase.FIRST_MOVE:
            deadline = float((ui.get("fm") or {}).get("deadline") or now)
        else:
            ui.pop("fm", None)
        if events:
            ui.pop("menu", None)
        return Outcome(state=s, events=events, ui=ui, deadline=deadline, changed=changed)

    # ---------------------------------------------------------------- narration

    def narrate(
        self, events: list[Event], state: BaseModel, names: dict[int, str], t: Translator
    ) -> list[str]:
        lines: list[str] = []
        state_players = list(self._st(state).players)

        def who(seat: int | None) -> str:
            if seat is None or not 0 <= seat < len(state_players):
                return "?"
            user = state_players[seat]
            return html.escape(names.get(user) or str(user))

        pending: list[tuple[int | None, str, list[str]]] = []  # grouped placements

        def flush() -> None:
            for seat, where, kinds in pending:
                if where == "drew":
                    n = len(kinds)
                    lines.append(t("st.ev.drew", name=who(seat), n=n))
                    continue
                lines.append(t("st.ev.placed", name=who(seat), where=where, tiles="".join(kinds)))
            pending.clear()

        for e in events:
            if e.private_to is not None:
                continue
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

    def _event_line(self, e: Event, who: Any, t: Translator) -> str | None:
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
            case "turn_auto_ended":
                return t("st.ev.turn_auto_ended", name=name)
            case "round_ended":
                return t("st.ev.round_ended")
        return None

    def _priority_line(self, e: Event, name: str, who: Any, t: Translator) -> str:
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
        self, events: list[Event], state: BaseModel, user: int, t: Translator
    ) -> list[str]:
        players = list(self._st(state).players)
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

    # ---------------------------------------------------------------- summaries

    def summaries(
        self, events: list[Event], state: BaseModel, names: dict[int, str], t: Translator
    ) -> list[str]:
        s = self._st(state)
        out: list[str] = []

        def name(seat: int) -> str:
            user = s.players[seat]
            return html.escape(names.get(user) or str(user))

        for e in events:
            if e.type == "round_ended":
                out.append(self._round_text(e.data.get("summary") or {}, s, name, t))
            elif e.type == "game_over":
                out.append(self._final_text(s, names, t))
        return out

    def _round_text(self, summary: dict[str, Any], s: State, name: Any, t: Translator) -> str:
        lines = [t("st.sum.title", round=summary.get("round", s.round_no))]
        first = summary.get("first_out")
        if summary.get("stalled"):
            lines.append(t("st.sum.stalled"))
        elif first is not None:
            lines.append(
                t("st.sum.first_out", name=name(int(first)), bonus=s.options.first_out_bonus)
            )
        hands: dict[Any, list[str]] = summary.get("hands") or {}
        values: dict[Any, int] = summary.get("hand_values") or {}
        before: dict[Any, int] = summary.get("scores_before") or {}
        after: dict[Any, int] = summary.get("scores_after") or {}
        lines.append("")
        lines.append(t("st.sum.hands"))
        for seat_key in sorted(hands, key=lambda x: int(x)):
            seat = int(seat_key)
            tiles = tiles_text([kind_of(x) for x in hands[seat_key]]) or t("st.sum.empty")
            lines.append(
                t("st.sum.hand_line", name=name(seat), tiles=tiles, value=values.get(seat_key, 0))
            )
        lines.append("")
        lines.append(t("st.sum.scores"))
        shown = [x for x in after if x in hands or str(x) in hands or int(x) in hands]
        bonus = s.options.first_out_bonus
        for seat_key in sorted(shown, key=lambda x: (int(after[x]), int(x))):
            seat = int(seat_key)
            b, a = int(before.get(seat_key, 0)), int(after[seat_key])
            value = int(values.get(seat_key, 0))
            fields = {"name": name(seat), "before": b, "value": value, "after": a, "bonus": bonus}
            if first is not None and seat == int(first) and not summary.get("stalled"):
                # the sum a player can follow: before + hand − bonus, floored at 0 (R67)
                floored = b + value - bonus < 0
                key = "st.sum.score_line_floor" if floored else "st.sum.score_line_bonus"
                lines.append(t(key, **fields))
            else:
                lines.append(t("st.sum.score_line", **fields))
        eliminated = [int(x) for x in summary.get("eliminated") or []]
        if eliminated:
            lines.append("")
            lines.append(t("st.sum.eliminated", names=", ".join(name(x) for x in eliminated)))
        return "\n".join(lines)

    def _final_text(self, s: State, names: dict[int, str], t: Translator) -> str:
        res = self.game.result(s)
        lines = [t("st.final.title")]
        for st in res.standings:
            n = html.escape(names.get(st.player) or str(st.player))
            crown = " 🏆" if st.player in res.winners else ""
            score = t.plural(st.score, "unit.point")
            lines.append(t("st.final.line", place=st.place, name=n, score=score) + crown)
        return "\n".join(lines)


def make_presenter(settings: Settings | None) -> SevenTracksPresenter:
    seconds = settings.first_move_seconds if settings else 20.0
    return SevenTracksPresenter(first_move_seconds=seconds)
