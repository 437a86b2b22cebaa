"""The rules engine of «ДОМИНА*С» (spec `docs/spec/dominas.md`). Pure and deterministic.

Example:
    >>> from games.dominas import GAME
    >>> s = GAME.new([1, 2], seed=3)
    >>> a = GAME.legal_actions(s)[0]
    >>> a.encode()[:2]
    'P,'
    >>> s2, events = GAME.apply(s, a)
    >>> (s2.version, len(s2.figure), len(s.figure))
    (1, 1, 0)
"""

from __future__ import annotations

import itertools
from typing import Any, NoReturn

from games.chance import stream
from games.dominas.events import (
    BonusEnd,
    BonusEnded,
    BonusStarted,
    Dealt,
    DrawReason,
    Drew,
    DrewTiles,
    GameEnd,
    GameOver,
    GameStarted,
    MatchOver,
    Passed,
    PlayerLeft,
    Skipped,
    TilePlaced,
    Timeout,
    TurnEnded,
    TurnStarted,
)
from games.dominas.figure import edges_of, is_far_nest, opened, parent_colour, required, sides_for
from games.dominas.model import (
    HAND_SIZE,
    Action,
    ActionType,
    Bonus,
    BonusKind,
    GameRecord,
    Mode,
    Nest,
    NestView,
    Options,
    Phase,
    Placed,
    Pos,
    Run,
    SeatView,
    State,
    View,
)
from games.dominas.policies import NOVICE
from games.dominas.tiles import (
    BONUS_SUM,
    EXTRA_NAMED,
    KOLOBOK,
    REGULAR,
    SAMOHODS,
    colour_of,
    is_tile,
    need_bits,
    number_of,
    pips,
    sort_key,
)
from games.engine import RulesEngine, counter_rng
from games.protocol import Event, Fact, IllegalAction, Result, Standing

T = ActionType

# Machine codes of IllegalAction; the bot translates each (locales: error.<code>).
CODES: tuple[str, ...] = (
    "malformed",  # not an action of this game (decode, wrong shape, unknown tile)
    "game_over",  # the match is over
    "wrong_phase",  # STOP outside a bonus series
    "no_tile",  # the tile is not in the hand of the player to act
    "no_nest",  # no such open nest now
    "no_match",  # «не подходит»: the tile lacks the required symbol (R4)
    "wrong_colour",  # «самоход — только на свой цвет» (R3)
    "samohod_first",  # a самоход can never be the first tile (R3)
    "one_side",  # «эта фишка ложится только одной стороной»: no variant 1 (R5)
    "bonus_sum",  # the tile's pip sum is not the bonus sum (R20)
    "not_a_player",  # remove(): the player is not in this game
)

MAX_PLAYERS = 8


