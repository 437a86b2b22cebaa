"""The rules engine of «Гипнозия» (docs/spec/hypnosia.md). Pure and deterministic.

Example:
    >>> from games.hypnosia import GAME
    >>> s = GAME.new([1, 2], seed=1)
    >>> [a.encode() for a in GAME.legal_actions(s)]
    ['R']
    >>> s2, events = GAME.apply(s, GAME.decode_action("R"))
    >>> s2.version == s.version + 1 and events[0].type == "rolled"
    True
"""

from __future__ import annotations

from typing import Any, NoReturn

from games.engine import RulesEngine, counter_rng
from games.hypnosia.events import (
    Captured,
    DiceLapsed,
    EnteredCentre,
    GameOver,
    Moved,
    OutOfTokens,
    PlayerLeft,
    Rolled,
    TurnEnded,
    TurnStarted,
)
from games.hypnosia.model import (
    BOARD_SEATS,
    CAPTURED,
    CENTRE_VALUES,
    COLOURS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REMOVED,
    RING_SIZES,
    START,
    TOKENS,
    Action,
    ActionType,
    CellView,
    EndReason,
    MovePreview,
    MoveView,
    Options,
    Phase,
    PlayerView,
    RollOffRound,
    Route,
    State,
    View,
    bridge_target,
    centre_cell,
    entry,
    in_play,
    is_bridge,
    move_tag,
    parse_cell,
    ring_cell,
)
from games.hypnosia.policies import NOVICE
from games.protocol import Event, Fact, IllegalAction, Result, Standing

# Machine codes of IllegalAction; the bot translates each (locales: error.<code>).
CODES: tuple[str, ...] = (
    "game_over",  # the game has ended
    "malformed",  # not an action of this game (bad text, bad fields)
    "wrong_phase",  # ROLL while moving, MOVE before rolling
    "no_such_die",  # no unused die has this value (I6)
    "token_out_of_play",  # the token is in the centre, captured or removed
    "not_a_pair",  # `pair` for a token that is not in a pair (R13)
    "use_lower_token",  # a pair is named (and split) by its lower number (R13)
    "die_too_small",  # start token №i needs a die of at least i (R8)
    "not_on_bridge",  # the bridge route needs the unit to stand on a bridge (R10)
    "pair_no_bridge",  # variant: a pair may not cross or enter the centre (R15)
    "centre_needs_one",  # the centre takes exactly a 1 (R11)
    "stack_limit",  # at most 2 tokens of a player on a cell (R12)
    "single_vs_pair",  # a single cannot capture a pair (R12)
    "not_a_player",  # remove(): the id is not in this game
)

ROUTES: tuple[Route, ...] = (Route.RING, Route.BRIDGE)


class Hypnosia(RulesEngine[State, Action]):
    """«Гипнозия» implementing games.protocol.Game."""

    id = "hypnosia"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = State
    action_type = Action
    over_phase = Phase.GAME_OVER
    novice = NOVICE  # also the turn-timeout policy (spec §5 AFK decision): `timeout(state)`

    # ---------------------------------------------------------------- protocol

    def new(self, players: list[int], seed: int, options: dict[str, Any] | None = None) -> State:
        """R1–R4: tokens on their start positions, the first player rolled off."""
        self._check_players(players)
        opts = Options.model_validate(options or {})
        n = len(players)
        s = State(
            options=opts,
            seed=seed,
            players=list(players),
            board_seats=list(BOARD_SEATS[n]),
            tokens=[[START] * TOKENS for _ in players],
            captured=[0] * n,
            lost=[0] * n,
        )
        s.first = s.current = _roll_off(s)
        return s

    def legal_actions(self, state: State) -> list[Action]:
        """Canonical order: die ascending, token ascending, ring before bridge, pair first."""
        return super().legal_actions(state)

    def preview(self, state: State, action: Action) -> MovePreview:
        """What a legal MOVE would do (for buttons); IllegalAction for anything else."""
        code = _why(state, action)
        if code is None and action.type is not ActionType.MOVE:
            code = "wrong_phase"
        if code is not None:
            raise IllegalAction(code, action=_text(action))
        return _preview(state, action)

    def result(self, state: State) -> Result:
        return _result(state)

    # ---------------------------------------------------------------- automation

    def turn_key(self, state: State) -> str | None:
        return None if state.phase == Phase.GAME_OVER else str(state.turn_no)

    def forced(self, state: State) -> Action | None:
        """§5: the roll, and a move that is the only legal one, are played by the bot."""
        legal = [] if state.phase == Phase.GAME_OVER else self.legal_actions(state)
        return legal[0] if len(legal) == 1 else None

    def finished(self, state: State, player: int) -> bool:
        """R18: a player still in the game with no token in play: his score is final."""
        if state.phase == Phase.GAME_OVER or player not in state.players:
            return False
        seat = state.players.index(player)
        return seat not in state.left and not has_tokens(state, seat)

    def view(self, state: State, player: int | None) -> View:
        return _view(state, player)

    def remove(self, state: State, player: int) -> tuple[State, list[Event]]:
        """R20: the player's tokens leave the board; his centre fields stay his."""
        return super().remove(state, player)

    # ---------------------------------------------------------------- rules

    def _candidates(self, s: State) -> list[Action]:
        return _candidates(s)

    def _why(self, s: State, a: Action) -> str | None:
        return _why(s, a)

    def _perform(self, s: State, a: Action, events: list[Event]) -> None:
        if a.type is ActionType.ROLL:
            _roll(s, events)
        else:
            _move(s, a, events)

    def _remove(self, s: State, seat: int, events: list[Event]) -> None:
        _remove(s, seat, events)

    def _left(self, s: State, seat: int) -> bool:
        return seat in s.left

    def _action_text(self, a: Action) -> str:
        return _text(a)

    def _undecodable(self, text: str, exc: ValueError) -> NoReturn:
        raise IllegalAction("malformed", text=text[:40]) from exc


