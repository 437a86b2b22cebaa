"""The bot end to end: the real bot process against the fake Bot API server and Redis.

    python -m bench.e2e [--games 1 10 100] [--measure 15] [--redis-url URL]

The fake Telegram server (`fake_telegram`) runs in this process; the bot runs as a
subprocess (`python -m bot` with BOT_TOKEN / TELEGRAM_API_URL / REDIS_URL), so the
simulated players and the server do not compete with the bot for its event loop. For
every scenario (N concurrent games) a fresh bot process starts, N groups each open a
lobby, join and start a «Семидорожник» game, and then their players press the buttons
they see (the e2e tests' plan: dice, place everything, finish) with a think time
between taps. After a warm-up the latencies are recorded from the server's side:

- update → answer: the update queued for the bot → its `answerCallbackQuery`;
- update → edit: an accepted press's update → the table's edit that shows it (its
  buttons: with a late picture the caption and keyboard come first);
- update → picture: an accepted press's update → the `editMessageMedia` whose keyboard
  carries the press's version (`seq`), i.e. the picture of its state or of a later one
  (a stale picture dropped for the chat's latest counts with the press it was for
  only if nothing newer was pressed meanwhile, so this is per picture shown);
  `editMessageMedia` and `editMessageCaption` calls per second.

`--variants computers` is the bot with computer players at every other table (a «мастер»
and an «опытный» seated by the creator, one more human), beside `bot` in the same run:
do the computers' searches delay the humans' answers?

The baseline is `bench/echo_bot.py` (answers, edits a caption) driven the same way in the
same run. RSS is the bot process's VmRSS; Redis bytes per game are `MEMORY USAGE` of
the game keys.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from bench import waste
from bench.stats import median, pct
from bench.waste import Waste
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import ApiCall, CallbackRecord, StoredMessage

ROOT = Path(__file__).resolve().parent.parent

# What a simple player tries, in order (the plan of tests/bot/test_game_e2e.py).
PLAN = [
    "🎲🎲 Два кубика",
    "🎲 Один кубик",
    "▶ Выставить всё",
    "✅ Закончить ход",
    "📥 Взять из кассы",
    "✅ Заменить",
]
FM_DECLARE = "⭐ Заявить право первого хода"
FM_PASS = "Не использовать"
HAND = "🀄 Мои фишки"
TIMEOUT = 60.0

# The processes measured: the echo baseline, the bot as it is in the working tree
# (pictures in a separate process, the default of `python -m bot`), the same bot with its
# pictures on threads (RENDER_PROCESS=0) or in two processes (`bot2`), and `before`: the
# bot of commit BEFORE_REV, the last one without the fixes of docs/performance.md
# (`BENCH_BEFORE_REV` to change it;
# its bot/, games/, render/ and locales/ are extracted with `git archive`); any
# `rev:<commit>` runs the bot of that commit the same way, `dir:<path>` the bot in a folder;
# `<variant>+unbudgeted` (e.g. `rev:8dbde6d+unbudgeted`) runs it without the send budget.
BEFORE_REV = os.environ.get("BENCH_BEFORE_REV", "fac55af")
VARIANTS: dict[str, tuple[str, dict[str, str]]] = {
    "echo": ("bench.echo_bot", {}),
    "bot": ("bot", {}),
    "threads": ("bot", {"RENDER_PROCESS": "0"}),
    "bot2": ("bot", {"RENDER_PROCESSES": "2"}),  # two render processes
    "before": ("bot", {}),
    "stats": ("bench.patched_bot", {"BENCH_STATS": "1"}),  # logging GC and stalls
    "computers": ("bot", {}),  # the bot, with computer players at half the tables
    "unbudgeted": ("bot", {"TELEGRAM_MESSAGES_PER_SECOND": "0"}),  # no bot-wide send budget
    # computers at half the tables, no budget: what the searches cost the humans' answers
    "computers_unbudgeted": ("bot", {"TELEGRAM_MESSAGES_PER_SECOND": "0"}),
}
#: the computer players of the tables that have them in the `computers` variant
COMPUTERS = ("Мастер", "Опытный")


def checkout(rev: str) -> Path:
    """`bot/ games/ render/ locales/` of `rev`, extracted once into a temporary folder."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short=12", rev],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    target = Path(tempfile.gettempdir()) / f"nastolka-bench-{sha}"
    if not (target / "bot" / "__main__.py").exists():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", sha, "bot", "games", "render", "locales"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def file_safe(kind: str) -> str:
    """A variant's name as part of a file name (`dir:/a/b` → `dir_a_b`)."""
    return re.sub(r"[^\w.-]+", "_", kind)