class Dominas(RulesEngine[State, Action]):
    """«ДОМИНА*С» implementing games.protocol.Game."""

    id = "dominas"
    min_players = 2
    max_players = MAX_PLAYERS
    state_type = State
    action_type = Action
    over_phase = Phase.OVER
    novice = NOVICE  # the computer player's weakest level; a timeout plays R27's TIMEOUT

    def new(self, players: list[int], seed: int, options: dict[str, Any] | None = None) -> State:
        """A new match, game 1 dealt (R6–R8); the first player is to act."""
        opts = Options(**(options or {}))
        n = len(players)
        self._check_players(players)
        if opts.mode is Mode.TEAMS and n not in (4, 6, 8):
            raise ValueError("mode: teams needs 4, 6 or 8 players (2+2, 3+3, 4+4)")
        s = State(
            options=opts,
            seed=seed,
            players=list(players),
            side_of=[i % 2 if opts.mode is Mode.TEAMS else i for i in range(n)],
            present=[True] * n,
            hands=[[] for _ in players],
        )
        tiles = list(REGULAR)
        _rng(s).shuffle(tiles)
        for seat in range(n):
            s.hands[seat] = sorted(tiles[seat * HAND_SIZE : (seat + 1) * HAND_SIZE], key=sort_key)
        s.bazaar = tiles[n * HAND_SIZE :] + list(SAMOHODS)
        _rng(s).shuffle(s.bazaar)
        s.initial_hands = [list(h) for h in s.hands]
        s.initial_bazaar = list(s.bazaar)
        first = _rng(s).randrange(n)
        s.first = s.game1_first = first
        events: list[Event] = []
        _start_game(s, events)
        return s

    def result(self, state: State) -> Result:
        return _result(state)

    def view(self, state: State, player: int | None) -> View:
        return _view(state, player)

    def remove(self, state: State, player: int) -> tuple[State, list[Event]]:
        """R28: the player leaves; his hand goes back to the bazaar."""
        return super().remove(state, player)

    def turn_key(self, state: State) -> str | None:
        """A turn of a game of the match."""
        return None if self.is_over(state) else f"{state.game_no}:{state.turn_no}"

    def timeout_turn(self, state: State) -> tuple[State, list[Event]]:
        """R27: one timeout — a penalty tile and the turn passes (in a bonus, the series
        ends as with «Хватит»)."""
        return self.timeout(state)

    def timeout_action(self, state: State) -> Action:
        """R27: a timed-out decision is the system move TIMEOUT (a penalty draw and the turn
        passes; in a bonus series, the series ends). It is never in `legal_actions`, so no
        player can pass voluntarily (R12); the bot plays it through `timeout(state)`."""
        return Action(type=T.TIMEOUT)

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
        return not s.present[seat]

    def _not_a_player(self, player: int) -> IllegalAction:
        return IllegalAction("not_a_player")

    def _undecodable(self, text: str, exc: ValueError) -> NoReturn:
        raise IllegalAction("malformed", text=str(text)[:40]) from exc


GAME = Dominas()


# -------------------------------------------------------------------- helpers


_rng = counter_rng


def _ev(events: list[Event], fact: Fact, seat: int | None = None) -> None:
    events.append(Event.of(fact, seat))


def _next_seat(s: State, seat: int) -> int:
    """The next present seat clockwise (ascending seat numbers)."""
    n = len(s.players)
    for k in range(1, n + 1):
        q = (seat + k) % n
        if s.present[q]:
            return q
    return seat


def _present_sides(s: State) -> list[int]:
    return sorted({s.side_of[x] for x in range(len(s.players)) if s.present[x]})


def _find_nest(s: State, pos: Pos | None) -> Nest | None:
    return next((n for n in s.nests if n.pos is pos), None)


def placements(s: State, tile: str, bonus: Bonus | None = None) -> list[Action]:
    """Every legal PLACE of `tile` in the current figure (ignoring who holds it)."""
    out: list[Action] = []
    if bonus is not None and bonus.target is not None and pips(tile) != bonus.target:
        return out
    for nest in s.nests:
        sides = sides_for(s.figure, s.floor, s.nests, nest, tile, s.options.fill_direction)
        if isinstance(sides, str):
            continue
        out.extend(
            Action(type=T.PLACE, tile=tile, nest=nest.pos, variant=v) for v in range(len(sides))
        )
    return out


def fits(s: State, tile: str, bonus: Bonus | None = None) -> bool:
    """Does `tile` have a legal placement now (✓ in the popup)?"""
    return bool(placements(s, tile, bonus))


def can_place(s: State, seat: int, bonus: Bonus | None = None) -> bool:
    return any(fits(s, t, bonus) for t in s.hands[seat])


def _fish(s: State) -> bool:
    """R24: the bazaar is empty and no present player can place."""
    if s.bazaar:
        return False
    return not any(s.present[x] and s.hands[x] and can_place(s, x) for x in range(len(s.players)))


# ------------------------------------------------------------------ legality


def _candidates(s: State) -> list[Action]:
    if s.phase is Phase.OVER:
        return []
    acts: list[Action] = []
    for tile in s.hands[s.current]:
        acts.extend(placements(s, tile, s.bonus))
    if s.phase is Phase.BONUS:
        acts.append(Action(type=T.STOP))
    return acts  # never TIMEOUT: the bot does it to a player (`timeout`), nobody chooses it


