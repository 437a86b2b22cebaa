"""Rules of «Морской крест» (spec `docs/spec/sea_cross.md`, R-numbers cited).

Pure and deterministic: dice come from `games.chance.stream(seed, counter)` with the
counter stored in the state (`games.engine.counter_rng`).

>>> from games.sea_cross import GAME
>>> s = GAME.new(players=[1, 2], seed=3)
>>> [a.encode() for a in GAME.legal_actions(s)]
['R']
>>> s2, events = GAME.apply(s, GAME.decode_action("R"))
>>> s2.version == s.version + 1, events[0].type
(True, 'rolled')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from games.automation import MAX_STEPS
from games.engine import MalformedAction as MalformedAction
from games.engine import RulesEngine, counter_rng, malformed
from games.protocol import Event, Fact, Game, IllegalAction, Result, Standing
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
    Placing,
    PlayerLeft,
    Rolled,
    RollOff,
    Turn,
)
from games.sea_cross.model import (
    ARM_STEP,
    ARMS,
    BASE,
    COLOURS,
    HOME,
    LAST,
    LOOP_LEN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RED_CORNERS,
    SIX,
    TOKENS,
    Action,
    ActionInfo,
    ActionType,
    Cell,
    LastMove,
    Options,
    Phase,
    PlayerInfo,
    RollOffRound,
    State,
    TokenInfo,
    View,
    cell_of,
    global_index,
)

T = ActionType

# Machine codes of IllegalAction; the bot translates each (locales: error.<code>).
CODES: tuple[str, ...] = (
    "game_over",  # the game has ended
    "malformed",  # not an action of this game (bad text, bad field, not a value of Action)
    "wrong_phase",  # ROLL while dice are to be used, or a token action before the roll
    "die_not_available",  # MOVE with a die value that is not among the unused dice
    "must_jump",  # a red-corner jump is due first (R16)
    "no_forced_jump",  # JUMP without a jump obligation (R15)
    "not_on_red_corner",  # JUMP by a token that is not on a red corner (R17)
    "no_six",  # ENTER without an unused 6 (R8)
    "reserve_empty",  # ENTER with no token in the reserve (R8)
    "start_occupied",  # ENTER while an own token stands on the кон (R9)
    "in_reserve",  # MOVE of a token that is in the reserve (R8)
    "overshoot",  # MOVE beyond Д4 (R10)
    "passes_own",  # MOVE over an own token (R11)
    "lands_on_own",  # MOVE or JUMP onto an own token (R11, R17)
    "blocked",  # MOVE over an opponent block (R12)
    "not_a_player",  # remove() of somebody who is not in the game
)


class SeaCross(RulesEngine[State, Action]):
    """«Морской крест» implementing games.protocol.Game."""

    id = "sea_cross"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = State
    action_type = Action
    over_phase = Phase.GAME_OVER

    # ---------------------------------------------------------------- protocol

    def new(self, players: list[int], seed: int, options: dict[str, Any] | None = None) -> State:
        """A new game: all tokens in the reserve, the roll-off made (R1, R2, R4)."""
        opts = Options(**(options or {}))
        self._check_players(players)
        n = len(players)
        s = State(
            options=opts,
            seed=seed,
            players=list(players),
            arms=list(ARMS[n]),
            active=[True] * n,
            tokens=[[BASE] * TOKENS for _ in range(n)],
        )
        rng = _rng(s)
        rounds, first = roll_off(list(range(n)), lambda: rng.randint(1, 6))
        s.rolloff = rounds
        s.first = first
        s.current = first
        return s

    def to_act_seat(self, state: State) -> int | None:
        return None if state.phase == Phase.GAME_OVER else state.current

    def legal_actions(self, state: State) -> list[Action]:
        """Canonical order (§5): ROLL; or jumps by token, ENTER, moves by (die, token)."""
        return super().legal_actions(state)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """Pure: a new state and the events; IllegalAction leaves `state` as it was."""
        return super().apply(state, action)

    def result(self, state: State) -> Result:
        """R19, R20: winner first; others by home count, progress, seat; leavers last."""
        order = _order(state)
        over = state.phase == Phase.GAME_OVER
        return Result(
            standings=[
                Standing(player=state.players[x], place=i + 1, score=home_count(state, x))
                for i, x in enumerate(order)
            ],
            winners=[state.players[order[0]]] if over else [],
        )

    def view(self, state: State, player: int | None = None) -> View:
        return _view(state, player)

    def remove(self, state: State, player: int) -> tuple[State, list[Event]]:
        """R20: the player's tokens leave the game; his pending roll or move ends.

        Removing somebody who already left, or after the game ended, changes nothing.
        """
        return super().remove(state, player)

    # ---------------------------------------------------------------- automation

    def turn_key(self, state: State) -> str | None:
        """A roll and the move it asks for: a six's extra roll is a new decision."""
        return None if self.is_over(state) else f"{state.turn_no}.{state.roll_no}"

    def forced(self, state: State) -> Action | None:
        """§5 UI decision: the roll (the only action before a move) and a move that is the
        only legal one are played by the bot."""
        legal = [] if self.is_over(state) else self.legal_actions(state)
        return legal[0] if len(legal) == 1 else None

    def timeout_turn(self, state: State) -> tuple[State, list[Event]]:
        """§5 AFK decision: the absent player's whole turn, its extra rolls included — the
        roll, or the first move in canonical order, while it is still his turn."""
        player, turn = self.to_act(state), state.turn_no
        s, events = state, []
        for _ in range(MAX_STEPS):
            if self.is_over(s) or self.to_act(s) != player or s.turn_no != turn:
                break
            s, ev = self.timeout(s)
            events.extend(ev)
        return s, events

    def describe(self, state: State, action: Action) -> ActionInfo:
        """What a legal action does (for button labels)."""
        return _describe(state, action)

    def decode_action(self, text: str) -> Action:
        """Inverse of `encode_action`; `MalformedAction` (an IllegalAction and a ValueError)."""
        return super().decode_action(text)

    # ---------------------------------------------------------------- rules

    def _candidates(self, s: State) -> list[Action]:
        return _candidates(s)

    def _why(self, s: State, a: Action) -> str | None:
        return _why(s, a)

    def _perform(self, s: State, a: Action, events: list[Event]) -> None:
        _perform(s, a, events)

    def _remove(self, s: State, seat: int, events: list[Event]) -> None:
        _remove(s, seat, events)

    def _left(self, s: State, seat: int) -> bool:
        return not s.active[seat]

    def _not_an_action(self) -> IllegalAction:
        return MalformedAction("not an action")

    def _undecodable(self, text: str, exc: ValueError) -> NoReturn:
        malformed(exc)


