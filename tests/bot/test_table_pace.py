"""The table's share of a group's flood budget (bot/limits.py, issue 36): one edit a
step, the step the window over what the game's own messages leave of it; a turn change
may go half a step early without raising the rate; and the mover's own presses from his
hand are not refused because the group's table still waits for its slot
(bot/old_press.py)."""

from __future__ import annotations

import pytest

from bot.limits import TURN_EARLY, ChatLimiter, Spend
from bot.old_press import after_own_hand, hand_run
from bot.storage import GameRecord, MemoryStore

GROUP = -1001


@pytest.fixture
def limiter() -> ChatLimiter:
    return ChatLimiter(MemoryStore(), limit=20, window=60.0)


async def test_the_table_goes_one_call_a_step_without_bursts(limiter: ChatLimiter) -> None:
    step = limiter.step(GROUP)
    assert step == pytest.approx(60.0 / 17)  # 20 less the game's reserve of 3
    assert await limiter.take(GROUP, Spend.TABLE) == 0
    wait = await limiter.take(GROUP, Spend.TABLE)  # no second call in the same step
    assert wait == pytest.approx(step, abs=0.1)


async def test_a_turn_change_goes_half_a_step_early_and_the_pace_keeps_its_rate(
    limiter: ChatLimiter,
) -> None:
    step = limiter.step(GROUP)
    assert await limiter.take(GROUP, Spend.TABLE) == 0
    turn_wait = await limiter.take(GROUP, Spend.TURN)
    assert turn_wait == pytest.approx((1 - TURN_EARLY) * step, abs=0.1)
    # taken once due, it pushes the next slot a whole step on: two steps from the first
    limiter._due[GROUP] -= turn_wait  # as if that much time had passed
    assert await limiter.take(GROUP, Spend.TURN) == 0
    assert await limiter.take(GROUP, Spend.TABLE) == pytest.approx(2 * step - turn_wait, abs=0.1)


async def test_the_games_messages_in_the_window_lengthen_the_tables_step(
    limiter: ChatLimiter,
) -> None:
    for _ in range(6):  # a lobby: its message, the joins, the start
        assert await limiter.take(GROUP, Spend.GAME) == 0
    # the table may now fill the window up to one slot (the game's reserve is spent by
    # the game itself), and spreads the 13 slots left over the window
    assert limiter.room(GROUP, Spend.TABLE) == 19
    assert limiter.step(GROUP) == pytest.approx(60.0 / 13)


def record(**kw: object) -> GameRecord:
    return GameRecord(chat_id=GROUP, uid="g", game_id="dominas", creator=1, **kw)


def test_a_table_press_after_his_own_hand_moves_is_taken_and_a_double_tap_is_not() -> None:
    rec = record(seq=5, shown_seq=5)
    # Аня chooses a tile in her hand (5 → 6), the table still shows 5
    rec.seq = 6
    rec.hand_run = hand_run(rec, 1, 5, on_table=False)
    assert after_own_hand(rec, 1, 5, on_table=True)  # her nest on the table: taken
    assert not after_own_hand(rec, 2, 5, on_table=True)  # someone else: refused
    assert not after_own_hand(rec, 1, 5, on_table=False)  # her hand is redrawn for 6
    # two hand moves in a row are one run; the table still shows 5
    rec.seq = 7
    rec.hand_run = hand_run(rec, 1, 6, on_table=False)
    assert rec.hand_run == (1, 5, 7) and after_own_hand(rec, 1, 5, on_table=True)
    # a press on the table ends the run: a second tap of the table's old buttons is refused
    rec.seq = 8
    rec.hand_run = hand_run(rec, 1, 7, on_table=True)
    assert rec.hand_run is None and not after_own_hand(rec, 1, 5, on_table=True)
    # another change since (a timer, a computer): the run no longer reaches the game's seq
    rec.seq, rec.shown_seq = 9, 8
    rec.hand_run = hand_run(rec, 1, 8, on_table=False)
    rec.seq = 10
    assert not after_own_hand(rec, 1, 8, on_table=True)
