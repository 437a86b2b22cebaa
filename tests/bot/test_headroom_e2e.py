"""When the pictures can't keep up: the caption and the keyboard are edited at once and
the picture when its turn comes; a chat's stale pictures are dropped for its latest;
the line of pictures stays bounded (at most one waiting per chat).

`python -m bot` with its render process against the fake Bot API server and a real Redis;
every picture is made slow (`NASTOLKA_TEST_RENDER_DELAY`, far above the table worker's
budget for a picture, `bot.pictures.LATE`), so "late" is deterministic.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from pathlib import Path

from bot.pictures import LATE
from bot.presenters.seven_tracks import SevenTracksPresenter
from bot.storage import GameRecord, RedisStore
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.bot_process import BotProcess, game, play_a_turn, store_of
from tests.bot.e2e import data_of, mover, open_lobby, photo_of, start_game, wait_phase

ROLL = "🎲 Один кубик"
SLOW = 1.5  # seconds per picture, in the render process
assert SLOW > 4 * LATE


def media_edits(chat: Chat) -> int:
    return len(chat.calls("editMessageMedia"))


async def table_of(chat: Chat, users: list[User]) -> StoredMessage:
    lobby = await open_lobby(chat, *users)
    table = await start_game(chat, users[0], lobby)
    await wait_phase(chat, table, ROLL, timeout=30)
    return table


async def shown_latest(store: RedisStore, chat: Chat, timeout: float = 60) -> GameRecord:
    """Until the table shows the stored game's own picture (its record says so)."""
    presenter = SevenTracksPresenter()
    deadline = time.monotonic() + timeout
    while True:
        rec, state = await game(store, chat)
        if rec.shown_picture == presenter.picture_key(state) and rec.shown_text is not None:
            return rec
        assert time.monotonic() < deadline, rec
        await asyncio.sleep(0.2)


async def test_a_late_picture_lets_the_caption_and_keyboard_through_and_stale_ones_drop(
    redis_url: str, tmp_path: Path
) -> None:
    prefix = f"headroom-{secrets.token_hex(4)}"
    async with FakeTelegram() as tg, store_of(redis_url, prefix) as store:
        groups = []
        for g in range(3):
            users = [tg.user(2900 + 10 * g + k, n) for k, n in enumerate(("Аня", "Борис"), 1)]
            groups.append((tg.group(members=users), users))
        bot = BotProcess(
            tg,
            tmp_path / "bot.log",
            REDIS_URL=redis_url,
            REDIS_PREFIX=prefix,
            RENDER_PROCESS="1",
            NASTOLKA_TEST_RENDER_DELAY=str(SLOW),
        )
        await bot.start()
        try:
            await bot.ready(tg, timeout=60)
            tables = [await table_of(chat, users) for chat, users in groups]
            await tg.settle(quiet=SLOW + 0.5, timeout=30)  # every first picture is shown
            chat, users = groups[0]
            table = tables[0]

            # 1. one press: its caption and keyboard come long before its picture
            player = mover(table, users)
            assert player is not None
            before, photo, media = data_of(table), table.photo, media_edits(chat)
            assert photo is not None
            tap = await chat.tap(player, table, ROLL)
            answer = await tg.answer_of(tap, timeout=10)
            assert not answer.show_alert, answer
            await chat.wait_for(lambda: data_of(table) != before, 10)
            assert table.edited_at is not None
            caption_after = table.edited_at - tap.created_at
            assert table.photo is not None and table.photo.file_id == photo.file_id
            assert media_edits(chat) == media  # the picture is still being drawn
            assert chat.calls("editMessageCaption"), "the caption was not edited first"
            await chat.wait_for(lambda: photo_of(table).file_id != photo.file_id, 30)
            print(f"caption+keyboard after {caption_after:.2f} s, then the picture")
            assert caption_after < SLOW

            # 2. quick turns in every group at once, far quicker than the pictures: each
            # press's caption and keyboard come, the stale pictures are dropped
            await tg.settle(quiet=SLOW + 0.5, timeout=30)
            media_before = [media_edits(c) for c, _ in groups]

            async def turns(chat: Chat, table: StoredMessage, users: list[User]) -> int:
                return sum([await play_a_turn(chat, table, users) for _ in range(2)])

            taps = await asyncio.gather(
                *(turns(c, t, u) for (c, u), t in zip(groups, tables, strict=True))
            )
            for (c, _), n, m in zip(groups, taps, media_before, strict=True):
                # the picture shown comes to be the latest state's, with its caption and
                # keyboard; the stale pictures between were never drawn nor sent
                rec = await shown_latest(store, c)
                assert rec.shown_seq == rec.seq
                edits = media_edits(c) - m
                assert 1 <= edits < n, (n, edits)
        finally:
            await bot.stop()
        log = bot.text()
        assert "Traceback" not in log, log
        line = re.search(r"(\d+) stale ones dropped, at most (\d+) waiting", log)
        assert line is not None, log
        dropped, peak = int(line.group(1)), int(line.group(2))
        assert dropped >= 1 and peak <= len(groups), line.group(0)  # one per chat at most
        # a late picture's round edits it in with the view its caption round drew (the
        # record changed only in what a round writes of the table): not drawn again
        reused = re.search(r"tables: (\d+) late pictures edited in with their view", log)
        assert reused is not None and int(reused.group(1)) >= 1, log[-3000:]