def root_of(kind: str) -> Path:
    """Where the bot of a variant is: the working tree, the files of a commit (`before`,
    `rev:<commit>`) or a folder holding `bot/ games/ render/ locales/` (`dir:<path>`)."""
    if kind.startswith("dir:"):
        return Path(kind[4:]).resolve()
    if kind == "before" or kind.startswith("rev:"):  # `rev:<commit>`: the bot of a commit
        return checkout(BEFORE_REV if kind == "before" else kind[4:])
    return ROOT


def think_for(games: int) -> tuple[float, float]:
    """Seconds a player waits before his next tap.

    With many games a player taps every 5–15 s (10 on average: half of Telegram's own
    limit of about 20 edits a minute in one group); one or ten games are played by
    quick players (0.3–1 s) so that the idle bot yields enough samples."""
    return (0.3, 1.0) if games <= 10 else (5.0, 15.0)


def think_for_rate(games: int, rate: float) -> tuple[float, float]:
    """A think time for which `games` groups together press about `rate` times a second:
    each group waits `games / rate` seconds on average (half to one and a half of it)."""
    mean = games / rate
    return (0.5 * mean, 1.5 * mean)


# ---------------------------------------------------------------- Redis for the run


def free_port() -> int:
    """A local TCP port nobody listens on (now)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throw-away `redis-server` on a free local port (no persistence); yields its URL."""
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="bench-redis-")
    pidfile = Path(workdir) / "redis.pid"
    subprocess.run(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            workdir,
            "--daemonize",
            "yes",
            "--pidfile",
            str(pidfile),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        client = redis.Redis.from_url(url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        with contextlib.suppress(Exception):
            os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)
        time.sleep(0.2)
        shutil.rmtree(workdir, ignore_errors=True)


def redis_bytes_per_game(url: str, prefix: str) -> tuple[float, int, int]:
    """(mean MEMORY USAGE of a game key, number of game keys, mean value length)."""
    import redis

    client = redis.Redis.from_url(url)
    sizes: list[int] = []
    lengths: list[int] = []
    for key in client.scan_iter(match=f"{prefix}:game:*", count=500):
        usage = client.memory_usage(key, samples=0)
        if usage is not None:
            sizes.append(int(usage))
            lengths.append(int(client.strlen(key)))
    client.close()
    if not sizes:
        return float("nan"), 0, 0
    return sum(sizes) / len(sizes), len(sizes), int(sum(lengths) / len(lengths))


# ---------------------------------------------------------------- the bot process


class BotProcess:
    """`python -m <module>` against the fake server; stdout/stderr go to a log file."""

    def __init__(self, module: str, env: dict[str, str], log_path: Path, root: Path = ROOT) -> None:
        self.module = module
        self.root = root
        self.env = {**os.environ, **env, "PYTHONPATH": f"{root}{os.pathsep}{ROOT}"}
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.orphans: list[int] = []

    def start(self) -> None:
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", self.module],
            cwd=self.root,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def family(self) -> list[int]:
        """The bot's pid and its descendants' (the render process)."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    parents[int(entry.name)] = int(stat[1])
        out = [self.pid]
        for pid in out:
            out.extend(child for child, parent in parents.items() if parent == pid)
        return out

    def rss_bytes(self) -> int:
        """VmRSS of the bot and its render process together."""
        total = 0
        for pid in self.family():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        return total

    def cpu_seconds(self, main_only: bool = False) -> float:
        """CPU of the bot and its render process together (user + system); of the bot's
        own process (its event loop) alone with `main_only`."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in [self.pid] if main_only else self.family():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        return total / ticks

    def errors(self) -> list[str]:
        text = self.log_path.read_text(errors="replace")
        return [x for x in text.splitlines() if " ERROR " in x or "Traceback" in x]

    async def stop(self) -> None:
        if self.proc is None:
            return
        family = self.family() if self.proc.poll() is None else [self.pid]
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            for _ in range(100):
                if self.proc.poll() is not None:
                    break
                await asyncio.sleep(0.1)
            else:
                self.proc.kill()
                self.proc.wait()
        for _ in range(30):  # the render process must end with the bot
            left = [p for p in family[1:] if Path(f"/proc/{p}").exists()]
            if not left:
                break
            await asyncio.sleep(0.1)
        else:
            self.orphans = left
            print(f"  ! {self.module}: processes left after it stopped: {left}", file=sys.stderr)
        self._log.close()


# ---------------------------------------------------------------- measurements


@dataclass
class Samples:
    """What the simulated players saw; only presses made inside the window count."""

    window: tuple[float, float] = (float("inf"), float("inf"))
    answer: list[float] = field(default_factory=list)
    when: list[float] = field(default_factory=list)  # seconds into the window, per answer
    edit: list[float] = field(default_factory=list)
    answered_first: int = 0  # accepted presses whose answer came before the table edit
    accepted: int = 0
    refused: int = 0
    unanswered: int = 0
    no_edit: int = 0
    updates: int = 0  # updates answered in the window (all kinds of presses)
    # (chat, seq) → when the press that brought that version of the table was made
    pressed: dict[tuple[int, int], float] = field(default_factory=dict)

    def inside(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]

    def press(self, rec: CallbackRecord, alert: bool) -> None:
        if not self.inside(rec.created_at):
            return
        if rec.answered_at is None:
            self.unanswered += 1
            return
        self.updates += 1
        self.answer.append(rec.answered_at - rec.created_at)
        self.when.append(rec.created_at - self.window[0])
        if alert:
            self.refused += 1

    def edited(self, rec: CallbackRecord, message: StoredMessage | None) -> None:
        if not self.inside(rec.created_at):
            return
        self.accepted += 1
        if message is None or message.edited_at is None:
            self.no_edit += 1
            return
        self.edit.append(message.edited_at - rec.created_at)
        if rec.answered_at is not None and rec.answered_at <= message.edited_at:
            self.answered_first += 1
        seq = seq_of(data_of(message))
        if seq is not None:
            self.pressed.setdefault((message.chat_id, seq), rec.created_at)

    def pictures(self, media_calls: list[ApiCall]) -> list[float]:
        """Press → the first `editMessageMedia` whose keyboard carries its version."""
        lags: list[float] = []
        seen: set[tuple[int, int]] = set()
        for call in media_calls:
            seq = seq_of(markup_data(call.params.get("reply_markup")))
            if seq is None or not isinstance(call.chat_id, int | str):
                continue
            key = (int(call.chat_id), seq)
            if key in self.pressed and key not in seen:
                seen.add(key)
                lags.append(call.time - self.pressed[key])
        return lags


@dataclass
class Scenario:
    kind: str  # "bot" or "echo"
    games: int
    think: tuple[float, float]
    answer_p50: float = float("nan")
    answer_p99: float = float("nan")
    edit_p50: float = float("nan")
    edit_p99: float = float("nan")
    updates_per_s: float = float("nan")
    bot_cpu: float = float("nan")  # bot process CPU seconds per wall second in the window
    main_cpu: float = float("nan")  # of that, the bot's own process (not the render one)
    rss: int = 0
    redis_per_game: float = float("nan")
    redis_value_len: int = 0
    answered_first: float = float("nan")
    samples: int = 0
    refused: int = 0
    unanswered: int = 0
    no_edit: int = 0
    errors: int = 0
    failed_games: int = 0  # games whose lobby or table never came (setup burst)
    setup_s: float = 0.0
    worst: list[tuple[float, float]] = field(default_factory=list)  # (latency, at second)
    load: float = float("nan")  # the machine's 1-minute load average after the window
    harness_cpu: float = float("nan")  # this process (fake server + players), CPU s per s
    picture_p50: float = float("nan")  # press → the editMessageMedia of its version
    picture_p99: float = float("nan")
    pictures: int = 0  # presses whose version was shown with a picture
    media_per_s: float = float("nan")  # editMessageMedia calls per second in the window
    caption_per_s: float = float("nan")  # editMessageCaption calls per second
    waste: Waste | None = None  # redundant edits and re-uploads (bench/waste.py)
    calls_per_s: dict[str, float] = field(default_factory=dict)  # Bot API calls by method


def data_of(table: StoredMessage) -> list[str | None]:
    return [b.callback_data for row in table.buttons for b in row]


def seq_of(data: list[str | None]) -> int | None:
    """The table version (`seq`) the buttons carry (`P1:<game>:<seq>:<code>`)."""
    for d in data:
        parts = (d or "").split(":")
        if len(parts) == 4 and parts[0] == "P1" and parts[2].isdigit():
            return int(parts[2])
    return None


def markup_data(markup: object) -> list[str | None]:
    """The callback data of an API call's `reply_markup` (a dict, or its JSON)."""
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            return []
    if not isinstance(markup, dict):
        return []
    rows = markup.get("inline_keyboard") or []
    return [b.get("callback_data") for row in rows for b in row if isinstance(b, dict)]


def differs(table: StoredMessage, before: list[str | None]) -> bool:
    return data_of(table) != before


def mover(table: StoredMessage, users: list[User]) -> User | None:
    match = re.search(r"Ходит (.+?):", table.content)
    if not match:
        return None
    name = match.group(1).strip()
    return next((u for u in users if u.full_name == name), None)


class Player:
    """The simulated people of one group."""

    def __init__(
        self,
        tg: FakeTelegram,
        index: int,
        samples: Samples,
        stop: asyncio.Event,
        think: tuple[float, float],
    ) -> None:
        self.tg = tg
        self.users = [
            tg.user(index * 10 + k, name, last_name=f"N{index}")
            for k, name in enumerate(("Аня", "Борис", "Вика"), start=1)
        ]
        self.chat: Chat = tg.group(title=f"Стол {index}", members=self.users)
        self.samples = samples
        self.stop = stop
        self.think = think
        self.rng = random.Random(index)
        self.table: StoredMessage | None = None
        # the first pause is uniform over 0..stagger when set (a steady rate from the start,
        # not a wave of presses one think time after the setup)
        self.stagger = 0.0

    async def setup(self) -> None:
        """Open the group's game and wait until its table is shown."""
        raise NotImplementedError

    async def play(self) -> None:
        """Press buttons until `stop` is set."""
        raise NotImplementedError

    async def pause(self) -> None:
        lo, hi = self.think
        if self.stagger:
            lo, hi, self.stagger = 0.0, self.stagger, 0.0
        if hi > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), self.rng.uniform(lo, hi))

    async def press(self, user: User, label: str | None, data: str | None = None) -> bool | None:
        """Tap a button of the table; True accepted, False refused, None unanswered."""
        assert self.table is not None
        rec = await self.chat.tap(user, self.table, label, by_data=data)
        try:
            answer = await self.tg.answer_of(rec, timeout=TIMEOUT)
        except AssertionError:
            self.samples.press(rec, False)
            return None
        self.samples.press(rec, answer.show_alert)
        return not answer.show_alert

    async def changed(self, before: list[str | None], rec: CallbackRecord | None) -> None:
        """Wait for the table to show the press (its buttons' data change)."""
        table = self.table
        assert table is not None
        try:
            await self.chat.wait_for(lambda: data_of(table) != before, TIMEOUT)
        except TimeoutError:
            if rec is not None:
                self.samples.edited(rec, None)
            return
        if rec is not None:
            self.samples.edited(rec, table)


