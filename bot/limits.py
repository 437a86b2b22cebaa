"""Telegram's flood limits per chat, kept on our side: one budget per group shared by
every call that shows in it, and a gentle pace in private chats.

**A group** has one budget of `limit` calls per `window` seconds (Telegram: about 20 a
minute) shared by new messages, edits and — by default, the conservative reading —
deletes (tdlib/td#2592, #3034: "They can edit messages about 20 times per minute in a
specific chat… They share the limit"). Ephemeral messages (seen by one member) and
answers to presses are outside it. What a call may spend depends on what it is
(`Spend`), so the messages that must stay in the chat's history always find room:

- `Spend.GAME` — a message the game needs in the history (a round's summary, the final
  standings, the lobby, the clean-up): it may fill the window, and waits for a slot.
- `Spend.TABLE` — the living table (its edits, or its resending at the bottom): only
  while slots stay free for the game's messages — `reserve` of them less those the game
  already holds in the window, at least one — and evenly: one call a step, a step being
  the window over the table's share of it (the slots left once the game's own messages
  and that reserve are counted: 3.5 s at Telegram's numbers, longer while a lobby's or a
  round's messages fill the window). Spent as fast as it could, the table took its 17
  slots in about 20 s of a lively game and then stood still for 40; paced by a fixed
  step with bursts of two, it ran into the window's wall once the game's messages took
  their share, and a change waited up to 18 s (`python -m bench.pacing`); paced by its
  share, a change waits one step at most. The pace is a virtual clock in this process
  (GCRA: the next slot is due one step after the last, or now); the window itself is
  the store's, shared by every instance. The table never waits here: the sender raises
  `Paced` with the wait, the table worker asks for a round then and edits in the game's
  latest state (latest wins: a burst of moves costs one edit).
- `Spend.TURN` — the table when it alone can tell the player to move that it is his turn
  (he has no copy of his own, `bot/service/table_copy.py`), or shows the game's end: as
  the table, but it may go `TURN_EARLY` of a step before its slot is due (the steps
  after it come that much later: the pace's rate stays the same).
- `Spend.CHATTER` — a reply to a command, a turn ping: only while the window is less
  than half spent (`room`); dropped when that does not come soon enough (a ping at once,
  a reply within its `patience`), so it never takes a slot the game may need.

**A private chat** (Telegram: "avoid more than one message per second in a single chat;
short bursts may go over") gets `private_limit` new messages per `private_window`
seconds (3 per 3 s); edits there are not counted. New messages wait for their slot.

The windows are kept in the store (`Store.reserve_send`), so several instances share
them; when the store is unreachable a window in this process stands in. A slot is taken
right before the HTTP request (after every wait) and counts for the window plus a small
`margin`, so a request that takes a moment to reach Telegram still counts for the whole
of Telegram's window.

`ChatLimiter` is also a request middleware of the bot's session: a counted call that did
not come through the sender (`routed` unset) is charged as a game call, so no call
escapes the budget.

    >>> limiter = ChatLimiter(MemoryStore())
    >>> from aiogram.methods import DeleteMessage, EditMessageCaption, SendMessage
    >>> limiter.charged(SendMessage(chat_id=-100, text="x"))
    -100
    >>> limiter.charged(EditMessageCaption(chat_id=-100, message_id=5, caption="x"))
    -100
    >>> limiter.charged(DeleteMessage(chat_id=-100, message_id=5))
    -100
    >>> limiter.charged(EditMessageCaption(chat_id=42, message_id=5, caption="x")) is None
    True
    >>> limiter.charged(SendMessage(chat_id=42, text="x"))  # a private chat: its own pace
    42
    >>> limiter.room(-100, Spend.GAME), limiter.room(-100, Spend.TABLE)
    (20, 17)
    >>> limiter.room(-100, Spend.CHATTER), limiter.room(42, Spend.CHATTER)
    (10, 3)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from contextvars import ContextVar
from enum import Enum
from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod

from bot.config import Settings
from bot.storage import MemoryStore, Store, StoreUnavailable

log = logging.getLogger(__name__)

NOT_MESSAGES = frozenset({"sendChatAction", "sendInvoice"})
POSTS = ("send", "copyMessage", "forwardMessage")  # calls that post a new message
CHATTER_SHARE = 0.5  # replies and pings use the window only while it is this empty
RESERVE = 3  # slots of a group's window the table leaves to the game's messages
PRIVATE_LIMIT = 3  # new messages to one private chat …
PRIVATE_WINDOW = 3.0  # … per this many seconds (about one a second, short bursts)
MARGIN = 1.0  # seconds a slot outlives the window at most (5% of a short test window)
TURN_EARLY = 0.5  # of a step: how much sooner than its slot a turn change may go

# Set by the sender around its own requests (already charged): the middleware skips them.
routed: ContextVar[bool] = ContextVar("nastolka_routed_send", default=False)


class Spend(Enum):
    """What a call in a chat may spend of the chat's budget (see the module's text)."""

    GAME = "game"
    TABLE = "table"
    TURN = "turn"
    CHATTER = "chatter"

    @property
    def table(self) -> bool:
        return self in (Spend.TABLE, Spend.TURN)


class Paced(Exception):
    """The table may not spend the group's budget now: try again in `wait` seconds,
    with the game's latest state."""

    def __init__(self, chat_id: int, wait: float) -> None:
        super().__init__(f"chat {chat_id}: the table's share of the window is spent")
        self.chat_id = chat_id
        self.wait = wait


