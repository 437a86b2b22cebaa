"""Ratings and seasons of the group's memory (bot/memory/ratings.py, seasons.py)."""

from __future__ import annotations

import datetime as dt

from openskill.models import PlackettLuce

from bot.memory.ratings import SIGMA, Rating, rate, rated_players, shown, widened
from bot.memory.seasons import Standing, carried_over, leaders, season_of, summarise


def test_ratings_follow_openskill_plackett_luce_for_a_known_sequence() -> None:
    games = [{1: 1, 2: 2, 3: 3}, {2: 1, 1: 2}, {3: 1, 1: 2, 2: 2}, {1: 1, 3: 2}]
    ours = {p: Rating() for p in (1, 2, 3)}
    model = PlackettLuce()
    theirs = {p: model.rating() for p in (1, 2, 3)}
    for places in games:
        ours.update(rate(ours, places))
        order = list(places)
        new = model.rate([[theirs[p]] for p in order], ranks=[float(places[p]) for p in order])
        theirs.update({p: team[0] for p, team in zip(order, new, strict=True)})
    for p in (1, 2, 3):
        assert abs(ours[p].mu - theirs[p].mu) < 1e-9 and abs(ours[p].sigma - theirs[p].sigma) < 1e-9
    assert [ours[p].games for p in (1, 2, 3)] == [4, 3, 3]
    assert shown(ours[1]) > shown(ours[2])  # first twice, second twice


def test_shown_score_provisional_and_computers_never_rated() -> None:
    assert (
        shown(Rating()) == 1000 and Rating(games=4).provisional and not Rating(games=5).provisional
    )
    assert rated_players({1: 1, -1: 2}) == {}  # one human and a computer: unrated
    assert rated_players({1: 1, -1: 2, 2: 3}) == {1: 1, 2: 3}
    assert widened(Rating(sigma=1.0)).sigma > 1.0 and widened(Rating()).sigma == SIGMA


def test_seasons_over_simulated_months() -> None:
    days = [dt.datetime(2026, m, 15, tzinfo=dt.UTC).timestamp() for m in (1, 3, 4, 7, 12)]
    assert [season_of(d) for d in days] == ["2026-Q1", "2026-Q1", "2026-Q2", "2026-Q3", "2026-Q4"]
    assert season_of(days[1], "month") == "2026-03"
    table = {
        1: Standing(rating=Rating(mu=32, sigma=2, games=9), games=9),
        2: Standing(rating=Rating(mu=28, sigma=2, games=12), games=12, start=1200),
        3: Standing(rating=Rating(mu=40, sigma=5, games=2), games=2),  # provisional
        4: Standing(rating=Rating(mu=45, sigma=2, games=8), games=8),  # hidden
    }
    assert [p for p, _ in leaders(table, {4})] == [1, 2, 3]
    s = summarise("2026-Q1", {"hypnosia": table}, {4})
    assert s.leaders["hypnosia"][0] == (1, shown(table[1].rating))
    assert s.most_games == (2, 12)
    assert s.best_climb == (1, "hypnosia", 1040)  # 1000 -> 2040
    nxt = carried_over({"hypnosia": table})["hypnosia"]
    assert nxt[1].games == 0 and nxt[1].rating.mu == 32 and nxt[1].rating.sigma > 2
    assert nxt[1].start == shown(nxt[1].rating)
