"""Slow games (issue 16, point 3): turn timers of 1, 12 and 24 hours in the lobby; the
turn ping says when the time runs out, a reminder comes before the deadline, and both
survive restarts. A day is not slept through: each new App's clock runs ahead
(`shift`), which the deadline poller and the timers read."""

from __future__ import annotations

import time

from bot import phone
from bot.app import App
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import in_group, new_lobby, record, running, settings_for, until

HOUR = 3600.0
DAY = 24 * HOUR


def shift(app: App, seconds: float) -> None:
    """The bot's clock runs `seconds` ahead of the wall clock from now on."""
    app.service.clock = lambda: time.time() + seconds


def pings_of(chat: Chat, user: User, word: str) -> list[StoredMessage]:
    """The visible messages that mention `user` and say `word`."""
    return [
        m
        for m in chat.bot_messages
        if word in m.content
        and any(e.get("type") == "text_mention" and e["user"]["id"] == user.id for e in m.entities)
    ]


async def kept(app: App, chat: Chat, ping: StoredMessage) -> None:
    """Wait until the record holds `ping` (its message id), so that a restart deletes it."""

    async def holds() -> bool:
        return (await record(app, chat)).ping.get("message") == ping.message_id

    await until(holds, 10, f"ping {ping.message_id} is not in the record")


async def slow_lobby(chat: Chat, people: list[User], timer: str) -> StoredMessage:
    """A cell capture lobby of `people` (the first opens it) with the turn timer `timer`."""
    lobby = await new_lobby(chat, people[0], "/new захват")
    for u in people[1:]:
        await chat.press(u, lobby, contains="Играть")
    answer = await chat.press(people[0], lobby, timer)
    assert not answer.show_alert, answer
    return lobby


async def test_the_lobby_offers_slow_timers_in_rows_that_fit_a_phone() -> None:
    async with in_group(16101, ["Аня", "Борис"]) as (_, _, chat, (anna, boris)):
        lobby = await slow_lobby(chat, [anna, boris], "⏳ 12 ч")
        await chat.wait_for(lambda: "Время на ход: 12 ч" in lobby.content)
        rows = [[b.text for b in row] for row in lobby.buttons]
        assert ["⏱ 2 мин", "⏱ 3 мин", "⏱ 10 мин"] in rows
        assert ["⏳ 1 ч", "✅ 12 ч", "⏳ 24 ч"] in rows
        assert ["⏱ без таймера"] in rows
        for row in rows:  # no label cut on a phone (bot/phone.py)
            assert all(phone.width(x) <= phone.CAP[len(row)] for x in row), row


async def test_a_day_long_turn_pings_reminds_and_times_out_across_restarts(
    redis_url: str,
) -> None:
    async with FakeTelegram() as tg:
        people = [tg.user(16201, "Аня"), tg.user(16202, "Борис"), tg.user(16203, "Вика")]
        chat = tg.group(members=people)
        settings = settings_for(tg, redis_url, timer_poll_seconds=0.1, ping_after_seconds=0.0)
        async with running(settings) as app:
            lobby = await slow_lobby(chat, people, "⏳ 24 ч")
            await chat.wait_for(lambda: "Время на ход: 24 ч" in lobby.content)
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
            await chat.press(people[0], lobby, "▶ Начать")
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=30)
            rec = await record(app, chat)
            assert rec.turn_deadline is not None and rec.turn_id is not None
            assert DAY - 60 < rec.turn_deadline - time.time() <= DAY
            p = app.service.presenters[rec.game_id]
            assert rec.state is not None
            first = p.actor(p.load(rec.state))
            mover = next(u for u in people if u.id == first)
            ping = await chat.wait_for(
                lambda: next(iter(pings_of(chat, mover, "Время выйдет через 24 часа")), None),
                timeout=10,
            )
            await kept(app, chat, ping)  # (the stop below does not wait for the round)
            # the reminder is one of the game's deadlines in the store: an hour before
            assert rec.deadline is not None
            assert abs(rec.deadline - (rec.turn_deadline - HOUR)) < 1
            turn = rec.turn_id

        # a new process 23 hours later: the reminder comes, in the ping's place
        async with running(settings) as app:
            shift(app, DAY - HOUR + 1)
            reminder = await chat.wait_for(
                lambda: next(
                    iter(pings_of(chat, mover, "ещё ждёт: время выйдет через 1 час")), None
                ),
                timeout=15,
            )
            await chat.wait_for(lambda: ping.deleted, timeout=30)
            await kept(app, chat, reminder)
            rec = await record(app, chat)
            assert rec.reminder_turn == turn and rec.status == RecordStatus.PLAYING
            assert rec.deadline is not None and rec.turn_deadline is not None
            assert abs(rec.deadline - rec.turn_deadline) < 1
            await tg.settle(quiet=0.5)
            assert len(pings_of(chat, mover, "ещё ждёт")) == 1  # once

        # another process past the deadline: the timer plays for him, the other is pinged
        async with running(settings) as app:
            shift(app, DAY + 1)
            await chat.wait_for(lambda: "время вышло" in table.content, timeout=30)
            await chat.wait_for(lambda: reminder.deleted, timeout=10)
            rec = await record(app, chat)
            assert rec.state is not None
            after = p.actor(p.load(rec.state))
            assert after is not None and after != mover.id
            other = next(u for u in people if u.id == after)
            await chat.wait_for(
                lambda: pings_of(chat, other, "Время выйдет через 24 часа"), timeout=10
            )
            assert rec.timeouts.get(mover.id) == 1
            assert rec.turn_deadline is not None
            assert rec.turn_deadline - (time.time() + DAY + 1) > DAY - 60


async def test_a_slow_lobby_stays_open_as_long_as_its_timer() -> None:
    async with in_group(16301, ["Аня", "Борис"], timer_poll_seconds=0.1) as group:
        _, app, chat, (anna, boris) = group
        lobby = await slow_lobby(chat, [anna], "⏳ 12 ч")
        await chat.wait_for(lambda: "Время на ход: 12 ч" in lobby.content)
        shift(app, 2 * HOUR)  # a fast lobby would have closed after 30 minutes
        answer = await chat.press(boris, lobby, contains="Играть")
        assert answer.text == "Вы в игре!"
        shift(app, 2 * HOUR + 12 * HOUR + 60)
        await chat.wait_for(lambda: "никто не нажимал кнопок 12 часов" in lobby.content, 10)
