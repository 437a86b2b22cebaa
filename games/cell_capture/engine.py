"""Rules of «Захват клеток» (spec `docs/spec/cell_capture.md`, R-numbers cited).

>>> from games.cell_capture import GAME
>>> s = GAME.new(players=[1, 2, 3], seed=5)
>>> [a.encode() for a in GAME.legal_actions(s)]
['K,1', 'K,2', 'K,3']
>>> s, _ = GAME.apply(s, GAME.decode_action("K,1"))
>>> [a.encode() for a in GAME.legal_actions(s)]
['A,D4', 'B']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.automation import Automatic
from games.cell_capture.events import (
    AnchorChosen,
    Captured,
    DraftCancelled,
    GameOver,
    NumberChosen,
    NumberUnchosen,
    PlayerLeft,
    RoundEnded,
    RoundStarted,
    Stepped,
    Stuck,
    Undone,
)
from games.cell_capture.model import (
    CENTRE,
    COLOURS,
    DELTAS,
    DIR_ORDER,
    FREE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TWO_PLAYERS,
    Action,
    ActionType,
    CapturedPath,
    Direction,
    Draft,
    DraftInfo,
    EndReason,
    Options,
    PathInfo,
    Phase,
    PlayerInfo,
    State,
    View,
    cell_name,
    parse_cell,
    side,
)
from games.chance import stream
from games.copying import deep_copy
from games.engine import MalformedAction as MalformedAction
from games.engine import malformed
from games.protocol import Event, Game, IllegalAction, Result, Standing

# --- geometry ---------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _neighbours(size: int) -> tuple[tuple[tuple[Direction, int], ...], ...]:
    """For each cell, its in-grid orthogonal neighbours in the order ⬆️ ➡️ ⬇️ ⬅️."""
    out: list[tuple[tuple[Direction, int], ...]] = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        row: list[tuple[Direction, int]] = []
        for d in DIR_ORDER:
            dr, dc = DELTAS[d]
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                row.append((d, rr * size + cc))
        out.append(tuple(row))
    return tuple(out)


def _extendable(owner: list[int], size: int, visited: set[int], tip: int, remaining: int) -> bool:
    """Can the simple path ending at `tip` (cells `visited`) grow by `remaining` free cells?"""
    if remaining <= 0:
        return True
    for _, n in _neighbours(size)[tip]:
        if owner[n] == FREE and n not in visited:
            visited.add(n)
            ok = _extendable(owner, size, visited, n, remaining - 1)
            visited.discard(n)
            if ok:
                return True
    return False


def anchors(state: State) -> list[int]:
    """R8: the centre before the first capture, then the start and end of every path."""
    if not state.paths:
        return [state.centre]
    return sorted({c for p in state.paths for c in (p.cells[0], p.cells[-1])})


def anchor_ok(state: State, anchor: int, k: int) -> bool:
    """Is there a legal path of length `k` starting next to `anchor` (R7)?"""
    for _, n in _neighbours(state.size)[anchor]:
        if state.owner[n] == FREE and _extendable(state.owner, state.size, {n}, n, k - 1):
            return True
    return False


def feasible(state: State, k: int) -> bool:
    """R10: at least one legal path of length `k` exists."""
    return any(anchor_ok(state, a, k) for a in anchors(state))


def used_numbers(state: State) -> list[int]:
    """Numbers captured in the current round, in the order they were used (R9)."""
    return [len(p.cells) for p in state.paths if p.round == state.round_no]


def allowed_numbers(state: State, seat: int) -> list[int]:
    """R9–R11: unused, feasible, and not the previous number if there is an alternative."""
    used = set(used_numbers(state))
    free = [k for k in range(1, state.n + 1) if k not in used and feasible(state, k)]
    prev = state.prev[seat]
    if prev in free and len(free) > 1:
        free.remove(prev)
    return free


def next_order(state: State) -> list[int]:
    """R13 as known so far: stuck players in stuck order, then movers by their number."""
    movers = sorted(
        ((len(p.cells), p.seat) for p in state.paths if p.round == state.round_no),
    )
    seats = [*state.stuck, *(s for _, s in movers)]
    return [s for s in seats if state.active[s]]


def phase(state: State) -> Phase:
    if state.over:
        return Phase.GAME_OVER
    d = state.draft
    if d.k is None:
        return Phase.PICK_K
    if d.anchor is None:
        return Phase.PICK_ANCHOR
    if len(d.path) < d.k:
        return Phase.DRAW
    return Phase.READY


def _tip(state: State) -> int:
    d = state.draft
    assert d.anchor is not None
    return d.path[-1] if d.path else d.anchor


def _step_target(state: State, direction: Direction) -> int | None:
    for d, n in _neighbours(state.size)[_tip(state)]:
        if d is direction:
            return n
    return None


def _step_ok(state: State, n: int) -> bool:
    d = state.draft
    assert d.k is not None
    if state.owner[n] != FREE or n in d.path:
        return False
    visited = {*d.path, n}
    return _extendable(state.owner, state.size, visited, n, d.k - len(d.path) - 1)


def legal_steps(state: State) -> list[Direction]:
    """§5: directions whose cell is free, not in the draft, and keeps it completable."""
    out = []
    for d, n in _neighbours(state.size)[_tip(state)]:
        if _step_ok(state, n):
            out.append(d)
    return out


def _end_reason(state: State) -> EndReason | None:
    """R16 (and the leaving decision): why the game is over now, if it is."""
    if sum(state.active) < TWO_PLAYERS:  # R15: two players left play on
        return EndReason.PLAYERS_LEFT
    if FREE not in state.owner:
        return EndReason.BOARD_FULL
    if not feasible(state, 1):
        return EndReason.NO_MOVES
    return None


def scores(state: State) -> list[int]:
    """R17: cells of each seat's colour."""
    out = [0] * state.n
    for o in state.owner:
        if o >= 0:
            out[o] += 1
    return out


