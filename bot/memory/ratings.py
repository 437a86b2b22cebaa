"""Ratings: OpenSkill's Plackett–Luce model (the `openskill` package), one rating per
player per game, per chat (by season) and overall.

A rating is (μ, σ) and the number of rated games; it is shown as a conservative score,
`shown` = 1000 + 40·(μ − 3σ): a newcomer (μ 25, σ 25/3) shows 1000. A player with fewer
than `PROVISIONAL` rated games is marked provisional.

Ratings measure play, not persistence (issue 30):

- Who is rated (`rated_sides`): the humans of the standings (computer seats have negative
  ids; a human's seat handed to a computer is the computer's), less those the game does
  not count for (an assisted player: `GameRecord.assisted`), when two or more remain: the
  humans are rated among themselves, a computer's place is ignored. ДОМИНА*С's team games
  are rated as teams (OpenSkill's team model: a team's players share its result, so
  teammates never win or lose rating against each other).
- A game ended by a leave before a real share of moves is not rated (`cut_short`).
- A rating moves at full speed only against several different opponents (`damping`,
  `game_weights`): the n-th game in a row of two accounts that only ever play each other
  counts 1/n, for both (an account that plays others too gains no more from it).
- The all-chats leaderboard counts only players with `BOARD_GAMES` rated games against
  `BOARD_OPPONENTS` different opponents (`on_board`).

    >>> a, b = Rating(), Rating()
    >>> new = rate({1: a, 2: b}, {1: 1, 2: 2})
    >>> new[1].mu > 25 > new[2].mu, new[1].games
    (True, 1)
    >>> shown(Rating())
    1000
"""

from __future__ import annotations

import math
from collections.abc import Collection
from functools import cache

from openskill.models import PlackettLuce
from pydantic import BaseModel, Field

from games.players import is_computer
from games.replay import REMOVE, TIMEOUT, TIMEOUT_TURN

MU = 25.0
SIGMA = 25.0 / 3.0
PROVISIONAL = 5  # rated games before a rating is no longer provisional
BASE, SCALE = 1000, 40
WIDEN = SIGMA / 3  # a new season adds this much uncertainty (in quadrature)

# A game ended by a leave is rated only after a real share of a game: `SHARE` of the
# steps a typical complete game takes per player. `TYPICAL`: steps per player (moves, rolls
# and other formalities; not leaves or timed-out turns) of a complete game at the lobby's
# shortest length and fewest seats, the median of 12 games of «опытный» computers (in
# ДОМИНА*С between its games of two, 17, and of two teams, 10). Measured, not guessed,
# because the games differ sevenfold. A quarter: well past an instant forfeit (a farmed
# win costs a quarter of a game, not a press), and short of the middle, where a player who
# leaves a lost game should still lose.
SHARE = 0.25
TYPICAL = {"sea_cross": 100, "hypnosia": 65, "cell_capture": 40, "seven_tracks": 150, "dominas": 12}
TYPICAL_OTHER = 40  # a game not measured yet

# Damping: a player's rated games remember their opponents (the last `RECENT` per chat).
# A rating moves at full speed when they were `DIVERSE` different people (or, over his
# first games, as many people as games); two people: two thirds of the speed; one and the
# same person every time: the n-th such game in a row counts 1/n (a pair who only ever play
# each other: 20 games weigh as much as 3.6).
RECENT = 20
DIVERSE = 3
# The all-chats leaderboard: `BOARD_GAMES` rated games (twice the provisional ones), and
# `BOARD_OPPONENTS` different opponents among the recent games (a group's regular players
# meet that many soon; a farm would need six accounts playing full games).
BOARD_GAMES = 10
BOARD_OPPONENTS = 5


class Rating(BaseModel):
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0  # rated games

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


@cache
def model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def shown(r: Rating) -> int:
    """The friendly conservative score: 1000 + 40·(μ − 3σ), rounded."""
    return round(BASE + SCALE * (r.mu - 3 * r.sigma))


# ---------------------------------------------------------------------- who is rated

Side = tuple[int, list[int]]  # (place, players): one team, or one player alone


def rated_players(places: dict[int, int], unrated: Collection[int] = ()) -> dict[int, int]:
    """The humans of a game's standings less `unrated`, when two or more (else nobody).

    >>> rated_players({1: 1, -1: 2}), rated_players({1: 1, -1: 2, 2: 3})
    ({}, {1: 1, 2: 3})
    """
    humans = {p: place for p, place in places.items() if not is_computer(p) and p not in unrated}
    return humans if len(humans) >= 2 else {}


