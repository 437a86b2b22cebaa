"""Turn pings (issue 13, bot/service/pings.py) end to end: a mention of the player whose
turn begins, one per turn, deleted after his move; not twice within seconds; off in a
chat; in private by choice; dropped first under the flood budget; the timeout line."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from bot.app import App
from bot.storage import GameRecord, RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import FloodLimit, StoredMessage
from tests.bot.e2e import counted_calls, data_of, in_group, new_lobby, record, window_empty

# pings at once, and a roomy budget: what these tests check is whom a ping goes to (the
# budget's pressure: test_under_flood_pressure_pings_go_first_…)
FAST: dict[str, Any] = {"ping_after_seconds": 0.0, "flood_limit": FloodLimit(1000, 6.0)}
MOVER = re.compile(r"Ходит \S+ (.+?):")


def is_ping(m: StoredMessage) -> bool:
    return m.from_bot and "ваш ход" in (m.text or "").lower()


def pinged(m: StoredMessage) -> int | None:
    """The user a ping mentions (its text_mention entity), else None."""
    for e in m.entities:
        if e.get("type") == "text_mention":
            return int(e["user"]["id"])
    return None


def live_pings(chat: Chat) -> list[StoredMessage]:
    return [m for m in chat.messages if is_ping(m)]


def pings_only(chat: Chat, user: User) -> bool:
    """The one ping in the chat is to `user`."""
    return [pinged(m) for m in live_pings(chat)] == [user.id]


def all_pings(chat: Chat) -> list[StoredMessage]:
    return [m for m in chat.all_messages if is_ping(m)]


def mover(table: StoredMessage, users: dict[str, User]) -> User:
    match = MOVER.search(table.content)
    assert match, table.content
    return users[match.group(1)]


async def start(tg: FakeTelegram, chat: Chat, people: list[User]) -> StoredMessage:
    """A cell capture game of `people` (the first opens it), its table."""
    lobby = await new_lobby(chat, people[0], "/new захват")
    for u in people[1:]:
        await chat.press(u, lobby, contains="Играть")
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
    await chat.press(people[0], lobby, "▶ Начать")
    return await chat.wait_message(lambda m: m.photo is not None, timeout=10)


async def step(chat: Chat, table: StoredMessage, who: User) -> None:
    """One press of the player to move: a sensible button of the cell capture table."""
    label = next(
        x
        for x in table.button_texts
        if x == "✅ Готово" or x.isdigit() or x.startswith(("⚓", "➡️", "⬆️", "⬇️", "⬅️"))
    )
    before = data_of(table)
    answer = await chat.press(who, table, label)
    assert not answer.show_alert, answer
    await chat.wait_for(lambda: data_of(table) != before, 30)


async def until(app: App, chat: Chat, ok: Callable[[GameRecord], bool]) -> GameRecord:
    """The chat's record once `ok` holds for it (polled, 5 s at most)."""
    async with asyncio.timeout(5):
        while not ok(rec := await record(app, chat)):
            await asyncio.sleep(0.02)
    return rec


async def playing(app: App, chat: Chat) -> bool:
    return (await record(app, chat)).status == RecordStatus.PLAYING


async def test_each_turn_of_a_whole_game_pings_its_player_once_and_the_ping_goes(
    redis_url: str,
) -> None:
    async with in_group(5101, ["Аня", "Борис", "Вика"], redis_url=redis_url, **FAST) as group:
        tg, app, chat, people = group
        users = {u.full_name: u for u in people}
        table = await start(tg, chat, people)
        changes = 0
        last: User | None = None
        ping_of_turn: StoredMessage | None = None
        for _ in range(400):
            await tg.settle(quiet=0.02)
            if not await playing(app, chat):
                break
            who = mover(table, users)
            await chat.wait_for(partial(pings_only, chat, who), 30)
            live = live_pings(chat)
            assert who.full_name in live[0].content
            if who is not last:  # a new turn: a new ping, the last one is gone
                changes += 1
                assert ping_of_turn is None or ping_of_turn.deleted
                assert live[0] is not ping_of_turn
                ping_of_turn = live[0]
            else:  # his turn goes on: the same ping, not a second one
                assert live[0] is ping_of_turn
            last = who
            await step(chat, table, who)
        else:
            raise AssertionError("the game did not end")
        await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table)
        await tg.settle(quiet=0.1)
        assert live_pings(chat) == []  # the game is over: the last ping is gone
        sent = all_pings(chat)
        assert len(sent) == changes and changes > 6, (len(sent), changes)
        assert all(m.deleted for m in sent)
        assert (await record(app, chat)).ping.get("message", 0) == 0
        print(f"pings: {len(sent)} for {changes} turn changes, all deleted")