GAME = Hypnosia()


# -------------------------------------------------------------------- helpers


_rng = counter_rng


def _text(a: Action) -> str:
    """The action's text for error details, even for one built bypassing validation."""
    try:
        return a.encode()
    except (AttributeError, AssertionError):
        return repr(a)[:60]


def _ev(events: list[Event], fact: Fact, seat: int | None = None) -> None:
    events.append(Event.of(fact, seat))


def _roll_off(s: State) -> int:
    """R4: two dice each, highest sum starts, the tied highest roll again."""
    contenders = list(range(len(s.players)))
    while True:
        rng = _rng(s)
        rolls = {seat: rng.randint(1, 6) + rng.randint(1, 6) for seat in contenders}
        s.roll_off.append(rolls)
        best = max(rolls.values())
        contenders = [seat for seat in contenders if rolls[seat] == best]
        if len(contenders) == 1:
            return contenders[0]


def occupants(s: State, cell: str) -> list[tuple[int, int]]:
    """(seat, token) pairs on a ring cell, token ascending."""
    return [
        (seat, t + 1)
        for seat, row in enumerate(s.tokens)
        for t, pos in enumerate(row)
        if pos == cell
    ]


def _mates(s: State, seat: int, token: int) -> list[int]:
    """The other tokens of `seat` on the same ring cell as `token` (its pair partner)."""
    pos = s.tokens[seat][token - 1]
    if parse_cell(pos) is None:
        return []
    return [t + 1 for t, p in enumerate(s.tokens[seat]) if p == pos and t + 1 != token]


def has_tokens(s: State, seat: int) -> bool:
    return seat not in s.left and any(in_play(p) for p in s.tokens[seat])


def score(s: State, seat: int) -> int:
    """R16: centre values + captured opponent tokens − own tokens lost."""
    return sum(centre_fields(s, seat)) + s.captured[seat] - s.lost[seat]


def centre_fields(s: State, seat: int) -> list[int]:
    """Values of the centre fields `seat` holds, highest first."""
    return [CENTRE_VALUES[i] for i, x in enumerate(s.centre) if x == seat]


def destination(s: State, seat: int, a: Action) -> tuple[str | None, str | None]:
    """Where the unit of `a` lands (`k.j` or `C` for the centre), or the refusal code."""
    assert a.token is not None and a.die is not None
    pos = s.tokens[seat][a.token - 1]
    d = a.die
    if pos == START:  # R8
        if a.route is Route.BRIDGE:
            return None, "not_on_bridge"
        if d < a.token:
            return None, "die_too_small"
        return ring_cell(1, (entry(s.board_seats[seat]) + d - a.token) % RING_SIZES[1]), None
    cell = parse_cell(pos)
    assert cell is not None
    k, j = cell
    if a.route is Route.RING:  # R9
        return ring_cell(k, (j + d) % RING_SIZES[k]), None
    if not is_bridge(k, j):  # R10
        return None, "not_on_bridge"
    if a.pair and not s.options.pairs_cross_bridges:  # R15
        return None, "pair_no_bridge"
    target = bridge_target(k, j)
    if target is None:  # R11
        return ("C", None) if d == 1 else (None, "centre_needs_one")
    tk, tj = target
    return ring_cell(tk, (tj + d - 1) % RING_SIZES[tk]), None


