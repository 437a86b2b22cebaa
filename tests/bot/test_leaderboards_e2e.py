"""The overall leaderboard of a game over every chat (`/top <игра> всё`, its memory
bounded) and the season's length set by a chat admin (`/season month|quarter`)."""

from __future__ import annotations

import random

import pytest

from bot.memory.keeper import Keeper, memory_of
from bot.memory.ratings import BOARD_GAMES, BOARD_OPPONENTS, Overall, Rating
from bot.memory.records import BEST, MemoryBackend, RedisBackend
from bot.storage import RedisStore
from fake_telegram import FakeTelegram
from tests.bot.e2e import in_group, running, settings_for
from tests.bot.memory_play import FAST, play_out, recorded, start


async def seasoned(keeper: Keeper, players: list[int]) -> None:
    """Give `players` an overall «Морской крест» rating of ten games against five others,
    played in a chat of their own (-2799): enough to stand on the all-chats board."""
    now, keep = keeper.ctx.clock(), keeper.retention
    for x in players:
        o = Overall()
        for n in range(BOARD_GAMES):
            r = o.rating(now)
            r = Rating(mu=r.mu + 0.5, sigma=r.sigma * 0.9, games=r.games + 1)
            o = o.with_game(-2799, r, [9000 + n % BOARD_OPPONENTS], now, now + keep)
        await keeper.backend.set_overall("sea_cross", {x: (o.model_dump_json(), keep)})


async def test_the_overall_top_names_this_chats_players_and_only_them() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(2701, "Аня"), tg.user(2702, "Борис")
        vika, gosha = tg.user(2703, "Вика"), tg.user(2704, "Гоша")
        ours = tg.group(members=[anna, boris])
        theirs = tg.group(members=[vika, gosha])
        async with running(settings_for(tg, **FAST)) as app:
            keeper = memory_of(app.service.ctx)
            backend = keeper.backend
            await ours.send(boris, "/top крест всё")
            await ours.wait_message(
                lambda m: (
                    "В общем рейтинге «Морской крест» пока никого" in m.content
                    and "рейтинговых игр — от 10, а разных соперников — от 5" in m.content
                ),
                timeout=10,
            )
            await seasoned(keeper, [anna.id, boris.id, vika.id])  # Гоша: one game only
            for chat, (a, b), seed in ((ours, (anna, boris), 1), (theirs, (vika, gosha), 2)):
                players = {a.id: a.full_name, b.id: b.full_name}
                await start(app, chat.id, "sea_cross", players)
                await play_out(app, chat.id, random.Random(seed))
                await recorded(backend, chat.id)

            asked = await ours.send(anna, "/top крест всё")
            top = await ours.wait_message(lambda m: "все чаты" in m.content, after=asked)
            lines = [x for x in top.content.splitlines() if x[:1].isdigit()]
            assert len(lines) == 3, top.content  # Гоша has not played enough
            assert sum("Аня —" in x or "Борис —" in x for x in lines) == 2
            assert sum("Игрок другого чата —" in x for x in lines) == 1
            assert "Вика" not in top.content and "Гоша" not in top.content
            assert "разных соперников — от 5" in top.content

            asked = await ours.send(anna, "/top крест")  # the chat's season: only its own two
            season = await ours.wait_message(lambda m: "сезон" in m.content, after=asked)
            assert "Аня" in season.content and "другого чата" not in season.content


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_the_overall_leaderboard_keeps_its_best_only(kind: str) -> None:
    store = None
    if kind == "memory":
        backend: MemoryBackend | RedisBackend = MemoryBackend()
    else:
        from tests.bot.conftest import REDIS_URL

        if not REDIS_URL:
            pytest.skip("TEST_REDIS_URL is not set")
        store = RedisStore(REDIS_URL, prefix=f"test-best-{random.random()}", ttl_seconds=600)
        backend = RedisBackend(store.client, store.prefix)
    keep = 600
    for batch in range(0, 3 * BEST, 10):
        scores = {p: (500 + p, 1e10 + p) for p in range(batch, batch + 10)}
        await backend.rank("sea_cross", scores, [], keep)
    board = await backend.best("sea_cross", 10 * BEST)
    assert len(board) == BEST
    assert board[0] == (3 * BEST - 1, 500 + 3 * BEST - 1) and board[-1][0] == 2 * BEST
    await backend.rank("sea_cross", {0: (10_000, 5.0)}, [], keep)  # from nowhere to the top
    assert (await backend.best("sea_cross", 1)) == [(0, 10_000)]
    assert await backend.due("sea_cross", 5.0, 10) == [0]  # to look at again by then
    await backend.rank("sea_cross", {}, [0, 3 * BEST - 1], keep)  # taken off
    assert (await backend.best("sea_cross", 1)) == [(3 * BEST - 2, 500 + 3 * BEST - 2)]
    assert await backend.due("sea_cross", 1e12, 1000) == list(range(2 * BEST + 1, 3 * BEST - 1))
    if store is not None:
        assert isinstance(backend, RedisBackend)
        scores_key, check_key = backend.board_keys("sea_cross")
        assert await store.client.zcard(scores_key) == await store.client.zcard(check_key)
        for key in (scores_key, check_key):
            assert 0 < await store.client.ttl(key) <= keep
        await store.client.delete(scores_key, check_key)
        await store.close()


async def test_a_chat_admin_sets_monthly_seasons_and_others_may_not() -> None:
    async with in_group(2801, ["Админ", "Аня"], **FAST, admins=["Админ"]) as group:
        tg, app, chat, (admin, anna) = group
        anna_private = await tg.start_private(anna)  # started: answered in the group still
        await chat.send(anna, "/season month")
        await chat.wait_message(
            lambda m: "Менять длину сезона может только админ" in m.content, timeout=10
        )
        keeper = memory_of(app.service.ctx)
        assert (await keeper.load(chat.id)).length == "quarter"

        await chat.send(admin, "/season месяц")
        told = await chat.wait_message(lambda m: "сезон длится месяц" in m.content, timeout=10)
        doc = await keeper.load(chat.id)
        assert doc.length == "month" and doc.season in told.content
        assert "-Q" not in doc.season

        await chat.send(anna, "/season")
        status = await chat.wait_message(lambda m: "📅 Сезон" in m.content, timeout=10)
        assert not [m for m in anna_private.bot_messages if "Сезон" in m.content]
        assert "(месяц)" in status.content and "/season quarter" in status.content

        await chat.send(admin, "/season quarter")
        await chat.wait_message(lambda m: "сезон длится квартал" in m.content, timeout=10)
        doc = await keeper.load(chat.id)
        assert doc.length == "quarter" and "-Q" in doc.season
