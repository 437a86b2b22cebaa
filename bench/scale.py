"""The bot at scale: many games held at a steady press rate, webhook instances behind a
round-robin proxy, one Redis or a Redis Cluster (issue 19, point 4).

    python -m bench.scale --games 1000 5000 10000 --rate 10 --variants unbudgeted bot
    python -m bench.scale --games 200 --rate 60 --instances 1 2 3 [--cluster]

The measurement is `bench/e2e.py`'s (the same players, windows and latencies from the
fake server's clock); what this adds:

- **One bot, growing.** The sizes of `--games` are set up one after another in the same
  bot process (the groups of the first size keep playing while the next ones open their
  games), and each size is measured in its own window. So the bot's RSS per game is
  measured twice: (RSS − the empty bot's RSS) / N and the RSS grown from the previous size
  per game added; Redis's too: `MEMORY USAGE` of the game keys and `INFO used_memory`
  grown since the bot started, / N (every key of a game: record, deadlines, windows…).
- **A steady press rate** (`--rate R`): each group waits N / R seconds on average
  between its presses (half to one and a half of it), so the groups together press about
  R times a second whatever N; the first pause is uniform over 0..N / R (no wave of
  presses one think time after the setup). The turn timer is off (`TURN_SECONDS=0`):
  at one press in 1000 s every turn would time out.
- **Webhook instances** (`--instances K`, 0 = long polling): K bot processes in webhook
  mode on their own ports; Telegram (the fake server) posts every update to one URL, a
  round-robin proxy in this process, which forwards each to the next instance — a load
  balancer's plain round robin.
- **A Redis Cluster** (`--cluster`): three primaries with a replica each, started by
  `tests/bot/cluster.py`'s `LocalCluster`, `REDIS_CLUSTER=1`; used memory summed over the
  primaries.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import secrets
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from aiohttp import web

from bench.e2e import (
    BotProcess,
    Measured,
    Player,
    Scenario,
    bot_env,
    bot_process,
    describe,
    file_safe,
    free_port,
    make_players,
    redis_bytes_per_game,
    redis_server,
    set_up,
    stop_players,
    think_for,
    think_for_rate,
    window,
)
from bench.report import ms, table
from bot.webhook import SECRET_HEADER
from fake_telegram import FakeTelegram


@dataclass
class Scale(Scenario):
    instances: int = 0  # webhook instances (0: one bot, long polling)
    redis: str = "one"  # "one" Redis or a "cluster"
    rate: float = math.nan  # the press rate asked for (presses a second, all groups)
    rss_empty: int = 0  # the bot's RSS before any game
    rss_per_game: float = math.nan  # (RSS − rss_empty) / N
    rss_per_extra: float = math.nan  # RSS grown since the previous size, per game added
    used_per_game: float = math.nan  # INFO used_memory grown since the start, / N
    delivered: list[int] = field(default_factory=list)  # updates the proxy sent to each


# ---------------------------------------------------------------- Redis memory


def used_memory(nodes: list[str]) -> int:
    """INFO used_memory summed over the primaries among `nodes` (Redis URLs)."""
    import redis

    total = 0
    for url in nodes:
        client = redis.Redis.from_url(url)
        try:
            if client.info("replication").get("role") == "master":
                total += int(client.info("memory")["used_memory"])
        finally:
            client.close()
    return total


def game_key_bytes(nodes: list[str], prefix: str) -> tuple[float, int]:
    """(mean MEMORY USAGE of a game key, mean value length) over the primaries."""
    import redis

    weighted = lengths = count = 0.0
    for url in nodes:
        client = redis.Redis.from_url(url)
        try:
            primary = client.info("replication").get("role") == "master"
        finally:
            client.close()
        if primary:
            per_game, n, value_len = redis_bytes_per_game(url, prefix)
            if n:
                weighted += per_game * n
                lengths += value_len * n
                count += n
    return (weighted / count, int(lengths / count)) if count else (math.nan, 0)


@contextlib.contextmanager
def redis_for(cluster: bool, url: str | None) -> Iterator[tuple[str, list[str]]]:
    """(the bot's REDIS_URL, every node's URL): `url`, a throw-away Redis, or a cluster."""
    if url is not None:
        yield url, [url]
    elif not cluster:
        with redis_server() as one:
            yield one, [one]
    else:
        from tests.bot.cluster import LocalCluster, available

        if not available():
            raise SystemExit("--cluster needs redis-server and redis-cli on PATH")
        with tempfile.TemporaryDirectory(prefix="bench-cluster-") as folder:
            nodes = LocalCluster(Path(folder))
            nodes.start()
            try:
                yield nodes.url, [f"redis://127.0.0.1:{p}/0" for p in nodes.ports]
            finally:
                nodes.stop()


# ---------------------------------------------------------------- webhook instances


@contextlib.asynccontextmanager
async def round_robin(upstreams: list[str], port: int) -> AsyncIterator[Counter[int]]:
    """A proxy on `port` posting each request to the next of `upstreams` in turn (body,
    content type and Telegram's secret header), its reply back; 502 when the instance
    cannot be reached (Telegram, the fake server, posts the update again). Yields the
    number of requests each upstream answered."""
    delivered: Counter[int] = Counter()
    turn = itertools.cycle(range(len(upstreams)))
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    keep = ("content-type", SECRET_HEADER.lower())

    async def forward(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() in keep}
        i = next(turn)
        try:
            async with session.post(upstreams[i] + request.path, data=body, headers=headers) as r:
                reply = await r.read()
                delivered[i] += 1
                return web.Response(status=r.status, body=reply, content_type=r.content_type)
        except aiohttp.ClientError:
            return web.Response(status=502)

    app = web.Application(client_max_size=1 << 20)
    app.router.add_post("/{tail:.*}", forward)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield delivered
    finally:
        await runner.cleanup()
        await session.close()


class Fleet:
    """K bot processes measured as one: RSS and CPU summed, errors of all."""

    def __init__(self, procs: list[BotProcess], delivered: Counter[int]) -> None:
        self.procs = procs
        self.delivered = delivered

    @property
    def pid(self) -> int:
        return self.procs[0].pid

    def rss_bytes(self) -> int:
        return sum(p.rss_bytes() for p in self.procs)

    def cpu_seconds(self, main_only: bool = False) -> float:
        return sum(p.cpu_seconds(main_only) for p in self.procs)

    def errors(self) -> list[str]:
        return [line for p in self.procs for line in p.errors()]


async def listening(port: int) -> bool:
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


@contextlib.asynccontextmanager
async def fleet(
    tg: FakeTelegram,
    kind: str,
    redis_url: str,
    prefix: str,
    logdir: Path,
    instances: int,
    extra: dict[str, str],
) -> AsyncIterator[Measured]:
    """The bot under test: one long-polling process (`instances` 0), or `instances`
    webhook processes behind a round-robin proxy."""
    if instances == 0:
        async with bot_process(tg, kind, redis_url, prefix, logdir, extra) as proc:
            yield proc
        return
    ports = [free_port() for _ in range(instances)]
    proxy = free_port()
    secret = secrets.token_hex(16)
    async with round_robin([f"http://127.0.0.1:{p}" for p in ports], proxy) as delivered:
        procs: list[BotProcess] = []
        try:
            for i, port in enumerate(ports):
                hook = {
                    "WEBHOOK_URL": f"http://127.0.0.1:{proxy}",
                    "WEBHOOK_HOST": "127.0.0.1",
                    "WEBHOOK_PORT": str(port),
                    "WEBHOOK_SECRET": secret,
                }
                module, env, root = bot_env(tg, kind, redis_url, prefix, {**extra, **hook})
                log = logdir / f"{file_safe(kind)}-{prefix}-{i}.log"
                procs.append(BotProcess(module, env, log, root))
                procs[-1].start()
            for _ in range(1200):  # a loaded machine imports slowly
                dead = [p for p in procs if p.proc is not None and p.proc.poll() is not None]
                if dead:
                    raise RuntimeError(f"{module} exited: {dead[0].log_path.read_text()[-2000:]}")
                if all([await listening(p) for p in ports]):
                    break
                await asyncio.sleep(0.1)
            else:
                raise RuntimeError(f"{instances} webhook instances did not listen in 120 s")
            yield Fleet(procs, delivered)
        finally:
            for p in procs:
                await p.stop()


# ---------------------------------------------------------------- the run


async def steady_rss(proc: Measured, most: float = 60.0) -> int:
    """The bot's RSS once its render process has warmed up: until two readings 2 s apart
    differ by less than 1 % (at most `most` seconds)."""
    rss = proc.rss_bytes()
    for _ in range(int(most / 2)):
        await asyncio.sleep(2)
        rss, last = proc.rss_bytes(), rss
        if abs(rss - last) < 0.01 * last:
            break
    return rss


async def run_sizes(
    kind: str,
    sizes: list[int],
    *,
    rate: float | None,
    instances: int,
    cluster: bool,
    redis_url: str,
    nodes: list[str],
    warmup: float,
    measure: float,
    logdir: Path,
    concurrency: int,
    progress: Callable[[str], None] = print,
) -> list[Scale]:
    """One bot (or fleet), its games grown through `sizes`, a window measured at each."""
    prefix = f"bench{secrets.token_hex(3)}"
    extra = {"TURN_SECONDS": "0"}
    if cluster:
        extra["REDIS_CLUSTER"] = "1"
    stop = asyncio.Event()
    out: list[Scale] = []
    async with (
        FakeTelegram(keep_files=False, log_results=False, callback_answer_timeout=120) as tg,
        fleet(tg, kind, redis_url, prefix, logdir, instances, extra) as proc,
    ):
        rss_empty = await steady_rss(proc)
        used0 = used_memory(nodes)
        players: list[Player] = []
        tasks: list[asyncio.Future[None]] = []
        made = 0
        before: Scale | None = None
        for n in sizes:
            think = think_for_rate(n, rate) if rate else think_for(n)
            for p in players:  # the groups already playing slow down to keep the rate
                p.think = think
            row = Scale(kind=kind, games=n, think=think, instances=instances, rate=rate or 0)
            row.redis = "cluster" if cluster else "one"
            progress(
                f"  scale: {kind}, {instances or 'polling'} instance(s), {row.redis} Redis, "
                f"{n} games, think {think[0]:g}–{think[1]:g} s: setting up {n - made} …"
            )
            new = make_players(tg, kind, range(made, n), stop, think)
            made = n
            new = await set_up(new, row, concurrency)
            if rate:
                for p in new:
                    p.stagger = sum(think) / 2
            tasks += [asyncio.ensure_future(p.play()) for p in new]
            players += new
            row.failed_games += before.failed_games if before else 0
            await window(
                tg,
                proc,
                players,
                row,
                redis_url=None,
                prefix=prefix,
                warmup=warmup,
                measure=measure,
            )
            row.redis_per_game, row.redis_value_len = game_key_bytes(nodes, prefix)
            row.rss_empty = rss_empty
            row.rss_per_game = (row.rss - rss_empty) / max(1, len(players))
            if before is not None:
                row.rss_per_extra = (row.rss - before.rss) / max(1, n - before.games)
            row.used_per_game = (used_memory(nodes) - used0) / max(1, len(players))
            if isinstance(proc, Fleet):
                row.delivered = [proc.delivered[i] for i in range(instances)]
            describe(row, progress)
            progress(
                f"    setup {row.setup_s:.0f} s; RSS {row.rss / 2**20:.0f} MiB "
                f"(empty {rss_empty / 2**20:.0f}), {row.rss_per_game / 1024:.1f} KB/game; "
                f"Redis {row.used_per_game / 1024:.1f} KB/game used_memory, "
                f"game key {row.redis_per_game / 1024:.1f} KB; delivered {row.delivered}"
            )
            out.append(row)
            before = row
        await stop_players(stop, tasks)
    return out


def scale_table(rows: list[Scale]) -> str:
    def kb(x: float) -> str:
        return "n/a" if math.isnan(x) else f"{x / 1024:.1f}"

    body = []
    for s in rows:
        answers = s.calls_per_s.get("answerCallbackQuery", 0.0)
        cpu_per_update = s.bot_cpu / s.updates_per_s if s.updates_per_s else math.nan
        body.append(
            [
                s.kind,
                str(s.instances or "poll"),
                s.redis,
                str(s.games),
                f"{s.rate:g}" if s.rate else f"{s.think[0]:g}–{s.think[1]:g} s",
                f"{s.setup_s:.0f} ({s.failed_games})",
                f"{ms(s.answer_p50)} / {ms(s.answer_p99)}",
                f"{ms(s.edit_p50)} / {ms(s.edit_p99)}",
                f"{s.updates_per_s:.1f} / {answers:.1f}",
                f"{sum(s.calls_per_s.values()):.1f}",
                f"{s.bot_cpu:.2f}/{s.main_cpu:.2f} ({ms(cpu_per_update)})",
                f"{s.rss / 2**20:.0f}",
                f"{kb(s.rss_per_game)} / {kb(s.rss_per_extra)}",
                f"{kb(s.redis_per_game)} / {kb(s.used_per_game)}",
                f"{s.harness_cpu:.2f}/{s.load:.1f}",
                f"{s.samples}/{s.refused}/{s.unanswered + s.no_edit}",
            ]
        )
    head = [
        "bot",
        "inst",
        "Redis",
        "games",
        "rate/s",
        "setup s (lost)",
        "answer p50/p99 ms",
        "edit p50/p99 ms",
        "upd/s / answers/s",
        "calls/s",
        "CPU s/s all/loop (ms/upd)",
        "RSS MiB",
        "RSS KB/game: all / extra",
        "Redis KB/game: key / used",
        "harness/load",
        "n/refused/lost",
    ]
    return table(head, body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000])
    parser.add_argument("--rate", type=float, default=None, help="presses a second, all groups")
    parser.add_argument("--variants", nargs="+", default=["unbudgeted"])
    parser.add_argument("--instances", type=int, nargs="+", default=[0], help="0: polling")
    parser.add_argument("--cluster", action="store_true", help="a local Redis Cluster")
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--measure", type=float, default=30)
    parser.add_argument("--concurrency", type=int, default=50, help="games set up at a time")
    args = parser.parse_args()
    logdir = Path(tempfile.mkdtemp(prefix="bench-logs-"))
    rows: list[Scale] = []
    for kind in args.variants:
        for k in args.instances:
            with redis_for(args.cluster, args.redis_url) as (url, nodes):
                rows += asyncio.run(
                    run_sizes(
                        kind,
                        args.games,
                        rate=args.rate,
                        instances=k,
                        cluster=args.cluster,
                        redis_url=url,
                        nodes=nodes,
                        warmup=args.warmup,
                        measure=args.measure,
                        logdir=logdir,
                        concurrency=args.concurrency,
                    )
                )
            print(scale_table(rows), flush=True)
    print(f"logs: {logdir}")


if __name__ == "__main__":
    main()