def _landing(s: State, seat: int, dest: str, size: int) -> str | None:
    """R12: may a unit of `size` tokens of `seat` land on `dest`?"""
    there = occupants(s, dest)
    if not there:
        return None
    if there[0][0] == seat:
        return "stack_limit" if size + len(there) > 2 else None
    if len(there) == 2 and size == 1:
        return "single_vs_pair"
    return None


def _why(s: State, a: Action) -> str | None:
    """The one place legality is decided: the refusal code, or None when `a` is legal."""
    if s.phase == Phase.GAME_OVER:
        return "game_over"
    if a.type is ActionType.ROLL:
        return None if s.phase == Phase.ROLL else "wrong_phase"
    if s.phase != Phase.MOVE:
        return "wrong_phase"
    if a.token is None or a.die is None or not isinstance(a.route, Route):
        return "malformed"
    if not 1 <= a.token <= TOKENS or not 1 <= a.die <= 6:  # bypassed validation
        return "malformed"
    if a.die not in s.unused:
        return "no_such_die"
    seat = s.current
    if not in_play(s.tokens[seat][a.token - 1]):
        return "token_out_of_play"
    mates = _mates(s, seat, a.token)
    if a.pair and not mates:
        return "not_a_pair"
    if mates and mates[0] < a.token:
        return "use_lower_token"
    dest, code = destination(s, seat, a)
    if code is not None:
        return code
    assert dest is not None
    if dest == "C":
        return None
    return _landing(s, seat, dest, 2 if a.pair else 1)


def _candidates(s: State) -> list[Action]:
    if s.phase == Phase.ROLL:
        return [Action(type=ActionType.ROLL)]
    if s.phase != Phase.MOVE:
        return []
    out: list[Action] = []
    for d in sorted(set(s.unused)):
        for token in range(1, TOKENS + 1):
            for route in ROUTES:
                for pair in (True, False):
                    out.append(
                        Action(type=ActionType.MOVE, token=token, die=d, route=route, pair=pair)
                    )
    return out


def _preview(s: State, a: Action) -> MovePreview:
    assert a.token is not None
    seat = s.current
    dest, _ = destination(s, seat, a)
    assert dest is not None
    tokens = [a.token, *(_mates(s, seat, a.token) if a.pair else [])]
    if dest == "C":
        free = CENTRE_VALUES[len(s.centre) :]
        return MovePreview(
            tokens=tokens,
            src=s.tokens[seat][a.token - 1],
            dest=dest,
            fields=list(free[: len(tokens)]),
            captures=0,
        )
    captures = sum(1 for o, _ in occupants(s, dest) if o != seat)
    return MovePreview(
        tokens=tokens, src=s.tokens[seat][a.token - 1], dest=dest, fields=[], captures=captures
    )


def _can_move(s: State) -> bool:
    return any(_why(s, a) is None for a in _candidates(s))


# -------------------------------------------------------------- turn logic


def _roll(s: State, events: list[Event]) -> None:
    """R5: one roll of both dice; a die with no legal use lapses (R6)."""
    rng = _rng(s)
    s.dice = [rng.randint(1, 6), rng.randint(1, 6)]
    s.unused = list(s.dice)
    s.phase = Phase.MOVE
    _ev(events, Rolled(dice=s.dice), s.current)
    _after_move(s, events)