def _why(s: State, a: Action) -> str | None:
    """Why `a` is illegal now, or None (the one place legality is decided)."""
    if s.phase is Phase.OVER:
        return "game_over"
    match a.type:
        case T.TIMEOUT:
            return None  # a system move: `apply` refuses it (not a candidate), `timeout` plays it
        case T.STOP:
            return None if s.phase is Phase.BONUS else "wrong_phase"
        case T.PLACE:
            tile = a.tile
            if tile is None or not is_tile(tile) or a.nest is None or a.variant not in (0, 1):
                return "malformed"
            if tile not in s.hands[s.current]:
                return "no_tile"
            nest = _find_nest(s, a.nest)
            if nest is None:
                return "no_nest"
            b = s.bonus
            if b is not None and b.target is not None and pips(tile) != b.target:
                return "bonus_sum"
            sides = sides_for(s.figure, s.floor, s.nests, nest, tile, s.options.fill_direction)
            if isinstance(sides, str):
                return sides
            if a.variant >= len(sides):
                return "one_side"
            return None
    return "malformed"  # pragma: no cover


# ------------------------------------------------------------------ actions


def _perform(s: State, a: Action, events: list[Event]) -> None:
    seat = s.current
    match a.type:
        case T.PLACE:
            _place(s, a, events)
        case T.STOP:
            _ev(events, BonusEnded(reason=BonusEnd.STOP), seat)
            _end_turn(s, events)
        case T.TIMEOUT:
            if s.phase is Phase.BONUS:
                _ev(events, Timeout(penalty=False), seat)
                _ev(events, BonusEnded(reason=BonusEnd.TIMEOUT), seat)
                _end_turn(s, events)
            else:
                _ev(events, Timeout(penalty=bool(s.bazaar)), seat)
                _draw(s, seat, 1, DrawReason.TIMEOUT, events)
                _end_turn(s, events, check_run=False)


def _place(s: State, a: Action, events: list[Event]) -> None:
    seat = s.current
    assert a.tile is not None
    nest = _find_nest(s, a.nest)
    assert nest is not None
    sides = sides_for(s.figure, s.floor, s.nests, nest, a.tile, s.options.fill_direction)
    assert not isinstance(sides, str)
    side = sides[a.variant]
    need = required(s.figure, nest)
    in_bonus = s.bonus is not None
    placed = Placed(
        tile=a.tile,
        seat=seat,
        floor=s.floor,
        pos=nest.pos,
        parent=nest.parent,
        parent_side=nest.side,
        side=side,
        edges=edges_of(a.tile, need),
        bonus=in_bonus,
    )
    s.hands[seat].remove(a.tile)
    s.figure.append(placed)
    rest = [n for n in s.nests if n is not nest]
    s.floor, s.nests = opened(s.floor, rest, placed, len(s.figure) - 1, s.options.fill_direction)
    s.turn_placed += 1
    fact = TilePlaced(
        tile=a.tile,
        n=len(s.figure),
        floor=placed.floor,
        nest=nest.pos,
        variant=a.variant,
        side=side,
        symbol=need,
        bonus=in_bonus,
    )
    _ev(events, fact, seat)
    if not s.hands[seat]:  # R23: the game ends at once
        _game_over(s, events, GameEnd.WIN, s.side_of[seat])
        return
    b = s.bonus
    if b is not None:
        if b.left is not None:
            b.left -= 1
            if b.left <= 0:
                _ev(events, BonusEnded(reason=BonusEnd.USED_UP), seat)
                _end_turn(s, events)
                return
        _bonus_or_end(s, events)
        return
    if a.tile == KOLOBOK:
        s.bonus = Bonus(kind=BonusKind.KOLOBOK)
    elif a.tile in BONUS_SUM:
        target = BONUS_SUM[a.tile]
        kind = BonusKind.SUM9 if target == 9 else BonusKind.SUM10
        s.bonus = Bonus(kind=kind, target=target, left=3)
    else:
        _end_turn(s, events)
        return
    _ev(events, BonusStarted(bonus=s.bonus.kind, target=s.bonus.target), seat)
    s.phase = Phase.BONUS
    _bonus_or_end(s, events)


