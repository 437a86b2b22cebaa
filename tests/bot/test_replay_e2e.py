"""`/replay` through the bot (issue 15): a finished game comes back to the group as one
animation — the board after each sampled position, then the final standings — small
enough for a phone; a game that does not exist is refused clearly; English in an English
chat. And the frames themselves: sampling and what the standings frame shows."""

from __future__ import annotations

import io
import itertools
import random

from PIL import Image, ImageSequence

from bot.memory.keeper import memory_of
from bot.memory.records import FULL, ChatMemory, GameEntry
from bot.memory.replay import distinct, views
from fake_telegram.server import StoredMessage
from render import animation
from tests.bot.e2e import in_group
from tests.bot.memory_play import FAST, play_out, recorded, start

MB = 1 << 20


def _frames(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as im:
        assert im.format == "GIF"
        return [f.convert("RGB") for f in ImageSequence.Iterator(im)]


def _animation(m: StoredMessage) -> bool:
    return m.animation is not None


async def test_a_finished_game_comes_back_as_an_animation_and_unknown_ones_are_refused() -> None:
    async with in_group(2501, ["Аня", "Борис"], **FAST) as (tg, app, chat, (anna, boris)):
        anna_private = await tg.start_private(anna)  # started: the refusals stay in the group
        asked = await chat.send(anna, "/replay")
        await chat.wait_message(lambda m: "повторять нечего" in m.content, after=asked)

        await start(app, chat.id, "sea_cross", {anna.id: "Аня", boris.id: "Борис"})
        await play_out(app, chat.id, random.Random(7))
        [raw] = await recorded(memory_of(app.service.ctx).backend, chat.id)
        entry = GameEntry.model_validate_json(raw)
        assert entry.steps is not None

        ask = await chat.send(boris, "/replay")
        sent = await chat.wait_message(_animation, timeout=60)
        assert sent.reply_to is not None and sent.reply_to.message_id == ask.message_id
        assert "Повтор игры №1 · Морской крест" in sent.content
        assert sent.animation is not None
        data = sent.animation.data
        assert len(data) < 4 * MB

        # what the bot must have drawn: every distinct position, at most POSITIONS of
        # them evenly spread (the first and the last among them), then the standings
        positions = views(app.service.presenter("sea_cross"), entry.steps)
        picked = animation.sample(len(positions))
        assert len(positions) > 10 and picked[0] == 0 and picked[-1] == len(positions) - 1
        frames = _frames(data)
        # the GIF writer folds a frame that draws like the one before into it (two
        # positions apart in what the picture does not show): a few may go
        expected = len(picked) + 1
        assert expected - expected // 10 <= len(frames) <= expected, (len(frames), expected)
        assert frames[0].width == animation.WIDTH
        assert sent.animation.width == animation.WIDTH and 0 < sent.animation.duration <= 60

        asked = await chat.send(anna, "/replay 99")
        refusal = await chat.wait_message(
            lambda m: "Игры №99 здесь ещё не было" in m.content, after=asked, timeout=10
        )
        assert "Последняя — №1" in refusal.content
        asked = await chat.send(anna, "/replay вчерашнюю")
        await chat.wait_message(lambda m: "/replay 12" in m.content, after=asked, timeout=10)
        assert not [m for m in anna_private.bot_messages if "/replay" in m.content]

        again = await chat.send(anna, "/replay 1")  # sent again: by its file_id
        second = await chat.wait_message(
            lambda m: (
                _animation(m)
                and m.reply_to is not None
                and m.reply_to.message_id == again.message_id
            ),
            timeout=30,
        )
        assert second.animation is sent.animation
        assert len([m for m in chat.messages if _animation(m)]) == 2


async def test_an_english_chat_gets_its_replay_in_english_drawn_in_the_render_process() -> None:
    async with in_group(
        2601, ["Anna", "Boris"], bot_language="en", render_process=True, **FAST, language="en"
    ) as (_, app, chat, (anna, boris)):
        await start(app, chat.id, "hypnosia", {anna.id: "Anna", boris.id: "Boris"})
        await play_out(app, chat.id, random.Random(5))
        await recorded(memory_of(app.service.ctx).backend, chat.id)
        asked = await chat.send(anna, "/replay 3")
        await chat.wait_message(
            lambda m: "There has been no game #3 here yet" in m.content, after=asked, timeout=10
        )
        await chat.send(anna, "/replay")
        sent = await chat.wait_message(_animation, timeout=60)
        assert "Replay of game #1 · " in sent.content
        assert app.service.ctx.pictures.in_process
        assert sent.animation is not None and len(sent.animation.data) < 4 * MB


def test_sampling_keeps_the_first_and_the_last_and_spreads_evenly() -> None:
    assert animation.sample(0) == []
    assert animation.sample(1) == [0]
    assert animation.sample(7, 40) == list(range(7))
    for count in (41, 100, 177, 3984):
        picked = animation.sample(count, 40)
        assert len(picked) == 40 and len(set(picked)) == 40
        assert picked[0] == 0 and picked[-1] == count - 1 and picked == sorted(picked)
        gaps = [b - a for a, b in itertools.pairwise(picked)]
        assert max(gaps) - min(gaps) <= 1
    assert animation.sample(5, 1) == [4]


def test_a_long_game_plays_within_a_minute_and_a_short_one_at_a_readable_pace() -> None:
    assert animation.board_ms(10) == animation.PACE_MS
    for boards in (1, 10, 33, animation.POSITIONS):
        total = animation.board_ms(boards) * boards + animation.LAST_MS
        assert total <= 60_000 and animation.board_ms(boards) >= 1000


def test_boards_drawn_alike_are_one_frame_and_the_standings_come_last() -> None:
    red = Image.new("RGB", (480, 300), (200, 30, 30))
    blue = Image.new("RGB", (480, 300), (30, 30, 200))
    palette = animation.shared_palette([red, blue])
    boards = [animation.indexed(x, palette) for x in (red, red, blue, red)]
    assert len(distinct(boards)) == 3
    from bot.memory.replay import assemble

    data, count = assemble(boards, [(1, 1, 3), (2, 2, 1)], {1: "Аня", 2: "Борис"}, "ru", "")
    frames = _frames(data)
    assert count == len(frames) == 4
    last = frames[-1]
    assert last.size == (480, 300) and last.getpixel((5, 5)) != frames[0].getpixel((5, 5))


async def test_a_game_without_its_steps_or_too_old_is_refused_clearly() -> None:
    async with in_group(2551, ["Аня"], **FAST) as (_, app, chat, (anna,)):
        keeper = memory_of(app.service.ctx)
        for n in range(1, FULL + 3):  # games №1..№202: the first two no longer in full
            entry = GameEntry(n=n, uid=f"g{n}", game_id="sea_cross", ended_at=0.0, standings=[])
            await keeper.backend.push_game(chat.id, entry.model_dump_json(), "{}", 600)

        def counted(d: ChatMemory) -> None:
            d.count = FULL + 2

        await keeper.change(chat.id, counted)
        asked = await chat.send(anna, "/replay")  # №202 was kept without its steps
        await chat.wait_message(
            lambda m: "Игру №202 повторить не получится" in m.content, after=asked, timeout=10
        )
        asked = await chat.send(anna, "/replay 2")
        told = await chat.wait_message(
            lambda m: "Игра №2 слишком давняя" in m.content, after=asked, timeout=10
        )
        assert "последние 200 игр" in told.content
        assert not [m for m in chat.messages if _animation(m)]