GAME = SeaCross()


def _conforms(game: Game[State, Action]) -> None:
    """Static check (mypy): the engine implements the protocol."""


_conforms(GAME)


# -------------------------------------------------------------------- helpers


_rng = counter_rng


def roll_off(seats: list[int], die: Callable[[], int]) -> tuple[list[RollOffRound], int]:
    """R4: everybody rolls one die; those tied for highest roll again until one is highest."""
    rounds: list[RollOffRound] = []
    while True:
        dice = [die() for _ in seats]
        rounds.append(RollOffRound(seats=list(seats), dice=dice))
        top = max(dice)
        seats = [x for x, d in zip(seats, dice, strict=True) if d == top]
        if len(seats) == 1:
            return rounds, seats[0]


def _ev(events: list[Event], fact: Fact, seat: int | None = None) -> None:
    events.append(Event.of(fact, seat))


def home_count(s: State, seat: int) -> int:
    return sum(1 for r in s.tokens[seat] if r >= HOME)


def progress(s: State, seat: int) -> int:
    return sum(r for r in s.tokens[seat] if r != BASE)


def _next_seat(s: State, seat: int) -> int:
    """Clockwise = ascending seat order among the players still in the game (R4)."""
    n = len(s.players)
    for k in range(1, n + 1):
        x = (seat + k) % n
        if s.active[x]:
            return x
    return seat


