"""The rules engine of «Семидорожник» (docs/spec/seven_tracks.md). Pure and deterministic.

Example:
    >>> from games.seven_tracks import GAME
    >>> s = GAME.new([1, 2, 3], seed=1)
    >>> a = GAME.legal_actions(s)[0]
    >>> s2, events = GAME.apply(s, a)
    >>> s2.version == s.version + 1
    True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from games.copying import deep_copy
from games.engine import RulesEngine, counter_rng
from games.protocol import Event, Fact, IllegalAction, Result, Standing
from games.seven_tracks.events import (
    BlackDiscarded,
    Blocked,
    BonusTaken,
    CycleStarted,
    DiceChosen,
    DiceOff,
    Drew,
    DrewTile,
    ExchangeStarted,
    FifthSwap,
    FinalTurns,
    FirstMove,
    FmDeclared,
    FmDiscarded,
    FmPassed,
    GameOver,
    Placed,
    PlacedT7,
    PlacingEnded,
    PlayerLeft,
    PriorityUse,
    PriorityUsed,
    Reclaimed,
    Rolled,
    RoundEnded,
    RoundStarted,
    T7Completed,
    TrackCompleted,
    TurnEnded,
    TurnStarted,
    Unblocked,
    WentOut,
)
from games.seven_tracks.model import (
    COLOURS,
    KINDS,
    ORIGINAL_PRIORITY,
    REDIRECTS,
    SHIFTS,
    T7,
    TRACK_LEN,
    Action,
    ActionType,
    Block,
    Exchange,
    Mode,
    Options,
    Phase,
    PlayerView,
    Redirect,
    RoundSummary,
    State,
    Status,
    TileKind,
    Turn,
    TurnView,
    View,
    expected_colour,
    is_white_like,
    kind_of,
)
from games.seven_tracks.policies import NOVICE

T = ActionType

# Machine codes of IllegalAction; the bot translates each (locales: error.<code>).
CODES: tuple[str, ...] = (
    "game_over",
    "malformed",
    "wrong_phase",
    "no_tile",
    "track_unavailable",
    "track_blocked",
    "track_capacity",
    "wrong_colour",
    "two_whites",
    "restricted_turn",
    "restricted_one_placement",
    "priority_used",
    "no_placement_on_track",
    "track_empty",
    "already_blocked",
    "not_blocked",
    "own_block",
    "not_white_slot",
    "not_double",
    "t7_colour_taken",
    "not_double_six",
    "bonus_empty",
    "bonus_limit",
    "no_black_discard",
    "obligation_met",
    "draw_limit",
    "bank_empty",
    "must_place",
    "obligation_unmet",
    "final_turn",
    "not_restricted",
    "board_action_done",
    "cancel_used",
    "exchange_limit",
    "exchange_priority",
    "fifth_swap_needs_five",
    "bad_target",
    "bad_role",
    "fm_u_taken",
    "fm_answered",
    "not_a_player",
)

TURN_PHASES = (Phase.PRE_MOVE, Phase.PLACING, Phase.POST_MOVE, Phase.EXCHANGE)
# the tiles that play a part: a white (R30, R35, R41), a black (R33), the first move
# (R58), an exchange (R60): the original, or a universal in its role (R62)
_AS_WHITE = (TileKind.WHITE, TileKind.UNIVERSAL)
_AS_BLACK = (TileKind.BLACK, TileKind.UNIVERSAL)
_DECLARERS = (TileKind.FIRST_MOVE, TileKind.UNIVERSAL)
_EXCHANGERS = (TileKind.EXCHANGE, TileKind.UNIVERSAL)
_REDIRECT_USES = {
    T.INSTEAD_OF_MOVE: PriorityUse.INSTEAD,
    T.AFTER_MOVE: PriorityUse.AFTER,
    T.WAIVE: PriorityUse.WAIVE,
}


class SevenTracks(RulesEngine[State, Action]):
    """«Шестигранник – Семидорожник» implementing games.protocol.Game."""

    id = "seven_tracks"
    min_players = 2
    max_players = 6
    state_type = State
    action_type = Action
    over_phase = Phase.GAME_OVER
    lower_score_wins = True  # a score is the tiles left in hand (R67): fewer is better
    novice = NOVICE  # also the turn-timeout policy: `timeout(state)`, one action a call

    # ---------------------------------------------------------------- protocol

    def new(self, players: list[int], seed: int, options: dict[str, Any] | None = None) -> State:
        """A new game, dealt, in its first-move window (R5, R13, R15)."""
        opts = Options(**(options or {}))
        self._check_players(players)
        total = sum(opts.tile_set.values())
        if opts.hand_size * len(players) >= total:
            raise ValueError("hand_size: hand_size × players must be below the number of tiles")
        n = len(players)
        s = State(
            options=opts,
            seed=seed,
            players=list(players),
            status=[Status.ACTIVE] * n,
            scores=[0] * n,
            hands=[[] for _ in players],
        )
        events: list[Event] = []
        _start_cycle(s, events, first=True)
        return s

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        if isinstance(action, Action) and state.phase == Phase.GAME_OVER:
            raise IllegalAction("game_over")
        return super().apply(state, action)

    def result(self, state: State) -> Result:
        return _result(state)

    def deciders(self, state: State) -> list[int]:
        """The players who may still answer: everyone undecided in the first-move window
        (R58, a simultaneous decision), else the player to act."""
        if state.phase == Phase.FIRST_MOVE:
            return [state.players[x] for x in _fm_undecided(state)]
        return super().deciders(state)

    def legal_actions(self, state: State) -> list[Action]:
        """In the first-move window everyone answers at once (R58): `to_act` names the
        lowest seat still to answer, whose answers these are; each decider's own are
        `legal_actions_for`."""
        if state.phase == Phase.FIRST_MOVE:
            player = self.to_act(state)
            return [] if player is None else self.legal_actions_for(state, player)
        return super().legal_actions(state)

    def legal_actions_for(self, state: State, player: int) -> list[Action]:
        if state.phase == Phase.FIRST_MOVE:
            if player not in state.players:
                return []
            seat = state.players.index(player)
            if seat not in _fm_undecided(state):
                return []
            return [a for a in _fm_answers(state, seat) if _why(state, a) is None]
        return super().legal_actions_for(state, player)

    def timeout(self, state: State) -> tuple[State, list[Event]]:
        """A timed-out first-move window passes every seat still to answer (R58); any
        other timeout is the novice's one step (`RulesEngine.timeout`)."""
        if state.phase != Phase.FIRST_MOVE:
            return super().timeout(state)
        s = deep_copy(state)
        events: list[Event] = []
        for seat in _fm_undecided(s):
            if s.phase == Phase.FIRST_MOVE:
                _perform(s, Action(type=T.FM_PASS, seat=seat), events)
        s.version += 1
        return s, events

    def view(self, state: State, player: int | None) -> View:
        """What `player` sees. In a first-move window `current` names nobody but the
        seat itself while it is still to answer (and nobody in the table's view): whose
        answer is pending — once the bot has passed everyone who cannot claim — would
        tell who holds an FM or a U. Whether he is still to answer follows from his own
        hand and answers, and from the declarations everyone is told."""
        v = _view(state, player)
        if state.phase == Phase.FIRST_MOVE:
            v.current = v.me if v.me is not None and v.me in _fm_undecided(state) else None
        return v

    # ---------------------------------------------------------------- automation

    def turn_key(self, state: State) -> str | None:
        """A turn (cycle, round, turn), or the first-move window before it."""
        if state.phase == Phase.GAME_OVER:
            return None
        window = "w" if state.phase == Phase.FIRST_MOVE else ""
        return f"{window}{state.cycle_no}:{state.round_no}:{state.turn_no}"

    def is_simultaneous(self, state: State) -> bool:
        """The first-move window: everyone answers at once (R58)."""
        return state.phase == Phase.FIRST_MOVE

    def forced(self, state: State) -> Action | None:
        """In the first-move window, the pass of a player for whom it is no choice (no FM,
        and no U or one already declared). R66 (revised 2026-12): a turn in which, after
        the roll, nothing can be placed, drawn or played is ended — END_PLACING, then its
        END_TURN; a turn whose placing the player ended himself is his to end."""
        s = state
        if s.phase == Phase.FIRST_MOVE:
            for user in self.deciders(s):
                legal = self.legal_actions_for(s, user)
                if [a.type for a in legal] == [T.FM_PASS]:
                    return legal[0]
            return None
        if turn_is_dead(s):
            return Action(type=T.END_PLACING)
        if placing_was_dead(s):
            return Action(type=T.END_TURN)
        return None

    def timeout_turn(self, state: State) -> tuple[State, list[Event]]:
        """A timed-out turn is played by the novice to its end (`timeout`, one action a
        call); a timed-out window passes everyone still to answer."""
        if state.phase == Phase.FIRST_MOVE:
            return self.timeout(state)
        return super().timeout_turn(state)

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
        return s.status[seat] == Status.ELIMINATED

    def _not_a_player(self, player: int) -> IllegalAction:
        return IllegalAction("not_a_player")


