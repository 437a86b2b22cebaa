"""The first table edit after a restart: from the first press to the table's edit.

    python -m bench.restart [--restarts 3] [--warm 5] [--variants bot before]

The real bot (`python -m bot`, pictures in its render process) runs against the fake
Bot API server and a real Redis, with one «Семидорожник» game on the table. It is
stopped and started again `--restarts` times; each time, as soon as it polls again, the
player to move presses his usual button (dice, place everything, finish) and we
measure press → answer and press → the table's edit (a new picture). The baseline in the
same run is the same bot once warm (`--warm` presses after its warm-up has finished);
`before` is the bot of BEFORE_REV (`BENCH_RESTART_BEFORE_REV`), whose render process
warmed all five games before its first picture. Target: the first edit after a restart
within 1 s of the press.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.e2e import (
    HAND,
    PLAN,
    ROOT,
    BotProcess,
    checkout,
    data_of,
    file_safe,
    mover,
    redis_server,
)
from bench.stats import median
from fake_telegram import FakeTelegram, User
from fake_telegram.server import StoredMessage

# the last commit whose render process warmed every game before its first picture
BEFORE_REV = os.environ.get("BENCH_RESTART_BEFORE_REV", "acd842c")
TARGET = 1.0  # seconds from the first press after a restart to the table's edit
TIMEOUT = 120.0
PICTURE_WAIT = 15.0  # seconds a press's picture is waited for after its caption
WARMED = "render.seven_tracks warmed up"  # what bot/warm_up.py logs when the game is warm


@dataclass
class Press:
    answer: float  # seconds, press → answerCallbackQuery
    edit: float  # seconds, press → the table's edit (its buttons; the caption comes along)
    picture: bool  # the edit brought a new picture
    picture_s: float = float("nan")  # seconds, press → the new picture (editMessageMedia)


@dataclass
class Result:
    variant: str
    after_restart: list[Press] = field(default_factory=list)
    warm: list[Press] = field(default_factory=list)
    warm_up_s: float = float("nan")  # start → the game's warm-up logged done (this bot)


class Table:
    """One group with a «Семидорожник» game, played by the player to move."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg = tg
        self.users = [tg.user(9100 + k, n) for k, n in enumerate(("Аня", "Борис"), 1)]
        self.chat = tg.group(title="Рестарт", members=self.users)
        self.table: StoredMessage | None = None

    async def setup(self) -> None:
        chat, (anna, boris) = self.chat, self.users
        waiter = chat.wait_message(lambda m: "Новая игра" in m.content, timeout=TIMEOUT)
        await chat.send(anna, "/new")
        lobby = await waiter
        await chat.press(boris, lobby, contains="Играть", timeout=TIMEOUT)
        await chat.wait_for(lambda: any("Начать" in t for t in lobby.button_texts), TIMEOUT)
        waiter = chat.wait_message(lambda m: m.photo is not None, timeout=TIMEOUT)
        await chat.press(anna, lobby, contains="Начать", timeout=TIMEOUT)
        table = self.table = await waiter
        await chat.wait_for(lambda: mover(table, self.users) is not None, TIMEOUT)

    def actor(self) -> User:
        assert self.table is not None
        user = mover(self.table, self.users)
        assert user is not None, self.table.content
        return user

    async def press(self) -> Press:
        """The player to move presses the first button of his plan; the edit it brings."""
        table = self.table
        assert table is not None
        await self.chat.wait_for(lambda: mover(table, self.users) is not None, TIMEOUT)
        before, photo = data_of(table), table.photo
        tries: list[str | None] = [x for x in PLAN if x in table.button_texts]
        # a rare spot: the first button of the first row but the hand
        tries += [b.callback_data for b in table.buttons[0] if b.text != HAND][:1]
        for i, label in enumerate(tries):
            if label in PLAN:
                rec = await self.chat.tap(self.actor(), table, label)
            else:
                rec = await self.chat.tap(self.actor(), table, by_data=label)
            answer = await self.tg.answer_of(rec, timeout=TIMEOUT)
            if not answer.show_alert:
                break
            if i == len(tries) - 1:
                raise RuntimeError(f"every button refused: {answer.text}")
        await self.chat.wait_for(lambda: data_of(table) != before, TIMEOUT)
        assert rec.answered_at is not None and table.edited_at is not None, answer
        edit = table.edited_at - rec.created_at
        shown = table.photo
        new_picture = shown is not None and (photo is None or shown.file_id != photo.file_id)
        # a late picture comes after the caption and keyboard (bot/pictures.py `ready`)
        with contextlib.suppress(TimeoutError):
            await self.chat.wait_for(
                lambda: (
                    bool(self.tg.server.calls_of("editMessageMedia", self.chat.id))
                    and self.tg.server.calls_of("editMessageMedia", self.chat.id)[-1].time
                    > rec.created_at
                ),
                PICTURE_WAIT,
            )
        media = [
            c.time
            for c in self.tg.server.calls_of("editMessageMedia", self.chat.id)
            if c.time > rec.created_at
        ]
        picture_s = media[0] - rec.created_at if media else float("nan")
        return Press(rec.answered_at - rec.created_at, edit, new_picture, picture_s)