def occupant(s: State, g: int) -> tuple[int, int] | None:
    """(seat, token index) of the token on loop index `g`, if any (at most one, I2)."""
    for seat, toks in enumerate(s.tokens):
        arm = s.arms[seat]
        for i, r in enumerate(toks):
            if 0 <= r < LOOP_LEN and global_index(arm, r) == g:
                return seat, i
    return None


def _loop_owner(s: State) -> dict[int, tuple[int, int]]:
    """Loop index -> (seat, token index) for every token on the loop."""
    out: dict[int, tuple[int, int]] = {}
    for seat, toks in enumerate(s.tokens):
        arm = s.arms[seat]
        for i, r in enumerate(toks):
            if 0 <= r < LOOP_LEN:
                out[global_index(arm, r)] = (seat, i)
    return out


def in_block(owners: dict[int, tuple[int, int]], g: int) -> bool:
    """R12: the token on `g` and a token of the same colour on a neighbouring loop cell."""
    here = owners.get(g)
    if here is None:
        return False
    for h in ((g - 1) % LOOP_LEN, (g + 1) % LOOP_LEN):
        other = owners.get(h)
        if other is not None and other[0] == here[0]:
            return True
    return False


def _token(a: Action) -> int:
    assert a.token is not None
    return a.token - 1


def _jump_target(rel: int) -> int:
    """R17: the next red corner clockwise, wrapping past the home."""
    return (rel + ARM_STEP) % LOOP_LEN


def _why_move(s: State, i: int, d: int) -> str | None:
    """R10–R12, R14 for token `i` of the player to act and a die `d`."""
    seat = s.current
    toks = s.tokens[seat]
    r = toks[i]
    if r == BASE:
        return "in_reserve"
    t = r + d
    if t > LAST:
        return "overshoot"
    own = set(toks)
    if any(x in own for x in range(r + 1, t)):
        return "passes_own"
    if t in own:
        return "lands_on_own"
    owners = _loop_owner(s)
    arm = s.arms[seat]
    for x in range(r + 1, min(t, LOOP_LEN)):
        g = global_index(arm, x)
        who = owners.get(g)
        if who is not None and who[0] != seat and in_block(owners, g):
            return "blocked"
    return None


def _why_jump(s: State, i: int) -> str | None:
    """R15–R17 for token `i` (obligation aside)."""
    toks = s.tokens[s.current]
    r = toks[i]
    if r not in RED_CORNERS:
        return "not_on_red_corner"
    if _jump_target(r) in toks:
        return "lands_on_own"
    return None


def _why_enter(s: State) -> str | None:
    """R8, R9."""
    if SIX not in s.unused:
        return "no_six"
    toks = s.tokens[s.current]
    if BASE not in toks:
        return "reserve_empty"
    if 0 in toks:
        return "start_occupied"
    return None


def _any_jump(s: State) -> bool:
    return any(_why_jump(s, i) is None for i in range(len(s.tokens[s.current])))


def _why(s: State, a: Action) -> str | None:
    """Why `a` is illegal now, or None (the one place legality is decided)."""
    if s.phase == Phase.GAME_OVER:
        return "game_over"
    if a.type is T.ROLL:
        return None if s.phase == Phase.AWAIT_ROLL else "wrong_phase"
    if s.phase != Phase.AWAIT_MOVE:
        return "wrong_phase"
    if a.type is T.JUMP:
        if s.forced_jumps <= 0 or 1 not in s.unused:
            return "no_forced_jump"
        return _why_jump(s, _token(a))
    if s.forced_jumps > 0 and _any_jump(s):  # R16: jumps first
        return "must_jump"
    if a.type is T.ENTER:
        return _why_enter(s)
    assert a.die is not None
    if a.die not in s.unused:
        return "die_not_available"
    return _why_move(s, _token(a), a.die)


