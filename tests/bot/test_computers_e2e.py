"""Computer players through the bot (issue 14): the lobby's «🤖 Добавить компьютер», their
moves (paced, batched into one table edit, decided in a worker from the seat's view
only), a seat handed to a computer when a human leaves, a solo game in a private chat,
a restart in the middle of a computer's turn, and a whole game of each of the five games.

The human's own turns are played by his turn timer (`FAST`: 0.2 s, never removed), so
each game runs to its end without a per-game button script.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from typing import Any

import games
from bot.app import App
from bot.decisions import Job
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from tests.bot.computers import FAST, add_computers, finish, places, presses
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

TABLE_EDITS = ("editMessageMedia", "editMessageCaption", "editMessageReplyMarkup")


def spy_jobs(app: App, chats: list[Chat]) -> list[tuple[Job, bool]]:
    """Every job sent to the decision process, and whether it was exactly a deciding
    computer seat's view and legal actions of the stored state of its game (checked as it
    is sent; one game of each kind among `chats`)."""
    decisions = app.service.computers.decisions
    real = decisions.decide
    seen: list[tuple[Job, bool]] = []

    async def decide(job: Job) -> str:
        exact = False
        for chat in chats:
            rec = await record(app, chat)
            if rec.game_id != job[0] or rec.state is None:
                continue
            g = games.get(rec.game_id)
            state = g.state_type.model_validate_json(rec.state)
            exact = any(  # a deciding computer: at a simultaneous decision, any of them
                seat in rec.computers
                and job[2] == g.view(state, seat).model_dump_json()
                and job[3] == [g.encode_action(a) for a in g.legal_actions_for(state, seat)]
                for seat in g.deciders(state)
            )
        seen.append((job, exact))
        return await real(job)

    decisions.decide = decide  # type: ignore[method-assign]
    return seen


THREE = ("Новичок", "Опытный", "Новичок")
GAMES = [  # the command, the shortest length (None: the only one), the computers seated
    ("семидорожник", "Один кон", ("Опытный",)),  # its one round is long: one computer
    ("захват", None, THREE),
    ("крест", None, THREE),
    ("гипнозия", None, THREE),
    ("доминас", "1 партия", THREE),
]


async def play_to_the_end(
    app: App, chat: Chat, human: User, game: str, length: str | None, *levels: str
) -> None:
    lobby = await new_lobby(chat, human, f"/new {game}")
    if chat.type == "private":
        assert "добавьте компьютер" in lobby.content, lobby.content
    if length is not None:
        await chat.press(human, lobby, contains=length)
    await add_computers(chat, human, lobby, *levels)
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
    answer = await chat.press(human, lobby, "▶ Начать")
    assert answer.text == "Поехали!", answer
    placing = None
    if game == "доминас":
        placing = asyncio.ensure_future(places(app, chat, human))
    elif chat.type == "private":  # solo: no turn timer plays for him
        placing = asyncio.ensure_future(presses(app, chat, human))
    try:
        rec = await finish(app, chat, timeout=90)
    finally:
        if placing is not None:
            placing.cancel()
    assert rec.status == RecordStatus.OVER, (game, rec.end_reason)
    assert rec.with_computers and len(rec.computers) == len(levels)
    final = await chat.wait_message(lambda m: "с компьютером" in m.content, after=0)
    assert "1." in final.content or "окончена" in final.content, final.content


async def test_a_human_and_three_computers_finish_each_game_solo_in_private_too() -> None:
    """Each of the five games, one human and three computer players (one in «Семидорожник»,
    whose single round is long; the lobby test seats
    a «мастер», who searches up to 300 ms a decision), runs to its end through the bot,
    at once in five chats — «Гипнозия» solo in the human's private chat. Every decision
    was sent to the worker as five plain values, exactly the acting seat's view and legal
    actions, never the state; the standings say the game was played with computers."""
    async with FakeTelegram() as tg:
        names = ["Аня", "Борис", "Вика", "Гоша", "Дина"]
        humans = [tg.user(1411 + i, name) for i, name in enumerate(names)]
        async with running(settings_for(tg, **FAST)) as app:
            chats = []
            for (game, _, _), human in zip(GAMES, humans, strict=True):
                solo = game == "гипнозия"
                chats.append(await tg.start_private(human) if solo else tg.group(members=[human]))
            jobs = spy_jobs(app, chats)
            await asyncio.gather(
                *(
                    play_to_the_end(app, chat, human, game, length, *levels)
                    for chat, human, (game, length, levels) in zip(
                        chats, humans, GAMES, strict=True
                    )
                )
            )
            assert {job[0] for job, _ in jobs} == set(games.ids()), "a game had no decision"
            for job, exact in jobs:
                assert [type(x) for x in job] == [str, str, str, list, int], job
                assert exact, job  # the seat's own view and legal actions
            assert {job[1] for job, _ in jobs} <= {"novice", "experienced"}


async def test_lobby_adds_and_removes_computers_and_never_starts_them_alone() -> None:
    async with in_group(1421, ["Аня", "Борис"]) as (_, app, chat, (anna, boris)):
        lobby = await new_lobby(chat, anna, "/new крест")  # «Морской крест»: at most 4 players
        answer = await chat.press(boris, lobby, contains="Добавить компьютер")
        assert answer.show_alert and "создатель" in (answer.text or ""), answer
        await add_computers(chat, anna, lobby, "Опытный", "Мастер")
        rec = await record(app, chat)
        assert all(p < 0 for p in rec.computers) and len(rec.computers) == 2
        await chat.press(anna, lobby, contains="Добавить компьютер")
        await chat.wait_for(lambda: "✖ 🤖 Робот-мастер" in lobby.button_texts, timeout=10)
        answer = await chat.press(anna, lobby, "🤖 Опытный")  # the last free seat
        await chat.wait_for(lambda: "🤖 Робот-опытный ²" in lobby.content, timeout=10)
        assert "🤖 Робот-опытный ¹" in lobby.content, lobby.content  # two alike: numbered
        assert "🤖 Новичок" not in lobby.button_texts  # no seat is free
        answer = await chat.press(boris, lobby, contains="Играть")
        assert answer.show_alert and "Мест нет" in (answer.text or ""), answer
        answer = await chat.press(anna, lobby, "✖ 🤖 Робот-мастер")
        assert "ушёл" in (answer.text or ""), answer
        await chat.wait_for(lambda: "Робот-мастер" not in lobby.content, timeout=10)
        answer = await chat.press(boris, lobby, contains="Играть")
        assert answer.text == "Вы в игре!", answer
        assert len((await record(app, chat)).computers) == 2
        await chat.press(anna, lobby, contains="Назад")
        # both humans leave: the computers stay, and the lobby refuses to start
        await chat.wait_for(lambda: "🚪 Выйти" in lobby.button_texts, timeout=10)
        await chat.press(boris, lobby, "🚪 Выйти")
        await chat.press(anna, lobby, "🚪 Выйти")
        await chat.wait_for(lambda: "Одни компьютеры" in lobby.content, timeout=10)
        rec = await record(app, chat)
        assert rec.status == RecordStatus.LOBBY and rec.creator == anna.id
        answer = await chat.press(anna, lobby, "▶ Начать")
        assert answer.show_alert and "нужен хотя бы один человек" in (answer.text or "")
        assert (await record(app, chat)).status == RecordStatus.LOBBY


def mover(text: str) -> str:
    match = re.search(r"Ходит \S+ (.+?):", text)
    return match.group(1) if match else ""


def caption(call: Any) -> str:
    media = call.params.get("media")
    inner = media.get("caption") if isinstance(media, dict) else None
    return re.sub(r"<[^>]+>", "", str(call.params.get("caption") or inner or ""))


async def test_a_run_of_computer_turns_is_paced_and_costs_one_table_edit() -> None:
    """«Захват клеток», Аня and two computers, each computer's turn about a second after
    the turn passed to it: between two of Аня's turns (played by her timer) the table
    shows the state after her move and then the state after both computers' turns —
    never the one between them."""
    async with in_group(1431, ["Аня"], turn_seconds=0.3, timeouts_before_removal=10**6) as group:
        tg, app, chat, (anna,) = group
        computers = app.service.computers
        real = computers._apply
        applied: list[tuple[float, int]] = []  # when each computer action was applied

        async def apply(chat_id: int, version: int, seat: int, code: str) -> bool:
            done = await real(chat_id, version, seat, code)
            if done:
                applied.append((time.monotonic(), seat))
            return done

        computers._apply = apply  # type: ignore[method-assign]
        lobby = await new_lobby(chat, anna, "/new захват")
        await add_computers(chat, anna, lobby, "Новичок", "Новичок")
        await chat.press(anna, lobby, "▶ Начать")
        table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        # a run of two computer turns or more between two of hers (the order changes
        # every round): her turn is played by her timer, then the computers'
        for _ in range(8):
            await chat.wait_for(lambda: mover(table.content) == "Аня", timeout=15)
            mark, marked = len(tg.calls(chat_id=chat.id)), time.monotonic()
            await chat.wait_for(lambda: "Робот" in mover(table.content), timeout=10)
            await chat.wait_for(lambda: mover(table.content) == "Аня", timeout=15)
            end = len(tg.calls(chat_id=chat.id))  # (her timer plays on 0.3 s later)
            run = [(at, seat) for at, seat in applied if at >= marked]
            starts = [at for i, (at, seat) in enumerate(run) if i == 0 or run[i - 1][1] != seat]
            if len(starts) >= 2:
                break
        else:
            raise AssertionError("no run of two computer turns")
        edits = [c for c in tg.calls(chat_id=chat.id)[mark:end] if c.method in TABLE_EDITS]
        shown = [mover(caption(c)) for c in edits if mover(caption(c))]
        assert len(set(shown)) == 2, shown  # after her move; after the whole run
        gaps = [b - a for a, b in itertools.pairwise(starts)]
        assert all(0.9 <= gap <= 3.0 for gap in gaps), gaps  # a second a turn
        # the run's own edits: its one table update (a picture late under load comes
        # as a second call, after the caption's)
        after_run = [c.method for c in edits if mover(caption(c)) in ("Аня", "")]
        assert 1 <= len(after_run) <= 2, [c.method for c in edits]


async def test_a_leaving_player_is_replaced_by_a_computer_when_another_agrees() -> None:
    async with in_group(
        1441, ["Аня", "Борис"], turn_seconds=0, computer_move_seconds=0.05, replace_seconds=60
    ) as (_, app, chat, (anna, boris)):
        lobby = await new_lobby(chat, anna, "/new гипнозия")
        await chat.press(boris, lobby, contains="Играть")
        await add_computers(chat, anna, lobby, "Новичок")
        await chat.press(anna, lobby, "▶ Начать")
        await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        question = await leave_question(chat, boris)
        await chat.press(boris, question, contains="Да")
        await chat.wait_for(lambda: "Заменить компьютером" in " ".join(question.button_texts), 10)
        rec = await record(app, chat)
        assert boris.id in rec.vacated and rec.computers[boris.id] == "novice"
        answer = await chat.press(boris, question, contains="Заменить")
        assert answer.show_alert and "оставшиеся" in (answer.text or ""), answer
        answer = await chat.press(anna, question, contains="Заменить")
        assert answer.text == "Место занял компьютер.", answer
        await chat.wait_for(lambda: "занял 🤖 Робот-опытный" in question.content, 10)
        rec = await record(app, chat)
        assert rec.computers[boris.id] == "experienced" and not rec.vacated
        assert rec.with_computers
        g = games.get(rec.game_id)
        assert rec.state is not None
        assert boris.id in g.state_type.model_validate_json(rec.state).players


async def test_a_seat_nobody_hands_to_a_computer_leaves_by_the_rules() -> None:
    """Nobody presses «🤖 Заменить компьютером» within a minute: the engine's `remove`
    (the spec's "Leaving" rule) applies, as for any player who leaves (in a game of humans
    only too: tests/bot/test_replace_e2e.py)."""
    async with in_group(
        1451,
        ["Аня", "Борис", "Вика"],
        turn_seconds=0,
        computer_move_seconds=0.05,
        replace_seconds=60,
    ) as (_, app, chat, (anna, boris, vika)):
        lobby = await new_lobby(chat, anna, "/new гипнозия")
        await chat.press(boris, lobby, contains="Играть")
        await chat.press(vika, lobby, contains="Играть")
        await add_computers(chat, anna, lobby, "Новичок")
        await chat.press(anna, lobby, "▶ Начать")
        await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        question = await leave_question(chat, vika)
        await chat.press(vika, question, contains="Да")
        await chat.wait_for(lambda: "Заменить компьютером" in " ".join(question.button_texts), 10)
        [offer] = data_of(question)
        app.service.clock = lambda: time.time() + 61  # a minute on

        async def removed() -> bool:
            rec = await record(app, chat)
            return not rec.vacated and vika.id not in rec.computers

        app.service.deadlines.wake.set()
        await until(removed, 10, "the vacated seat was not freed")
        await chat.wait_for(lambda: not question.button_texts)  # the offer is closed
        assert "место освободилось по правилам игры" in question.content, question.content
        answer = await chat.press(boris, question, by_data=offer, check=False)  # a late one
        assert answer.show_alert and "Поздно" in (answer.text or ""), answer


async def test_a_restart_in_the_middle_of_a_computers_turn_goes_on(redis_url: str) -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(1461, "Аня")
        chat = tg.group(members=[anna])
        settings = settings_for(tg, redis_url, turn_seconds=0.2, timeouts_before_removal=10**6)
        async with running(settings) as app:
            lobby = await new_lobby(chat, anna, "/new гипнозия")
            await add_computers(chat, anna, lobby, "Новичок")
            await chat.press(anna, lobby, "▶ Начать")

            async def computer_due() -> bool:
                rec = await record(app, chat)
                return rec.computer_due is not None and rec.computer_due > time.time() + 0.3

            await until(computer_due, 15, "no computer turn came")
            before = await record(app, chat)
        # stopped while the computer's move was pending: a new process plays it
        async with running(settings) as app:

            async def moved() -> bool:
                rec = await record(app, chat)
                return rec.version > before.version and rec.state != before.state

            await until(moved, 15, "the computer's turn did not go on after the restart")
            rec = await record(app, chat)
            assert rec.status in (RecordStatus.PLAYING, RecordStatus.OVER)