def _bonus_or_end(s: State, events: list[Event]) -> None:
    """A bonus series goes on only while the player has a bonus placement (R20, R21)."""
    if not can_place(s, s.current, s.bonus):
        if s.bonus is not None and s.bonus.target is None:  # Колобок: no tile fits at all
            _lack(s, s.current, slot_numbers(s, s.current), _needs(s))
        _ev(events, BonusEnded(reason=BonusEnd.NOTHING_FITS), s.current)
        _end_turn(s, events)


def _needs(s: State) -> int:
    """The needs of all open nests (bits, `tiles.need_bits`)."""
    bits = 0
    for n in s.nests:
        bits |= need_bits(required(s.figure, n), parent_colour(s.figure, n))
    return bits


def _lack(s: State, seat: int, slots: list[int], needs: int) -> None:
    """Record that the tiles numbered `slots` of `seat` meet none of `needs` (public)."""
    if not slots or not needs:
        return
    if len(s.lacks) != len(s.players):  # a state stored before `lacks` existed
        s.lacks = [[] for _ in s.players]
    row = s.lacks[seat]
    row.extend([0] * (max(slots) - len(row)))
    for number in slots:
        row[number - 1] |= needs


def lacks_of(s: State, seat: int, slots: list[int]) -> list[int]:
    """The recorded lacks of the tiles numbered `slots` (0: nothing known)."""
    row = s.lacks[seat] if len(s.lacks) == len(s.players) else []
    return [row[k - 1] if k <= len(row) else 0 for k in slots]


def _draw(s: State, seat: int, count: int, reason: DrawReason, events: list[Event]) -> list[str]:
    """Draw up to `count` tiles; the group learns how many, the drawer which (§7)."""
    got: list[str] = []
    while len(got) < count and s.bazaar:
        got.append(s.bazaar.pop(0))
    _give(s, seat, got, reason, events)
    return got


def _give(s: State, seat: int, got: list[str], reason: DrawReason, events: list[Event]) -> None:
    if not got:
        return
    s.hands[seat].extend(got)
    if len(s.entered) == len(s.players):
        s.entered[seat].extend(got)
    s.draws[seat] += len(got)
    _ev(events, Drew(count=len(got), reason=reason, bazaar=len(s.bazaar)), seat)
    events.append(Event.of(DrewTiles(tiles=got), seat, private_to=seat))


def run_of(tiles: list[str]) -> tuple[list[str], bool, str | None]:
    """R14/R17 on four tiles in placement order: (run kinds, extra tile?, extra reason)."""
    if len(tiles) < 4:
        return [], False, None
    four = tiles[-4:]
    nums = [number_of(t) for t in four]
    numbered = [x for x in nums if x is not None]
    colour = len({colour_of(t) for t in four}) == 1
    all_numbered = len(numbered) == 4
    parity = all_numbered and len({x % 2 for x in numbered}) == 1
    up = all(x < y for x, y in itertools.pairwise(numbered))
    down = all(x > y for x, y in itertools.pairwise(numbered))
    monotone = all_numbered and (up or down)
    kinds = [k for k, ok in (("colour", colour), ("parity", parity), ("monotone", monotone)) if ok]
    if not kinds:
        return [], False, None
    reason: str | None = None
    if all_numbered and len(set(numbered)) == 1:
        reason = "equal"
    elif colour and parity:
        reason = "colour_parity"
    elif four[-1] in EXTRA_NAMED:
        reason = "named"
    return kinds, reason is not None, reason


def _end_turn(s: State, events: list[Event], check_run: bool = True) -> None:
    """END_TURN (§6): run check (R15), рыба (R24), then the next turn."""
    seat = s.current
    placed = s.turn_placed
    s.bonus = None
    s.phase = Phase.PLAY
    _ev(events, TurnEnded(placed=placed), seat)
    run: Run | None = None
    if check_run and placed > 0:
        kinds, extra, reason = run_of([p.tile for p in s.figure])
        if kinds:
            run = Run(
                placer=seat,
                skipper=_next_seat(s, seat),
                kinds=kinds,
                tiles=[p.tile for p in s.figure[-4:]],
                extra=extra,
                reason=reason,
            )
    if _fish(s):
        _game_over(s, events, GameEnd.FISH, None)
        return
    _begin_turn(s, _next_seat(s, seat), events, run)