def rated_sides(
    places: dict[int, int], unrated: Collection[int] = (), sides: dict[int, int] | None = None
) -> list[Side]:
    """What a game rates: each rated player alone — or, with `sides` (player -> side:
    ДОМИНА*С's teams), the rated players of each side together, at the side's place —
    when two sides or more are left (else nothing).

    >>> rated_sides({1: 1, 2: 2, -1: 3})
    [(1, [1]), (2, [2])]
    >>> rated_sides({1: 1, 2: 3, 3: 1, 4: 3}, sides={1: 0, 2: 1, 3: 0, 4: 1})
    [(1, [1, 3]), (3, [2, 4])]
    >>> rated_sides({1: 1, 2: 3, 3: 1, -4: 3}, sides={1: 0, 2: 1, 3: 0, -4: 1})
    [(1, [1, 3]), (3, [2])]
    >>> rated_sides({1: 1, -2: 3, 3: 1, -4: 3}, sides={1: 0, -2: 1, 3: 0, -4: 1})
    []
    """
    humans = {p: place for p, place in places.items() if not is_computer(p) and p not in unrated}
    if sides is None:
        teams = {p: [p] for p in humans}
    else:
        teams = {}
        for p in humans:
            teams.setdefault(sides[p], []).append(p)
    out = [(min(humans[p] for p in team), team) for team in teams.values()]
    return out if len(out) >= 2 else []


def cut_short(game_id: str, steps: list[str] | None, players: int) -> bool:
    """Whether a game ended by a leave (its last step took a player out: he left or the
    turn timer removed him) before a real share of moves: fewer steps, leaves and
    timed-out turns left out, than `SHARE` of a typical game for as many players. A game
    kept without its steps can't be told: it is not cut short.

    >>> start = '~n{"players":[1,2],"seed":1,"options":null}'
    >>> cut_short("sea_cross", [start, "R", "~r2"], 2)
    True
    >>> cut_short("sea_cross", [start] + ["R"] * 50 + ["~r2"], 2)
    False
    >>> cut_short("sea_cross", [start, "R", "~t", "~t", "~t"], 2)  # ended by its rules
    False
    """
    if not steps or len(steps) < 2 or not steps[-1].startswith(REMOVE):
        return False
    moves = sum(
        1 for s in steps[1:] if not s.startswith(REMOVE) and s not in (TIMEOUT, TIMEOUT_TURN)
    )
    return moves < SHARE * TYPICAL.get(game_id, TYPICAL_OTHER) * players


def opponents(sides: list[Side]) -> dict[int, list[int]]:
    """Each rated player's opponents: the players of the other sides.

    >>> opponents([(1, [1, 3]), (2, [2])])
    {1: [2], 3: [2], 2: [1, 3]}
    """
    return {
        p: [q for _, other in sides if other is not team for q in other]
        for _, team in sides
        for p in team
    }


def damping(history: list[list[int]], against: Collection[int]) -> float:
    """The share of a rating change a player keeps, from his `n` recent rated games
    (`history`: each game's opponents, oldest first; this game's, `against`, added) and
    the `m` different people they were against: full when `m` reaches `DIVERSE` — or `n`,
    over his first games — else `m / DIVERSE`; and against one and the same person every
    time, `1 / n`: the second game in a row a half, the tenth a tenth.

    >>> damping([], [2])  # a first game
    1.0
    >>> damping([[2]], [2]), damping([[2]] * 9, [2])  # only ever each other
    (0.5, 0.1)
    >>> damping([[2], [3]] * 5, [2]), damping([[3]], [2]), damping([], [2, 3, 4])
    (0.6666666666666666, 1.0, 1.0)
    >>> damping([[2], [3], [4]] * 3, [2])
    1.0
    """
    games = [*history, list(against)]
    met = len({q for game in games for q in game})
    if met == 1:
        return 1 / len(games)
    return min(1.0, met / min(DIVERSE, len(games)))


def game_weights(own: dict[int, float], against: dict[int, list[int]]) -> dict[int, float]:
    """The share of the game's change each player keeps: his own `damping`, and no more
    than any opponent's — beating an account that only ever plays you is damped however
    varied your other games (a player with a farm of his own).

    >>> game_weights({1: 1.0, 2: 0.25}, {1: [2], 2: [1]})
    {1: 0.25, 2: 0.25}
    """
    return {p: min([w, *(own[q] for q in against[p])]) for p, w in own.items()}


def on_board(r: Rating, history: list[list[int]]) -> bool:
    """Whether an overall rating stands on the all-chats leaderboard: `BOARD_GAMES` rated
    games and `BOARD_OPPONENTS` different opponents among the recent ones.

    >>> on_board(Rating(games=40), [[2]] * 20), on_board(Rating(games=10), [[2, 3, 4, 5, 6]])
    (False, True)
    """
    met = len({q for game in history for q in game})
    return r.games >= BOARD_GAMES and met >= BOARD_OPPONENTS


# ---------------------------------------------------------------------- rating


def rate(current: dict[int, Rating], places: dict[int, int]) -> dict[int, Rating]:
    """New ratings of the players of `places` (player -> place, 1 = first; equal places
    are a tie), each one a team of one, as OpenSkill's `rate` with `ranks` says."""
    return rate_sides(current, [(places[p], [p]) for p in places])