GAME = SevenTracks()


# -------------------------------------------------------------------- helpers


_rng = counter_rng


def _tile_no(tile: str) -> int:
    return int(tile.split("#", 1)[1])


def _has(hand: list[str], kind: str) -> bool:
    for t in hand:  # noqa: SIM110 — a plain loop: the rules ask this ~100 times a press
        if kind_of(t) == kind:
            return True
    return False


def _count(hand: Iterable[str], kind: str) -> int:
    return sum(1 for t in hand if kind_of(t) == kind)


def _take(hand: list[str], kind: str, exclude: Iterable[str] = ()) -> str:
    """Remove and return the holder's lowest id of `kind` (R4)."""
    skip = set(exclude)
    tile = min((t for t in hand if kind_of(t) == kind and t not in skip), key=_tile_no)
    hand.remove(tile)
    return tile


def _all_tiles(opts: Options) -> list[str]:
    return [f"{k}#{i:02d}" for k in KINDS for i in range(1, opts.tile_set[k] + 1)]


def _active(s: State) -> list[int]:
    return [i for i, st in enumerate(s.status) if st == Status.ACTIVE]


def _in_game(s: State) -> list[int]:
    return [i for i, st in enumerate(s.status) if st != Status.ELIMINATED]


def cw(s: State, p: int) -> int:
    """Nearest ACTIVE seat clockwise from p, excluding p unless it is the only one."""
    n = len(s.players)
    for k in range(1, n + 1):
        q = (p + k) % n
        if s.status[q] == Status.ACTIVE:
            return q
    return p


def ccw(s: State, p: int) -> int:
    n = len(s.players)
    for k in range(1, n + 1):
        q = (p - k) % n
        if s.status[q] == Status.ACTIVE:
            return q
    return p


