"""Helpers of the process tests and of `bench/stop.py`: `python -m bot` as a real process
(`BotRun`: its output in files, optionally PID 1 of its own PID namespace, as in a
container; `BotProcess`: one log, killed and started again), fake-server calls held back
(a slow Telegram) to stop the bot at a chosen moment, a free port, the test's own Redis
store, and a game's record and turns as the processes play them."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from bot.storage import GameRecord, RedisStore
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.seven_tracks import State
from tests.bot.e2e import changed, data_of, mover

EDITS = ("editMessageMedia", "editMessageCaption", "editMessageText", "editMessageReplyMarkup")


@functools.cache
def pid_namespaces() -> bool:
    """Whether `unshare --pid` works here (root, or a user namespace allowed)."""
    if shutil.which("unshare") is None:
        return False
    try:
        proc = subprocess.run(
            ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", "true"],
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


class BotRun:
    """`python -m bot` (optionally PID 1 of a new PID namespace) with its output in files."""

    def __init__(
        self, tmp: Path, name: str, *, pid1: bool = False, module: str = "bot", **env: str
    ) -> None:
        self.module = module  # `python -m <module>` (bench/stop.py: also its baseline)
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEBHOOK_URL")},
            "FIRST_MOVE_SECONDS": "0.3",
            "TURN_SECONDS": "0",
            **env,
        }
        self.out = tmp / f"{name}.out"
        self.err = tmp / f"{name}.err"
        self.pid1 = pid1
        self.proc: asyncio.subprocess.Process | None = None
        self.exited_at: float | None = None

    async def start(self) -> None:
        cmd = [sys.executable, "-m", self.module]
        if self.pid1:
            cmd = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", *cmd]
        with self.out.open("ab") as out, self.err.open("ab") as err:
            self.proc = await asyncio.create_subprocess_exec(
                *cmd, env=self.env, stdout=out, stderr=err
            )

    async def bot_pid(self, timeout: float = 10) -> int:
        """The bot's own pid (under unshare: its child, PID 1 of the namespace)."""
        assert self.proc is not None
        if not self.pid1:
            return self.proc.pid
        deadline = time.monotonic() + timeout
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                pids = children.read_text().split()
                if pids:
                    pid = int(pids[0])
                    nspid = next(
                        line
                        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                        if line.startswith("NSpid:")
                    )
                    assert nspid.split()[-1] == "1", nspid  # PID 1 in its namespace
                    return pid
            await asyncio.sleep(0.05)
        raise TimeoutError("the bot process under unshare did not appear")

    async def send(self, sig: signal.Signals) -> None:
        os.kill(await self.bot_pid(), sig)

    async def wait_exit(self, timeout: float) -> int:
        assert self.proc is not None
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        self.exited_at = self.exited_at or time.monotonic()
        return code

    async def wait_log(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.text():
            if self.proc is not None and self.proc.returncode is not None:
                raise AssertionError(f"exited ({self.proc.returncode}):\n{self.text()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{text!r} not in the log:\n{self.text()}")
            await asyncio.sleep(0.05)

    async def terminate(self, timeout: float = 20) -> tuple[int, float]:
        """SIGTERM; the exit code and the seconds it took."""
        sent = time.monotonic()
        await self.send(signal.SIGTERM)
        code = await self.wait_exit(timeout)
        return code, time.monotonic() - sent

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, TimeoutError):
                await self.send(signal.SIGTERM)
            try:
                await self.wait_exit(15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def stderr(self) -> str:
        return self.err.read_text(errors="replace") if self.err.exists() else ""

    def text(self) -> str:
        out = self.out.read_text(errors="replace") if self.out.exists() else ""
        return out + self.stderr()


class Hold:
    """Calls of some fake-server methods wait (`seconds`, or until `release`) before they
    run; `arrived` is set by the first held call, `done_at` when it has run."""

    def __init__(self, seconds: float | None, match: Callable[[dict[str, Any]], bool]) -> None:
        self.seconds = seconds
        self.match = match
        self.armed = True
        self.arrived = asyncio.Event()
        self.release = asyncio.Event()
        self.done_at: float | None = None

    def wrap(
        self, original: Callable[[dict[str, Any], Any], Awaitable[Any]]
    ) -> Callable[[dict[str, Any], Any], Awaitable[Any]]:
        async def held(params: dict[str, Any], uploads: Any) -> Any:
            if not (self.armed and self.match(params)):
                return await original(params, uploads)
            first = not self.arrived.is_set()
            self.arrived.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.release.wait(), self.seconds)
            result = await original(params, uploads)
            if first:
                self.done_at = time.monotonic()
            return result

        return held