_ROLL = Action(type=T.ROLL)
_JUMPS = [Action(type=T.JUMP, token=t) for t in range(1, TOKENS + 1)]
_ENTER = Action(type=T.ENTER)
_MOVES = {
    d: [Action(type=T.MOVE, token=t, die=d) for t in range(1, TOKENS + 1)] for d in range(1, 7)
}


def _candidates(s: State) -> list[Action]:
    """Every action worth checking now, in canonical order; `_why` filters them."""
    if s.phase == Phase.AWAIT_ROLL:
        return [_ROLL]
    if s.phase != Phase.AWAIT_MOVE:
        return []
    out = [*_JUMPS, _ENTER]
    for d in sorted(set(s.unused)):
        out += _MOVES[d]
    return out


def _has_legal(s: State) -> bool:
    return any(_why(s, a) is None for a in _candidates(s))


# ----------------------------------------------------------------- effects


def _perform(s: State, a: Action, events: list[Event]) -> None:
    seat = s.current
    if a.type is T.ROLL:
        rng = _rng(s)
        start_roll(s, [rng.randint(1, 6), rng.randint(1, 6)], events)
        return
    if a.type is T.ENTER:
        i = s.tokens[seat].index(BASE)
        s.tokens[seat][i] = 0
        s.unused.remove(SIX)
        s.last_move = LastMove(seat=seat, token=i + 1, kind="enter", from_rel=BASE, to_rel=0)
        _ev(events, Entered(player=s.players[seat], token=i + 1, die=SIX), seat)
        _land(s, seat, 0, events)
    elif a.type is T.JUMP:
        i = _token(a)
        r = s.tokens[seat][i]
        t = _jump_target(r)
        s.tokens[seat][i] = t
        s.unused.remove(1)
        s.forced_jumps -= 1
        s.last_move = LastMove(seat=seat, token=i + 1, kind="jump", from_rel=r, to_rel=t)
        pid = s.players[seat]
        _ev(events, Jumped(player=pid, token=i + 1, from_rel=r, to_rel=t, past_home=t < r), seat)
        _land(s, seat, t, events)
    else:
        i = _token(a)
        assert a.die is not None
        r = s.tokens[seat][i]
        t = r + a.die
        s.tokens[seat][i] = t
        s.unused.remove(a.die)
        s.last_move = LastMove(seat=seat, token=i + 1, kind="move", from_rel=r, to_rel=t)
        moved = Moved(
            player=s.players[seat],
            token=i + 1,
            die=a.die,
            from_rel=r,
            to_rel=t,
            home=t >= HOME,
            entered_home=t >= HOME > r,
        )
        _ev(events, moved, seat)
        if t < LOOP_LEN:
            _land(s, seat, t, events)
    s.moved_this_roll = True
    if home_count(s, seat) == TOKENS:  # R19
        _game_over(s, seat, events)
        return
    _settle(s, events)


def start_roll(s: State, dice: list[int], events: list[Event]) -> None:
    """A roll of `dice` by the player to act (R5, R15), then the engine settles (R6, R7)."""
    seat = s.current
    s.phase = Phase.AWAIT_MOVE
    s.dice = list(dice)
    s.unused = list(dice)
    s.roll_no += 1
    s.moved_this_roll = False
    if seat < len(s.burnt):
        s.burnt[seat] = []  # his last roll's burnt dice are forgotten at his next roll
    ones = dice.count(1)
    on_corner = any(r in RED_CORNERS for r in s.tokens[seat])
    s.forced_jumps = ones if on_corner else 0
    rolled = Rolled(
        player=s.players[seat],
        dice=list(dice),
        double=dice[0] == dice[1],
        forced_jumps=s.forced_jumps,
    )
    _ev(events, rolled, seat)
    _settle(s, events)