def op_targets(s: State, seat: int) -> list[int | None]:
    """Legal `target`s of OP (R53) for `seat`: None when the opposite player is determined.
    Public facts only (the statuses), so the table's buttons come from here too."""
    ring = _active(s)
    if seat not in ring:
        ring = sorted([*ring, seat])
    n = len(ring)
    if n <= 2 or n % 2 == 0:
        return [None]
    i = ring.index(seat)
    return [ring[(i + (n - 1) // 2) % n], ring[(i + (n + 1) // 2) % n]]


def _op_seat(s: State, seat: int, target: int | None) -> int | None:
    ring = _active(s)
    if seat not in ring:
        ring = sorted([*ring, seat])
    n = len(ring)
    if n == 1:
        return None
    if n % 2 == 0:
        return ring[(ring.index(seat) + n // 2) % n]
    if n == 2:
        return ring[(ring.index(seat) + 1) % n]
    return target


def _hand(s: State) -> list[str]:
    return s.hands[s.current]


def _drawable(s: State) -> int:
    """Tiles the bank can hand out after the first-move window: all but FMs (R59, D39)."""
    return sum(1 for t in s.bank if kind_of(t) != TileKind.FIRST_MOVE)


def _ev(events: list[Event], fact: Fact, seat: int | None = None) -> None:
    events.append(Event.of(fact, seat))


# ------------------------------------------------------------ rounds, cycles


def _start_cycle(s: State, events: list[Event], first: bool = False) -> None:
    """R13: every tile to the bank, shuffled, dealt to every non-eliminated player."""
    if not first:
        s.cycle_no += 1
        s.round_no += 1
    s.bank = _all_tiles(s.options)
    _rng(s).shuffle(s.bank)
    for seat in range(len(s.players)):
        s.hands[seat] = []
        if s.status[seat] != Status.ELIMINATED:
            s.status[seat] = Status.ACTIVE
    for seat in _in_game(s):
        for _ in range(s.options.hand_size):
            s.hands[seat].append(s.bank.pop())
    s.store = []
    _ev(events, CycleStarted(cycle=s.cycle_no))
    _begin_round(s, events)


def _start_next_round(s: State, events: list[Event]) -> None:
    """R14: the board returns to the bank; hands are kept."""
    s.round_no += 1
    s.bank.extend(t for tr in s.tracks for t in tr.slots)
    s.bank.extend(tr.block.tile for tr in s.tracks if tr.block)
    s.bank.extend(s.t7)
    s.bank.extend(s.out)
    if not s.options.bonus_store_persists:
        s.bank.extend(s.store)
        s.store = []
    _rng(s).shuffle(s.bank)
    for seat in _in_game(s):
        s.status[seat] = Status.ACTIVE if s.hands[seat] else Status.OUT
    _begin_round(s, events)


def _begin_round(s: State, events: list[Event]) -> None:
    for tr in s.tracks:
        tr.slots = []
        tr.block = None
    s.t7 = []
    s.out = []
    s.restricted_left = s.final_left = s.idle_turns = 0
    s.finals_running = False
    s.out_order = []
    s.fm_declarer = s.fm_u_declarer = None
    s.fm_decided = []
    s.dice_off = []
    s.turn = Turn()
    s.exchange = None
    _ev(events, RoundStarted(round=s.round_no, cycle=s.cycle_no, active=_active(s)))
    s.phase = Phase.FIRST_MOVE
    s.current = _active(s)[0]


def _close_fm_window(s: State, events: list[Event]) -> None:
    """R58.2: the U declarer moves first, else the dice-off decides."""
    if s.fm_u_declarer is not None:
        seat = s.fm_u_declarer
        s.out.append(_take(s.hands[seat], TileKind.UNIVERSAL))
        _ev(events, FirstMove(tile=TileKind.UNIVERSAL), seat)
        if not s.hands[seat]:
            _out_of_hand(s, seat, events)
            _end_round(s, events, stalled=False)
            return
        _start_turn(s, seat, events)
        return
    _start_turn(s, _dice_off(s, events), events)


def _dice_off(s: State, events: list[Event]) -> int:
    """R16: highest sum of two dice; ties roll again."""
    contenders = _active(s)
    while True:
        rng = _rng(s)
        rolls = {seat: rng.randint(1, 6) + rng.randint(1, 6) for seat in contenders}
        s.dice_off.append(rolls)
        _ev(events, DiceOff(rolls=rolls))
        best = max(rolls.values())
        contenders = [seat for seat in contenders if rolls[seat] == best]
        if len(contenders) == 1:
            return contenders[0]


def _start_turn(s: State, seat: int, events: list[Event]) -> None:
    s.current = seat
    s.turn_no += 1
    restricted = s.restricted_left > 0
    s.turn = Turn(restricted=restricted, began_restricted=restricted, final=s.finals_running)
    s.phase = Phase.PRE_MOVE
    s.exchange = None
    _ev(events, TurnStarted(turn=s.turn_no, restricted=restricted, final=s.finals_running), seat)


def _out_of_hand(s: State, seat: int, events: list[Event]) -> None:
    """R63: an empty hand sits out for the rest of the cycle."""
    s.status[seat] = Status.OUT
    s.out_order.append(seat)
    _ev(events, WentOut(first=len(s.out_order) == 1 and not s.finals_running), seat)


def _end_round(s: State, events: list[Event], stalled: bool, dead: bool = False) -> None:
    """R67–R71; `dead`: a blocked round ended by R66.1's dead position."""
    opts = s.options
    before = list(s.scores)
    hands = {seat: list(s.hands[seat]) for seat in _in_game(s)}
    values = {seat: sum(opts.value(t) for t in hand) for seat, hand in hands.items()}
    for seat, v in values.items():
        s.scores[seat] += v
    first = s.out_order[0] if s.out_order and not stalled else None
    if first is not None:
        s.scores[first] = max(0, s.scores[first] - opts.first_out_bonus)
    eliminated = [
        seat for seat in _in_game(s) if s.scores[seat] >= opts.target_score and seat not in s.left
    ]
    for seat in eliminated:
        s.status[seat] = Status.ELIMINATED
        s.bank.extend(s.hands[seat])
        s.hands[seat] = []
    if eliminated:
        s.eliminated_order.append(eliminated)
    s.last_round = RoundSummary(
        round=s.round_no,
        cycle=s.cycle_no,
        first_out=first,
        out_order=list(s.out_order),
        hands=hands,
        hand_values=values,
        scores_before=dict(enumerate(before)),
        scores_after=dict(enumerate(s.scores)),
        eliminated=eliminated,
        stalled=stalled,
    )
    s.exchange = None
    _ev(events, RoundEnded(summary=deep_copy(s.last_round), dead=dead))
    if opts.single_round:
        _game_over(s, events)
        return
    holders = [seat for seat in _in_game(s) if s.hands[seat]]
    if len(holders) >= 2:
        _start_next_round(s, events)
    elif len(_in_game(s)) >= 2:
        _start_cycle(s, events)
    else:
        _game_over(s, events)


def _game_over(s: State, events: list[Event]) -> None:
    s.phase = Phase.GAME_OVER
    s.exchange = None
    res = _result(s)
    s.winners = res.winners
    _ev(events, GameOver(winners=[s.players.index(w) for w in res.winners]))


def _result(s: State) -> Result:
    """R70, R71, R74 standings; while the game runs, a provisional order by score."""
    opts = s.options
    order: list[list[int]] = []
    in_game = [seat for seat in _in_game(s)]
    if opts.single_round or s.phase != Phase.GAME_OVER:
        by_score: dict[tuple[int, int], list[int]] = {}
        for seat in in_game:
            pos = s.out_order.index(seat) if seat in s.out_order else len(s.players)
            by_score.setdefault((s.scores[seat], pos), []).append(seat)
        order = [by_score[k] for k in sorted(by_score)]
    elif in_game:
        order = [in_game]
    else:
        last = s.eliminated_order[-1] if s.eliminated_order else []
        low = min((s.scores[x] for x in last), default=0)
        order = [[x for x in last if s.scores[x] == low]]
    placed = {x for group in order for x in group}
    for group in reversed(s.eliminated_order):
        rest = sorted((x for x in group if x not in placed), key=lambda x: s.scores[x])
        by: dict[int, list[int]] = {}
        for x in rest:
            by.setdefault(s.scores[x], []).append(x)
        order.extend(by[k] for k in sorted(by))
        placed.update(rest)
    order.extend([x] for x in reversed(s.left) if x not in placed)
    standings: list[Standing] = []
    place = 1
    for group in order:
        for seat in group:
            standings.append(Standing(player=s.players[seat], place=place, score=s.scores[seat]))
        place += len(group)
    winners = [s.players[x] for x in order[0]] if order else []
    return Result(standings=standings, winners=winners)


# -------------------------------------------------------------- turn logic


def _main_tracks(s: State) -> list[int]:
    return sorted(k for k in s.turn.modes if k != T7)


def _required(s: State) -> list[int]:
    return sorted(set(s.turn.die_tracks))


def _satisfied(s: State, k: int) -> bool:
    t = s.turn
    if t.placements.get(k, 0) > 0 or (k in t.blocks_placed and s.options.black_anywhere_after_move):
        return True
    return s.options.double_t7_counts and t.is_double and t.placed_t7 > 0


def _obligation_met(s: State) -> bool:
    if s.turn.restricted:
        return s.turn.placed_total > 0
    return all(_satisfied(s, k) for k in _required(s))


def _targets(s: State) -> list[int]:
    t = s.turn
    if t.restricted:
        if t.placed_total > 0:
            return []
        return _main_tracks(s) + ([T7] if t.is_double else [])
    targets = [k for k in _required(s) if not _satisfied(s, k)]
    if s.options.double_t7_counts and t.is_double and targets:
        targets.append(T7)
    return targets


def _usable(s: State, kinds: Iterable[str]) -> bool:
    """R43: some tile of `kinds` can be placed (PLACE/UNBLOCK/PLACE_T7) on a target now."""
    kinds = set(kinds)
    for k in _targets(s):
        for kind in kinds:
            if k == T7:
                if _why_place_t7(s, kind) is None:
                    return True
                continue
            if _why_place(s, kind, k) is None:
                return True
            if kind in _AS_WHITE and _why_unblock(s, kind, k) is None:
                return True
    return False


def _hand_usable(s: State) -> bool:
    return _usable(s, {kind_of(t) for t in _hand(s)})


def _drawn_usable(s: State) -> bool:
    hand = set(_hand(s))
    return _usable(s, {kind_of(t) for t in s.turn.drawn if t in hand})


def _placement_room(s: State, k: int) -> str | None:
    """Capacity (R29) and the restricted-turn limit (R56)."""
    t = s.turn
    if t.restricted and t.placed_total > 0:
        return "restricted_one_placement"
    if t.modes[k] == Mode.SINGLE and t.placements.get(k, 0) >= 1:
        return "track_capacity"
    return None


def _why_track(s: State, k: int | None) -> str | None:
    if k is None or k not in s.turn.modes or k == T7:
        return "track_unavailable"
    return None


def _why_place(s: State, kind: str | None, k: int | None) -> str | None:
    if kind not in (*COLOURS, TileKind.WHITE, TileKind.UNIVERSAL):
        return "malformed"
    if (code := _why_track(s, k)) is not None:
        return code
    assert k is not None
    track = s.tracks[k - 1]
    if track.block is not None:
        return "track_blocked"
    if (code := _placement_room(s, k)) is not None:
        return code
    if not _has(_hand(s), kind):
        return "no_tile"
    if kind in _AS_WHITE:
        if track.slots and is_white_like(track.slots[-1]):
            return "two_whites"
    elif kind != expected_colour(k, len(track.slots) + 1):
        return "wrong_colour"
    return None


def _why_place_t7(s: State, kind: str | None) -> str | None:
    if kind not in COLOURS:
        return "wrong_colour"
    if not s.turn.is_double:
        return "not_double"
    if any(kind_of(t) == kind for t in s.t7):
        return "t7_colour_taken"
    if s.turn.restricted and s.turn.placed_total > 0:
        return "restricted_one_placement"
    if not _has(_hand(s), kind):
        return "no_tile"
    return None


def _why_unblock(s: State, kind: str | None, k: int | None) -> str | None:
    if kind not in _AS_WHITE:
        return "malformed"
    if (code := _why_track(s, k)) is not None:
        return code
    assert k is not None
    block = s.tracks[k - 1].block
    if block is None:
        return "not_blocked"
    if (code := _placement_room(s, k)) is not None:
        return code
    if block.turn == s.turn_no and not s.options.allow_same_turn_unblock:
        return "own_block"
    if not _has(_hand(s), kind):
        return "no_tile"
    return None


def _why_block(s: State, kind: str | None, k: int | None) -> str | None:
    t = s.turn
    if kind not in _AS_BLACK:
        return "malformed"
    if (code := _why_track(s, k)) is not None:
        return code
    assert k is not None
    track = s.tracks[k - 1]
    if t.restricted:
        return "restricted_turn"
    if not track.slots:
        return "track_empty"
    if track.block is not None:
        return "already_blocked"
    placed_here = t.placements.get(k, 0) > 0
    placed_any = sum(t.placements.values()) > 0
    if not (placed_here or (s.options.black_anywhere_after_move and placed_any)):
        return "no_placement_on_track"
    if kind == TileKind.UNIVERSAL and t.priority_used:
        return "priority_used"
    if not _has(_hand(s), kind):
        return "no_tile"
    return None


def _why_reclaim(s: State, k: int | None, slot: int | None) -> str | None:
    if (code := _why_track(s, k)) is not None:
        return code
    assert k is not None
    track = s.tracks[k - 1]
    if s.turn.restricted:
        return "restricted_turn"
    if track.block is not None:
        return "track_blocked"
    if (
        slot is None
        or not 1 <= slot <= len(track.slots)
        or not is_white_like(track.slots[slot - 1])
    ):
        return "not_white_slot"
    if not _has(_hand(s), expected_colour(k, slot)):
        return "no_tile"
    return None


def _priority_kind(s: State, a: Action, roles: Iterable[str]) -> str | None:
    """The holder has `a.kind` and it may play `a.role` (original, or a U in that role)."""
    if a.role is None or a.kind is None or a.role not in set(roles):
        return "bad_role"
    if a.kind not in (a.role, TileKind.UNIVERSAL):
        return "bad_role"
    if s.turn.priority_used:
        return "priority_used"
    if not _has(_hand(s), a.kind):
        return "no_tile"
    return None


def _why_redirect(s: State, a: Action, roles: Iterable[str]) -> str | None:
    if (code := _priority_kind(s, a, roles)) is not None:
        return code
    if a.role == TileKind.OPPOSITE:
        if a.target not in op_targets(s, s.current):
            return "bad_target"
    elif a.target is not None:
        return "bad_target"
    return None


def _why(s: State, a: Action) -> str | None:
    """Why `a` is illegal now, or None (the one place legality is decided)."""
    if s.phase == Phase.GAME_OVER:
        return "game_over"
    t = s.turn
    hand = _hand(s)
    ph = s.phase
    if a.seat is not None and a.type not in (T.FM_DECLARE, T.FM_PASS):
        return "malformed"
    match a.type:
        case T.FM_DECLARE | T.FM_PASS:
            if ph != Phase.FIRST_MOVE:
                return "wrong_phase"
            seat = _fm_seat(s, a)
            if seat not in _fm_undecided(s):
                return "fm_answered"
            if a.type == T.FM_PASS:
                return None
            if a.kind not in _DECLARERS:
                return "bad_role"
            if not _has(s.hands[seat], a.kind):
                return "no_tile"
            if a.kind == TileKind.UNIVERSAL and s.fm_u_declarer is not None:
                return "fm_u_taken"
            return None
        case T.CHOOSE_DICE:
            if ph != Phase.PRE_MOVE:
                return "wrong_phase"
            return None if a.n in (1, 2) else "malformed"
        case T.FIFTH_SWAP:
            if ph != Phase.PRE_MOVE:
                return "wrong_phase"
            if a.kind not in (*COLOURS, TileKind.WHITE, TileKind.BLACK):
                return "bad_role"
            if _count(hand, a.kind) < 5:
                return "fifth_swap_needs_five"
            if not s.bank:
                return "bank_empty"
            # D39: one for one; a drawn FM would go out (R59) and the hand would shrink
            return "exchange_limit" if _drawable(s) == 0 else None
        case T.INSTEAD_OF_MOVE:
            if ph != Phase.PRE_MOVE:
                return "wrong_phase"
            if t.restricted:
                return "restricted_turn"
            if t.final:
                return "final_turn"
            return _why_redirect(s, a, REDIRECTS)
        case T.AFTER_MOVE:
            if ph != Phase.POST_MOVE:
                return "wrong_phase"
            if t.restricted and a.role != TileKind.RESTRICT:
                return "restricted_turn"
            return _why_redirect(s, a, REDIRECTS)
        case T.WAIVE:
            if ph != Phase.PLACING:
                return "wrong_phase"
            if t.restricted:
                return "restricted_turn"
            if t.final:
                return "final_turn"
            if _obligation_met(s):
                return "obligation_met"
            if _hand_usable(s):
                return "must_place"
            if a.role == TileKind.EXCHANGE:
                if a.target is not None:
                    return "bad_target"
                return _priority_kind(s, a, (TileKind.EXCHANGE,))
            return _why_redirect(s, a, REDIRECTS)
        case T.EXCHANGE_BEGIN:
            if ph not in (Phase.PRE_MOVE, Phase.POST_MOVE):
                return "wrong_phase"
            return _priority_kind(s, a, (TileKind.EXCHANGE,))
        case T.EXCHANGE_ADD:
            if ph != Phase.EXCHANGE or s.exchange is None:
                return "wrong_phase"
            if a.kind is None:
                return "malformed"
            ex = s.exchange
            free = [x for x in hand if x != ex.tile and x not in ex.selection]
            if not _has(free, a.kind):
                return "no_tile"
            if (
                a.kind in (*ORIGINAL_PRIORITY, TileKind.UNIVERSAL)
                and not s.options.exchange_allows_priority
            ):
                return "exchange_priority"
            # D39: one for one; an FM in the bank would go out when drawn (R59)
            return "exchange_limit" if len(ex.selection) >= _drawable(s) else None
        case T.EXCHANGE_CONFIRM:
            return None if ph == Phase.EXCHANGE else "wrong_phase"
        case T.CANCEL_RESTRICTION:
            if ph not in (Phase.PRE_MOVE, Phase.PLACING):
                return "wrong_phase"
            if not t.restricted:
                return "not_restricted"
            if t.board_action_done:
                return "board_action_done"
            if t.cancel_used:
                return "cancel_used"
            return None if _has(hand, TileKind.UNIVERSAL) else "no_tile"
        case T.END_TURN:
            return None if ph == Phase.POST_MOVE else "wrong_phase"
    if ph != Phase.PLACING:
        return "wrong_phase"
    match a.type:
        case T.SHIFT:
            if t.board_action_done:
                return "board_action_done"
            if a.die is None or not 0 <= a.die < len(t.die_tracks):
                return "malformed"
            if a.role not in SHIFTS:
                return "bad_role"
            return _priority_kind(s, a, SHIFTS)
        case T.PLACE:
            return _why_place(s, a.kind, a.track)
        case T.PLACE_T7:
            return _why_place_t7(s, a.kind)
        case T.BLOCK:
            return _why_block(s, a.kind, a.track)
        case T.UNBLOCK:
            return _why_unblock(s, a.kind, a.track)
        case T.RECLAIM:
            return _why_reclaim(s, a.track, a.slot)
        case T.TAKE_BONUS:
            if not t.double_six:
                return "not_double_six"
            if a.kind not in _AS_WHITE:
                return "malformed"
            if a.kind not in (kind_of(x) for x in s.store):
                return "bonus_empty"
            taken = [kind_of(x) for x in t.bonus_taken]
            if len(taken) >= 2 or (a.kind == TileKind.UNIVERSAL and TileKind.UNIVERSAL in taken):
                return "bonus_limit"
            return None
        case T.DISCARD_BLACK:
            if t.restricted:
                return "restricted_turn"
            extra = 1 if s.options.black_discard_on_any_double and t.is_double else 0
            if t.black_discards >= t.t7_completions + extra:
                return "no_black_discard"
            return None if _has(hand, TileKind.BLACK) else "no_tile"
        case T.DRAW:
            if _obligation_met(s):
                return "obligation_met"
            if t.draws >= s.options.max_draws:
                return "draw_limit"
            if not s.bank:
                return "bank_empty"
            if _drawn_usable(s) or (not t.restricted and _hand_usable(s)):
                return "must_place"
            return None
        case T.END_PLACING:
            if _obligation_met(s):
                return None
            if _drawn_usable(s) if t.restricted else _hand_usable(s):
                return "must_place"
            if t.draws < s.options.max_draws and s.bank:
                return "obligation_unmet"
            return None
    return "malformed"


def _redirect_actions(s: State, type_: ActionType, roles: Iterable[str]) -> list[Action]:
    out: list[Action] = []
    hand = _hand(s)
    for role in roles:
        for kind in (role, TileKind.UNIVERSAL):
            if not _has(hand, kind):
                continue
            targets = op_targets(s, s.current) if role == TileKind.OPPOSITE else [None]
            out.extend(Action(type=type_, kind=kind, role=role, target=x) for x in targets)
    return out


def _candidates(s: State) -> list[Action]:
    """Every action worth checking now; `_why` filters them."""
    hand = _hand(s)
    kinds = sorted({kind_of(x) for x in hand}, key=KINDS.index)
    ph = s.phase
    out: list[Action] = []
    if ph == Phase.FIRST_MOVE:
        out += _fm_answers(s, None)
        for seat in _fm_undecided(s):
            out += _fm_answers(s, seat)
    elif ph == Phase.PRE_MOVE:
        out += [Action(type=T.CHOOSE_DICE, n=n) for n in (1, 2)]
        out += [
            Action(type=T.FIFTH_SWAP, kind=k)
            for k in kinds
            if k in (*COLOURS, TileKind.WHITE, TileKind.BLACK)
        ]
        out += [Action(type=T.EXCHANGE_BEGIN, kind=k, role=TileKind.EXCHANGE) for k in _EXCHANGERS]
        out.append(Action(type=T.CANCEL_RESTRICTION, kind=TileKind.UNIVERSAL))
        out += _redirect_actions(s, T.INSTEAD_OF_MOVE, REDIRECTS)
    elif ph == Phase.PLACING:
        out.append(Action(type=T.CANCEL_RESTRICTION, kind=TileKind.UNIVERSAL))
        for die in range(len(s.turn.die_tracks)):
            for role in SHIFTS:
                out += [
                    Action(type=T.SHIFT, kind=k, role=role, die=die)
                    for k in (role, TileKind.UNIVERSAL)
                    if _has(hand, k)
                ]
        for k in _main_tracks(s):
            out += [
                Action(type=T.PLACE, kind=c, track=k)
                for c in kinds
                if c in (*COLOURS, TileKind.WHITE, TileKind.UNIVERSAL)
            ]
            out += [Action(type=T.BLOCK, kind=c, track=k) for c in _AS_BLACK]
            out += [Action(type=T.UNBLOCK, kind=c, track=k) for c in _AS_WHITE]
            out += [
                Action(type=T.RECLAIM, track=k, slot=i + 1)
                for i, x in enumerate(s.tracks[k - 1].slots)
                if is_white_like(x)
            ]
        out += [Action(type=T.PLACE_T7, kind=c) for c in kinds if c in COLOURS]
        out += [Action(type=T.TAKE_BONUS, kind=k) for k in _AS_WHITE]
        out.append(Action(type=T.DISCARD_BLACK, kind=TileKind.BLACK))
        out.append(Action(type=T.DRAW))
        out.append(Action(type=T.END_PLACING))
        out += _redirect_actions(s, T.WAIVE, (*REDIRECTS, TileKind.EXCHANGE))
    elif ph == Phase.POST_MOVE:
        out += _redirect_actions(s, T.AFTER_MOVE, REDIRECTS)
        out += [Action(type=T.EXCHANGE_BEGIN, kind=k, role=TileKind.EXCHANGE) for k in _EXCHANGERS]
        out.append(Action(type=T.END_TURN))
    elif ph == Phase.EXCHANGE and s.exchange is not None:
        free = [x for x in hand if x != s.exchange.tile and x not in s.exchange.selection]
        fk = sorted({kind_of(x) for x in free}, key=KINDS.index)
        out += [Action(type=T.EXCHANGE_ADD, kind=k) for k in fk]
        out.append(Action(type=T.EXCHANGE_CONFIRM))
    return out


# ----------------------------------------------------------------- effects


def _draw_top(s: State, seat: int, events: list[Event], record: bool = False) -> str | None:
    """Take the bank's top tile; an FM after the window goes out publicly (R59)."""
    while s.bank:
        tile = s.bank.pop()
        if kind_of(tile) == TileKind.FIRST_MOVE and s.phase != Phase.FIRST_MOVE:
            s.out.append(tile)
            _ev(events, FmDiscarded(), seat)
            continue
        s.hands[seat].append(tile)
        if record:
            s.turn.drawn.append(tile)
        events.append(Event.of(DrewTile(tile_id=tile), seat, private_to=seat))
        return tile
    return None


def _spend(s: State, use: PriorityUsed, events: list[Event]) -> None:
    """A priority tile leaves the hand for `out` (R51)."""
    s.out.append(_take(_hand(s), use.tile))
    s.turn.tile_moved = True
    _ev(events, use, s.current)


def _roll(s: State, n: int, events: list[Event]) -> None:
    rng = _rng(s)
    _set_dice(s, [rng.randint(1, 6) for _ in range(n)])
    t = s.turn
    _ev(events, Rolled(dice=list(t.dice), tracks=_main_tracks(s), double=t.is_double), s.current)


def _set_dice(s: State, dice: list[int]) -> None:
    """The turn after a roll of `dice` (R23–R25): its tracks and modes; phase PLACING."""
    t = s.turn
    t.n_dice = len(dice)
    t.dice = list(dice)
    t.is_double = len(dice) == 2 and dice[0] == dice[1]
    t.double_six = t.is_double and dice[0] == 6
    t.die_tracks = [dice[0]] if len(dice) == 1 or t.is_double else list(dice)
    _set_modes(s)
    s.phase = Phase.PLACING


def _set_modes(s: State) -> None:
    t = s.turn
    mode = Mode.SEQUENCE if t.n_dice == 1 else Mode.SINGLE
    t.modes = {k: mode for k in sorted(set(t.die_tracks))}
    if t.is_double:
        t.modes[T7] = Mode.SEQUENCE


def _placed(s: State, k: int, events: list[Event], track_placement: bool = True) -> None:
    t = s.turn
    t.board_action_done = True
    t.tile_moved = True
    if track_placement:
        t.placements[k] = t.placements.get(k, 0) + 1
        t.placed_total += 1


def _complete_track(s: State, k: int, events: list[Event]) -> None:
    """R31: colours out, whites and universals to the bonus store; continue in SEQUENCE."""
    track = s.tracks[k - 1]
    for tile in track.slots:
        (s.store if is_white_like(tile) else s.out).append(tile)
    track.slots = []
    track.block = None
    s.turn.modes[k] = Mode.SEQUENCE
    _ev(events, TrackCompleted(track=k), s.current)


def _perform(s: State, a: Action, events: list[Event]) -> None:
    seat = s.current
    t = s.turn
    hand = _hand(s)
    match a.type:
        case T.FM_PASS:
            seat = _fm_seat(s, a)
            s.fm_decided.append(seat)
            _ev(events, FmPassed(), seat)
            _fm_next(s, events)
        case T.FM_DECLARE:
            seat = _fm_seat(s, a)
            hand = s.hands[seat]
            s.fm_decided.append(seat)
            if a.kind == TileKind.UNIVERSAL:
                s.fm_u_declarer = seat
                _ev(events, FmDeclared(tile=TileKind.UNIVERSAL), seat)
                _fm_next(s, events)
                return
            s.out.append(_take(hand, TileKind.FIRST_MOVE))
            s.fm_declarer = seat
            s.fm_u_declarer = None
            _ev(events, FmDeclared(tile=TileKind.FIRST_MOVE), seat)
            _ev(events, FirstMove(tile=TileKind.FIRST_MOVE), seat)
            s.phase = Phase.PRE_MOVE  # window closed: a drawn FM is discarded (R59)
            _draw_top(s, seat, events)
            if not hand:
                _out_of_hand(s, seat, events)
                _end_round(s, events, stalled=False)
                return
            _start_turn(s, seat, events)
        case T.CHOOSE_DICE:
            assert a.n is not None
            _ev(events, DiceChosen(n=a.n), seat)
            _roll(s, a.n, events)
        case T.FIFTH_SWAP:
            assert a.kind is not None
            _draw_top(s, seat, events)
            s.bank.append(_take(hand, a.kind))
            _rng(s).shuffle(s.bank)
            _ev(events, FifthSwap(tile=a.kind), seat)
        case T.INSTEAD_OF_MOVE | T.AFTER_MOVE | T.WAIVE:
            assert a.kind is not None and a.role is not None
            t.priority_used = True
            if a.role == TileKind.EXCHANGE:
                _begin_exchange(s, a.kind, events, via_waive=True)
                return
            use = _REDIRECT_USES[a.type]
            op_seat = _op_seat(s, seat, a.target) if a.role == TileKind.OPPOSITE else None
            _spend(s, PriorityUsed(tile=a.kind, use=use, role=a.role, target=op_seat), events)
            t.redirect = Redirect(role=a.role, after_move=a.type != T.INSTEAD_OF_MOVE, seat=op_seat)
            if a.role == TileKind.RESTRICT:
                t.rs_used = True
            if not hand and a.kind != TileKind.UNIVERSAL:
                t.out_by_redirect = a.role
            _turn_end(s, events)
        case T.EXCHANGE_BEGIN:
            assert a.kind is not None
            t.priority_used = True
            _begin_exchange(s, a.kind, events, via_waive=False)
        case T.EXCHANGE_ADD:
            assert s.exchange is not None and a.kind is not None
            free = [x for x in hand if x != s.exchange.tile and x not in s.exchange.selection]
            s.exchange.selection.append(
                min((x for x in free if kind_of(x) == a.kind), key=_tile_no)
            )
        case T.EXCHANGE_CONFIRM:
            _confirm_exchange(s, events)
        case T.CANCEL_RESTRICTION:
            _spend(s, PriorityUsed(tile=TileKind.UNIVERSAL, use=PriorityUse.CANCEL), events)
            t.restricted = False
            t.cancel_used = True
            if not t.final:
                s.restricted_left = 0
            _check_empty(s, events)
        case T.END_TURN:
            _turn_end(s, events)
        case T.SHIFT:
            assert a.die is not None and a.role is not None and a.kind is not None
            old = t.die_tracks[a.die]
            new = (old - 1 + SHIFTS[a.role]) % 6 + 1
            t.die_tracks[a.die] = new
            t.priority_used = True
            t.shifted = True
            _set_modes(s)
            shift = PriorityUsed(
                tile=a.kind, use=PriorityUse.SHIFT, role=a.role, track_from=old, track_to=new
            )
            _spend(s, shift, events)
            if not hand and a.kind != TileKind.UNIVERSAL:
                t.out_by_redirect = "shift"
            _check_empty(s, events)
        case T.PLACE:
            assert a.track is not None and a.kind is not None
            tile = _take(hand, a.kind)
            track = s.tracks[a.track - 1]
            track.slots.append(tile)
            _placed(s, a.track, events)
            _ev(events, Placed(tile=a.kind, track=a.track, slot=len(track.slots)), seat)
            if len(track.slots) == TRACK_LEN:
                _complete_track(s, a.track, events)
            _check_empty(s, events)
        case T.PLACE_T7:
            assert a.kind is not None
            s.t7.append(_take(hand, a.kind))
            _placed(s, T7, events, track_placement=False)
            t.placed_total += 1
            t.placed_t7 += 1
            _ev(events, PlacedT7(tile=a.kind), seat)
            if len(s.t7) == len(COLOURS):
                s.out.extend(s.t7)
                s.t7 = []
                t.t7_completions += 1
                _ev(events, T7Completed(), seat)
            _check_empty(s, events)
        case T.BLOCK:
            assert a.track is not None and a.kind is not None
            if a.kind == TileKind.UNIVERSAL:
                t.priority_used = True
            tile = _take(hand, a.kind)
            s.tracks[a.track - 1].block = Block(tile=tile, by=seat, turn=s.turn_no)
            t.blocks_placed.append(a.track)
            _placed(s, a.track, events, track_placement=False)
            _ev(events, Blocked(tile=a.kind, track=a.track), seat)
            _check_empty(s, events)
        case T.UNBLOCK:
            assert a.track is not None and a.kind is not None
            track = s.tracks[a.track - 1]
            assert track.block is not None
            s.out += [_take(hand, a.kind), track.block.tile]
            track.block = None
            _placed(s, a.track, events)
            _ev(events, Unblocked(tile=a.kind, track=a.track), seat)
            _check_empty(s, events)
        case T.RECLAIM:
            assert a.track is not None and a.slot is not None
            track = s.tracks[a.track - 1]
            white = track.slots[a.slot - 1]
            track.slots[a.slot - 1] = _take(hand, expected_colour(a.track, a.slot))
            hand.append(white)
            _placed(s, a.track, events, track_placement=False)
            _ev(events, Reclaimed(tile=kind_of(white), track=a.track, slot=a.slot), seat)
        case T.TAKE_BONUS:
            assert a.kind is not None
            tile = min((x for x in s.store if kind_of(x) == a.kind), key=_tile_no)
            s.store.remove(tile)
            hand.append(tile)
            t.bonus_taken.append(tile)
            t.board_action_done = True
            _ev(events, BonusTaken(tile=a.kind), seat)
        case T.DISCARD_BLACK:
            s.out.append(_take(hand, TileKind.BLACK))
            t.black_discards += 1
            _placed(s, T7, events, track_placement=False)
            _ev(events, BlackDiscarded(), seat)
            _check_empty(s, events)
        case T.DRAW:
            t.draws += 1
            _ev(events, Drew(draws=t.draws), seat)
            _draw_top(s, seat, events, record=True)
        case T.END_PLACING:
            _ev(events, PlacingEnded(obligation_met=_obligation_met(s)), seat)
            s.phase = Phase.POST_MOVE


def _check_empty(s: State, events: list[Event]) -> None:
    """R21: an empty hand ends the turn at once."""
    if not _hand(s) and s.phase in TURN_PHASES:
        _turn_end(s, events)


def _begin_exchange(s: State, kind: str, events: list[Event], via_waive: bool) -> None:
    tile = min((x for x in _hand(s) if kind_of(x) == kind), key=_tile_no)
    s.exchange = Exchange(tile=tile, origin=s.phase, via_waive=via_waive)
    s.phase = Phase.EXCHANGE
    _ev(events, ExchangeStarted(tile=kind), s.current)


def _confirm_exchange(s: State, events: list[Event]) -> None:
    """R60.3: draw |S|, return S, shuffle, spend the EX, draw a replacement, R59."""
    assert s.exchange is not None
    ex = s.exchange
    seat = s.current
    hand = _hand(s)
    for _ in ex.selection:
        _draw_top(s, seat, events)
    for tile in ex.selection:
        hand.remove(tile)
        s.bank.append(tile)
    _rng(s).shuffle(s.bank)
    hand.remove(ex.tile)
    s.out.append(ex.tile)
    s.turn.tile_moved = True
    exchanged = len(ex.selection)
    _ev(events, PriorityUsed(tile=kind_of(ex.tile), use=PriorityUse.EXCHANGE, size=exchanged), seat)
    _draw_top(s, seat, events)
    s.exchange = None
    if not hand or ex.origin != Phase.PRE_MOVE:
        _turn_end(s, events)
    else:
        s.phase = Phase.PRE_MOVE


def _fm_undecided(s: State) -> list[int]:
    """The ACTIVE seats that have not answered in the first-move window (R58)."""
    if s.phase != Phase.FIRST_MOVE:
        return []
    return [x for x in _active(s) if x not in s.fm_decided]


def _fm_seat(s: State, a: Action) -> int:
    """Who answers with `a` in the window: its seat, else the lowest still to answer."""
    return s.current if a.seat is None else a.seat


def _fm_answers(s: State, seat: int | None) -> list[Action]:
    """The window's answers of `seat` (None: of the lowest still to answer) to check."""
    declare = [Action(type=T.FM_DECLARE, kind=k, seat=seat) for k in _DECLARERS]
    return [*declare, Action(type=T.FM_PASS, seat=seat)]


def _fm_next(s: State, events: list[Event]) -> None:
    """After an answer: the window waits for the lowest seat still to answer (`current`),
    or, once everyone has answered, closes (R58.2)."""
    undecided = _fm_undecided(s)
    if undecided:
        s.current = undecided[0]
    else:
        _close_fm_window(s, events)


def _turn_end(s: State, events: list[Event]) -> None:
    """R64."""
    t = s.turn
    seat = s.current
    s.exchange = None
    if t.began_restricted and s.restricted_left > 0:
        s.restricted_left -= 1
    if t.final:
        s.final_left -= 1
    went_out = not s.hands[seat] and s.status[seat] == Status.ACTIVE
    _ev(events, TurnEnded(), seat)
    nxt: int | None = None
    if went_out:
        _out_of_hand(s, seat, events)
        if not s.finals_running:
            if t.out_by_redirect is None:
                _end_round(s, events, stalled=False)
                return
            _start_finals(s, seat, events)
            nxt = cw(s, seat) if t.out_by_redirect == "shift" else _next_seat(s, seat)
    elif t.rs_used and not s.finals_running:
        s.restricted_left = len([x for x in _active(s) if x != seat])
    if not _active(s):
        _end_round(s, events, stalled=False)
        return
    if s.finals_running and s.final_left <= 0:
        _end_round(s, events, stalled=False)
        return
    # R66 (revised 2026-12); a turn that could not draw (max_draws = 0) is idle too, else
    # such a round never ends (docs/decisions.md).
    idle = not t.tile_moved and (not s.bank or t.draws == 0)
    s.idle_turns = s.idle_turns + 1 if idle else 0
    dead = dead_position(s)
    if dead or s.idle_turns >= IDLE_CIRCLES * len(_active(s)):
        _end_round(s, events, stalled=True, dead=dead)
        return
    if nxt is None:
        nxt = cw(s, seat) if t.final else _next_seat(s, seat)
    _start_turn(s, nxt, events)


IDLE_CIRCLES = 3  # R66's backstop: three idle circles end a blocked round
# every roll outcome (R23–R25): six single dice and the 21 pairs
ROLLS: tuple[tuple[int, ...], ...] = (
    *((d,) for d in range(1, 7)),
    *((a, b) for a in range(1, 7) for b in range(a, 7)),
)
# what takes a tile from a hand to the board (a block needs a placement first, a black
# discard a completed centre), or brings the bonus store's tiles within reach
_MOVES = (T.PLACE, T.PLACE_T7, T.UNBLOCK, T.RECLAIM, T.TAKE_BONUS)
# priority tiles a player can use instead of a move (R49); the FM only in its window
_USABLE_PRIORITY = frozenset(REDIRECTS) | {TileKind.EXCHANGE, TileKind.UNIVERSAL}


def could_ever_move(s: State, seat: int) -> bool:
    """R66: whether `seat` could place a tile under some roll (judged by the rules
    themselves, as if he had rolled it now) or holds a priority tile he could use."""
    if any(kind_of(x) in _USABLE_PRIORITY for x in s.hands[seat]):
        return True
    probe = s.model_copy(update={"current": seat, "exchange": None})
    for dice in ROLLS:
        probe.turn = Turn()
        _set_dice(probe, list(dice))
        if any(a.type in _MOVES and _why(probe, a) is None for a in _candidates(probe)):
            return True
    return False


def dead_position(s: State) -> bool:
    """R66.1: nobody can draw, and no ACTIVE player could ever place a tile or use a
    priority tile instead of a move: the round can never end otherwise."""
    if s.bank and s.options.max_draws > 0:
        return False
    return not any(could_ever_move(s, seat) for seat in _active(s))


def turn_is_dead(s: State) -> bool:
    """R66: after his roll the player can place nothing, cannot draw and can use no
    priority tile: END_PLACING, then END_TURN are all he can do (the bot plays them)."""
    if s.phase != Phase.PLACING or s.turn.board_action_done:
        return False
    legal = GAME.legal_actions(s)
    if legal != [Action(type=T.END_PLACING)]:
        return False
    after, _ = GAME.apply(s, legal[0])
    return GAME.legal_actions(after) == [Action(type=T.END_TURN)]


def placing_was_dead(s: State) -> bool:
    """R66: the placing just ended was a dead turn's (the bot ended it: its END_TURN is the
    bot's too). POST_MOVE is entered only by END_PLACING, which changes nothing else: the
    placing it ended is this state in PLACING."""
    return s.phase == Phase.POST_MOVE and turn_is_dead(
        s.model_copy(update={"phase": Phase.PLACING})  # shallow: only read
    )


def _start_finals(s: State, seat: int, events: list[Event]) -> None:
    """R65."""
    s.finals_running = True
    others = len([x for x in _active(s) if x != seat])
    if s.turn.out_by_redirect == TileKind.RESTRICT:
        s.restricted_left = s.final_left = others
    else:
        s.final_left = 1
    _ev(events, FinalTurns(count=s.final_left), seat)


def _next_seat(s: State, seat: int) -> int:
    """R17, R52–R55."""
    r = s.turn.redirect
    if r is None or r.role == TileKind.RESTRICT:
        return cw(s, seat)
    if r.role == TileKind.SKIP:
        if r.after_move and s.options.skip_after_move == "skip_next":
            return cw(s, cw(s, seat))
        return cw(s, seat)
    if r.role == TileKind.PREVIOUS:
        return ccw(s, seat)
    if r.seat is not None and s.status[r.seat] == Status.ACTIVE:
        return r.seat
    return cw(s, seat)


def _remove(s: State, seat: int, events: list[Event]) -> None:
    """R74: a player leaves or is removed."""
    pending = s.current == seat and s.phase != Phase.GAME_OVER
    was_active = s.status[seat] == Status.ACTIVE
    if s.finals_running and was_active and not pending:
        upcoming = _upcoming_finals(s)
        if seat in upcoming:
            s.final_left -= 1
    s.out.extend(s.hands[seat])
    s.hands[seat] = []
    s.status[seat] = Status.ELIMINATED
    s.left.append(seat)
    if s.fm_u_declarer == seat:
        s.fm_u_declarer = None
    _ev(events, PlayerLeft(), seat)
    if len(_in_game(s)) < 2:
        _game_over(s, events)
        return
    if not _active(s):
        _end_round(s, events, stalled=False)
        return
    if pending:
        if s.phase == Phase.FIRST_MOVE:
            _fm_next(s, events)
        else:
            t = s.turn
            s.exchange = None
            if t.began_restricted and s.restricted_left > 0:
                s.restricted_left -= 1
            if t.final:
                s.final_left -= 1
            _ev(events, TurnEnded(), seat)
            if s.finals_running and s.final_left <= 0:
                _end_round(s, events, stalled=False)
                return
            _start_turn(s, cw(s, seat), events)
    mover = s.current
    s.restricted_left = min(s.restricted_left, len([x for x in _active(s) if x != mover]))
    if s.finals_running and s.final_left <= 0 and s.phase in TURN_PHASES and not pending:
        _end_round(s, events, stalled=False)


def _upcoming_finals(s: State) -> list[int]:
    """Seats that still have a final turn to come after the current one (R65)."""
    remaining = s.final_left - (1 if s.turn.final and s.phase in TURN_PHASES else 0)
    seats: list[int] = []
    p = s.current
    for _ in range(max(0, remaining)):
        p = cw(s, p)
        seats.append(p)
    return seats


# ---------------------------------------------------------------- view


# the fields of the turn record the view shows as they are (R73); not the drawn tiles
_TURN_PUBLIC = (TurnView.model_fields.keys() & Turn.model_fields.keys()) - {"bonus_taken"}


def _view(s: State, player: int | None) -> View:
    me = s.players.index(player) if player in s.players else None
    t = s.turn
    turn = TurnView(
        **t.model_dump(include=_TURN_PUBLIC),
        obligation_met=_obligation_met(s) if s.phase == Phase.PLACING else None,
        bonus_taken=[kind_of(x) for x in t.bonus_taken],  # the kinds, not the ids
    )
    return View(
        me=me,
        hand=sorted(s.hands[me], key=_sort_key) if me is not None else None,
        players=[
            PlayerView(
                seat=i,
                player=p,
                status=s.status[i],
                score=s.scores[i],
                hand_count=len(s.hands[i]),
            )
            for i, p in enumerate(s.players)
        ],
        tracks=[deep_copy(tr) for tr in s.tracks],
        t7=list(s.t7),
        store=list(s.store),
        out_count=len(s.out),
        bank_size=len(s.bank),
        phase=s.phase,
        current=None if s.phase == Phase.GAME_OVER else s.current,
        turn=turn,
        exchange_size=len(s.exchange.selection) if s.exchange else None,
        restricted_left=s.restricted_left,
        final_left=s.final_left,
        round_no=s.round_no,
        cycle_no=s.cycle_no,
        target_score=s.options.target_score,
        single_round=s.options.single_round,
        last_round=s.last_round,
        winners=list(s.winners),
    )


def _sort_key(tile: str) -> tuple[int, int]:
    return (KINDS.index(kind_of(tile)), _tile_no(tile))


def hand_counter(hand: Iterable[str]) -> Counter[str]:
    """Kinds in a hand with their counts (for presenters)."""
    return Counter(kind_of(t) for t in hand)


__all__ = [
    "CODES",
    "GAME",
    "ROLLS",
    "SevenTracks",
    "ccw",
    "could_ever_move",
    "cw",
    "dead_position",
    "hand_counter",
    "turn_is_dead",
]