def _move(s: State, a: Action, events: list[Event]) -> None:
    """R8–R15 for one die; then R17a, R6."""
    assert a.token is not None and a.die is not None and a.route is not None
    seat = s.current
    dest, _ = destination(s, seat, a)
    assert dest is not None
    src = s.tokens[seat][a.token - 1]
    movers = [a.token, *(_mates(s, seat, a.token) if a.pair else [])]
    s.unused.remove(a.die)
    moved = Moved(tokens=movers, die=a.die, route=a.route, pair=a.pair, src=src, to=dest)
    if dest == "C":  # R11, R15: the highest free fields, lower token first
        entered: list[int] = []
        for token in movers:
            if len(s.centre) >= len(CENTRE_VALUES):
                break
            value = CENTRE_VALUES[len(s.centre)]
            s.centre.append(seat)
            s.tokens[seat][token - 1] = centre_cell(value)
            entered.append(value)
        _ev(events, moved.model_copy(update={"fields": entered}), seat)
        for token, value in zip(movers, entered, strict=False):
            _ev(events, EnteredCentre(token=token, field=value), seat)
        if not has_tokens(s, seat):  # R18: his last token is home
            _ev(events, OutOfTokens(score=score(s, seat)), seat)
    else:
        victims = [(o, t) for o, t in occupants(s, dest) if o != seat]
        for token in movers:
            s.tokens[seat][token - 1] = dest
        _ev(events, moved, seat)
        if victims:  # R14
            victim = victims[0][0]
            for o, t in victims:
                s.tokens[o][t - 1] = CAPTURED
            s.captured[seat] += len(victims)
            s.lost[victim] += len(victims)
            _ev(events, Captured(victim=victim, tokens=[t for _, t in victims], at=dest), seat)
            if not has_tokens(s, victim):  # R18: his last tokens are gone
                _ev(events, OutOfTokens(score=score(s, victim)), victim)
    if len(s.centre) >= len(CENTRE_VALUES):  # R17a: at once, a remaining die lapses
        if s.unused:
            _ev(events, DiceLapsed(dice=s.unused), seat)
            s.unused = []
        _game_over(s, EndReason.CENTRE_FULL, events)
        return
    _after_move(s, events)


def _after_move(s: State, events: list[Event]) -> None:
    """R6: the turn goes on while an unused die has a legal use; the rest lapse."""
    if s.unused and _can_move(s):
        return
    if s.unused:
        _ev(events, DiceLapsed(dice=s.unused), s.current)
        s.unused = []
    _end_turn(s, events)


def _end_turn(s: State, events: list[Event]) -> None:
    """END_TURN (§5): R17b, R17d, then the next seat clockwise with tokens in play (R18),
    R17c."""
    _ev(events, TurnEnded(), s.current)
    s.dice = []
    s.unused = []
    if _race_over(s, events):
        return
    n = len(s.players)
    nxt = s.current
    for k in range(1, n + 1):
        q = (s.current + k) % n
        if q == s.first:
            s.round_no += 1
        if has_tokens(s, q):
            nxt = q
            break
    if s.round_no > s.options.round_limit:
        s.round_no = s.options.round_limit
        _game_over(s, EndReason.ROUND_LIMIT, events)
        return
    s.current = nxt
    s.phase = Phase.ROLL
    s.turn_no += 1
    _ev(events, TurnStarted(round=s.round_no, turn=s.turn_no), nxt)


def _race_over(s: State, events: list[Event]) -> bool:
    """R17b, R17d: the game ends when no token is in play, or when one player alone has
    tokens in play (another player still in the game): his run home is certain."""
    racers = [seat for seat in range(len(s.players)) if has_tokens(s, seat)]
    if not racers:
        _game_over(s, EndReason.NO_TOKENS, events)
        return True
    if len(racers) == 1 and len(s.players) - len(s.left) >= 2:
        _run_home(s, racers[0], events)
        _game_over(s, EndReason.LAST_RACER, events)
        return True
    return False


def _run_home(s: State, seat: int, events: list[Event]) -> None:
    """R17d: the last player with tokens in play is alone: nobody can capture them or be
    captured by them (R14), so each would reach the centre; they take the highest free
    fields at once, lower-numbered first, as many as are free."""
    for t, pos in enumerate(s.tokens[seat]):
        if not in_play(pos) or len(s.centre) >= len(CENTRE_VALUES):
            continue
        value = CENTRE_VALUES[len(s.centre)]
        s.centre.append(seat)
        s.tokens[seat][t] = centre_cell(value)
        _ev(events, EnteredCentre(token=t + 1, field=value), seat)


def _game_over(s: State, reason: EndReason, events: list[Event]) -> None:
    s.phase = Phase.GAME_OVER
    s.end_reason = reason
    s.dice = []
    s.unused = []
    res = _result(s)
    s.winners = list(res.winners)
    winners = [s.players.index(w) for w in res.winners]
    scores = [score(s, seat) for seat in range(len(s.players))]
    _ev(events, GameOver(reason=reason, winners=winners, scores=scores))