class GamePlayer(Player):
    """Players of «Семидорожник» on the real bot; with `computers` (level buttons of the
    lobby, «мастер»…) the creator seats those computer players and only one other human
    joins."""

    computers: tuple[str, ...] = ()

    async def setup(self) -> None:
        chat, users = self.chat, self.users
        waiter = chat.wait_message(lambda m: "Новая игра" in m.content, timeout=TIMEOUT)
        await chat.send(users[0], "/new")
        lobby = await waiter
        if self.computers:
            await self.seat_computers(lobby)
        for user in users[1:2] if self.computers else users[1:]:
            rec = await chat.tap(user, lobby, contains="Играть")
            await self.tg.answer_of(rec, timeout=TIMEOUT)
        await chat.wait_for(lambda: any("Начать" in t for t in lobby.button_texts), TIMEOUT)
        waiter = chat.wait_message(lambda m: m.photo is not None, timeout=TIMEOUT)
        rec = await chat.tap(users[0], lobby, contains="Начать")
        await self.tg.answer_of(rec, timeout=TIMEOUT)
        self.table = await waiter

    async def seat_computers(self, lobby: StoredMessage) -> None:
        chat, creator = self.chat, self.users[0]
        for label in ["🤖 Добавить компьютер", *(f"🤖 {x}" for x in self.computers), "Назад"]:
            await chat.wait_for(lambda: any(label in t for t in lobby.button_texts), TIMEOUT)  # noqa: B023
            rec = await chat.tap(creator, lobby, contains=label)
            await self.tg.answer_of(rec, timeout=TIMEOUT)

    async def play(self) -> None:
        while not self.stop.is_set():
            table = self.table
            assert table is not None
            texts = table.button_texts
            if not texts:  # the game is over: a new one in the same group
                await self.setup()
                continue
            await self.pause()
            if self.stop.is_set():
                break
            texts = table.button_texts
            before = data_of(table)
            if FM_PASS in texts:  # the first-move window: everyone declines
                for user in self.users:
                    if FM_PASS not in table.button_texts:
                        break
                    await self.press(user, FM_PASS)
                await self.changed(before, None)
                continue
            actor = mover(table, self.users)
            if actor is None:
                await self.changed(before, None)
                continue
            user = actor
            labels = [x for x in PLAN if x in texts]
            options = [b for b in (table.buttons[0] if table.buttons else []) if b.text != HAND]
            done = False
            for label in labels:
                rec = await self.chat.tap(user, table, label)
                try:
                    answer = await self.tg.answer_of(rec, timeout=TIMEOUT)
                except AssertionError:
                    self.samples.press(rec, False)
                    continue
                self.samples.press(rec, answer.show_alert)
                if not answer.show_alert:
                    await self.changed(before, rec)
                    done = True
                    break
            if not done:  # a rare spot: any other button of the first row, else wait
                choices = [b.callback_data for b in options if b.callback_data]
                if choices:
                    rec = await self.chat.tap(user, table, by_data=self.rng.choice(choices))
                    with contextlib.suppress(AssertionError):
                        answer = await self.tg.answer_of(rec, timeout=TIMEOUT)
                        self.samples.press(rec, answer.show_alert)
                        if not answer.show_alert:
                            await self.changed(before, rec)
                            continue
                await self.press(user, HAND)
                with contextlib.suppress(TimeoutError):
                    await self.chat.wait_for(functools.partial(differs, table, before), 5)