def _standings(state: State) -> list[tuple[int, int, int]]:
    """(seat, place, score). Ties share a place (R17); players who left rank below."""
    sc = scores(state)
    keyed = sorted(range(state.n), key=lambda s: (not state.active[s], -sc[s], s))
    out: list[tuple[int, int, int]] = []
    for i, seat in enumerate(keyed):
        if i and (state.active[seat], sc[seat]) == (
            state.active[keyed[i - 1]],
            sc[keyed[i - 1]],
        ):
            place = out[-1][1]
        else:
            place = i + 1
        out.append((seat, place, sc[seat]))
    return out


# --- the game ---------------------------------------------------------------------------


class CellCaptureGame(Automatic[State, Action]):
    """«Захват клеток» behind the project's game protocol and its automation extension."""

    id = "cell_capture"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = State
    lower_score_wins = False  # a score is the cells captured (R17)
    action_type = Action

    # -- setup ---------------------------------------------------------------------------

    def new(self, players: list[int], seed: int, options: dict[str, Any] | None = None) -> State:
        """R1–R6: empty grid with the neutral centre, random first order. 3–6 players;
        2 only with Option `allow_two_players` (R1, revised 2026-12)."""
        opts = Options.model_validate(options or {})
        low = TWO_PLAYERS if opts.allow_two_players else MIN_PLAYERS
        if not low <= len(players) <= MAX_PLAYERS:
            hint = "" if low == TWO_PLAYERS else " (2 with allow_two_players)"
            raise ValueError(f"players: {low}–{MAX_PLAYERS} players{hint}")
        if len(set(players)) != len(players):
            raise ValueError("players must be distinct")
        n = len(players)
        size = side(n)
        owner = [FREE] * (size * size)
        owner[(size // 2) * size + size // 2] = CENTRE
        order = list(range(n))
        stream(seed, 0).shuffle(order)
        state = State(
            options=opts,
            seed=seed,
            rng_calls=1,
            players=list(players),
            size=size,
            owner=owner,
            active=[True] * n,
            prev=[None] * n,
            order=order,
        )
        self._settle(state, [])
        return state

    # -- queries -------------------------------------------------------------------------

    def to_act(self, state: State) -> int | None:
        seat = self.to_act_seat(state)
        return None if seat is None else state.players[seat]

    def to_act_seat(self, state: State) -> int | None:
        if state.over:
            return None
        return state.order[state.turn_idx]

    def phase(self, state: State) -> Phase:
        return phase(state)

    def deciders(self, state: State) -> list[int]:
        """One player decides at a time (games.protocol.Game.deciders)."""
        player = self.to_act(state)
        return [] if player is None else [player]

    def legal_actions_for(self, state: State, player: int) -> list[Action]:
        return self.legal_actions(state) if player == self.to_act(state) else []

    def legal_actions(self, state: State) -> list[Action]:
        """§5: the buttons of the current phase, in display order."""
        ph = phase(state)
        if ph is Phase.GAME_OVER:
            return []
        seat = state.order[state.turn_idx]
        d = state.draft
        if ph is Phase.PICK_K:
            return [Action(type=ActionType.CHOOSE_K, k=k) for k in allowed_numbers(state, seat)]
        assert d.k is not None
        if ph is Phase.PICK_ANCHOR:
            return [
                *(
                    Action(type=ActionType.CHOOSE_ANCHOR, cell=cell_name(a, state.size))
                    for a in anchors(state)
                    if anchor_ok(state, a, d.k)
                ),
                Action(type=ActionType.BACK),
            ]
        tail = [Action(type=ActionType.UNDO), Action(type=ActionType.CANCEL)]
        if ph is Phase.DRAW:
            return [*(Action(type=ActionType.STEP, dir=x) for x in legal_steps(state)), *tail]
        return [Action(type=ActionType.CONFIRM), *tail]

    def is_over(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> Result:
        """R17: score = cells; ties share a place; players who left rank below the rest."""
        st = _standings(state)
        return Result(
            standings=[Standing(player=state.players[s], place=p, score=sc) for s, p, sc in st],
            winners=self._winners(state),
        )

    def _winners(self, state: State) -> list[int]:
        if not state.over:
            return []
        return [state.players[s] for s, p, _ in _standings(state) if p == 1 and state.active[s]]

    def view(self, state: State, player: int | None = None) -> View:
        """Everything is public (§6): the whole board for anybody."""
        size = state.size
        numbers = [0] * (size * size)
        for p in state.paths:
            for i, c in enumerate(p.cells):
                numbers[c] = i + 1
        this_round = {p.seat: len(p.cells) for p in state.paths if p.round == state.round_no}
        sc = scores(state)
        places = {s: p for s, p, _ in _standings(state)} if state.over else {}
        seat = self.to_act_seat(state)
        d = state.draft
        ph = phase(state)
        offered = []
        if ph is Phase.PICK_ANCHOR and d.k is not None:
            offered = [cell_name(a, size) for a in anchors(state) if anchor_ok(state, a, d.k)]
        draft = None
        if seat is not None and d.k is not None:
            draft = DraftInfo(
                seat=seat,
                k=d.k,
                anchor=None if d.anchor is None else cell_name(d.anchor, size),
                path=[cell_name(c, size) for c in d.path],
            )
        return View(
            me=player,
            size=size,
            n=state.n,
            centre=cell_name(state.centre, size),
            grid=[state.owner[r * size : (r + 1) * size] for r in range(size)],
            numbers=[numbers[r * size : (r + 1) * size] for r in range(size)],
            players=[
                PlayerInfo(
                    seat=s,
                    player=pid,
                    colour=COLOURS[s],
                    cells=sc[s],
                    active=state.active[s],
                    previous=state.prev[s],
                    number=this_round.get(s),
                    stuck=s in state.stuck,
                    place=places.get(s),
                )
                for s, pid in enumerate(state.players)
            ],
            paths=[
                PathInfo(seat=p.seat, round=p.round, cells=[cell_name(c, size) for c in p.cells])
                for p in state.paths
            ],
            anchors=[cell_name(a, size) for a in anchors(state)],
            offered_anchors=offered,
            steps=legal_steps(state) if ph is Phase.DRAW else [],
            draft=draft,
            phase=ph,
            to_act=None if seat is None else state.players[seat],
            to_act_seat=seat,
            round_no=state.round_no,
            order=list(state.order),
            turn_idx=state.turn_idx,
            used=used_numbers(state),
            allowed=[] if seat is None or ph is not Phase.PICK_K else allowed_numbers(state, seat),
            next_order=next_order(state),
            free_cells=state.owner.count(FREE),
            over=state.over,
            end_reason=state.end_reason,
            winners=self._winners(state),
        )

    def auto_actions(self, state: State) -> list[Action]:
        """§5 AFK decision: the canonical move for the player to act, as atomic actions.

        Smallest allowed k, first anchor row-major, first legal direction ⬆️ ➡️ ⬇️ ⬅️ at
        each step, then CONFIRM. A draft in progress is dropped first (BACK or CANCEL).
        """
        if state.over:
            return []
        out: list[Action] = []
        ph = phase(state)
        if ph is not Phase.PICK_K:
            back = ActionType.BACK if ph is Phase.PICK_ANCHOR else ActionType.CANCEL
            out.append(Action(type=back))
            state, _ = self.apply(state, out[-1])
        while True:
            legal = self.legal_actions(state)
            action = legal[0]  # smallest k / first anchor / first direction / CONFIRM
            out.append(action)
            if action.type is ActionType.CONFIRM:
                return out
            state, _ = self.apply(state, action)

    def turn_key(self, state: State) -> str | None:
        """A turn: the round and the place in its order."""
        return None if state.over else f"{state.round_no}:{state.turn_idx}"

    def forced(self, state: State) -> Action | None:
        """§5 Decision UI: a forced choice is not asked — the only allowed number, then
        the only anchor offered for it."""
        if state.over:
            return None
        ph = phase(state)
        if ph is Phase.PICK_K:
            allowed = allowed_numbers(state, state.order[state.turn_idx])
            if len(allowed) == 1:
                return Action(type=ActionType.CHOOSE_K, k=allowed[0])
        elif ph is Phase.PICK_ANCHOR:
            offered = self.view(state, None).offered_anchors
            if len(offered) == 1:
                return Action(type=ActionType.CHOOSE_ANCHOR, cell=offered[0])
        return None

    def timeout_turn(self, state: State) -> tuple[State, list[Event]]:
        """§5 AFK decision: the whole canonical move (`auto_actions`), a draft in progress
        dropped first."""
        s, events = state, []
        for action in self.auto_actions(state):
            s, ev = self.apply(s, action)
            events.extend(ev)
        return s, events

    def timeout(self, state: State) -> tuple[State, list[Event]]:
        """One step of a timed-out turn (games.protocol.Game.timeout): the first action of
        the canonical move (§5 AFK decision, `auto_actions`)."""
        actions = self.auto_actions(state)
        if not actions:
            raise IllegalAction("game_over")
        return self.apply(state, actions[0])

    # -- transitions ---------------------------------------------------------------------

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """Pure: returns a new state and the events; IllegalAction leaves `state` as it was."""
        if not isinstance(action, Action):
            raise MalformedAction("not an action")
        if state.over:
            raise IllegalAction("game_over")
        seat = state.order[state.turn_idx]
        if action.by is not None and action.by != state.players[seat]:
            raise IllegalAction("not_your_turn", player=action.by, to_act=state.players[seat])
        bare = action if action.by is None else action.model_copy(update={"by": None})
        self._check(state, bare, seat)
        if bare not in self.legal_actions(state):  # guard: every refusal has a code
            raise IllegalAction("not_legal", action=bare.encode())

        st = deep_copy(state)
        st.version += 1
        events: list[Event] = []
        d = st.draft
        pid = st.players[seat]
        t = bare.type
        if t is ActionType.CHOOSE_K:
            assert bare.k is not None
            d.k = bare.k
            events.append(Event.of(NumberChosen(player=pid, k=bare.k), seat))
        elif t is ActionType.BACK:
            d.k = None
            events.append(Event.of(NumberUnchosen(player=pid), seat))
        elif t is ActionType.CHOOSE_ANCHOR:
            assert bare.cell is not None
            d.anchor = parse_cell(bare.cell, st.size)
            events.append(Event.of(AnchorChosen(player=pid, cell=bare.cell), seat))
        elif t is ActionType.STEP:
            assert bare.dir is not None
            n = _step_target(st, bare.dir)
            assert n is not None and d.k is not None
            d.path.append(n)
            cell = cell_name(n, st.size)
            step = Stepped(player=pid, dir=bare.dir, cell=cell, length=len(d.path), k=d.k)
            events.append(Event.of(step, seat))
        elif t is ActionType.UNDO:
            if d.path:
                undone = Undone(player=pid, cell=cell_name(d.path.pop(), st.size))
            else:
                assert d.anchor is not None
                undone = Undone(player=pid, anchor=cell_name(d.anchor, st.size))
                d.anchor = None
            events.append(Event.of(undone, seat))
        elif t is ActionType.CANCEL:
            st.draft = Draft()
            events.append(Event.of(DraftCancelled(player=pid), seat))
        else:  # CONFIRM
            self._capture(st, seat, events)
        return st, events

    def _check(self, state: State, a: Action, seat: int) -> None:
        """Refuse with a specific code (the bot translates codes to Russian)."""
        ph = phase(state)
        d = state.draft
        t = a.type
        size = state.size
        if t is ActionType.CHOOSE_K:
            if ph is not Phase.PICK_K:
                raise IllegalAction("wrong_phase", phase=ph.value)
            assert a.k is not None
            if not 1 <= a.k <= state.n:
                raise IllegalAction("number_out_of_range", k=a.k, max=state.n)
            if a.k in used_numbers(state):
                raise IllegalAction("number_used", k=a.k)
            if not feasible(state, a.k):
                raise IllegalAction("number_impossible", k=a.k)
            if a.k not in allowed_numbers(state, seat):
                raise IllegalAction("number_repeated", k=a.k)
        elif t in (ActionType.CHOOSE_ANCHOR, ActionType.BACK):
            if ph is not Phase.PICK_ANCHOR:
                raise IllegalAction("wrong_phase", phase=ph.value)
            if t is ActionType.CHOOSE_ANCHOR:
                assert a.cell is not None and d.k is not None
                cell = parse_cell(a.cell, size)
                if cell is None:
                    raise IllegalAction("off_board", cell=a.cell)
                if cell not in anchors(state):
                    raise IllegalAction("not_anchor", cell=a.cell)
                if not anchor_ok(state, cell, d.k):
                    raise IllegalAction("anchor_blocked", cell=a.cell, k=d.k)
        elif t is ActionType.STEP:
            if ph is Phase.READY:
                raise IllegalAction("path_complete", k=d.k)
            if ph is not Phase.DRAW:
                raise IllegalAction("wrong_phase", phase=ph.value)
            assert a.dir is not None
            n = _step_target(state, a.dir)
            if n is None:
                raise IllegalAction("off_board", dir=a.dir.value)
            if state.owner[n] != FREE or n in d.path:
                raise IllegalAction("cell_taken", cell=cell_name(n, size))
            if not _step_ok(state, n):
                raise IllegalAction("dead_end", cell=cell_name(n, size), k=d.k)
        elif t in (ActionType.UNDO, ActionType.CANCEL):
            if ph not in (Phase.DRAW, Phase.READY):
                raise IllegalAction("wrong_phase", phase=ph.value)
        elif t is ActionType.CONFIRM:
            if ph is Phase.DRAW:
                raise IllegalAction("path_incomplete", length=len(d.path), k=d.k)
            if ph is not Phase.READY:
                raise IllegalAction("wrong_phase", phase=ph.value)

    def _capture(self, st: State, seat: int, events: list[Event]) -> None:
        """CONFIRM (§5): colour the path, use the number, then R16 and the next turn."""
        d = st.draft
        assert d.k is not None and d.anchor is not None
        for c in d.path:
            st.owner[c] = seat
        st.paths.append(CapturedPath(seat=seat, round=st.round_no, cells=list(d.path)))
        st.prev[seat] = d.k
        names = [cell_name(c, st.size) for c in d.path]
        captured = Captured(
            player=st.players[seat],
            k=d.k,
            cells=names,
            anchor=cell_name(d.anchor, st.size),
            round=st.round_no,
            total=st.owner.count(seat),
        )
        events.append(Event.of(captured, seat))
        st.draft = Draft()
        st.turn_idx += 1
        self._settle(st, events)

    def _settle(self, st: State, events: list[Event]) -> None:
        """Bring `st` (a private copy) to the next real decision: R16, R14/R13, R12."""
        while True:
            reason = _end_reason(st)
            if reason is not None:
                self._finish(st, reason, events)
                return
            if st.turn_idx >= len(st.order):
                self._end_round(st, events)
                continue
            seat = st.order[st.turn_idx]
            if not st.active[seat]:
                st.turn_idx += 1
                continue
            if allowed_numbers(st, seat):
                return
            unused = [k for k in range(1, st.n + 1) if k not in used_numbers(st)]
            st.stuck.append(seat)  # R12
            st.prev[seat] = None
            stuck = Stuck(player=st.players[seat], round=st.round_no, unused=unused)
            events.append(Event.of(stuck, seat))
            st.turn_idx += 1

    def _end_round(self, st: State, events: list[Event]) -> None:
        order = next_order(st)
        ended = RoundEnded(
            round=st.round_no,
            next_order=[st.players[s] for s in order],
            stuck=[st.players[s] for s in st.stuck],
        )
        events.append(Event.of(ended))
        st.round_no += 1
        st.order = order
        st.turn_idx = 0
        st.stuck = []
        started = RoundStarted(round=st.round_no, order=[st.players[s] for s in order])
        events.append(Event.of(started))

    def _finish(self, st: State, reason: EndReason, events: list[Event]) -> None:
        st.over = True
        st.end_reason = reason
        st.draft = Draft()
        res = self.result(st)
        over = GameOver(reason=reason, winners=res.winners, standings=res.standings)
        events.append(Event.of(over))

    def remove(self, state: State, player: int) -> tuple[State, list[Event]]:
        """R15: the player leaves all future orders; his cells stay and are counted.

        A draft of his is discarded and the turn passes on. With fewer than two players
        left the game ends (`players_left`).
        """
        if state.over:
            raise IllegalAction("game_over")
        if player not in state.players:
            raise IllegalAction("not_in_game", player=player)
        seat = state.players.index(player)
        if not state.active[seat]:
            raise IllegalAction("not_in_game", player=player)
        st = deep_copy(state)
        st.version += 1
        st.active[seat] = False
        st.left.append(seat)
        events = [Event.of(PlayerLeft(player=player), seat)]
        if st.order[st.turn_idx] == seat:
            st.draft = Draft()
            st.turn_idx += 1
        self._settle(st, events)
        return st, events

    # -- encoding ------------------------------------------------------------------------

    def encode_action(self, action: Action) -> str:
        return action.encode()

    def decode_action(self, text: str) -> Action:
        """Inverse of `encode_action`; `MalformedAction` (an IllegalAction and a ValueError)."""
        try:
            return Action.decode(text)
        except ValueError as exc:
            malformed(exc)


GAME = CellCaptureGame()


def _conforms(game: Game[State, Action]) -> None:
    """Static check (mypy): the engine implements the protocol."""


_conforms(GAME)
