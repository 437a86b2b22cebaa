"""Ratings measure play, not persistence (issue 30, points 5–7): an instant forfeit is not
rated, two accounts that only ever play each other climb far less and never reach the
all-chats leaderboard, a computer's seat leaves the humans rated among themselves,
ДОМИНА*С's teams are rated as teams, an assisted player is not rated, and a chat's part of
the overall ratings goes with the chat's memory (both stores).

The keeper (bot/memory/keeper.py) is driven directly: each game is a finished record with
its standings as the engine would give them, so a few dozen games take milliseconds."""

from __future__ import annotations

import secrets
from types import SimpleNamespace
from typing import Any, cast

from pydantic import BaseModel

from bot.memory import ratings as rt
from bot.memory.keeper import Keeper, mark_assisted, memory_of
from bot.memory.ratings import Overall, Rating, rate, shown
from bot.memory.records import (
    CUT_SHORT,
    RATED_HUMANS,
    RATED_TEAMS,
    TOO_FEW,
    GameEntry,
    RedisBackend,
)
from bot.service.context import Context
from bot.storage import GameRecord, MemoryStore, RecordStatus, RedisStore, Store
from games.protocol import Result, Standing
from locales import get_translator
from tests.bot.e2e import in_group
from tests.bot.memory_play import FAST, recorded, start

DAY = 86400.0
START = '~n{"players":[],"seed":1,"options":null}'
PLAYED = [START] + ["R"] * 300  # a complete game (its last step is a move)


class Finished(BaseModel):
    """A finished game's state as the fake engine keeps it: seats, places, sides."""

    players: list[int]
    places: list[int]
    side_of: list[int] | None = None


class _Game:
    def is_over(self, state: Finished) -> bool:
        return True

    def result(self, state: Finished) -> Result:
        rows = zip(state.players, state.places, strict=True)
        standings = [Standing(player=p, place=place, score=10 - place) for p, place in rows]
        return Result(standings=standings, winners=[])


class _Presenter:
    title_key = "game.sea_cross.title"

    def __init__(self) -> None:
        self.game = _Game()

    def load(self, raw: str) -> Finished:
        return Finished.model_validate_json(raw)


async def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


class Memory:
    """A keeper on `store` with a clock of its own; `play` records one finished game."""

    def __init__(self, store: Store, retention_days: float = 180.0) -> None:
        self.now = 1_800_000_000.0
        ctx = SimpleNamespace(
            store=store,
            settings=SimpleNamespace(memory_retention_days=retention_days),
            presenters={g: _Presenter() for g in ("sea_cross", "dominas")},
            t=lambda lang=None: get_translator(lang or "ru"),
            clock=lambda: self.now,
            spawn=lambda coro: coro.close(),
            send=_nothing,
        )
        self.keeper = Keeper(cast(Context, ctx))

    async def play(
        self,
        chat: int,
        places: dict[int, int],
        *,
        game: str = "sea_cross",
        steps: list[str] | None = None,
        computers: dict[int, str] | None = None,
        assisted: tuple[int, ...] = (),
        side_of: list[int] | None = None,
    ) -> tuple[GameEntry, list[str]]:
        self.now += 60
        players = list(places)
        state = Finished(players=players, places=list(places.values()), side_of=side_of)
        rec = GameRecord(
            chat_id=chat,
            uid=secrets.token_hex(6),
            game_id=game,
            status=RecordStatus.OVER,
            creator=players[0],
            players=players,
            names={p: f"Игрок{p}" for p in players if p > 0},
            state=state.model_dump_json(),
            steps=list(PLAYED if steps is None else steps),
            computers=dict(computers or {}),
            with_computers=bool(computers),
        )
        for p in assisted:
            mark_assisted(rec, p)
        lines = await self.keeper.finish(rec)
        [raw] = await self.keeper.backend.games(chat, 1)
        entry = GameEntry.model_validate_json(raw)
        assert entry.uid == rec.uid
        return entry, lines

    async def overall(self, player: int, game: str = "sea_cross") -> Overall:
        raw = await self.keeper.backend.overall(game, [player], self.keeper.retention)
        return Overall.load(raw.get(player), self.now, self.keeper.retention)


# ---------------------------------------------------------------------- (a) forfeits


