"""Answers are never held back (issue 36, points 5 and 7): Telegram limits a bot as a
whole only in new messages, so five groups pressing together, far faster than their
tables can follow, have every press answered within Telegram's validity window (15 s:
the fake refuses a later answer) — and none of the groups earns a 429."""

from __future__ import annotations

import asyncio
import random
import time

from fake_telegram import CallbackRecord, Chat, FakeTelegram, StoredMessage, User
from tests.bot.e2e import mover, running, settings_for, started_table

GROUPS = 5
SECONDS = 8.0  # of pressing, every group at once
VALID = 15.0  # seconds Telegram accepts an answer to a callback query


async def flood(chat: Chat, table: StoredMessage, users: list[User]) -> list[CallbackRecord]:
    """Both players tap whatever the table shows, about five times a second, without
    waiting for answers: the mover a move, the other «🀄 Мои фишки»."""
    rng = random.Random(chat.id)
    taps: list[CallbackRecord] = []
    end = time.monotonic() + SECONDS
    while time.monotonic() < end:
        who = mover(table, users) or users[0]
        labels = table.button_texts
        if not labels:
            break
        user = who if rng.random() < 0.5 else next(u for u in users if u is not who)
        label = rng.choice(labels) if user is who else "🀄 Мои фишки"
        if label in labels:
            taps.append(await chat.tap(user, table, label))
        await asyncio.sleep(0.2)
    return taps


async def test_five_groups_pressing_together_have_every_press_answered_in_time() -> None:
    async with FakeTelegram() as tg:
        groups = []
        for g in range(GROUPS):
            users = [tg.user(6100 + 10 * g + k, n) for k, n in enumerate(("Аня", "Борис"))]
            groups.append((tg.group(members=users), users))
        async with running(settings_for(tg, turn_seconds=0)):
            tables = [await started_table(tg, c, u, "🎲 Один кубик") for c, u in groups]
            taps = await asyncio.gather(
                *(flood(c, t, u) for (c, u), t in zip(groups, tables, strict=True))
            )
            every = [tap for group in taps for tap in group]
            for tap in every:
                await tg.answer_of(tap, timeout=VALID + 5)
            await tg.settle(quiet=0.3, timeout=60)
        latencies = sorted(tap.latency or 0.0 for tap in every)
        p99 = latencies[int(0.99 * (len(latencies) - 1))]
        print(
            f"{len(every)} presses in {GROUPS} groups: answers p50 "
            f"{latencies[len(latencies) // 2] * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms"
        )
        assert len(every) >= GROUPS * 20
        assert all(tap.answered for tap in every)
        assert max(latencies) < VALID
        assert tg.server.flood_refused == 0 and tg.server.global_refused == 0
        for chat, _ in groups:
            assert not [c for c in chat.calls() if c.error_code == 429]
