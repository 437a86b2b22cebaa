"""A human who leaves a game of humans only may be replaced by a computer (issue 14): his
/leave, confirmed, offers «🤖 Заменить компьютером» to the others; one press by another
player hands the seat to «🤖 Робот-опытный», who plays it to the end, and the game is
one «с компьютером»: the humans still at the table are rated among themselves, the
computer's seat ignored (issue 30). Nobody pressing in time, he is removed by the
game's rules as before and the game stays rated. Two humans: the one left plays on
against the computer, and nobody's rating changes.

The humans' turns are played by their turn timer (0.2 s, never removed), so each game
runs to its end without a per-game button script.
"""

from __future__ import annotations

import time
from typing import Any

from bot.app import App
from bot.decisions import Job
from bot.memory.keeper import memory_of
from bot.memory.records import GameEntry
from bot.service.computers import in_play
from bot.storage import GameRecord, RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.computers import finish
from tests.bot.e2e import (
    data_of,
    in_group,
    leave_question,
    new_lobby,
    record,
    running,
    settings_for,
    until,
)
from tests.bot.memory_play import recorded

TIMERS: dict[str, Any] = {  # the humans' turns are played by their turn timer, quickly
    "turn_seconds": 0.2,
    "timeouts_before_removal": 10**6,
    "computer_move_seconds": 0.0,
    "replace_seconds": 60.0,
}


def spy_levels(app: App) -> list[str]:
    """The level of every job sent to the decision process (computers only send them)."""
    decisions = app.service.computers.decisions
    real = decisions.decide
    levels: list[str] = []

    async def decide(job: Job) -> str:
        levels.append(job[1])
        return await real(job)

    decisions.decide = decide  # type: ignore[method-assign]
    return levels


async def start(chat: Chat, creator: User, *others: User) -> None:
    """A «Морской крест» of humans only, opened by `creator`, joined by `others`."""
    lobby = await new_lobby(chat, creator, "/new крест")
    for user in others:
        await chat.press(user, lobby, contains="Играть")
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
    answer = await chat.press(creator, lobby, "▶ Начать")
    assert answer.text == "Поехали!", answer
    await chat.wait_message(lambda m: m.photo is not None, timeout=10)


async def leave_with_offer(
    app: App, chat: Chat, leaver: User, span: str = "1 минуту"
) -> StoredMessage:
    """`leaver`'s /leave, confirmed: the notice offers «🤖 Заменить компьютером»."""
    question = await leave_question(chat, leaver)
    answer = await chat.press(leaver, question, contains="Да")
    assert answer.text == "Вы вышли из игры.", answer
    await chat.wait_for(lambda: "Заменить компьютером" in " ".join(question.button_texts), 10)
    assert f"через {span} место освободится" in question.content, question.content
    rec = await record(app, chat)
    assert leaver.id in rec.vacated and rec.computers == {leaver.id: "novice"}
    assert not rec.with_computers  # not yet: nobody agreed
    return question


async def entry_of(app: App, chat: Chat, rec: GameRecord) -> GameEntry:
    [raw] = await recorded(memory_of(app.service.ctx).backend, chat.id)
    entry = GameEntry.model_validate_json(raw)
    assert entry.uid == rec.uid
    return entry


async def replaced_game(people: dict[int, str], leaver: int, presser: int) -> None:
    """`leaver` leaves the game of `people` (the first opens it), `presser` hands his seat
    to a computer, which plays it to the end: a game «с компьютером», rated for the
    humans left when two or more are (the computer's seat ignored), else for nobody."""
    async with FakeTelegram() as tg:
        users = [tg.user(uid, name) for uid, name in people.items()]
        chat = tg.group(members=users)
        by_id = {u.id: u for u in users}
        leaver_user, presser_user = by_id[leaver], by_id[presser]
        async with running(settings_for(tg, **TIMERS)) as app:
            levels = spy_levels(app)
            await start(chat, users[0], *users[1:])
            question = await leave_with_offer(app, chat, leaver_user)
            answer = await chat.press(leaver_user, question, contains="Заменить")
            assert answer.show_alert and "оставшиеся" in (answer.text or ""), answer
            answer = await chat.press(presser_user, question, contains="Заменить")
            assert answer.text == "Место занял компьютер.", answer
            await chat.wait_for(lambda: "занял 🤖 Робот-опытный" in question.content, 10)
            rec = await record(app, chat)
            assert rec.computers == {leaver: "experienced"} and not rec.vacated
            assert rec.with_computers

            rec = await finish(app, chat, timeout=120)
            assert rec.status == RecordStatus.OVER, rec.end_reason
            assert rec.computers == {leaver: "experienced"} and rec.with_computers
            assert "experienced" in levels  # the computer chose the seat's moves
            p = app.service.presenter(rec.game_id)
            assert rec.state is not None
            state = p.load(rec.state)
            result = p.game.result(state)
            assert {s.player for s in result.standings} == {u.id for u in users}
            final = await chat.wait_message(
                lambda m: "Игра окончена!" in m.content, after=question, timeout=15
            )
            assert "с компьютером" in final.content, final.content
            assert "📈 Рейтинг:" not in final.content, final.content
            entry = await entry_of(app, chat, rec)
            assert entry.computers and entry.levels == {leaver: "experienced"}
            humans = set(people) - {leaver}
            if len(humans) >= 2:  # rated among themselves, and the standings say so
                assert "📈 Рейтинг — только между людьми" in final.content, final.content
                assert set(entry.changes) == humans
            else:  # nobody's rating changed
                assert "Рейтинг не изменился: для него нужны хотя бы двое" in final.content
                assert not entry.changes


