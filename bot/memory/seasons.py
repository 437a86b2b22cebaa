"""Seasons: a chat's ratings run by calendar quarter (or month, a chat setting).

    >>> import datetime as dt
    >>> when = dt.datetime(2026, 12, 2, tzinfo=dt.UTC).timestamp()
    >>> season_of(when), season_of(when, "month")
    ('2026-Q4', '2026-12')

At the first finished game (or the first look at the chat's memory) after a season's end
the season is closed (`close`): its summary — the champion of each game, who played the
most, the best climb — is kept (all seasons, `TOP` lines each) and told to the chat, and
the new season starts from every rating widened (bot/memory/ratings.py).
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from bot.memory.ratings import Rating, shown, widened

LENGTHS = ("quarter", "month")
TOP = 3  # leaders kept per game in a closed season's summary


def season_of(when: float, length: str = "quarter") -> str:
    d = dt.datetime.fromtimestamp(when, dt.UTC)
    if length == "month":
        return f"{d.year}-{d.month:02d}"
    return f"{d.year}-Q{(d.month - 1) // 3 + 1}"


class Standing(BaseModel):
    """A player's season in one game."""

    rating: Rating = Field(default_factory=Rating)
    start: int = 1000  # his shown score when the season began (for the climb)
    games: int = 0  # games of the season, rated or not


class Summary(BaseModel):
    """A closed season: its id, the leaders per game, the most games, the best climb."""

    season: str
    leaders: dict[str, list[tuple[int, int]]] = Field(default_factory=dict)  # game -> (pid, score)
    most_games: tuple[int, int] | None = None  # (pid, games)
    best_climb: tuple[int, str, int] | None = None  # (pid, game, points)


def leaders(
    table: dict[int, Standing], hidden: set[int], limit: int | None = None
) -> list[tuple[int, int]]:
    """(player, shown score) of one game, best first: established ratings before
    provisional ones, hidden players left out."""
    rows = [(p, s) for p, s in table.items() if p not in hidden and s.rating.games > 0]
    rows.sort(key=lambda x: (x[1].rating.provisional, -shown(x[1].rating)))
    return [(p, shown(s.rating)) for p, s in rows[:limit]]


def summarise(season: str, ratings: dict[str, dict[int, Standing]], hidden: set[int]) -> Summary:
    out = Summary(season=season)
    played: dict[int, int] = {}
    climb: tuple[int, str, int] | None = None
    for game, table in ratings.items():
        top = leaders(table, hidden, TOP)
        if top:
            out.leaders[game] = top
        for p, s in table.items():
            if p in hidden or not s.games:
                continue
            played[p] = played.get(p, 0) + s.games
            up = shown(s.rating) - s.start
            if s.rating.games and (climb is None or up > climb[2]):
                climb = (p, game, up)
    if played:
        best = max(played.items(), key=lambda x: x[1])
        out.most_games = best
    if climb is not None and climb[2] > 0:
        out.best_climb = climb
    return out


def carried_over(ratings: dict[str, dict[int, Standing]]) -> dict[str, dict[int, Standing]]:
    """The next season's tables: each rating widened, its games of the season at 0."""
    new: dict[str, dict[int, Standing]] = {}
    for game, table in ratings.items():
        new[game] = {}
        for p, s in table.items():
            r = widened(s.rating)
            new[game][p] = Standing(rating=r, start=shown(r))
    return new