def _begin_turn(s: State, seat: int, events: list[Event], run: Run | None = None) -> None:
    """TURN(p) (§6): skips (R16, R17), automatic draws (R11) and passes, until a decision."""
    for _ in range(4 * len(s.players) + 100):
        s.turn_placed = 0
        s.bonus = None
        s.current = seat
        if run is not None:
            s.last_run = run
            skipped = Skipped(
                run=run.kinds, tiles=run.tiles, extra=run.extra, reason=run.reason, by=run.placer
            )
            _ev(events, skipped, seat)
            if run.extra:
                _draw(s, seat, 1, DrawReason.EXTRA, events)
            run = None
            if _fish(s):
                _game_over(s, events, GameEnd.FISH, None)
                return
            seat = _next_seat(s, seat)
            continue
        s.turn_no += 1
        if not can_place(s, seat):
            got: list[str] = []
            while s.bazaar and not can_place(s, seat):
                tile = s.bazaar.pop(0)
                s.hands[seat].append(tile)
                got.append(tile)
            s.hands[seat] = s.hands[seat][: len(s.hands[seat]) - len(got)]
            _give(s, seat, got, DrawReason.NEED, events)
            # public: the held tiles and those drawn, but the last one if it fits, meet
            # none of the open nests' needs (the draw goes on until one fits, R11)
            slots = slot_numbers(s, seat)
            _lack(s, seat, slots[:-1] if can_place(s, seat) else slots, _needs(s))
        if can_place(s, seat):
            s.phase = Phase.PLAY
            _ev(events, TurnStarted(turn=s.turn_no), seat)
            return
        _ev(events, Passed(), seat)
        if _fish(s):
            _game_over(s, events, GameEnd.FISH, None)
            return
        seat = _next_seat(s, seat)
    raise AssertionError("no decision found")  # pragma: no cover (R24 ends such a game)


# ------------------------------------------------------------- games, match


def _start_game(s: State, events: list[Event]) -> None:
    s.figure = []
    s.nests = [Nest(pos=Pos.CENTRE)]
    s.floor = 1
    s.bonus = None
    s.last_run = None
    s.turn_placed = 0
    s.draws = [0] * len(s.players)
    s.entered = [_numbering(s, seat, hand) for seat, hand in enumerate(s.hands)]
    s.lacks = [[] for _ in s.players]
    s.phase = Phase.PLAY
    hands = [len(h) for h in s.hands]
    _ev(events, GameStarted(game=s.game_no, hands=hands, bazaar=len(s.bazaar)), s.first)
    for seat, hand in enumerate(s.hands):
        if s.present[seat]:
            events.append(Event.of(Dealt(tiles=hand), seat, private_to=seat))
    _begin_turn(s, s.first, events)


def _numbering(s: State, seat: int, hand: list[str]) -> list[str]:
    """The dealt tiles in the order that numbers them 1…H: shuffled by a generator of its
    own (the game's dice stay as they are), so a tile's number says nothing about the
    tiles around it in the sorted hand."""
    order = list(hand)
    stream(s.seed, "numbers", s.game_no, seat).shuffle(order)
    return order


def slot_numbers(s: State, seat: int) -> list[int]:
    """The number of each tile in the hand of `seat` (aligned with `s.hands[seat]`): its
    place among the tiles that entered this hand this game, so it stays the same while
    the tile is there, and no two tiles share one. (A state stored before `entered`
    existed numbers the hand 1…H in its order.)"""
    hand = s.hands[seat]
    entered = s.entered[seat] if len(s.entered) == len(s.players) else []
    place = {tile: i + 1 for i, tile in enumerate(entered)}
    nxt = len(entered)
    out: list[int] = []
    for tile in hand:
        if tile not in place:
            nxt += 1
            place[tile] = nxt
        out.append(place[tile])
    return out