async def test_a_player_at_the_table_is_not_pinged_and_one_who_waits_is() -> None:
    """A ping costs the group's budget: it is sent only once the turn has waited
    `ping_after_seconds` for its player (issue 36, point 4). Players who press within it
    are never pinged; one who does not is, and his ping goes once he has played."""
    after = 1.5
    async with in_group(5111, ["Аня", "Борис", "Вика"], ping_after_seconds=after) as group:
        tg, app, chat, people = group
        users = {u.full_name: u for u in people}
        table = await start(tg, chat, people)
        lively: list[User] = []
        while True:  # three turns played at once: nobody is pinged
            who = mover(table, users)
            if not lively or lively[-1] is not who:
                if len(lively) == 3:
                    break
                lively.append(who)
            await step(chat, table, who)
            await tg.settle(quiet=0.02)
        assert all_pings(chat) == []
        late = who  # … and now the player whose turn begins looks away
        started = time.monotonic()
        ping = await chat.wait_message(is_ping, after=table, timeout=15)
        assert pinged(ping) == late.id
        assert time.monotonic() - started >= after * 0.8
        while mover(table, users) is late:  # his turn, to its end: then his ping goes
            await step(chat, table, late)
            await tg.settle(quiet=0.02)
        await chat.wait_for(lambda: ping.deleted, 15)
        assert [pinged(m) for m in all_pings(chat)] == [late.id]
        assert (await record(app, chat)).ping.get("message", 0) == 0


async def test_a_creator_turns_his_games_pings_off_and_on() -> None:
    async with in_group(5121, ["Аня", "Борис", "Вика"], **FAST) as (tg, app, chat, people):
        users = {u.full_name: u for u in people}
        anna, boris = people[0], people[1]
        lobby = await new_lobby(chat, anna, "/new захват")
        refused = await chat.send(boris, "/pings off")  # neither admin nor creator
        await chat.wait_message(lambda m: "админ чата" in m.content, after=refused)
        off = await chat.send(anna, "/pings off")  # the game's creator: in her game
        await chat.wait_message(lambda m: "в этой игре выключены" in m.content, after=off)
        for u in people[1:]:
            await chat.press(u, lobby, contains="Играть")
        await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
        await chat.press(anna, lobby, "▶ Начать")
        table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        seen: set[int] = set()
        for _ in range(100):
            await tg.settle(quiet=0.02)
            who = mover(table, users)
            seen.add(who.id)
            if len(seen) == 2:
                break
            await step(chat, table, who)
        await until(app, chat, lambda r: r.ping.get("user") == who.id)
        assert all_pings(chat) == []  # two turns, no ping
        on = await chat.send(anna, "/pings on")
        await chat.wait_message(lambda m: "включены" in m.content, after=on)
        first = mover(table, users)
        for _ in range(100):
            await step(chat, table, first)
            await tg.settle(quiet=0.02)
            if mover(table, users) is not first:
                break
        who = mover(table, users)
        await chat.wait_for(lambda: live_pings(chat), 30)
        assert [pinged(m) for m in all_pings(chat)] == [who.id]