def _land(s: State, seat: int, rel: int, events: list[Event]) -> None:
    """R13: an opponent token on the landing loop cell goes back to its reserve."""
    g = global_index(s.arms[seat], rel)
    for other, toks in enumerate(s.tokens):
        if other == seat:
            continue
        arm = s.arms[other]
        for i, r in enumerate(toks):
            if 0 <= r < LOOP_LEN and global_index(arm, r) == g:
                toks[i] = BASE
                captured = Captured(
                    player=s.players[seat],
                    victim=s.players[other],
                    victim_seat=other,
                    token=i + 1,
                    rel=r,
                    cell=cell_of(arm, r, i),
                )
                _ev(events, captured, seat)


def _settle(s: State, events: list[Event]) -> None:
    """Bring `s` to the next real decision (R16 void jumps, R6 end of the move phase, R7)."""
    if s.phase != Phase.AWAIT_MOVE:
        return
    seat = s.current
    if s.forced_jumps > 0 and not _any_jump(s):  # R16
        s.forced_jumps = 0
        _ev(events, JumpsVoid(player=s.players[seat]), seat)
    if s.unused and _has_legal(s):
        return
    if s.unused:
        unplayed = DiceLapsed if s.moved_this_roll else Passed
        s.burnt = [*s.burnt, *([] for _ in range(len(s.players) - len(s.burnt)))]
        s.burnt[seat] = list(s.unused)
        _ev(events, unplayed(player=s.players[seat], unused=list(s.unused)), seat)
    _end_of_roll(s, events)


def _end_of_roll(s: State, events: list[Event]) -> None:
    seat = s.current
    double = len(s.dice) == 2 and s.dice[0] == s.dice[1]
    s.unused = []
    s.forced_jumps = 0
    s.phase = Phase.AWAIT_ROLL
    if double:  # R7
        _ev(events, ExtraRoll(player=s.players[seat]), seat)
        return
    s.current = _next_seat(s, seat)
    s.turn_no += 1
    _turn(s, events)


def _turn(s: State, events: list[Event]) -> None:
    """The turn has passed to `s.current`."""
    _ev(events, Turn(player=s.players[s.current], turn=s.turn_no), s.current)


def _game_over(s: State, seat: int, events: list[Event]) -> None:
    """R19 (and R20 with one player left): unused dice and pending rolls lapse."""
    s.phase = Phase.GAME_OVER
    s.winner = seat
    s.unused = []
    s.forced_jumps = 0
    order = _order(s)
    standings = [
        Placing(
            player=s.players[x],
            place=k + 1,
            home_count=home_count(s, x),
            progress=progress(s, x),
            left=not s.active[x],
        )
        for k, x in enumerate(order)
    ]
    _ev(events, GameOver(winner=s.players[seat], winner_seat=seat, standings=standings))


def _order(s: State) -> list[int]:
    """Seats best first: the winner; then R19's key among those in the game; leavers last."""
    stay = [x for x in range(len(s.players)) if s.active[x] and x != s.winner]
    stay.sort(key=lambda x: (-home_count(s, x), -progress(s, x), s.arms[x]))
    head = [s.winner] if s.winner is not None else []
    return [*head, *stay, *reversed(s.left)]


def _remove(s: State, seat: int, events: list[Event]) -> None:
    """R20."""
    s.active[seat] = False
    s.tokens[seat] = []
    s.left.append(seat)
    if s.last_move is not None and s.last_move.seat == seat:
        s.last_move = None
    _ev(events, PlayerLeft(player=s.players[seat]), seat)
    staying = [x for x in range(len(s.players)) if s.active[x]]
    if len(staying) == 1:
        _game_over(s, staying[0], events)
        return
    if s.current == seat:
        s.phase = Phase.AWAIT_ROLL
        s.unused = []
        s.dice = []
        s.forced_jumps = 0
        s.current = _next_seat(s, seat)
        s.turn_no += 1
        _turn(s, events)


