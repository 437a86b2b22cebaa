"""Views hide everything hidden: twin states that differ only in what a seat cannot see
give that seat — and the table — the same view, derived fields included (who is current,
counts, flags), for every game (issue 30, point 2).

The twins are made by the engines themselves, never by copying a derived field from the
original: two seeds whose games start alike («Захват клеток», «Гипнозия», «Морской
крест»), or the hidden tiles of a raw state dealt again — the other hands and the bank's
or bazaar's order, the seat's own hand kept — after which the engine and its automation
(`games.automation.settle`) compute everything else. Then both are played on with the
same decisions (`coplay`) as long as they share a public history: every step legal in
both, the same public events (and the same private ones for the seat), the seat's own
hand the same. Wherever they do, the views must be equal.

What the rules themselves make public is not a leak and ends a comparison: a window that
closes at once tells that nobody else can claim it; a forced draw tells its size; a
tile played from a hand tells which number it had there («ДОМИНА*С», `SeatView.slots`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from games.automation import settle
from games.chance import KEYED_FROM
from games.dominas import State as DominasState
from games.dominas.engine import _numbering
from games.dominas.tiles import SAMOHODS, sort_key
from games.protocol import Event
from games.seven_tracks import Phase as SevenPhase
from games.seven_tracks import State as SevenState
from games.seven_tracks.model import kind_of

Game = Any  # an engine with the automation (games.automation.Automated)


def _views(g: Game, s: Any, seats: list[int] | None) -> list[Any]:
    """The public view, then the views of `seats` (None: every seat)."""
    seen = range(len(s.players)) if seats is None else seats
    return [g.view(s, None), *(g.view(s, s.players[x]) for x in seen)]


def _same_views(g: Game, s: Any, t: Any, seats: list[int] | None) -> None:
    for a, b in zip(_views(g, s, seats), _views(g, t, seats), strict=True):
        da, db = _comparable(g, a), _comparable(g, b)
        diff = {k: (da[k], db[k]) for k in da if da[k] != db[k]}
        assert not diff, f"{g.id}: a view differs between twins: {diff}"


def _comparable(g: Game, view: Any) -> dict[str, Any]:
    """The view as data; «Семидорожник»'s tiles on the board as their kinds. There the id
    of a tile played from a hand is its holder's lowest of that kind (spec R4, R73 shows
    the ids), so twins dealt again show other ids; it tells a little of that hand too
    (a Y#12 played: no other yellow in it), which the spec allows and this test leaves
    to a decision on R4/R73. Everything else must be equal."""
    data: dict[str, Any] = view.model_dump(mode="json")
    if g.id == "seven_tracks":
        for track in data["tracks"]:
            track["slots"] = [kind_of(x).value for x in track["slots"]]
            if track["block"] is not None:
                track["block"]["tile"] = kind_of(track["block"]["tile"]).value
        data["t7"] = [kind_of(x).value for x in data["t7"]]
        data["store"] = [kind_of(x).value for x in data["store"]]
    return data


def _seen(events: list[Event], seat: int | None) -> list[Event]:
    """What the table and `seat` (None: every seat) are told."""
    return [e for e in events if seat is None or e.private_to in (None, seat)]


def _own(s: Any, seat: int | None) -> Any:
    hands = getattr(s, "hands", None)
    return None if seat is None or hands is None else sorted(hands[seat])


def _parted(es: list[Event], et: list[Event], s: Any, t: Any, seat: int | None) -> bool:
    """Whether the twins no longer share a public history (see the module)."""
    return _seen(es, seat) != _seen(et, seat) or _own(s, seat) != _own(t, seat)


def coplay(g: Game, s: Any, t: Any, seat: int | None, rng: random.Random, steps: int = 400) -> int:
    """Twins `s`, `t` settled and played on with the same random decisions while they
    share a public history (see the module); the views of `seat` (None: of every seat)
    and the table's compared at every point. The number of points compared."""
    seats = None if seat is None else [seat]
    _same_views(g, s, t, seats)
    compared = 1
    for _ in range(steps):
        s, es = settle(g, s)
        t, et = settle(g, t)
        if _parted(es, et, s, t, seat):
            break
        _same_views(g, s, t, seats)
        compared += 1
        if g.is_over(s):
            break
        decider = rng.choice(g.deciders(s))
        action = rng.choice(g.legal_actions_for(s, decider))
        if action not in g.legal_actions_for(t, decider):
            break
        s, es = g.apply(s, action)
        t, et = g.apply(t, action)
        if _parted(es, et, s, t, seat):
            break
        _same_views(g, s, t, seats)
        compared += 1
    return compared


def _alike(g: Game, players: list[int], seed: int) -> tuple[Any, Any]:
    """A game from `seed` and one from another seed that starts exactly alike but for the
    seed (the same first order, the same roll-off): their futures differ, nothing else."""
    s = g.new(players, seed=seed)
    for other in range(seed + 1, seed + 5000):
        t = g.new(players, seed=other)
        if t.model_dump(exclude={"seed"}) == s.model_dump(exclude={"seed"}):
            return s, t
    raise AssertionError("no seed starts alike")  # pragma: no cover


@pytest.mark.parametrize("game_id", ["cell_capture", "hypnosia", "sea_cross"])
def test_games_that_start_alike_look_alike_until_chance_tells_them_apart(game_id: str) -> None:
    """Everything is public but the dice to come: two seeds whose games start alike give
    every seat the same views, until a roll differs."""
    g: Game = games.get(game_id)
    rng = random.Random(game_id)
    compared = 0
    for seed in (3, 40, KEYED_FROM + 7):
        s, t = _alike(g, [1, 2, 3], seed)
        compared += coplay(g, s, t, None, rng, 100)
    assert compared >= 3


@pytest.mark.parametrize("game_id", games.ids())
def test_views_do_not_depend_on_the_seed(game_id: str) -> None:
    """At every point of a random game, the same state with another seed (the same past,
    other dice, deals and shuffles to come) shows every seat the same views."""
    g: Game = games.get(game_id)
    rng = random.Random(game_id)
    s, _ = settle(g, g.new([1, 2, 3], seed=11))
    for _ in range(80):
        for other in (12, KEYED_FROM + 12, 2**128 + rng.getrandbits(128)):
            _same_views(g, s, s.model_copy(update={"seed": other}), None)
        if g.is_over(s):
            break
        decider = rng.choice(g.deciders(s))
        s, _ = settle(g, g.apply(s, rng.choice(g.legal_actions_for(s, decider)))[0])


# ---------------------------------------------------------------- «ДОМИНА*С»


def _redeal_dominas(s: DominasState, seat: int, rng: random.Random, hands: bool) -> DominasState:
    """The match `s` as dealt (before any move) with the tiles `seat` cannot see dealt
    again: the bazaar's order, and with `hands` the other hands too (from the regular
    tiles, as the deal does: the самоходы stay in the bazaar). What follows from the deal
    the engine computes: the record of the deal and each hand's numbering."""
    assert s.turn_no == 1 and not s.figure
    t = s.model_copy(deep=True)
    others = [x for x in range(len(s.players)) if x != seat]
    regular = [x for x in t.bazaar if x not in SAMOHODS]
    if hands:
        pool = [tile for x in others for tile in t.hands[x]] + regular
        rng.shuffle(pool)
        for x in others:
            t.hands[x] = sorted(pool[: len(s.hands[x])], key=sort_key)
            del pool[: len(s.hands[x])]
        regular = pool
    t.bazaar = regular + list(SAMOHODS)
    rng.shuffle(t.bazaar)
    t.initial_hands = [list(h) for h in t.hands]
    t.initial_bazaar = list(t.bazaar)
    t.entered = [_numbering(t, x, hand) for x, hand in enumerate(t.hands)]
    return t


def test_dominas_twins_dealt_again_look_alike_to_the_seat() -> None:
    """Another bazaar order: the views stay equal through the match while the twins
    share a public history. Other hands dealt again: equal at the deal and through the
    seat's own moves (a tile another seat plays tells its number, `SeatView.slots`)."""
    g: Game = games.get("dominas")
    rng = random.Random(5)
    compared = 0
    for seed in (1, 2, KEYED_FROM + 3):
        for n in (2, 4):
            s = g.new(list(range(1, n + 1)), seed=seed)
            for seat in range(n):
                t = _redeal_dominas(s, seat, rng, hands=False)
                compared += coplay(g, s, t, seat, rng)
                t = _redeal_dominas(s, seat, rng, hands=True)
                compared += _own_moves(g, s, t, seat, rng)
    assert compared >= 30


def _own_moves(g: Game, s: Any, t: Any, seat: int, rng: random.Random) -> int:
    """`coplay` up to the first decision of another seat."""
    compared = 0
    for _ in range(50):
        s, es = settle(g, s)
        t, et = settle(g, t)
        if _parted(es, et, s, t, seat):
            break
        _same_views(g, s, t, [seat])
        compared += 1
        if g.is_over(s) or g.deciders(s) != [s.players[seat]]:
            break
        action = rng.choice(g.legal_actions_for(s, s.players[seat]))
        s, es = g.apply(s, action)
        t, et = g.apply(t, action)
        if _parted(es, et, s, t, seat):
            break
    return compared


# ---------------------------------------------------------------- «Семидорожник»


def _redeal_seven(s: SevenState, seat: int, rng: random.Random) -> SevenState:
    """`s` with the tiles `seat` cannot see dealt again: the other hands (their sizes
    kept) and the bank, in a new order. `s` is a round's raw first-move window (nobody
    answered yet) or a turn's start: nothing the engine keeps follows from those tiles
    there, so the twin is a state the engine could have dealt."""
    assert (s.phase == SevenPhase.FIRST_MOVE and not s.fm_decided) or s.phase == SevenPhase.PRE_MOVE
    t = s.model_copy(deep=True)
    others = [x for x in range(len(s.players)) if x != seat]
    pool = [tile for x in others for tile in t.hands[x]] + t.bank
    rng.shuffle(pool)
    for x in others:
        t.hands[x] = pool[: len(s.hands[x])]
        del pool[: len(s.hands[x])]
    t.bank = pool
    return t


def test_seven_tracks_first_move_window_names_no_holder() -> None:
    """The window's raw state dealt again, then the automation passes whoever cannot
    claim: whoever else holds an FM or a universal, the seat and the table see the same
    (the window's `current` names nobody but, at most, the seat itself). Twins of which
    only one window closed at once are not compared: that nobody else could claim is
    public."""
    g: Game = games.get("seven_tracks")
    rng = random.Random(30)
    compared = 0
    for seed in [7919, *range(1, 13), KEYED_FROM + 1]:
        n = 2 + seed % 5
        raw = g.new(list(range(1, n + 1)), seed=seed)
        s, _ = settle(g, raw)
        for seat in range(n):
            for _ in range(4):
                t, _ = settle(g, _redeal_seven(raw, seat, rng))
                if t.phase == s.phase:
                    _same_views(g, s, t, [seat])
                    compared += 1
    assert compared >= 100


def test_seven_tracks_the_issue_30_window() -> None:
    """Issue 30's reproduction: after the automation's passes, seat 0's view does not
    name seat 1, a holder, as the public view does not."""
    g: Game = games.get("seven_tracks")
    s, _ = settle(g, g.new([1, 2, 3, 4], seed=7919))
    assert s.phase == SevenPhase.FIRST_MOVE
    assert g.view(s, None).current is None
    assert g.view(s, 1).current in (None, 0)


def test_seven_tracks_turns_dealt_again_look_alike_to_the_seat() -> None:
    """At the start of the seat's turns in random games, the other hands and the bank
    dealt again: the seat's views stay equal through its turn and beyond, while the
    twins share a public history."""
    g: Game = games.get("seven_tracks")
    rng = random.Random(31)
    compared = 0
    for seed in (5, 6, KEYED_FROM + 5):
        s, _ = settle(g, g.new([1, 2, 3], seed=seed, options={"single_round": True}))
        for _ in range(150):
            if g.is_over(s):
                break
            if s.phase == SevenPhase.PRE_MOVE:
                compared += coplay(g, s, _redeal_seven(s, s.current, rng), s.current, rng, 40)
            decider = rng.choice(g.deciders(s))
            s, _ = settle(g, g.apply(s, rng.choice(g.legal_actions_for(s, decider)))[0])
    assert compared >= 100
