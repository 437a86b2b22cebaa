"""Computer players' randomness is their own (issue 30.3): a decision's seed comes from the
game's seed for its computers (`GameRecord.ai_seed`, drawn with `secrets` when the game
starts and stored with the record), never from the game's seed; a record stored before
the field existed loads, and draws one before its computers' first decision."""

from __future__ import annotations

import json

import games
from bot.app import App
from bot.decisions import Job, seed_for
from bot.service.computers import decision_seed
from bot.storage import GameRecord, MemoryStore, RecordStatus, schema
from fake_telegram import Chat, User
from tests.bot.computers import FAST, add_computers
from tests.bot.e2e import in_group, new_lobby, record, until


def test_the_decision_seed_is_the_computers_own_not_the_games() -> None:
    state = games.get("hypnosia").new([1, -1], seed=3)
    rec = GameRecord(chat_id=-5, uid="a1", game_id="hypnosia", creator=1, seed=3, ai_seed=99)
    for game_seed in (4, 2**127 + 5):
        assert decision_seed(rec.model_copy(update={"seed": game_seed}), state, -1) == (
            decision_seed(rec, state, -1)
        )
    assert decision_seed(rec.model_copy(update={"ai_seed": 100}), state, -1) != (
        decision_seed(rec, state, -1)
    )
    assert decision_seed(rec, state, -1) == seed_for(99, state.version, -1)


def test_an_older_record_without_the_field_loads() -> None:
    old = {"chat_id": -1, "uid": "a1", "game_id": "hypnosia", "creator": 5, "seed": 7}
    rec = schema.load(json.dumps(old).encode())
    assert rec.ai_seed == 0 and rec.seed == 7  # 0: not drawn yet
    assert GameRecord.model_validate_json(rec.model_dump_json()).ai_seed == 0


def spy(app: App, chat: Chat) -> list[tuple[Job, GameRecord]]:
    """Every job sent to the decision processes, with the chat's record as stored then."""
    decisions = app.service.computers.decisions
    real = decisions.decide
    seen: list[tuple[Job, GameRecord]] = []

    async def decide(job: Job) -> str:
        seen.append((job, await record(app, chat)))
        return await real(job)

    decisions.decide = decide  # type: ignore[method-assign]
    return seen


def expected(rec: GameRecord) -> int:
    """The seed the computer's job must carry at the stored state: from `rec.ai_seed`."""
    assert rec.state is not None
    state = games.get(rec.game_id).state_type.model_validate_json(rec.state)
    (seat,) = rec.computers
    return seed_for(rec.ai_seed, state.version, seat)


async def start_with_a_computer(chat: Chat, human: User) -> None:
    lobby = await new_lobby(chat, human, "/new гипнозия")
    await add_computers(chat, human, lobby, "Новичок")
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
    answer = await chat.press(human, lobby, "▶ Начать")
    assert answer.text == "Поехали!", answer


async def test_a_game_draws_its_computers_seed_at_the_start_and_keeps_it() -> None:
    async with in_group(3011, ["Аня"], **FAST) as (_, app, chat, (anna,)):
        jobs = spy(app, chat)
        await start_with_a_computer(chat, anna)
        rec = await record(app, chat)
        assert rec.status == RecordStatus.PLAYING and rec.ai_seed != 0
        drawn = rec.ai_seed

        async def three_decisions() -> bool:
            return len(jobs) >= 3

        await until(three_decisions, 20, "the computer did not decide three times")
        for job, stored in jobs:
            assert stored.ai_seed == drawn  # stored with the record, the same all game
            assert job[4] == expected(stored)


async def test_an_older_record_draws_the_seed_before_its_computers_first_decision() -> None:
    slow = {**FAST, "computer_move_seconds": 60.0}  # the test plays the computer's move
    async with in_group(3021, ["Аня"], **slow) as (tg, app, chat, (anna,)):
        jobs = spy(app, chat)
        await start_with_a_computer(chat, anna)

        async def computers_turn() -> bool:
            return (await record(app, chat)).computer_due is not None

        await until(computers_turn, 20, "the computer's turn did not come")
        await tg.settle()
        rec = await record(app, chat)
        # the record as a bot before issue 30 stored it: no `ai_seed`; the move due now
        old = json.loads(rec.model_dump_json())
        del old["ai_seed"]
        old["computer_due"] = 0.0
        assert isinstance(app.store, MemoryStore)
        app.store.put_raw(chat.id, json.dumps(old))
        assert (await record(app, chat)).ai_seed == 0
        assert not jobs

        assert await app.service.computers.tick(chat.id)
        after = await record(app, chat)
        assert after.ai_seed != 0 and after.version > rec.version  # drawn, stored, moved
        (job, stored), *_ = jobs
        assert stored.ai_seed == after.ai_seed and job[4] == expected(stored)
