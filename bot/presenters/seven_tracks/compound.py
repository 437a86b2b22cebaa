"""«Семидорожник»'s compound buttons (the package's docstring): the runs of atomic actions
they expand into — a track's run, «Выставить всё», drawing until a tile fits — and
spending a priority tile."""

from __future__ import annotations

from collections.abc import Callable

from bot.presenters.base import Refusal
from bot.presenters.seven_tracks.common import EMOJI, MAX_STEPS, ROLE_ORDER, SevenTracksBase, T
from games import Event, IllegalAction
from games.engine import Batch
from games.seven_tracks import Action, Phase, State
from games.seven_tracks.model import COLOURS, T7, TileKind, expected_colour
from locales import Translator

Build = Callable[[bool], list[Action]]  # a priority use's options: with the universal or not


class Compound(SevenTracksBase):
    # the last state's legal actions: a press asks for the same state's several times
    # («Выставить всё»: whether a draw or a priority tile is open, then why nothing fits)
    _legal_memo: tuple[State, int, list[Action]] | None = None

    # ---------------------------------------------------------------- pressing

    def _legal(self, s: State) -> list[Action]:
        """The engine's legal actions in `s`, kept for the same state object at the same
        version (a batch's state changes in place, and its version with every action)."""
        memo = self._legal_memo
        if memo is not None and memo[0] is s and memo[1] == s.version:
            return memo[2]
        legal = self.game.legal_actions(s)
        self._legal_memo = (s, s.version, legal)
        return legal

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
                options = [Action(type=T.UNBLOCK, kind=TileKind.WHITE, track=k)]
                if universal:
                    options.append(Action(type=T.UNBLOCK, kind=TileKind.UNIVERSAL, track=k))
            else:
                colour = expected_colour(k, len(track.slots) + 1)
                options = [
                    Action(type=T.PLACE, kind=colour, track=k),
                    Action(type=T.PLACE, kind=TileKind.WHITE, track=k),
                ]
                if universal:
                    options.append(Action(type=T.PLACE, kind=TileKind.UNIVERSAL, track=k))
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

    def _priority_tiles(self, s: State) -> list[TileKind]:
        """The priority tiles the mover could play now instead of placing or drawing (a
        waive, a shift, or an after-move use once his placing may end); private."""
        if s.phase != Phase.PLACING:
            return []
        kinds: set[TileKind] = set()
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
        order = (*ROLE_ORDER, TileKind.EXCHANGE, TileKind.UNIVERSAL)
        return [k for k in order if k in kinds]

    @staticmethod
    def _offer(tiles: list[TileKind]) -> str:
        return " / ".join(EMOJI[k] for k in tiles)

    def _spend(
        self,
        s: State,
        build: Build,
        universal: bool,
        tile: TileKind,
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

    def _no_original(
        self, s: State, build: Build, universal: bool, tile: TileKind, t: Translator
    ) -> None:
        """He lacks the original but the universal would do: say so, spend nothing."""
        if not universal and self._first_legal(s, build(True)) is not None:
            raise Refusal(t("st.refuse.use_universal", tile=EMOJI[tile]))
