"""The group's memory through the bot (issue 15): every finished game is recorded and
replays to its final state; a game of two humans changes their ratings and the final
standings say how; /top, /stats, /history, /notify; the bound per chat."""

from __future__ import annotations

import random

import pytest

from bot.memory.keeper import memory_of
from bot.memory.records import FULL, GameEntry, MemoryBackend, RedisBackend
from bot.memory.steps import start_of
from bot.storage import RecordStatus, RedisStore
from fake_telegram import FakeTelegram
from games.replay import replay
from tests.bot.e2e import in_group, running, settings_for
from tests.bot.memory_play import FAST, play_out, recorded, start

GAMES = {  # game -> (players, the lobby's shortest option)
    "seven_tracks": (2, "r1"),
    "cell_capture": (3, ""),
    "sea_cross": (2, ""),
    "hypnosia": (2, ""),
    "dominas": (2, "m1"),
}
NAMES = ["Аня", "Борис", "Вика"]


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_finished_game_is_recorded_and_replays_to_its_final_state(game: str) -> None:
    n, option = GAMES[game]
    async with FakeTelegram() as tg:
        users = [tg.user(2100 + i, NAMES[i]) for i in range(n)]
        chat = tg.group(members=users)
        async with running(settings_for(tg, **FAST)) as app:
            await start(app, chat.id, game, {u.id: u.full_name for u in users}, option)
            # ДОМИНА*С: a timed-out turn is a pass (R27), so a player who never places
            # again can hold a game with an empty bazaar forever (R28: the bot removes
            # him, never in this test); he keeps pressing there
            presses = 10**6 if game == "dominas" else 120
            rec = await play_out(app, chat.id, random.Random(15), presses=presses)
            assert rec.status == RecordStatus.OVER
            keeper = memory_of(app.service.ctx)
            [raw] = await recorded(keeper.backend, chat.id)
            entry = GameEntry.model_validate_json(raw)
            assert entry.uid == rec.uid and entry.game_id == game
            assert sorted(x for x, _, _ in entry.standings) == sorted(u.id for u in users)
            assert entry.steps is not None and entry.length > 10
            begin = start_of(entry.steps)
            assert begin["players"] == rec.players and begin["seed"] == rec.seed
            final = replay(game, begin["players"], begin["seed"], begin["options"], entry.steps[1:])
            assert final.model_dump_json() == rec.state


async def test_two_humans_rated_the_standings_show_it_and_the_commands_answer() -> None:
    async with in_group(2201, ["Аня", "Борис", "Вика"], **FAST) as group:
        tg, app, chat, (anna, boris, vika) = group
        anna_private = await tg.start_private(anna)  # started, she is still answered here
        vika_private = await tg.start_private(vika)
        asked = await chat.send(vika, "/notify")
        await chat.wait_message(lambda m: "Позову вас" in m.content, after=asked, timeout=10)

        players = {anna.id: "Аня", boris.id: "Борис"}
        await start(app, chat.id, "sea_cross", players)
        rec = await play_out(app, chat.id, random.Random(3))
        final = await chat.wait_message(lambda m: "📈 Рейтинг:" in m.content, after=0)
        assert "Аня +" in final.content or "Борис +" in final.content, final.content
        assert "1-е место в сезоне" in final.content and "→ 1" in final.content
        assert "(предварительный)" in final.content  # one rated game so far

        asked = await chat.send(anna, "/top")
        top = await chat.wait_message(lambda m: "🏆" in m.content, after=asked, timeout=10)
        winner = next(x for x, place, _ in _standings(app, rec) if place == 1)
        assert f"1. {players[winner]} — " in top.content and "предв." in top.content
        asked = await chat.send(anna, "/stats")
        stats = await chat.wait_message(lambda m: "📊" in m.content, after=asked, timeout=10)
        assert (
            "Аня" in stats.content
            and "1 игра" in stats.content
            and "Морской крест" in stats.content
        )
        asked = await chat.send(anna, "/history")
        history = await chat.wait_message(
            lambda m: "Последние игры" in m.content, after=asked, timeout=10
        )
        assert not [m for m in anna_private.bot_messages if "📊" in m.content]
        assert "№1 · Морской крест" in history.content

        await chat.send(boris, "/notify")  # he never started the bot
        told = await chat.wait_message(lambda m: "нажмите «Старт»" in m.content, timeout=10)
        assert "?start=notify" in told.content
        await chat.send(anna, "/new")  # a lobby opens: Вика is called in private
        call = await vika_private.wait_message(
            lambda m: "открыта новая игра" in m.content, timeout=10
        )
        assert "Семидорожник" in call.content or "Морской" in call.content


def _standings(app: object, rec: object) -> list[tuple[int, int, int]]:
    from bot.app import App
    from bot.storage import GameRecord

    assert isinstance(app, App) and isinstance(rec, GameRecord) and rec.state is not None
    p = app.service.presenter(rec.game_id)
    return [(s.player, s.place, s.score) for s in p.game.result(p.load(rec.state)).standings]


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_a_chat_keeps_its_last_games_in_full_and_older_ones_as_lines(kind: str) -> None:
    if kind == "memory":
        backend: MemoryBackend | RedisBackend = MemoryBackend()
    else:
        from tests.bot.conftest import REDIS_URL

        if not REDIS_URL:
            pytest.skip("TEST_REDIS_URL is not set")
        store = RedisStore(REDIS_URL, prefix="test-memory-bound", ttl_seconds=600)
        backend = RedisBackend(store.client, store.prefix)
        await store.client.delete(backend.key(-5, "games"), backend.key(-5, "lines"))
    for n in range(FULL + 25):
        await backend.push_game(-5, f"game {n}", f"line {n}", 600)
    games, lines = await backend.games(-5, 10_000), await backend.lines(-5, 10_000)
    assert len(games) == FULL and games[0] == f"game {FULL + 24}"
    assert len(lines) == FULL + 25 and lines[-1] == "line 0"
    if kind == "redis":
        assert isinstance(backend, RedisBackend)
        assert 0 < await store.client.ttl(backend.key(-5, "games")) <= 600
        await store.close()