class EchoPlayer(Player):
    """Players of the echo bot: press one of its three buttons, wait for the edit."""

    async def setup(self) -> None:
        waiter = self.chat.wait_message(lambda m: m.photo is not None, timeout=TIMEOUT)
        await self.chat.send(self.users[0], "/new")
        self.table = await waiter

    async def play(self) -> None:
        while not self.stop.is_set():
            await self.pause()
            if self.stop.is_set():
                break
            table = self.table
            assert table is not None
            before = data_of(table)
            choice = self.rng.choice([d for d in before if d])
            user = self.rng.choice(self.users)
            rec = await self.chat.tap(user, table, by_data=choice)
            try:
                answer = await self.tg.answer_of(rec, timeout=TIMEOUT)
            except AssertionError:
                self.samples.press(rec, False)
                continue
            self.samples.press(rec, answer.show_alert)
            await self.changed(before, rec)


def bot_env(
    tg: FakeTelegram, kind: str, redis_url: str, prefix: str, extra: dict[str, str] | None = None
) -> tuple[str, dict[str, str], Path]:
    """The module, environment and folder of a variant's bot against `tg` and Redis."""
    env = {
        "BOT_TOKEN": tg.token,
        "TELEGRAM_API_URL": tg.api_url,
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": prefix,
        "FIRST_MOVE_SECONDS": "2",
    }
    base, unbudgeted, _ = kind.partition("+unbudgeted")
    module, variant = VARIANTS.get(base, ("bot", {}))
    env.update(variant)
    if unbudgeted:
        env.update(VARIANTS["unbudgeted"][1])
    env.update(extra or {})
    return module, env, root_of(base)