async def test_three_humans_one_leaves_another_hands_his_seat_to_a_computer() -> None:
    await replaced_game({3101: "Аня", 3102: "Борис", 3103: "Вика"}, leaver=3103, presser=3102)


async def test_two_humans_the_one_left_plays_on_against_the_computer() -> None:
    await replaced_game({3201: "Аня", 3202: "Борис"}, leaver=3201, presser=3202)


async def test_nobody_presses_the_seat_is_removed_and_the_game_stays_rated() -> None:
    async with in_group(3301, ["Аня", "Борис", "Вика"], **TIMERS) as group:
        _, app, chat, (anna, boris, vika) = group
        await start(chat, anna, boris, vika)
        question = await leave_with_offer(app, chat, vika)
        [offer_data] = data_of(question)
        app.service.clock = lambda: time.time() + 61  # a minute on, nobody pressed

        async def removed() -> bool:
            rec = await record(app, chat)
            if rec.vacated or vika.id in rec.computers or rec.state is None:
                return False
            p = app.service.presenter(rec.game_id)
            return not in_play(p, p.load(rec.state), vika.id)

        app.service.deadlines.wake.set()
        await until(removed, 15, "the vacated seat was not freed")
        # the offer says so and loses its button by itself; a press already on its
        # way is answered «Поздно»
        await chat.wait_for(lambda: not question.button_texts)
        assert "место освободилось по правилам игры" in question.content, question.content
        answer = await chat.press(boris, question, by_data=offer_data, check=False)
        assert answer.show_alert and "Поздно" in (answer.text or ""), answer

        rec = await finish(app, chat, timeout=120)
        assert rec.status == RecordStatus.OVER and not rec.with_computers
        assert not rec.computers
        final = await chat.wait_message(
            lambda m: "Игра окончена!" in m.content, after=question, timeout=15
        )
        assert "📈 Рейтинг:" in final.content, final.content
        assert "с компьютером" not in final.content, final.content
        entry = await entry_of(app, chat, rec)
        assert not entry.computers and entry.changes


async def test_a_game_that_ends_while_the_novice_plays_the_seat_is_one_with_a_computer() -> None:
    """Nobody pressed, but the game ended before the seat was freed (a long wait): a
    computer played a seat to the end, so the game is not rated either."""
    async with in_group(3401, ["Аня", "Борис"], **{**TIMERS, "replace_seconds": 600}) as group:
        _, app, chat, (anna, boris) = group
        await start(chat, anna, boris)
        question = await leave_with_offer(app, chat, boris, span="10 минут")
        rec = await finish(app, chat, timeout=120)
        assert rec.status == RecordStatus.OVER and rec.with_computers
        assert rec.computers == {boris.id: "novice"} and boris.id in rec.vacated
        final = await chat.wait_message(
            lambda m: "Игра окончена!" in m.content, after=question, timeout=15
        )
        assert "с компьютером" in final.content and "📈 Рейтинг:" not in final.content
        entry = await entry_of(app, chat, rec)
        assert entry.computers and not entry.changes
        await chat.wait_for(lambda: not question.button_texts)  # the offer is over too
        assert "играл робот-новичок" in question.content, question.content

        async def forgotten() -> bool:
            return not (await record(app, chat)).offers

        await until(forgotten, 15, "the record keeps the offer")