@contextlib.contextmanager
def hold(
    tg: FakeTelegram,
    *methods: str,
    seconds: float | None = None,
    match: Callable[[dict[str, Any]], bool] = lambda params: True,
) -> Iterator[Hold]:
    """The fake server's handlers of `methods` wrapped by a `Hold` (a test-side hook: the
    server looks its handlers up by name on every call)."""
    handlers = tg.server._methods
    h = Hold(seconds, match)
    saved = {m.lower(): handlers[m.lower()] for m in methods}
    for name, original in saved.items():
        handlers[name] = h.wrap(original)
    try:
        yield h
    finally:
        h.release.set()
        handlers.update(saved)


async def start_table(
    chat: Chat, creator: User, lobby: StoredMessage, timeout: float = 30
) -> StoredMessage:
    """«Начать», and the table (its first picture may be drawn cold on a loaded machine)."""
    await chat.wait_for(lambda: any("Начать" in t for t in lobby.button_texts), 15)
    answer = await chat.press(creator, lobby, contains="Начать", timeout=15)
    assert answer.text == "Поехали!", answer
    return await chat.wait_message(lambda m: m.photo is not None, timeout=timeout)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class BotProcess:
    """`python -m bot` with the given environment; its log goes to a file."""

    def __init__(self, tg: FakeTelegram, log: Path, **env: str) -> None:
        self.env = {
            **os.environ,
            "BOT_TOKEN": tg.token,
            "TELEGRAM_API_URL": tg.api_url,
            "FIRST_MOVE_SECONDS": "0.3",
            "TURN_SECONDS": "0",
            **env,
        }
        self.log = log
        self.proc: asyncio.subprocess.Process | None = None
        self.menus = 0

    async def ready(self, tg: FakeTelegram, timeout: float = 30) -> None:
        """Until the process has started (it sets the command menu, then polls)."""
        await tg.wait_for(lambda: len(tg.calls("setMyCommands")) >= self.menus or None, timeout)

    async def start(self) -> None:
        self.menus = (self.menus or 0) + 9  # set_commands: (ru, en, default) × 3 scopes
        out = self.log.open("ab")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=self.env, stdout=out, stderr=out
        )
        out.close()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    def text(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.asynccontextmanager
async def store_of(redis_url: str, prefix: str) -> AsyncIterator[RedisStore]:
    store = RedisStore(redis_url, prefix=prefix)
    try:
        yield store
    finally:
        await store.close()


async def game(store: RedisStore, chat: Chat) -> tuple[GameRecord, State]:
    rec = await store.get(chat.id)
    assert rec is not None and rec.state is not None
    return rec, State.model_validate_json(rec.state)


def photos(chat: Chat) -> list[StoredMessage]:
    return [m for m in chat.all_messages if m.from_bot and m.photo is not None]


PLAN = (
    "🎲🎲 Два кубика",
    "▶ Выставить всё",
    "📥 Взять из кассы",
    "✅ Закончить ход",
    "✅ Заменить",
)


async def play_a_turn(chat: Chat, table: StoredMessage, users: list[User]) -> int:
    """The player to move presses what he sees until the turn passes; accepted taps."""
    player = mover(table, users)
    assert player is not None
    taps = 0
    for _ in range(12):
        if mover(table, users) is not player:
            break
        before = data_of(table)
        for label in [x for x in PLAN if x in table.button_texts]:
            answer = await chat.press(player, table, label, timeout=10)
            if not answer.show_alert:
                taps += 1
                break
        await chat.wait_for(changed(table, before), 10)
    assert mover(table, users) is not player
    return taps