def side_tiles(s: State) -> list[int]:
    """Tiles left in the hands of each side's present players."""
    c = [0] * s.n_sides
    for seat, hand in enumerate(s.hands):
        if s.present[seat]:
            c[s.side_of[seat]] += len(hand)
    return c


def game_scores(
    n_sides: int, present: list[int], tiles: list[int], winner: int | None
) -> list[int]:
    """R25 for one game; sides not in `present` score 0 (R28)."""
    scores = [0] * n_sides
    if winner is not None:
        for x in present:
            scores[x] = 10
        scores[winner] = 30 + sum(tiles[x] for x in present if x != winner)
        return scores
    m = min(tiles[x] for x in present)
    excess = sum(tiles[x] - m for x in present)
    for x in present:
        scores[x] = 20 + (excess if tiles[x] == m else 0)
    return scores


def _game_over(s: State, events: list[Event], reason: GameEnd, winner: int | None) -> None:
    """GAME_OVER (§6): score (R25), then game 2 (R26) or the end of the match."""
    present = _present_sides(s)
    tiles = side_tiles(s)
    scores = game_scores(s.n_sides, present, tiles, winner)
    game_winner = winner
    if winner is None:
        m = min(tiles[x] for x in present)
        lows = [x for x in present if tiles[x] == m]
        game_winner = lows[0] if len(lows) == 1 else None
    rec = GameRecord(
        game=s.game_no,
        reason=reason.value,
        winner_side=game_winner,
        first=s.first,
        tiles=tiles,
        scores=scores,
    )
    s.records.append(rec)
    s.bonus = None
    over = GameOver(
        game=s.game_no,
        reason=reason,
        winner_side=game_winner,
        tiles=tiles,
        scores=scores,
        totals=totals(s),
    )
    _ev(events, over)
    if s.game_no < s.options.match_games and len(present) >= 2:
        _start_game_two(s, events)
        return
    s.phase = Phase.OVER
    res = _ranking(s)
    s.winners = res[0] if res else []
    _ev(events, MatchOver(winners=s.winners, totals=totals(s)))


def _start_game_two(s: State, events: list[Event]) -> None:
    """R26: teams swap their game-1 initial tiles, solo rotates them; same bazaar tiles."""
    n = len(s.players)
    seats = [x for x in range(n) if s.present[x]]
    hands: list[list[str]] = [[] for _ in range(n)]
    spare: list[str] = []
    if s.options.mode is Mode.TEAMS:
        for side in (0, 1):
            members = [x for x in seats if s.side_of[x] == side]
            pool = [t for x in range(n) if s.side_of[x] != side for t in s.initial_hands[x]]
            _rng(s).shuffle(pool)
            for k, x in enumerate(members):
                hands[x] = pool[k * HAND_SIZE : (k + 1) * HAND_SIZE]
            spare += pool[len(members) * HAND_SIZE :]
    else:
        for i, x in enumerate(seats):
            hands[x] = list(s.initial_hands[seats[(i + 1) % len(seats)]])
        spare = [t for x in range(n) if not s.present[x] for t in s.initial_hands[x]]
    s.hands = [sorted(h, key=sort_key) for h in hands]
    s.bazaar = list(s.initial_bazaar) + spare
    _rng(s).shuffle(s.bazaar)
    s.game_no = 2
    s.first = _next_seat(s, s.game1_first)
    _start_game(s, events)


def totals(s: State) -> list[int]:
    """Match points per side; a side with nobody left scores 0 (R28)."""
    out = [0] * s.n_sides
    for rec in s.records:
        for side, v in enumerate(rec.scores):
            out[side] += v
    present = set(_present_sides(s))
    return [v if side in present else 0 for side, v in enumerate(out)]


def _ranking(s: State) -> list[list[int]]:
    """Seats grouped by place: total, then games won (R26); sides that left last (R28)."""
    tot = totals(s)
    wins = [0] * s.n_sides
    for rec in s.records:
        if rec.winner_side is not None:
            wins[rec.winner_side] += 1
    present = _present_sides(s)
    groups: dict[tuple[int, int], list[int]] = {}
    for side in present:
        groups.setdefault((-tot[side], -wins[side]), []).append(side)
    order = [groups[k] for k in sorted(groups)]
    gone: list[int] = []
    for seat in reversed(s.left_order):
        side = s.side_of[seat]
        if side not in present and side not in gone:
            gone.append(side)
    order += [[side] for side in gone]
    n = len(s.players)
    return [[x for x in range(n) if s.side_of[x] in group] for group in order]


