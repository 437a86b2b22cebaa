"""How long `python -m bot` takes to exit after SIGTERM, beside a minimal aiogram bot.

    python -m bench.stop [--runs 3] [--hold 1.0]

Each moment is measured as an ordinary child process and, where `unshare --pid` works
(root), as PID 1 of its own PID namespace, as in a container:

- `echo bot, polling`: the baseline, `bench/echo_bot.py` (aiogram's own `run_polling`
  signal handling) while it long-polls the fake Bot API server;
- `start-up`: the bot while Telegram does not answer its start-up calls (setMyCommands);
- `polling, idle`: the bot long-polling with nothing to do;
- `edit in flight`: the bot while a table edit takes `--hold` seconds at Telegram; the
  bot lets it finish, so its floor is the rest of that edit (shown as the baseline).

Prints the median of `--runs` runs in seconds and the exit codes (a negative code is the
signal that killed the process; `hung` = still running 20 s after SIGTERM, then killed).
These are measurements, not pass/fail tests.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from fake_telegram import FakeTelegram
from tests.bot.bot_process import EDITS, BotRun, hold, pid_namespaces, start_table
from tests.bot.e2e import mover, open_lobby, wait_phase

Measure = Callable[[FakeTelegram, Path, bool], Awaitable[tuple[float | None, int | None]]]


async def terminate(bot: BotRun) -> tuple[float | None, int | None]:
    sent = time.monotonic()
    await bot.send(signal.SIGTERM)
    try:
        code = await bot.wait_exit(20)
    except TimeoutError:
        await bot.stop()
        return None, None
    return time.monotonic() - sent, code


def bot_env(tg: FakeTelegram) -> dict[str, str]:
    return {"BOT_TOKEN": tg.token, "TELEGRAM_API_URL": tg.api_url}


async def echo_polling(tg: FakeTelegram, tmp: Path, pid1: bool) -> tuple[float | None, int | None]:
    bot = BotRun(tmp, "echo", pid1=pid1, module="bench.echo_bot", **bot_env(tg))
    await bot.start()
    try:
        await bot.wait_log("Run polling", 90)
        return await terminate(bot)
    finally:
        await bot.stop()


async def start_up(tg: FakeTelegram, tmp: Path, pid1: bool) -> tuple[float | None, int | None]:
    with hold(tg, "setMyCommands") as h:
        bot = BotRun(tmp, "startup", pid1=pid1, **bot_env(tg))
        await bot.start()
        try:
            await asyncio.wait_for(h.arrived.wait(), 90)
            return await terminate(bot)
        finally:
            await bot.stop()


async def idle(tg: FakeTelegram, tmp: Path, pid1: bool) -> tuple[float | None, int | None]:
    bot = BotRun(tmp, "idle", pid1=pid1, **bot_env(tg))
    await bot.start()
    try:
        await bot.wait_log("Run polling", 90)
        await tg.settle(quiet=0.5, timeout=30)
        return await terminate(bot)
    finally:
        await bot.stop()


def edit_in_flight(seconds: float) -> Measure:
    async def measure(tg: FakeTelegram, tmp: Path, pid1: bool) -> tuple[float | None, int | None]:
        anna, boris = tg.user(5101, "Аня"), tg.user(5102, "Борис")
        chat = tg.group(members=[anna, boris])
        bot = BotRun(tmp, "play", pid1=pid1, **bot_env(tg))
        await bot.start()
        try:
            await bot.wait_log("Run polling", 90)
            lobby = await open_lobby(chat, anna, boris)
            table = await start_table(chat, anna, lobby, timeout=120)  # a cold first picture
            await wait_phase(chat, table, "🎲 Один кубик", timeout=30)
            await tg.settle(quiet=0.3, timeout=30)
            player = mover(table, [anna, boris])
            assert player is not None
            with hold(
                tg, *EDITS, seconds=seconds, match=lambda p: p.get("message_id") == table.message_id
            ) as h:
                await chat.press(player, table, "🎲🎲 Два кубика", timeout=30)
                await asyncio.wait_for(h.arrived.wait(), 30)
                return await terminate(bot)
        finally:
            await bot.stop()

    return measure


async def runs(measure: Measure, pid1: bool, n: int) -> str:
    times: list[float] = []
    codes: set[str] = set()
    for _ in range(n):
        with tempfile.TemporaryDirectory() as tmp:
            async with FakeTelegram() as tg:
                took, code = await measure(tg, Path(tmp), pid1)
        if took is None:
            codes.add("hung")
        else:
            times.append(took)
            codes.add(str(code))
    median = f"{statistics.median(times):6.2f} s" if times else "     —  "
    return f"{median}  exit {'/'.join(sorted(codes))}"


async def main(n: int, seconds: float) -> None:
    modes = [False, True] if pid_namespaces() else [False]
    print(f"SIGTERM → exit, median of {n}; the edit in flight takes {seconds:.1f} s at Telegram")
    header = f"{'moment':<28}" + "".join(
        f"{'as PID 1' if pid1 else 'child process':<24}" for pid1 in modes
    )
    print(header)
    rows: list[tuple[str, Measure | None]] = [
        ("echo bot, polling (base)", echo_polling),
        ("bot: start-up", start_up),
        ("bot: polling, idle", idle),
        ("bot: edit in flight", edit_in_flight(seconds)),
    ]
    for name, measure in rows:
        assert measure is not None
        cells = [await runs(measure, pid1, n) for pid1 in modes]
        print(f"{name:<28}" + "".join(f"{c:<24}" for c in cells), flush=True)
    print(f"{'floor of the edit (base)':<28}{seconds:6.2f} s (the rest of the held edit)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hold", type=float, default=1.0)
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.hold))