def is_ephemeral(method: TelegramMethod[Any]) -> bool:
    """An ephemeral message (Bot API 10.2): seen by one member only, outside the budget."""
    return (
        getattr(method, "ephemeral_message_parameters", None) is not None
        or getattr(method, "receiver_user_id", None) is not None
    )


def posts(method: TelegramMethod[Any]) -> bool:
    """Whether `method` posts a new message (not an ephemeral one)."""
    name = getattr(method, "__api_method__", "")
    return name.startswith(POSTS) and name not in NOT_MESSAGES and not is_ephemeral(method)


def is_group_send(method: TelegramMethod[Any]) -> int | None:
    """The group chat id when `method` posts a new message there, else None."""
    chat_id = getattr(method, "chat_id", None)
    if posts(method) and isinstance(chat_id, int) and chat_id < 0:
        return chat_id
    return None


class ChatLimiter(BaseRequestMiddleware):
    def __init__(
        self,
        store: Store,
        limit: int = 20,
        window: float = 60.0,
        *,
        reserve: int = RESERVE,
        chatter_share: float = CHATTER_SHARE,
        deletes: bool = True,
        private_limit: int = PRIVATE_LIMIT,
        private_window: float = PRIVATE_WINDOW,
    ) -> None:
        self.store = store
        self.limit = limit
        self.window = window
        self.reserve = reserve
        self.chatter_share = chatter_share
        self.deletes = deletes
        self.private_limit = private_limit
        self.private_window = private_window
        self._local = MemoryStore()
        # chat -> this instance's recent slots there: (when, whether for the table)
        self._taken: dict[int, deque[tuple[float, bool]]] = {}
        self._due: dict[int, float] = {}  # group -> when its table's next even slot is due

    def charged(self, method: TelegramMethod[Any]) -> int | None:
        """The chat whose budget `method` spends: a group for a new message, an edit or
        (`deletes`) a delete shown there; a private chat for a new message; else None."""
        chat_id = getattr(method, "chat_id", None)
        if not isinstance(chat_id, int) or is_ephemeral(method):
            return None
        if posts(method):
            return chat_id
        if chat_id > 0:
            return None  # edits and deletes in a private chat: not counted
        name = getattr(method, "__api_method__", "")
        if name.startswith("editMessage") or (self.deletes and name.startswith("delete")):
            return chat_id
        return None

    def room(self, chat_id: int, spend: Spend) -> int:
        """How many calls the chat's window may hold for a call of `spend` to go."""
        if chat_id > 0:
            return self.private_limit
        if spend is Spend.GAME:
            return self.limit
        if spend.table:
            return max(1, self.limit - max(1, self.reserve - self._others(chat_id)))
        return int(self.limit * self.chatter_share)

    @property
    def margin(self) -> float:
        return min(MARGIN, 0.05 * self.window)

    def _recent(self, chat_id: int) -> deque[tuple[float, bool]]:
        """This instance's slots in the chat's current window (a hint: another instance's
        are in the store's count only)."""
        taken = self._taken.get(chat_id)
        if taken is None:
            return deque()
        now = time.monotonic()
        while taken and now - taken[0][0] > self.window:
            taken.popleft()
        return taken

    def _others(self, chat_id: int) -> int:
        """The slots of the chat's window that went to other calls than the table."""
        return sum(1 for _, table in self._recent(chat_id) if not table)

    def roomy(self, chat_id: int) -> bool:
        """Whether the chat's window is less than half spent, by this instance's own
        calls (a hint, not a slot: a second call for one change is then affordable)."""
        return len(self._recent(chat_id)) < self.limit // 2

    def step(self, chat_id: int) -> float:
        """The table's even pace in a group: the window over its share of it (the slots
        it may hold less those the game's messages hold)."""
        share = self.room(chat_id, Spend.TABLE) - self._others(chat_id)
        return self.window / max(1, share)

    async def take(self, chat_id: int, spend: Spend) -> float:
        """Take a slot for a call of `spend`: 0 when taken, else the seconds to wait
        before asking again (`math.inf`: never, for this kind of call)."""
        limit = self.room(chat_id, spend)
        if limit <= 0:
            return float("inf")
        window = (self.private_window if chat_id > 0 else self.window) + self.margin
        paced = spend.table and chat_id < 0
        step = self.step(chat_id) if paced else 0.0
        if paced:  # the table's even pace first
            early = TURN_EARLY * step if spend is Spend.TURN else 0.0
            wait = self._due.get(chat_id, 0.0) - early - time.monotonic()
            if wait > 0:
                return wait
        wait = await self._reserve(chat_id, limit, window)
        if wait <= 0 and chat_id < 0:
            now = time.monotonic()
            if len(self._taken) > 4096:  # groups quiet for a window are forgotten
                self._taken = {
                    c: t for c, t in self._taken.items() if t and now - t[-1][0] < window
                }
                self._due = {c: due for c, due in self._due.items() if c in self._taken}
            self._taken.setdefault(chat_id, deque()).append((now, spend.table))
            if paced:
                self._due[chat_id] = max(self._due.get(chat_id, 0.0), now) + step
        return wait

    async def _reserve(self, key: int, limit: int, window: float) -> float:
        try:
            return await self.store.reserve_send(key, time.time(), limit, window)
        except StoreUnavailable:
            return await self._local.reserve_send(key, time.monotonic(), limit, window)

    async def acquire(self, chat_id: int, spend: Spend = Spend.GAME) -> None:
        """Take a slot, waiting for one when the window is full."""
        while True:
            wait = await self.take(chat_id, spend)
            if wait <= 0:
                return
            log.info("chat %s: its window is full, a %s call waits %.1fs", chat_id, spend, wait)
            await asyncio.sleep(wait)

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
    ) -> Response[Any]:
        chat_id = None if routed.get() else self.charged(method)
        if chat_id is not None:
            await self.acquire(chat_id)
        return await make_request(bot, method)


def chat_limiter(store: Store, settings: Settings) -> ChatLimiter:
    """The per-chat budgets of `settings`."""
    return ChatLimiter(
        store,
        settings.chat_calls_per_minute,
        settings.chat_window_seconds,
        deletes=settings.chat_deletes_counted,
    )