def _result(s: State) -> Result:
    """Standings per player (his side's match total and place); provisional while running."""
    tot = totals(s)
    standings: list[Standing] = []
    place = 1
    ranking = _ranking(s)
    for group in ranking:
        for seat in group:
            standings.append(
                Standing(player=s.players[seat], place=place, score=tot[s.side_of[seat]])
            )
        place += len({s.side_of[x] for x in group})
    winners = [s.players[x] for x in ranking[0]] if ranking else []
    return Result(standings=standings, winners=winners)


# --------------------------------------------------------------- leaving


def _remove(s: State, seat: int, events: list[Event]) -> None:
    """R28: the hand returns to the bazaar (shuffled); his pending turn or bonus ends."""
    pending = s.current == seat
    back = s.hands[seat]
    s.hands[seat] = []
    if len(s.lacks) == len(s.players):
        s.lacks[seat] = []
    s.present[seat] = False
    s.left_order.append(seat)
    s.bazaar.extend(back)
    _rng(s).shuffle(s.bazaar)
    _ev(events, PlayerLeft(returned=len(back), bazaar=len(s.bazaar)), seat)
    present = _present_sides(s)
    if len(present) < 2:
        _game_over(s, events, GameEnd.ABANDONED, present[0] if present else None)
        return
    if pending:
        s.bonus = None
        s.phase = Phase.PLAY
        _ev(events, TurnEnded(placed=s.turn_placed), seat)
        _begin_turn(s, _next_seat(s, seat), events)


# ------------------------------------------------------------------- view


def _view(s: State, player: int | None) -> View:
    me = s.players.index(player) if player in s.players else None
    remembered: list[str] | None = None
    if me is not None and s.game_no == 2:
        mine = [x for x in range(len(s.players)) if s.side_of[x] == s.side_of[me]]
        remembered = sorted((t for x in mine for t in s.initial_hands[x]), key=sort_key)
    return View(
        me=me,
        hand=list(s.hands[me]) if me is not None else None,
        hand_slots=slot_numbers(s, me) if me is not None else None,
        remembered=remembered,
        players=[
            SeatView(
                seat=i,
                player=p,
                side=s.side_of[i],
                present=s.present[i],
                hand_count=len(s.hands[i]),
                drawn=s.draws[i],
                slots=slots,
                lacks=lacks_of(s, i, slots),
            )
            for i, p in enumerate(s.players)
            for slots in [sorted(slot_numbers(s, i))]
        ],
        mode=s.options.mode,
        fill_direction=s.options.fill_direction,
        tempo=s.options.tempo,
        match_games=s.options.match_games,
        game_no=s.game_no,
        figure=[p.model_copy() for p in s.figure],
        nests=[
            NestView(
                pos=n.pos,
                floor=s.floor,
                symbol=required(s.figure, n),
                parent_colour=parent_colour(s.figure, n),
                far=is_far_nest(s.floor, s.nests, n),
            )
            for n in s.nests
        ]
        if s.phase is not Phase.OVER
        else [],
        floor=s.floor,
        bazaar_size=len(s.bazaar),
        phase=s.phase,
        current=None if s.phase is Phase.OVER else s.current,
        turn_no=s.turn_no,
        bonus=s.bonus.model_copy() if s.bonus else None,
        last_run=s.last_run.model_copy() if s.last_run else None,
        records=[r.model_copy() for r in s.records],
        totals=totals(s),
        winners=list(s.winners),
    )


__all__ = [
    "CODES",
    "GAME",
    "Dominas",
    "can_place",
    "fits",
    "game_scores",
    "lacks_of",
    "placements",
    "run_of",
    "side_tiles",
    "slot_numbers",
    "totals",
]