@contextlib.asynccontextmanager
async def bot_process(
    tg: FakeTelegram,
    kind: str,
    redis_url: str,
    prefix: str,
    logdir: Path,
    extra: dict[str, str] | None = None,
) -> AsyncIterator[BotProcess]:
    module, env, root = bot_env(tg, kind, redis_url, prefix, extra)
    proc = BotProcess(module, env, logdir / f"{file_safe(kind)}-{prefix}.log", root)
    async with polling(tg, proc, module) as polled:
        yield polled


@contextlib.asynccontextmanager
async def polling(tg: FakeTelegram, proc: BotProcess, name: str) -> AsyncIterator[BotProcess]:
    """`proc` started, from when it polls `tg` until the block ends (then stopped)."""
    proc.start()
    try:
        await tg.wait_for(
            lambda: (
                proc.proc is not None
                and (proc.proc.poll() is not None or tg.server._poller is not None)
            ),
            120,  # a loaded machine imports slowly
        )
        if proc.proc is not None and proc.proc.poll() is not None:
            raise RuntimeError(f"{name} exited: {proc.log_path.read_text()[-2000:]}")
        yield proc
    finally:
        await proc.stop()


class Measured(Protocol):
    """What a window measures of the bot: one process (`BotProcess`) or several."""

    @property
    def pid(self) -> int: ...

    def rss_bytes(self) -> int: ...

    def cpu_seconds(self, main_only: bool = False) -> float: ...

    def errors(self) -> list[str]: ...