async def started(tg: FakeTelegram, proc: BotProcess, old: object) -> None:
    """Until the bot polls: a long poll (getUpdates) that is not the stopped bot's `old`."""

    def polling() -> bool:
        if proc.proc is not None and proc.proc.poll() is not None:
            raise RuntimeError(f"the bot exited: {proc.log_path.read_text()[-2000:]}")
        poller = tg.server._poller
        return poller is not None and poller is not old

    await tg.wait_for(polling, TIMEOUT)


async def run_variant(
    variant: str, restarts: int, warm: int, redis_url: str, logdir: Path
) -> Result:
    result = Result(variant)
    if variant.startswith("dir:"):  # the bot in a folder (bot/ games/ render/ locales/)
        root = Path(variant[4:]).resolve()
    elif variant == "bot":
        root = ROOT
    else:
        root = checkout(BEFORE_REV if variant == "before" else variant)
    prefix = f"restart{secrets.token_hex(3)}"
    async with FakeTelegram(keep_files=False, log_results=False) as tg:
        env = {
            "BOT_TOKEN": tg.token,
            "TELEGRAM_API_URL": tg.api_url,
            "REDIS_URL": redis_url,
            "REDIS_PREFIX": prefix,
            "FIRST_MOVE_SECONDS": "0.3",
            "TURN_SECONDS": "0",
        }
        table = Table(tg)
        proc: BotProcess | None = None
        try:
            for run in range(restarts + 1):
                if proc is not None:
                    await proc.stop()
                proc = BotProcess("bot", env, logdir / f"{file_safe(variant)}-{run}.log", root)
                since, old = time.monotonic(), tg.server._poller
                proc.start()
                await started(tg, proc, old)
                if run == 0:
                    await table.setup()  # the game, then the first restart
                    await tg.settle(quiet=0.3, timeout=TIMEOUT)
                    continue
                result.after_restart.append(await table.press())
                await tg.settle(quiet=0.3, timeout=TIMEOUT)
            assert proc is not None
            # the same bot once warm: its warm-up logged done (or, for a bot that warms up
            # before its first picture, the restart's picture came after it anyway)
            deadline = time.monotonic() + TIMEOUT
            current = variant == "bot" or variant.startswith("dir:")  # warms up lazily
            while current and WARMED not in proc.log_path.read_text(errors="replace"):
                if time.monotonic() > deadline:
                    raise TimeoutError("the warm-up did not finish")
                await asyncio.sleep(0.2)
            if current:
                result.warm_up_s = time.monotonic() - since
            for _ in range(warm):
                result.warm.append(await table.press())
                await tg.settle(quiet=0.2, timeout=TIMEOUT)
            errors = proc.errors()
            if errors:
                print(f"  ! {variant}: {len(errors)} errors in {proc.log_path}")
        finally:
            if proc is not None:
                await proc.stop()
    return result


def ms(x: float) -> str:
    return f"{x * 1e3:.0f}"


def report(results: list[Result]) -> str:
    lines = [
        "The first table edit after a restart (press → edit, ms; answer in brackets) beside "
        "the same bot once warm",
        "",
        "| bot | each restart: press → edit (answer) | median | max | press → picture, "
        "median (max) | warm: median edit (answer) | warm-up done after start "
        "| target ≤ 1 s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        each = ", ".join(
            f"{ms(p.edit)} ({ms(p.answer)}){'' if p.picture else ' no picture'}"
            for p in r.after_restart
        )
        first = median([p.edit for p in r.after_restart])
        worst = max((p.edit for p in r.after_restart), default=float("nan"))
        pics = [p.picture_s for p in r.after_restart if p.picture_s == p.picture_s]
        pic = f"{ms(median(pics))} ({ms(max(pics))})" if pics else "—"
        warm_edit = median([p.edit for p in r.warm])
        warm_answer = median([p.answer for p in r.warm])
        done = "—" if r.warm_up_s != r.warm_up_s else f"{r.warm_up_s:.1f} s"
        verdict = "✓" if first <= TARGET else "✗"
        lines.append(
            f"| {r.variant} | {each} | {ms(first)} | {ms(worst)} | {pic} "
            f"| {ms(warm_edit)} ({ms(warm_answer)}) "
            f"| {done} | {verdict} |"
        )
    return "\n".join(lines)


async def run(variants: list[str], restarts: int, warm: int, redis_url: str | None) -> list[Result]:
    logdir = Path(tempfile.mkdtemp(prefix="bench-restart-"))
    print(f"(bot logs: {logdir})")

    async def go(url: str) -> list[Result]:
        return [await run_variant(v, restarts, warm, url, logdir) for v in variants]

    if redis_url:
        return await go(redis_url)
    with redis_server() as url:
        return await go(url)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.restart")
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument("--warm", type=int, default=5, help="presses once warm (baseline)")
    parser.add_argument(
        "--variants",
        nargs="+",
        default=["bot", "before"],
        help="bot (the working tree), before (BEFORE_REV), a commit or dir:<path>",
    )
    parser.add_argument("--redis-url", default=None)
    args = parser.parse_args()
    print(f"load before the run {os.getloadavg()[0]:.1f}")
    results = asyncio.run(run(args.variants, args.restarts, args.warm, args.redis_url))
    print(report(results))


if __name__ == "__main__":
    main()
