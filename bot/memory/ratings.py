"""Ratings: OpenSkill's Plackett–Luce model (the `openskill` package), one rating per
player per game, per chat (by season) and overall.

A rating is (μ, σ) and the number of rated games; it is shown as a conservative score,
`shown` = 1000 + 40·(μ − 3σ): a newcomer (μ 25, σ 25/3) shows 1000. A player with fewer
than `PROVISIONAL` rated games is marked provisional. Only games with two or more humans
are rated, and only their humans (computer seats have negative ids).

    >>> a, b = Rating(), Rating()
    >>> new = rate({1: a, 2: b}, {1: 1, 2: 2})
    >>> new[1].mu > 25 > new[2].mu, new[1].games
    (True, 1)
    >>> shown(Rating())
    1000
"""

from __future__ import annotations

from functools import cache

from openskill.models import PlackettLuce
from pydantic import BaseModel

from games.players import is_computer

MU = 25.0
SIGMA = 25.0 / 3.0
PROVISIONAL = 5  # rated games before a rating is no longer provisional
BASE, SCALE = 1000, 40
WIDEN = SIGMA / 3  # a new season adds this much uncertainty (in quadrature)


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


def rated_players(places: dict[int, int]) -> dict[int, int]:
    """The humans of a game's standings, when there are two or more (else nobody)."""
    humans = {p: place for p, place in places.items() if not is_computer(p)}
    return humans if len(humans) >= 2 else {}


def rate(current: dict[int, Rating], places: dict[int, int]) -> dict[int, Rating]:
    """New ratings of the players of `places` (player -> place, 1 = first; equal places
    are a tie), each one a team of one, as OpenSkill's `rate` with `ranks` says."""
    order = list(places)
    m = model()
    teams = [[m.rating(mu=current[p].mu, sigma=current[p].sigma)] for p in order]
    result = m.rate(teams, ranks=[float(places[p]) for p in order])
    return {
        p: Rating(mu=team[0].mu, sigma=team[0].sigma, games=current[p].games + 1)
        for p, team in zip(order, result, strict=True)
    }


def widened(r: Rating) -> Rating:
    """The rating a new season starts from: the same μ, σ widened (at most the prior's).

    >>> round(widened(Rating(mu=30, sigma=2.0)).sigma, 3)
    3.423
    """
    sigma = min(SIGMA, (r.sigma**2 + WIDEN**2) ** 0.5)
    return Rating(mu=r.mu, sigma=sigma, games=r.games)