def rate_sides(
    current: dict[int, Rating], sides: list[Side], weight: dict[int, float] | None = None
) -> dict[int, Rating]:
    """New ratings of the players of `sides` (OpenSkill's `rate`: `teams` with `ranks`),
    each player's change (of μ and of σ) scaled by his `weight` (`damping`; 1 if none)."""
    m = model()
    teams = [
        [m.rating(mu=current[p].mu, sigma=current[p].sigma) for p in team] for _, team in sides
    ]
    result = m.rate(teams, ranks=[float(place) for place, _ in sides])
    out: dict[int, Rating] = {}
    for (_, team), new in zip(sides, result, strict=True):
        for p, r in zip(team, new, strict=True):
            w = 1.0 if weight is None else weight.get(p, 1.0)
            old = current[p]
            out[p] = Rating(
                mu=old.mu + w * (r.mu - old.mu),
                sigma=old.sigma + w * (r.sigma - old.sigma),
                games=old.games + 1,
            )
    return out


def widened(r: Rating) -> Rating:
    """The rating a new season starts from: the same μ, σ widened (at most the prior's).

    >>> round(widened(Rating(mu=30, sigma=2.0)).sigma, 3)
    3.423
    """
    sigma = min(SIGMA, (r.sigma**2 + WIDEN**2) ** 0.5)
    return Rating(mu=r.mu, sigma=sigma, games=r.games)


# ---------------------------------------------------------------------- overall


PRIOR = 1 / SIGMA**2  # the prior's precision


class Part(BaseModel):
    """One chat's share of a player's overall rating in one game: what its games taught
    about him, in OpenSkill's normal terms as information (precision 1/σ² and μ/σ² beyond
    the prior's), how many they were, whom they were against lately, and until when it is
    kept: the retention after his last rated game there, never past the chat's memory."""

    precision: float = 0.0
    info: float = 0.0
    games: int = 0
    recent: list[list[int]] = Field(default_factory=list)  # opponents, oldest first
    until: float = 0.0


class Overall(BaseModel):
    """A player's overall rating in one game: the prior and every kept chat's `Part`
    (chat id -> part; 0: a rating from before the parts were kept). A chat's part goes
    with its memory, and with it what that chat's games did to the rating.

    >>> o = Overall().with_game(-1, Rating(mu=30, sigma=5, games=1), [2], now=0, until=10)
    >>> o = o.with_game(-2, Rating(mu=32, sigma=4, games=2), [3], now=1, until=20)
    >>> r = o.rating(now=5)
    >>> round(r.mu, 6), round(r.sigma, 6), r.games, o.history(now=5)
    (32.0, 4.0, 2, [[2], [3]])
    >>> later = o.rating(now=15)  # chat -1 forgotten: only what chat -2 taught is left
    >>> later.games, round(later.mu, 2), later.sigma > 4
    (1, 31.44, True)
    >>> o.rating(now=25) == Rating(), o.kept(now=5), o.check_at(now=5)
    (True, 15.0, 10.0)
    """

    parts: dict[int, Part] = Field(default_factory=dict)

    def live(self, now: float) -> dict[int, Part]:
        return {c: p for c, p in self.parts.items() if p.until > now}

    def rating(self, now: float) -> Rating:
        live = self.live(now).values()
        precision = max(PRIOR, PRIOR + sum(p.precision for p in live))
        info = MU * PRIOR + sum(p.info for p in live)
        games = sum(p.games for p in live)
        return Rating(mu=info / precision, sigma=1 / math.sqrt(precision), games=games)

    def history(self, now: float) -> list[list[int]]:
        """The opponents of the recent rated games of every kept chat."""
        return [game for p in self.live(now).values() for game in p.recent]

    def with_game(
        self, chat: int, new: Rating, against: list[int], now: float, until: float
    ) -> Overall:
        """After a rated game in `chat`: the rating is `new`, that chat's part changed by
        what the game did (so the other chats' parts stay as they were)."""
        live = self.live(now)
        others = [p for c, p in live.items() if c != chat]
        was = live.get(chat, Part())
        precision = 1 / new.sigma**2
        part = Part(
            precision=precision - PRIOR - sum(p.precision for p in others),
            info=new.mu * precision - MU * PRIOR - sum(p.info for p in others),
            games=was.games + 1,
            recent=[*was.recent, list(against)][-RECENT:],
            until=until,
        )
        return Overall(parts={**live, chat: part})

    def kept(self, now: float) -> float:
        """Seconds until the last part goes (0: nothing kept)."""
        return max((p.until - now for p in self.live(now).values()), default=0.0)

    def check_at(self, now: float) -> float:
        """When the rating next changes by itself: its first part to go."""
        return min((p.until for p in self.live(now).values()), default=now)

    @classmethod
    def load(cls, raw: str | None, now: float, keep: float) -> Overall:
        """A stored overall rating; one of the older format (a plain `Rating`, from before
        the parts were kept) is a part of chat 0, kept `keep` seconds from now."""
        if raw is None:
            return cls()
        if '"parts"' in raw:
            return cls.model_validate_json(raw)
        old = Rating.model_validate_json(raw)
        precision = 1 / old.sigma**2
        part = Part(
            precision=precision - PRIOR,
            info=old.mu * precision - MU * PRIOR,
            games=old.games,
            until=now + keep,
        )
        return cls(parts={0: part})