async def test_an_instant_forfeit_is_not_rated_and_a_leave_after_a_real_share_is() -> None:
    m = Memory(MemoryStore())
    entry, lines = await m.play(-1, {1: 1, 2: 2}, steps=[START, "R", "~r2"])
    assert entry.rating == CUT_SHORT and not entry.changes
    assert lines == [get_translator("ru")("ratings.unrated_short")]
    assert "не сыграно и четверти обычной партии" in lines[0]
    assert not (await m.keeper.load(-1)).ratings.get("sea_cross")
    assert (await m.overall(1)).rating(m.now) == Rating()
    # timed-out turns are no moves: a partner who sat it out, then was removed, is the same
    idle = [START, "R", "R", *["~t"] * 60, "~r2"]
    entry, _ = await m.play(-1, {1: 1, 2: 2}, steps=idle)
    assert entry.rating == CUT_SHORT and not entry.changes
    # a quarter of a typical «Морской крест» (100 steps a player) played, then a leave: rated
    share = [START, *["R"] * 50, "~r2"]
    entry, lines = await m.play(-1, {1: 1, 2: 2}, steps=share)
    assert entry.changes[1].delta > 0 > entry.changes[2].delta
    assert lines[0] == "📈 Рейтинг:"


async def test_through_the_bot_a_leave_right_after_the_start_is_not_rated() -> None:
    """The farm of issue 30: a game of two opened and left at once (the seat freed at once,
    `REPLACE_SECONDS` 0): the standings say it is not rated, and nobody's rating moved."""
    async with in_group(3901, ["Аня", "Борис"], **FAST, replace_seconds=0.0) as group:
        _, app, chat, (anna, boris) = group
        await start(app, chat.id, "sea_cross", {anna.id: "Аня", boris.id: "Борис"})
        await chat.send(boris, "/leave")
        question = await chat.wait_message(lambda m: "выйти из игры?" in m.content)
        answer = await chat.press(boris, question, "Да, выйти")
        assert answer.text == "Вы вышли из игры.", answer
        final = await chat.wait_message(lambda m: "Игра окончена!" in m.content, timeout=15)
        assert "📈 Без рейтинга: игра закончилась уходом игрока" in final.content, final.content
        keeper = memory_of(app.service.ctx)
        [raw] = await recorded(keeper.backend, chat.id)
        entry = GameEntry.model_validate_json(raw)
        assert entry.rating == CUT_SHORT and not entry.changes
        assert entry.steps is not None and entry.steps[-1] == f"~r{boris.id}"
        assert not (await keeper.load(chat.id)).ratings.get("sea_cross")


# ---------------------------------------------------------------------- (b), (c) farming


async def test_two_accounts_farming_each_other_climb_far_less_and_never_reach_the_board(
    store: Store,
) -> None:
    m = Memory(store)
    # a real community: six players, every pair twice (each plays 10 games against 5)
    people = list(range(11, 17))
    for n, (a, b) in enumerate([(a, b) for _ in range(2) for a in people for b in people if a < b]):
        winner, loser = (a, b) if (a + b + n) % 3 else (b, a)
        await m.play(-100, {winner: 1, loser: 2})
    board = await m.keeper.overall_board("sea_cross", 10)
    assert len(board) == 6, board  # all six stand on it
    # the farm: account 901 wins 20 complete games against account 902, in a chat of theirs
    for _ in range(20):
        entry, lines = await m.play(-200, {901: 1, 902: 2})
    assert entry.changes[901].damped and "мало разных соперников" in lines[1]
    farmed = shown((await m.overall(901)).rating(m.now))
    # before: every game a full OpenSkill update
    old = {901: Rating(), 902: Rating()}
    for _ in range(20):
        old = rate(old, {901: 1, 902: 2})
    before = shown(old[901])
    assert (before, farmed) == (1846, 1366)  # a climb of 846 points before, 366 now
    assert farmed - 1000 < (before - 1000) / 2
    assert farmed < board[0][1] and before > board[0][1]  # before: at the top of the board
    board = await m.keeper.overall_board("sea_cross", 10)
    assert 901 not in dict(board) and 902 not in dict(board) and len(board) == 6
    # the chat's season rating climbs as slowly
    season = (await m.keeper.load(-200)).ratings["sea_cross"]
    assert shown(season[901].rating) == farmed
    # a regular with an account of his own to beat: his varied games elsewhere do not
    # lift the damping (the account only ever plays him)
    regular = (await m.overall(11)).rating(m.now)
    for _ in range(20):
        entry, _ = await m.play(-300, {11: 1, 903: 2})
    assert entry.changes[11].damped
    gained = shown((await m.overall(11)).rating(m.now)) - shown(regular)
    full = {11: regular, 903: Rating()}
    for _ in range(20):
        full = rate(full, {11: 1, 903: 2})
    assert (shown(regular), gained, shown(full[11]) - shown(regular)) == (1572, 164, 448)


