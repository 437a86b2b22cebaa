"""Per-chat memory over many distinct chats: the bot must not remember chats it is done with.

    python -m bench.chats [--chats 100000] [--store redis|memory] [--redis-url URL]

The real bot — the Dispatcher with the project's routers and error handler, the
GameService and the send limiter on the bot's session — is fed updates in-process
(`dp.feed_update`) through a local Bot API session that answers every call at once (no
HTTP, no fake server; 100,000 chats take 5–30 minutes, `--chats 20000` is a quick look).
Every chat is new. Odd chats play a short life (`/new`, the creator presses «Выйти», the
lobby closes); even chats get one command or press each that is refused or needs no game
(`/rules`, a press of an unknown button, `/leave`, `/cancel` in turn): chats that never
had a game.

Printed at 0, 10k, 50k and 100k chats (scaled to `--chats`): the process's RSS (MB),
the Python heap's live blocks (`sys.getallocatedblocks()`, after a full collection;
`--tracemalloc` adds tracemalloc's current MB, about 5 times slower), and the sizes of
the bot's per-chat structures. The baseline, in the same run and first: the same loop
building the same updates and feeding none (the harness's own memory). The store is a
throw-away `redis-server` (or `--redis-url`, keys under a random prefix, deleted
afterwards), so what grows is the bot and not the stored games; `--store memory` keeps
the games in this process (they stay for GAME_TTL_DAYS by design: `store games` counts
them; `store leases` holds the replies' once-a-while marks, which live 2 minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import secrets
import sys
import time
import tracemalloc
from collections.abc import AsyncGenerator, Iterator
from pathlib import Path
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.enums import ParseMode
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import (
    CallbackQuery,
    Chat,
    ChatMemberMember,
    InlineKeyboardMarkup,
    Message,
    MessageEntity,
    Update,
    User,
)

from bot.app import limit_sends, make_dispatcher
from bot.config import Settings
from bot.presenters import registry
from bot.service import GameService
from bot.storage import MemoryStore, RedisStore, Store

BOT_ID = 700000001
TOKEN = f"{BOT_ID}:bench-chats-token"
DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class LocalSession(BaseSession):
    """A Bot API that answers at once: sendMessage gets a new message id, the rest True."""

    def __init__(self) -> None:
        super().__init__()
        self.next_id = 1
        self.calls = 0
        self.lobbies: dict[int, tuple[int, InlineKeyboardMarkup]] = {}  # taken by the chat

    async def close(self) -> None:
        return None

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        self.calls += 1
        name = method.__api_method__
        result: Any = True
        if name == "getMe":
            result = User(id=BOT_ID, is_bot=True, first_name="Настолка", username="nastolka_bot")
        elif name == "sendMessage":
            chat_id = int(getattr(method, "chat_id", 0))
            self.next_id += 1
            markup = getattr(method, "reply_markup", None)
            if isinstance(markup, InlineKeyboardMarkup):
                self.lobbies[chat_id] = (self.next_id, markup)
            result = Message(
                message_id=self.next_id,
                date=DATE,
                chat=Chat(id=chat_id, type="supergroup"),
                text=str(getattr(method, "text", "")),
            )
        elif name == "getChatMember":
            uid = int(getattr(method, "user_id", 0))
            result = ChatMemberMember(user=User(id=uid, is_bot=False, first_name="Игрок"))
        return result  # type: ignore[no-any-return]

    async def stream_content(
        self,
        url: str,
        headers: dict[str, Any] | None = None,
        timeout: int = 30,
        chunk_size: int = 65536,
        raise_for_status: bool = True,
    ) -> AsyncGenerator[bytes, None]:
        yield b""


class Updates:
    """Telegram's updates for chat number `i` (each chat new, each with its own users)."""

    def __init__(self) -> None:
        self.update_id = 0

    def _next(self) -> int:
        self.update_id += 1
        return self.update_id

    @staticmethod
    def chat(i: int) -> Chat:
        return Chat(id=-(10**12) - i, type="supergroup", title=f"chat {i}")

    @staticmethod
    def user(i: int, k: int = 0) -> User:
        return User(id=10**9 + 2 * i + k, is_bot=False, first_name=f"Игрок {i}")

    def command(self, i: int, text: str, k: int = 0) -> Update:
        word = text.split()[0]
        msg = Message(
            message_id=1,
            date=DATE,
            chat=self.chat(i),
            from_user=self.user(i, k),
            text=text,
            entities=[MessageEntity(type="bot_command", offset=0, length=len(word))],
        )
        return Update(update_id=self._next(), message=msg)

    def press(self, i: int, data: str, message_id: int = 2, k: int = 0) -> Update:
        msg = Message(message_id=message_id, date=DATE, chat=self.chat(i), text="…")
        query = CallbackQuery(
            id=f"q{self.update_id}",
            from_user=self.user(i, k),
            chat_instance=str(i),
            message=msg,
            data=data,
        )
        return Update(update_id=self._next(), callback_query=query)