def make_players(
    tg: FakeTelegram,
    kind: str,
    indices: range,
    stop: asyncio.Event,
    think: tuple[float, float],
) -> list[Player]:
    """The simulated groups `indices` (numbered from 1) for a variant's bot."""
    cls: type[GamePlayer | EchoPlayer] = EchoPlayer if kind == "echo" else GamePlayer
    players: list[Player] = [cls(tg, i + 1, Samples(), stop, think) for i in indices]
    if kind.startswith("computers"):  # every other table: two humans, a «мастер» and an «опытный»
        for p in players[::2]:
            assert isinstance(p, GamePlayer)
            p.computers = COMPUTERS
    return players


async def set_up(players: list[Player], result: Scenario, concurrency: int = 25) -> list[Player]:
    """Each group opens its game, `concurrency` at a time; the ones whose table came.
    Counts the lost ones and the setup's duration in `result`."""
    started = time.monotonic()
    gate = asyncio.Semaphore(concurrency)

    async def setup(p: Player) -> Player | None:
        async with gate:
            try:
                await p.setup()
            except (TimeoutError, AssertionError, LookupError):
                result.failed_games += 1  # the bot lost it; the others play on
                return None
            return p

    out = [p for p in await asyncio.gather(*(setup(p) for p in players)) if p]
    result.setup_s += time.monotonic() - started
    return out