def test_damping_and_the_board_rule_over_a_players_recent_games() -> None:
    assert rt.damping([], [2]) == 1.0 and rt.damping([[2]] * 19, [2]) == 1 / 20
    assert rt.damping([[2], [3]], [2]) == 2 / 3  # three friends: two thirds
    assert rt.damping([[2], [3], [4]], [2]) == 1.0  # four friends: full speed
    assert rt.damping([[2, 3]], [2, 3, 4]) == 1.0  # a table of four at once
    many = [[q] for q in range(2, 7)] * 2
    assert rt.on_board(Rating(games=10), many) and not rt.on_board(Rating(games=9), many)
    assert not rt.on_board(Rating(games=50), [[2], [3], [4], [5]] * 5)


# ---------------------------------------------------------------------- (d) computers


async def test_a_computer_in_a_seat_leaves_the_humans_rated_among_themselves() -> None:
    m = Memory(MemoryStore())
    # the computer won; the humans are rated as if it had not played
    entry, lines = await m.play(-1, {-1: 1, 1: 2, 2: 3}, computers={-1: "master"})
    new = rate({1: Rating(), 2: Rating()}, {1: 1, 2: 2})
    table = (await m.keeper.load(-1)).ratings["sea_cross"]
    assert table[1].rating == new[1] and table[2].rating == new[2] and -1 not in table
    assert entry.rating == RATED_HUMANS and set(entry.changes) == {1, 2} and entry.computers
    assert lines[0] == "📈 Рейтинг — только между людьми, места компьютеров не в счёт:"
    assert lines[1].startswith("Игрок1 +") and lines[2].startswith("Игрок2 −")
    en = m.keeper.change_lines(entry, get_translator("en"))
    assert en[0] == "📈 Rating — among the humans only; the computers' places do not count:"
    # a human's seat handed to a computer (it keeps his id) is the computer's: ignored
    entry, _ = await m.play(-1, {3: 1, 1: 2, 2: 3}, computers={3: "experienced"})
    assert set(entry.changes) == {1, 2} and entry.changes[1].delta > 0
    stats = (await m.keeper.load(-1)).stats
    assert stats[1]["sea_cross"].games == 2 and stats[3]["sea_cross"].computers == 1
    # one human and a computer: nobody to rate, and the standings say why
    entry, lines = await m.play(-1, {1: 1, -1: 2}, computers={-1: "novice"})
    assert entry.rating == TOO_FEW and not entry.changes
    assert lines == ["📈 Рейтинг не изменился: для него нужны хотя бы двое людей."]
    t = get_translator("ru")
    assert t("computers.final_note") == (
        "🤖 Игра с компьютером: места компьютеров в рейтинге не учитываются."
    )


# ---------------------------------------------------------------------- (e) teams


async def test_dominas_teams_are_rated_as_teams_and_teammates_never_exchange_rating() -> None:
    m = Memory(MemoryStore())
    # before: 1 and 2 are strong, 3 and 4 weak (a game of each for himself)
    await m.play(-1, {1: 1, 2: 1, 3: 3, 4: 3}, game="dominas", side_of=[0, 1, 2, 3])
    table = (await m.keeper.load(-1)).ratings["dominas"]
    before = {p: table[p].rating for p in (1, 2, 3, 4)}
    assert before[1] == before[2] and before[1].mu > before[3].mu
    # teams (seat % 2): 1 with 3, 2 with 4; the team of 1 and 3 wins
    entry, lines = await m.play(-1, {1: 1, 2: 3, 3: 1, 4: 3}, game="dominas", side_of=[0, 1, 0, 1])
    assert entry.rating == RATED_TEAMS and lines[0].startswith("📈 Рейтинг по командам")
    model = rt.model()
    teams = [
        [model.rating(mu=before[p].mu, sigma=before[p].sigma) for p in t] for t in ((1, 3), (2, 4))
    ]
    expected = model.rate(teams, ranks=[1.0, 3.0])
    table = (await m.keeper.load(-1)).ratings["dominas"]
    for team, result in zip(((1, 3), (2, 4)), expected, strict=True):
        for p, r in zip(team, result, strict=True):
            assert (
                abs(table[p].rating.mu - r.mu) < 1e-9
                and abs(table[p].rating.sigma - r.sigma) < 1e-9
            )
    # both winners gain, both losers lose: the weak teammate takes nothing from the strong
    assert all(entry.changes[p].delta > 0 for p in (1, 3))
    assert all(entry.changes[p].delta < 0 for p in (2, 4))