async def test_a_player_may_take_his_ping_in_private() -> None:
    async with in_group(5131, ["Аня", "Борис", "Вика"], **FAST) as (tg, app, chat, people):
        users = {u.full_name: u for u in people}
        boris = people[1]
        private = await tg.start_private(boris)
        await private.wait_message()
        asked = await private.send(boris, "/pings")
        menu = await private.wait_message(lambda m: "Напоминание о ходе" in m.content)
        assert asked.message_id < menu.message_id
        answer = await private.press(boris, menu, "💬 В личке")
        assert answer.text == "Готово: в личке."
        await private.wait_for(lambda: "✓ 💬 В личке" in menu.button_texts)

        def in_private() -> list[StoredMessage]:
            return [m for m in private.bot_messages if "Ваш ход" in m.content]

        table = await start(tg, chat, people)
        to_boris: list[StoredMessage] = []
        turns = 0
        last: User | None = None
        for _ in range(400):
            await tg.settle(quiet=0.02)
            if not await playing(app, chat) or turns >= 5:
                break
            who = mover(table, users)
            if who is not last:
                turns += 1
            last = who
            if who is boris:  # his ping is in his private chat, not in the group
                await chat.wait_for(lambda: len(in_private()) == 1 and not live_pings(chat))
                [ping] = in_private()
                assert "Захват клеток" in ping.content
                if ping not in to_boris:
                    to_boris.append(ping)
            else:

                def only_his(w: User = who) -> bool:
                    return pings_only(chat, w) and not in_private()

                await chat.wait_for(only_his)
            await step(chat, table, who)
        assert to_boris and all(m.deleted for m in to_boris[:-1])
        assert boris.id not in [pinged(m) for m in all_pings(chat)]


async def test_under_flood_pressure_pings_go_first_and_the_game_never_gets_429(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    # Telegram's budget (20 calls per 6 s, sends, edits and deletes alike); the bot keeps
    # to it, its pings take a slot only while the window is half empty (fewer than 10)
    window = 6.0
    async with in_group(
        5141, ["Аня", "Борис", "Вика"], ping_after_seconds=0.0, flood_limit=FloodLimit(20, window)
    ) as (tg, app, chat, people):
        users = {u.full_name: u for u in people}
        table = await start(tg, chat, people)
        changes = 0
        last: User | None = None
        for _ in range(400):
            await tg.settle(quiet=0.02)
            if not await playing(app, chat):
                break
            who = mover(table, users)
            if who is not last:
                changes += 1
                if changes == 2:  # once, the window empties before the turn passes
                    # (a fast machine could play the whole game within one window)
                    await window_empty(chat, window + 0.3 + 0.5)
            last = who
            await step(chat, table, who)
        else:
            raise AssertionError("the game did not end")
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table)
        assert "1." in final.content
        await tg.settle(quiet=0.2, timeout=10)
        assert not [c.method for c in chat.calls() if c.error_code == 429]
        spent = sorted(c.time for c in counted_calls(chat))
        assert all(b - a >= window for a, b in zip(spent, spent[20:], strict=False)), spent
        assert "Игра окончена" in table.content and table.button_texts == []
        sent = all_pings(chat)
        assert 0 < len(sent) < changes, (len(sent), changes)
        # the last pings' deletion waits for the table's share too: gone a little later
        await chat.wait_for(lambda: live_pings(chat) == [], 30)
        print(f"under pressure: {len(sent)} pings sent for {changes} turn changes")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_timeout_line_names_the_player_and_what_was_played_for_him() -> None:
    async with in_group(5151, ["Аня", "Борис", "Вика"], turn_seconds=1.0, **FAST) as group:
        tg, _, chat, people = group
        users = {u.full_name: u for u in people}
        table = await start(tg, chat, people)
        await tg.settle(quiet=0.02)
        first = mover(table, users)
        await chat.wait_for(lambda: pings_only(chat, first), 30)
        [ping] = live_pings(chat)
        line = f"⏰ {first.full_name}, время вышло — за вас сыграно: {first.full_name} "
        await chat.wait_for(lambda: line in table.content, 30)
        assert "захватывает" in table.content.split(line)[1].split("\n")[0]
        await chat.wait_for(lambda: ping.deleted, 30)