def leave_button(markup: InlineKeyboardMarkup | None) -> str | None:
    for row in markup.inline_keyboard if markup else []:
        for button in row:
            if button.callback_data and button.callback_data.endswith(":leave:"):
                return button.callback_data
    return None


class Run:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.session = LocalSession()
        self.bot = Bot(
            token=TOKEN,
            session=self.session,
            default=DefaultBotProperties(parse_mode=ParseMode.HTML),
        )
        self.store = store
        self.limiter = limit_sends(self.bot, store, settings)
        self.service = GameService(self.bot, store, settings, registry(settings))
        self.dp = make_dispatcher(self.service, settings)
        self.updates = Updates()

    async def feed(self, update: Update) -> None:
        await self.dp.feed_update(self.bot, update)

    async def chat(self, i: int, feed: bool = True) -> None:
        u = self.updates
        if i % 2:
            new = u.command(i, "/new")
            assert new.message is not None
            if not feed:
                u.press(i, "L1:000000:leave:")
                return
            await self.feed(new)
            message_id, markup = self.session.lobbies.pop(new.message.chat.id, (0, None))
            data = leave_button(markup)
            if data is not None:
                await self.feed(u.press(i, data, message_id))
        else:
            kind = (i // 2) % 4
            if kind == 0:
                update = u.command(i, "/rules")
            elif kind == 1:
                update = u.press(i, "P1:abcdef:1:CD,,,,,,,2")
            else:
                update = u.command(i, "/leave" if kind == 2 else "/cancel")
            if feed:
                await self.feed(update)
                # a reply's keyboard (/rules' «full rules»): the harness keeps it, not the bot
                self.session.lobbies.pop(u.chat(i).id, None)

    async def drain(self) -> None:
        """Wait for the service's background work (lobby edits, table workers)."""
        s = self.service
        for _ in range(10000):
            if not s._bg and not s._workers:
                return
            await asyncio.sleep(0.001)

    def sizes(self) -> dict[str, int]:
        s = self.service
        out = {
            "_locks": len(s._locks),
            "_lobby_locks": len(s._lobby_locks),
            "_dirty": len(s._dirty),
            "_holds": len(s._holds),
            "_workers": len(s._workers),
            "_bg": len(s._bg),
        }
        fsm = getattr(self.dp.fsm.storage, "storage", None)
        out["aiogram fsm"] = len(fsm) if fsm is not None else 0
        out["limiter local"] = sum(len(getattr(self.limiter._local, a)) for a in PER_CHAT_STORE)
        if isinstance(self.store, MemoryStore):
            out["store sent"] = len(self.store._sent)  # flood windows (CHAT_WINDOW_SECONDS)
            out["store deadlines"] = len(self.store._deadlines)
            out["store leases"] = len(self.store._locks)  # incl. replies' 120 s marks
            out["store games"] = len(self.store._data)
        return out


PER_CHAT_STORE = ("_sent", "_deadlines", "_locks")  # MemoryStore's per-chat dicts


def checkpoints(total: int) -> list[int]:
    marks = [0, total // 10, total // 2, total]
    return sorted(set(marks))


async def measure(run: Run, total: int, concurrency: int, feed: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    marks = checkpoints(total)
    done = 0
    t0 = time.perf_counter()

    def snapshot() -> None:
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] / 2**20 if tracemalloc.is_tracing() else 0
        rows.append(
            {
                "chats": done,
                "rss": rss_mb(),
                "traced": traced,
                "blocks": sys.getallocatedblocks(),
                "seconds": time.perf_counter() - t0,
                **run.sizes(),
            }
        )

    snapshot()
    for mark in marks[1:]:
        while done < mark:
            batch = range(done, min(mark, done + concurrency))
            await asyncio.gather(*(run.chat(i, feed) for i in batch))
            done = batch.stop
            if feed:
                await run.drain()
        snapshot()
    return rows


def table(title: str, rows: list[dict[str, Any]], base: list[dict[str, Any]]) -> str:
    fixed = ("chats", "rss", "traced", "blocks", "seconds")
    keys = [k for k in rows[0] if k not in fixed]
    traced = tracemalloc.is_tracing()
    head = ["chats", "RSS MB (Δ)", "baseline Δ", "heap blocks (Δ)", "baseline Δ"]
    head += ["traced MB", "baseline"] if traced else []
    head += ["s", *keys]
    lines = [title, " | ".join(head), " | ".join("---" for _ in head)]
    for row, b in zip(rows, base, strict=True):
        cells = [
            f"{row['chats']:,}",
            f"{row['rss']:.1f} ({row['rss'] - rows[0]['rss']:+.1f})",
            f"{b['rss'] - base[0]['rss']:+.1f}",
            f"{row['blocks']:,} ({row['blocks'] - rows[0]['blocks']:+,})",
            f"{b['blocks'] - base[0]['blocks']:+,}",
            *([f"{row['traced']:.1f}", f"{b['traced']:.1f}"] if traced else []),
            f"{row['seconds']:.0f}",
            *(f"{row[k]:,}" for k in keys),
        ]
        lines.append(" | ".join(cells))
    return "\n".join(lines)


@contextlib.contextmanager
def redis_url(given: str | None) -> Iterator[str]:
    if given:
        yield given
        return
    from bench.e2e import redis_server

    with redis_server() as url:
        yield url


async def go(args: argparse.Namespace, url: str | None) -> str:
    prefix = f"bench-chats-{secrets.token_hex(4)}"
    settings = Settings(
        bot_token=TOKEN,
        redis_prefix=prefix,
        redis_url=url,
        chat_window_seconds=args.window,
    )
    store: Store = (
        RedisStore(url, prefix=prefix, ttl_seconds=3600) if url else MemoryStore(ttl_seconds=3600)
    )
    if args.tracemalloc:
        tracemalloc.start()
    try:
        base = await measure(Run(store, settings), args.chats, args.concurrency, feed=False)
        run = Run(store, settings)
        rows = await measure(run, args.chats, args.concurrency, feed=True)
        await run.service.close()
    finally:
        if isinstance(store, RedisStore):
            keys = [k async for k in store._redis.scan_iter(match=prefix + ":*", count=1000)]
            for start in range(0, len(keys), 1000):
                await store._redis.delete(*keys[start : start + 1000])
        await store.close()
    what = "Redis" if url else "memory (the games stay in this process)"
    return table(
        f"{args.chats:,} distinct chats, store: {what}, {args.concurrency} at a time, "
        f"{run.session.calls:,} Bot API calls answered locally",
        rows,
        base,
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.chats")
    parser.add_argument("--chats", type=int, default=100_000)
    parser.add_argument("--store", choices=["redis", "memory"], default="redis")
    parser.add_argument("--redis-url", default=None, help="default: a throw-away redis-server")
    parser.add_argument("--concurrency", type=int, default=50, help="chats fed at once")
    parser.add_argument("--window", type=float, default=60.0, help="CHAT_WINDOW_SECONDS")
    parser.add_argument("--tracemalloc", action="store_true", help="also trace allocations")
    args = parser.parse_args()
    if args.store == "memory":
        print(asyncio.run(go(args, None)))
        return
    with redis_url(args.redis_url) as url:
        print(asyncio.run(go(args, url)))


if __name__ == "__main__":
    main()