# ---------------------------------------------------------------------- 6. assisted


async def test_an_assisted_player_is_not_rated_and_the_others_still_are() -> None:
    m = Memory(MemoryStore())
    entry, lines = await m.play(-1, {1: 1, 2: 2, 3: 3}, assisted=(1,))
    assert entry.assisted == [1] and set(entry.changes) == {2, 3}
    assert entry.changes[2].delta > 0 > entry.changes[3].delta
    assert lines[-1] == "Без рейтинга — игра с помощью бота (подсказка, отмена хода): Игрок1"
    assert 1 not in (await m.keeper.load(-1)).ratings["sea_cross"]
    # of two, one assisted: nobody left to rate him against
    entry, lines = await m.play(-1, {1: 1, 2: 2}, assisted=(2,))
    assert entry.rating == TOO_FEW and not entry.changes and len(lines) == 2
    rec = GameRecord(chat_id=-1, uid="u", game_id="sea_cross", creator=1, players=[1, 2])
    mark_assisted(rec, 2)
    mark_assisted(rec, 2)
    assert rec.assisted == [2] and GameRecord.model_validate_json(rec.model_dump_json()) == rec


# ---------------------------------------------------------------------- 7. what is kept


async def test_a_chats_part_of_the_overall_rating_goes_with_its_memory(store: Store) -> None:
    m = Memory(store, retention_days=30)
    keep = 30 * DAY
    # player 1 plays ten games in chat -10 against five others: on the all-chats board
    for n in range(10):
        await m.play(-10, {1: 1, 20 + n % 5: 2})
    board = dict(await m.keeper.overall_board("sea_cross", 10))
    assert set(board) == {1}
    # twenty days on, two games in chat -11
    m.now += 20 * DAY
    for _ in range(2):
        await m.play(-11, {1: 1, 30: 2})
    both = (await m.overall(1)).rating(m.now)
    assert both.games == 12
    if isinstance(store, RedisStore):
        backend = m.keeper.backend
        assert isinstance(backend, RedisBackend)
        ttl = await store.client.ttl(backend.overall_key("sea_cross", 1))
        assert keep - 120 < ttl <= keep  # kept as long as its newest part
        assert 0 < await store.client.ttl(backend.overall_key("sea_cross", 20)) <= keep
        for key in backend.board_keys("sea_cross"):
            assert 0 < await store.client.ttl(key) <= keep
    # fifteen days later chat -10's memory is gone: so is its part of 1's rating
    m.now += 15 * DAY
    alone = (await m.overall(1)).rating(m.now)
    assert alone.games == 2 and shown(alone) < shown(both)
    assert (await m.overall(20)).rating(m.now) == Rating()  # nothing left of him
    assert await m.keeper.overall_board("sea_cross", 10) == []  # 1 no longer qualifies
    # a game in chat -11 now rates him from what is kept (chat -11's part only)
    await m.play(-11, {1: 1, 30: 2})
    assert (await m.overall(1)).rating(m.now).games == 3


async def test_an_older_overall_rating_is_read_once_more_and_then_expires(redis_url: str) -> None:
    store = RedisStore(redis_url, prefix=f"test-fair-{secrets.token_hex(4)}", ttl_seconds=600)
    try:
        m = Memory(store, retention_days=30)
        older, best = f"{store.prefix}:mem:rating:sea_cross", f"{store.prefix}:mem:best:sea_cross"
        await store.client.hset(older, "1", Rating(mu=40, sigma=2, games=30).model_dump_json())
        await store.client.zadd(best, {"1": 2000})
        was = (await m.overall(1)).rating(m.now)
        assert round(was.mu, 6) == 40 and was.games == 30
        await m.play(-1, {1: 1, 2: 2})
        assert 0 < await store.client.ttl(older) <= 30 * DAY
        assert 0 < await store.client.ttl(best) <= 30 * DAY
        assert (await m.overall(1)).rating(m.now).games == 31
    finally:
        keys = [k async for k in store.client.scan_iter(match=f"{store.prefix}:*", count=500)]
        for key in keys:
            await store.client.delete(key)
        await store.close()