def _remove(s: State, seat: int, events: list[Event]) -> None:
    """R20."""
    removed = 0
    for t, pos in enumerate(s.tokens[seat]):
        if in_play(pos):
            s.tokens[seat][t] = REMOVED
            removed += 1
    s.left.append(seat)
    _ev(events, PlayerLeft(tokens_removed=removed), seat)
    staying = [x for x in range(len(s.players)) if x not in s.left]
    if len(staying) <= 1:
        _game_over(s, EndReason.PLAYERS_LEFT, events)
        return
    if s.current == seat:
        _end_turn(s, events)
    else:
        _race_over(s, events)


# ---------------------------------------------------------------- result


def _order(s: State) -> list[list[int]]:
    """R19, R20: groups of seats sharing a place, best first."""
    staying = [x for x in range(len(s.players)) if x not in s.left]

    def key(x: int) -> tuple[int, int]:
        return score(s, x), max(centre_fields(s, x), default=0)

    groups: dict[tuple[int, int], list[int]] = {}
    for x in staying:
        groups.setdefault(key(x), []).append(x)
    order = [groups[k] for k in sorted(groups, reverse=True)]
    order.extend([x] for x in reversed(s.left))
    return order


def _places(s: State) -> dict[int, int]:
    places: dict[int, int] = {}
    place = 1
    for group in _order(s):
        for x in group:
            places[x] = place
        place += len(group)
    return places


def _result(s: State) -> Result:
    """R19 standings; while the game runs, the provisional order."""
    order = _order(s)
    places = _places(s)
    standings = [
        Standing(player=s.players[x], place=places[x], score=score(s, x))
        for group in order
        for x in group
    ]
    return Result(standings=standings, winners=[s.players[x] for x in order[0]])


# ---------------------------------------------------------------- view


def _view(s: State, player: int | None) -> View:
    me = s.players.index(player) if player in s.players else None
    places = _places(s)
    board: dict[str, CellView] = {}
    for seat, row in enumerate(s.tokens):
        for t, pos in enumerate(row):
            if parse_cell(pos) is not None:
                board.setdefault(pos, CellView(seat=seat, tokens=[])).tokens.append(t + 1)
    centre: list[int | None] = [
        s.centre[i] if i < len(s.centre) else None for i in range(len(CENTRE_VALUES))
    ]
    over = s.phase == Phase.GAME_OVER
    return View(
        me=me,
        players=[
            PlayerView(
                seat=seat,
                player=p,
                board_seat=s.board_seats[seat],
                colour=COLOURS[s.board_seats[seat]],
                entry=ring_cell(1, entry(s.board_seats[seat])),
                tokens=list(s.tokens[seat]),
                in_play=sum(1 for pos in s.tokens[seat] if in_play(pos)),
                centre_fields=centre_fields(s, seat),
                captured=s.captured[seat],
                lost=s.lost[seat],
                score=score(s, seat),
                left=seat in s.left,
                place=places[seat],
            )
            for seat, p in enumerate(s.players)
        ],
        board=board,
        centre=centre,
        phase=s.phase,
        current=None if over else s.current,
        to_act=None if over else s.players[s.current],
        dice=list(s.dice),
        unused=list(s.unused),
        round_no=s.round_no,
        round_limit=s.options.round_limit,
        pairs_cross_bridges=s.options.pairs_cross_bridges,
        first=s.first,
        roll_off=[RollOffRound(seats=list(r), sums=list(r.values())) for r in s.roll_off],
        end_reason=s.end_reason,
        winners=list(s.winners),
        moves=[] if s.phase != Phase.MOVE else [_move_view(s, a) for a in _legal(s)],
    )


def _legal(s: State) -> list[Action]:
    return [a for a in _candidates(s) if _why(s, a) is None]


def _move_view(s: State, a: Action) -> MoveView:
    assert a.die is not None and a.route is not None
    p = _preview(s, a)
    return MoveView(
        code=a.encode(),
        tag=move_tag(p.tokens, a.die, a.route),
        tokens=p.tokens,
        die=a.die,
        dest=p.dest,
        fields=p.fields,
        captures=p.captures,
    )


__all__ = [
    "CODES",
    "GAME",
    "Hypnosia",
    "centre_fields",
    "destination",
    "has_tokens",
    "occupants",
    "score",
]