# ---------------------------------------------------------------- view


def _describe(s: State, a: Action) -> ActionInfo:
    seat = s.current
    arm = s.arms[seat]
    frm: int | None = None
    to: int | None = None
    if a.type is T.ENTER:
        frm, to = BASE, 0
    elif a.type is T.JUMP:
        frm = s.tokens[seat][_token(a)]
        to = _jump_target(frm)
    elif a.type is T.MOVE:
        assert a.die is not None
        frm = s.tokens[seat][_token(a)]
        to = frm + a.die
    captures = False
    if to is not None and 0 <= to < LOOP_LEN:
        who = occupant(s, global_index(arm, to))
        captures = who is not None and who[0] != seat
    return ActionInfo(
        code=a.encode(),
        type=a.type,
        token=a.token,
        die=a.die,
        from_rel=frm,
        to_rel=to,
        captures=captures,
        home=to is not None and to >= HOME,
    )


def _last_cells(s: State) -> list[Cell]:
    """Origin and target cells of the last move (§3.5 highlight); empty if none."""
    m = s.last_move
    if m is None or not s.active[m.seat]:
        return []
    arm = s.arms[m.seat]
    return [cell_of(arm, m.from_rel, m.token - 1), cell_of(arm, m.to_rel, m.token - 1)]


def _view(s: State, player: int | None) -> View:
    me = s.players.index(player) if player in s.players else None
    over = s.phase == Phase.GAME_OVER
    places = {x: k + 1 for k, x in enumerate(_order(s))} if over else {}
    owners = _loop_owner(s)
    players: list[PlayerInfo] = []
    for seat, pid in enumerate(s.players):
        arm = s.arms[seat]
        toks = []
        for i, r in enumerate(s.tokens[seat]):
            where = "reserve" if r == BASE else "home" if r >= HOME else "loop"
            toks.append(
                TokenInfo(
                    number=i + 1,
                    rel=r,
                    cell=cell_of(arm, r, i),
                    where=where,
                    on_red_corner=r in RED_CORNERS,
                    in_block=where == "loop" and in_block(owners, global_index(arm, r)),
                )
            )
        players.append(
            PlayerInfo(
                seat=seat,
                player=pid,
                arm=arm,
                colour=COLOURS[arm],
                active=s.active[seat],
                tokens=toks,
                home_count=home_count(s, seat),
                reserve_count=s.tokens[seat].count(BASE),
                progress=progress(s, seat),
                place=places.get(seat),
                burnt=list(s.burnt[seat]) if seat < len(s.burnt) else [],
            )
        )
    moving = s.phase == Phase.AWAIT_MOVE
    return View(
        me=player if me is not None else None,
        me_seat=me,
        players=players,
        phase=s.phase,
        to_act=None if over else s.players[s.current],
        to_act_seat=None if over else s.current,
        dice=list(s.dice),
        unused=list(s.unused),
        double=len(s.dice) == 2 and s.dice[0] == s.dice[1],
        forced_jumps=s.forced_jumps,
        actions=[_describe(s, a) for a in GAME.legal_actions(s)] if moving else [],
        last_move=s.last_move,
        last_move_cells=_last_cells(s),
        turn_no=s.turn_no,
        roll_no=s.roll_no,
        rolloff=list(s.rolloff),
        first=s.first,
        over=over,
        winners=[s.players[s.winner]] if over and s.winner is not None else [],
    )


def rolloff_events(s: State) -> list[Event]:
    """R4 narration of the roll-off made by `new` (it returns no events itself)."""
    events: list[Event] = []
    for k, rnd in enumerate(s.rolloff):
        players = [s.players[x] for x in rnd.seats]
        _ev(events, RollOff(round=k + 1, players=players, seats=rnd.seats, dice=rnd.dice))
    _ev(events, FirstPlayer(player=s.players[s.first]), s.first)
    return events
