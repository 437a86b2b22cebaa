"""The bot-wide send budget (issue 19, point 2, bot/budget.py): all instances together
stay under TELEGRAM_CALLS_PER_SECOND, most urgent first, fair between chats; against a
fake Telegram that answers 429 past a bot-wide rate, many chats on two instances get no
429 and every table ends on its game's latest state."""

from __future__ import annotations

import asyncio
import os
import time

from bot.app import App
from bot.budget import ANSWER_ROOM, BURST, WINDOW, GlobalBudget, Priority, urgency
from bot.callbacks import PlayCB
from bot.storage import MemoryStore, RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import FloodLimit, StoredMessage
from tests.bot.e2e import record, running, settings_for
from tests.bot.sea_cross_play import choose, mover

RATE = 60  # calls a second, the fake's and the bot's
CHATS = int(os.environ.get("BUDGET_CHATS", "40"))  # BUDGET_CHATS=2000 for the full run


async def test_calls_leave_by_priority_then_by_turns_between_chats() -> None:
    budget = GlobalBudget(MemoryStore(), rate=20)
    await budget.start()
    order: list[str] = []

    async def call(name: str, method: str, chat: int, level: Priority | None = None) -> None:
        if level is None:
            await budget.wait_turn(method, chat)
        else:
            with urgency(level):
                await budget.wait_turn(method, chat)
        order.append(name)

    try:
        for _ in range(budget.room(Priority.GAME)):  # the window full but for answers
            await budget.wait_turn("sendMessage", 0)
        busy = [call(f"busy{n}", "sendMessage", -1) for n in range(6)]
        rest = [
            call("quiet", "sendMessage", -2),
            call("ping", "sendMessage", -3, Priority.LOW),
            call("edit", "editMessageMedia", -4),
            call("answer", "answerCallbackQuery", -5),
        ]
        started = time.monotonic()
        await asyncio.gather(*busy, *rest)
        elapsed = time.monotonic() - started
    finally:
        await budget.stop()
    assert order[:2] == ["answer", "edit"], order  # the presser first, then the table
    assert order.index("quiet") <= 3, order  # a quiet chat is not behind all of a busy one
    assert order[-1] == "ping", order  # pings last
    assert elapsed >= 8 * budget.pace() * 0.9  # the others were paced


async def test_a_burst_under_the_share_leaves_at_once_and_no_window_holds_more() -> None:
    budget = GlobalBudget(MemoryStore(), rate=6)  # paced calls: one each 1.01 / 4 s
    await budget.start()
    left: list[tuple[float, str]] = []

    async def call(method: str, chat: int) -> None:
        await budget.wait_turn(method, chat)
        left.append((time.monotonic(), method))

    try:
        step = budget.pace()
        started = time.monotonic()
        await asyncio.gather(*(call("editMessageMedia", -c) for c in range(BURST + 1)))
        assert time.monotonic() - started < step  # a press's few calls: nobody waited
        tables = [asyncio.ensure_future(call("editMessageMedia", -c)) for c in range(8)]
        await asyncio.sleep(0)
        for n in range(ANSWER_ROOM + 1):  # tables queue; the presses' answers leave at once
            asked = time.monotonic()
            await call("answerCallbackQuery", -100 - n)
            assert time.monotonic() - asked < step, n
        await asyncio.gather(*tables)
    finally:
        await budget.stop()
    times = [t for t, _ in left]
    for i, t in enumerate(times):  # every moving WINDOW holds at most the share
        assert sum(1 for u in times[i:] if u - t < WINDOW) <= budget.share, i


async def test_an_instance_takes_its_share_of_the_rate(redis_url: str) -> None:
    from bot.storage import RedisStore

    store = RedisStore(redis_url, prefix="budget-share")
    one, two = GlobalBudget(store, rate=30), GlobalBudget(store, rate=30)
    try:
        await one.start()
        await two.start()
        await one._beat()
        assert one.instances == two.instances == 2
        assert one.share == two.share == 15
    finally:
        await one.stop()
        await two.stop()
        await store.close()


async def converged(app: App, chats: list[Chat], timeout: float = 300.0) -> None:
    """Until every chat's table shows its game's latest buttons (a table worker may still
    be drawing when the fake server has been quiet for a moment)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        recs = [await record(app, c) for c in chats]
        if all(r.shown_seq == r.seq for r in recs):
            return
        await asyncio.sleep(0.2)


async def _start_game(chat: Chat, anna: User, boris: User) -> StoredMessage:
    await chat.send(anna, "/new морской крест")
    lobby = await chat.wait_message(lambda m: "Новая игра" in m.content, timeout=120)
    await chat.press(boris, lobby, contains="Играть", timeout=120)
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, 120)
    await chat.press(anna, lobby, "▶ Начать", timeout=120)
    return await chat.wait_message(lambda m: m.photo is not None, timeout=120)


async def test_many_chats_on_two_instances_get_no_429_and_every_table_ends_latest(
    redis_url: str,
) -> None:
    async with FakeTelegram() as tg:
        tg.server.global_limit = FloodLimit(count=RATE, window=1.0)
        anna, boris = tg.user(1901, "Аня"), tg.user(1902, "Борис")
        users = {u.full_name: u for u in (anna, boris)}
        chats = [tg.group(members=[anna, boris]) for _ in range(CHATS)]
        settings = settings_for(tg, redis_url, telegram_calls_per_second=RATE, turn_seconds=0)
        async with running(settings) as first:
            second = App(settings)  # another instance on the same Redis (no polling)
            await second.budget.start()
            try:
                tables = await asyncio.gather(*(_start_game(c, anna, boris) for c in chats))
                for n in range(2):  # two moves in every chat, half of them on each instance
                    presses = []
                    for i, (chat, table) in enumerate(zip(chats, tables, strict=True)):
                        rec = await record(first, chat)
                        if rec.status != RecordStatus.PLAYING:
                            continue
                        who = mover(table, users)
                        text = choose(table.button_texts)
                        data = next(
                            b.callback_data for row in table.buttons for b in row if b.text == text
                        )
                        cb = PlayCB.unpack(data or "")
                        app = second if (i + n) % 2 else first
                        presses.append(
                            app.service.play_press(chat.id, who.id, table.message_id, cb)
                        )
                    await asyncio.gather(*presses)
                    await tg.settle(quiet=1.0, timeout=300)
                await converged(first, chats)
                for chat, table in zip(chats, tables, strict=True):
                    rec = await record(first, chat)
                    assert rec.shown_seq == rec.seq, (chat.id, rec.shown_seq, rec.seq)
                    assert all(
                        PlayCB.unpack(b.callback_data or "").s == rec.seq
                        for row in table.buttons
                        for b in row
                    )
            finally:
                await second.budget.stop()
                await second.service.close()
                await second.bot.session.close()
                await second.store.close()
        assert tg.server.global_refused == 0