async def window(
    tg: FakeTelegram,
    proc: Measured,
    players: list[Player],
    result: Scenario,
    *,
    redis_url: str | None,
    prefix: str,
    warmup: float,
    measure: float,
    profile: Path | None = None,
) -> None:
    """Warm up, then measure `players` (playing) for `measure` seconds into `result`; the
    presses of the window are waited for, the players go on. No Redis bytes per game
    without `redis_url`."""
    samples = Samples()
    for p in players:
        p.samples = samples
    gc.collect()
    gc.freeze()  # the harness's own collector must not pause the fake server …
    gc.disable()  # … during the window either (re-enabled below)
    await asyncio.sleep(warmup)
    t0 = time.monotonic()
    samples.window = (t0, t0 + measure)
    cpu0, main0 = proc.cpu_seconds(), proc.cpu_seconds(main_only=True)
    own0 = time.process_time()
    spy: subprocess.Popen[bytes] | None = None
    if profile is not None and shutil.which("py-spy"):
        spy = subprocess.Popen(
            [
                "py-spy",
                "record",
                "--pid",
                str(proc.pid),
                "--duration",
                str(int(measure)),
                "--format",
                "raw",
                "--output",
                str(profile),
                "--nonblocking",
                "--rate",
                "200",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    await asyncio.sleep(measure)
    cpu1, main1 = proc.cpu_seconds(), proc.cpu_seconds(main_only=True)
    result.harness_cpu = (time.process_time() - own0) / measure
    result.rss = proc.rss_bytes()
    result.load = os.getloadavg()[0]
    await asyncio.sleep(min(5.0, max(1.0, result.think[1])))  # presses of the window finish
    if result.kind != "echo" and redis_url is not None:
        # after the window's presses, and off the harness's loop: the scan of every game's
        # key blocked the fake server for up to a second, and the window's last presses
        # waited for their answers and edits behind it (run 18)
        per_game, _, value_len = await asyncio.to_thread(redis_bytes_per_game, redis_url, prefix)
        result.redis_per_game = per_game
        result.redis_value_len = value_len
    gc.enable()
    if spy is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            spy.wait(30)
    result.errors = len(proc.errors())
    lo, hi = samples.window
    media = tg.server.calls_of("editMessageMedia")
    result.media_per_s = sum(lo <= c.time < hi for c in media) / measure
    captions = tg.server.calls_of("editMessageCaption")
    result.caption_per_s = sum(lo <= c.time < hi for c in captions) / measure
    counted = Counter(c.method for c in tg.server.calls if lo <= c.time < hi)
    result.calls_per_s = {m: n / measure for m, n in counted.most_common()}
    lags = samples.pictures(media)
    result.pictures = len(lags)
    result.picture_p50 = median(lags)
    result.picture_p99 = pct(lags, 0.99)
    result.waste = waste.count(tg.server)
    result.answer_p50 = median(samples.answer)
    result.answer_p99 = pct(samples.answer, 0.99)
    result.edit_p50 = median(samples.edit)
    result.edit_p99 = pct(samples.edit, 0.99)
    result.updates_per_s = samples.updates / measure
    result.bot_cpu = (cpu1 - cpu0) / measure
    result.main_cpu = (main1 - main0) / measure
    result.samples = len(samples.answer)
    result.worst = sorted(zip(samples.answer, samples.when, strict=True), reverse=True)[:8]
    result.refused = samples.refused
    result.unanswered = samples.unanswered
    result.no_edit = samples.no_edit
    if samples.accepted:
        result.answered_first = samples.answered_first / samples.accepted


async def stop_players(stop: asyncio.Event, tasks: Sequence[asyncio.Future[None]]) -> None:
    stop.set()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task


async def run_scenario(
    kind: str,
    games: int,
    *,
    redis_url: str,
    warmup: float,
    measure: float,
    think: tuple[float, float],
    logdir: Path,
    profile: Path | None = None,
) -> Scenario:
    prefix = f"bench{secrets.token_hex(3)}"
    result = Scenario(kind=kind, games=games, think=think)
    stop = asyncio.Event()
    async with (
        FakeTelegram(keep_files=False, log_results=False, callback_answer_timeout=120) as tg,
        bot_process(tg, kind, redis_url, prefix, logdir) as proc,
    ):
        players = await set_up(make_players(tg, kind, range(games), stop, think), result)
        tasks = [asyncio.ensure_future(p.play()) for p in players]
        await window(
            tg,
            proc,
            players,
            result,
            redis_url=redis_url,
            prefix=prefix,
            warmup=warmup,
            measure=measure,
            profile=profile,
        )
        await stop_players(stop, tasks)
    return result


def describe(s: Scenario, progress: Callable[[str], None] = print) -> None:
    """A scenario's numbers, a few lines of progress."""
    progress(
        f"    answer p50 {s.answer_p50 * 1e3:.1f} ms p99 {s.answer_p99 * 1e3:.1f} ms, "
        f"edit p50 {s.edit_p50 * 1e3:.1f} ms p99 {s.edit_p99 * 1e3:.1f} ms, "
        f"picture p50 {s.picture_p50 * 1e3:.1f} ms p99 {s.picture_p99 * 1e3:.1f} ms "
        f"(n {s.pictures}), media/caption edits/s {s.media_per_s:.1f}/{s.caption_per_s:.1f}, "
        f"{s.updates_per_s:.0f} upd/s, bot CPU {s.bot_cpu:.2f} (event loop {s.main_cpu:.2f}), "
        f"harness CPU {s.harness_cpu:.2f}, "
        f"RSS {s.rss / 2**20:.0f} MiB, setup {s.setup_s:.1f} s, errors {s.errors}, "
        f"games lost in setup {s.failed_games}, load {s.load:.1f}"
    )
    calls = ", ".join(f"{m} {n:.1f}" for m, n in s.calls_per_s.items())
    progress(f"    calls/s {sum(s.calls_per_s.values()):.1f}: {calls}")
    worst = ", ".join(f"{lat * 1e3:.0f} ms @{at:.1f}s" for lat, at in s.worst)
    progress(f"    slowest answers: {worst}")
    if (w := s.waste) is not None:
        progress(
            f"    not modified: lobby {w.lobby_not_modified}/{w.lobby_edits}, "
            f"table {w.table_not_modified}/{w.table_edits}, other {waste.others(w)}; "
            f"re-uploads {w.reuploads}/{w.uploads}, by file_id {w.by_file_id}"
        )


async def run_all(
    games: list[int],
    *,
    redis_url: str,
    warmup: float,
    measure: float,
    think: tuple[float, float] | None,
    saturate: int,
    logdir: Path,
    variants: tuple[str, ...] = ("echo", "before", "bot"),
    profile_dir: Path | None = None,
    progress: Callable[[str], None] = print,
) -> list[Scenario]:
    out: list[Scenario] = []
    plans: list[tuple[str, int, tuple[float, float]]] = []
    for n in games:
        plans += [(v, n, think or think_for(n)) for v in variants]
    if saturate:
        plans += [(v, saturate, (0.0, 0.0)) for v in variants]
    for kind, n, th in plans:
        profile = None
        if profile_dir is not None and kind != "echo" and (n == max(games) or th == (0.0, 0.0)):
            profile_dir.mkdir(parents=True, exist_ok=True)
            how = "sat" if th == (0.0, 0.0) else "think"
            profile = profile_dir / f"{file_safe(kind)}-{n}-{how}.txt"
        progress(f"  e2e: {kind} bot, {n} games, think {th[0]:g}–{th[1]:g} s …")
        s = await run_scenario(
            kind,
            n,
            redis_url=redis_url,
            warmup=warmup,
            measure=measure,
            think=th,
            logdir=logdir,
            profile=profile,
        )
        describe(s, progress)
        out.append(s)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--measure", type=float, default=15)
    parser.add_argument("--think", type=float, nargs=2, default=None)
    parser.add_argument("--saturate", type=int, default=0)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument(
        "--variants",
        nargs="+",
        default=["echo", "before", "bot"],
        help=f"{', '.join(VARIANTS)}, rev:<commit> or dir:<path> (the bot there); "
        "a `+unbudgeted` suffix runs any of them without the send budget",
    )
    parser.add_argument("--profile", default=None, help="py-spy raw profiles to this dir")
    args = parser.parse_args()
    logdir = Path(tempfile.mkdtemp(prefix="bench-logs-"))

    async def go(url: str) -> list[Scenario]:
        return await run_all(
            args.games,
            redis_url=url,
            warmup=args.warmup,
            measure=args.measure,
            think=(args.think[0], args.think[1]) if args.think else None,
            saturate=args.saturate,
            logdir=logdir,
            variants=tuple(args.variants),
            profile_dir=Path(args.profile) if args.profile else None,
        )

    from bench.report import e2e_table

    if args.redis_url:
        results = asyncio.run(go(args.redis_url))
    else:
        with redis_server() as url:
            results = asyncio.run(go(url))
    print(e2e_table(results))
    print(waste.waste_table(results))
    print(f"logs: {logdir}")


if __name__ == "__main__":
    main()
