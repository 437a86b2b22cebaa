"""The game record and the store interface (compare-and-set on `version`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field

from bot.names import display_names, name_of
from locales import get_translator

if TYPE_CHECKING:
    from bot.storage.quarantine import RecordCheck, Unreadable


class Conflict(Exception):
    """The stored version was not the expected one: someone else wrote first."""


class StoreUnavailable(Exception):
    """The store cannot be reached right now (Redis down or unreachable); nothing was
    written. Callers answer "temporarily unavailable" and try again later."""


class RecordStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    CANCELLED = "cancelled"


ACTIVE = (RecordStatus.LOBBY, RecordStatus.PLAYING)  # a lobby open or a game on


class GameRecord(BaseModel):
    """Everything about one chat's game, stored as one JSON value.

    `version` is the store's compare-and-set counter (every write bumps it);
    `seq` changes only when what players can press changes (lobby, moves, menus),
    and callback data carries it, so a double tap or an old button can't apply twice.
    """

    chat_id: int
    uid: str
    game_id: str
    status: RecordStatus = RecordStatus.LOBBY
    version: int = 0
    seq: int = 0
    creator: int
    players: list[int] = Field(default_factory=list)
    names: dict[int, str] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    option_choice: str = ""
    language: str = "ru"
    seed: int = 0
    state: str | None = None
    ui: dict[str, Any] = Field(default_factory=dict)
    log: list[str] = Field(default_factory=list)
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    shown_picture: str | None = None
    shown_text: str | None = None
    shown_seq: int | None = None  # the `seq` the table message's buttons carry
    # (player, from seq, to seq): every change from `from` to `to` was this player's, from
    # his private hand; while `to` is still the game's `seq` his press of the table as it
    # still shows (`from` ≤ shown seq) is taken on the game as it is (bot/old_press.py)
    hand_run: tuple[int, int, int] | None = None
    outbox: list[str] = Field(default_factory=list)
    deadline: float | None = None
    turn_seconds: float | None = None  # the lobby's turn-timer choice (None: the default)
    turn_id: str | None = None
    turn_deadline: float | None = None
    # the decision awaited is simultaneous («Семидорожник»'s first-move window): its
    # deadline is the window's, whose end answers for everyone still silent
    window: bool = False
    reminder_turn: str | None = None  # the turn reminded before its end (bot/turn_reminder.py)
    timeouts: dict[int, int] = Field(default_factory=dict)
    # players this game helped decide (a hint, an undo): not rated for them (set only by
    # bot.memory.keeper.mark_assisted; bot/memory/ratings.py)
    assisted: list[int] = Field(default_factory=list)
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)
    active_at: float | None = None  # a player's last press (None in older records: bot/idle.py)
    end_reason: str | None = None  # why it closed early: "expired" lobby, "abandoned" game
    ping: dict[str, int] = Field(default_factory=dict)  # the turn ping (bot/service/pings.py)
    # its creator's `/pings off`: no turn pings in this game (the chat's switch: an admin's)
    pings_off: bool = False
    # the bot's messages that serve only while the game runs, deleted at its end
    # (bot/service/clean_chat.py)
    transient: list[int] = Field(default_factory=list)
    # player -> his private hand in the group (bot/service/hands.py): {"e": ephemeral id
    # or None after a failed send (fallback), "k": what it shows (no redundant edits)}
    hands: dict[int, dict[str, Any]] = Field(default_factory=dict)
    schema_version: int = 2  # the record format (bot/storage/schema.py; none: 0)
    # computer players (bot/service/computers.py): seat's player id -> level; a game that
    # had one is marked (kept out of ratings); when its next move is due; a seat whose
    # human left, waiting until then for «🤖 Заменить компьютером» before the engine's remove
    computers: dict[int, str] = Field(default_factory=dict)
    with_computers: bool = False
    computer_due: float | None = None
    vacated: dict[int, float] = Field(default_factory=dict)
    # a vacated seat's leave message with «🤖 Заменить компьютером» (player -> message
    # id): its button goes when the seat is freed by the rules or the game ends
    offers: dict[int, int] = Field(default_factory=dict)
    # the computer players' own seed (bot/decisions.py `seed_for`), drawn with `secrets`
    # when the game starts, never derived from `seed`; 0: not drawn yet (an older record:
    # drawn and stored before its first computer decision)
    ai_seed: int = 0
    # the game's replay (bot/memory/steps.py, games/replay.py): the engine's `new` call
    # ("~n" + JSON) and each step since, in order; None once a step could not be captured.
    # Only the steps not stored yet are here: `put` appends them to the game's own step
    # list (`steps_stored` long; `Store.steps` reads them all), so the record read and
    # written at every press stays small however long the game (an older record's steps
    # are all here, stored = 0: its next `put` moves them out)
    steps: list[str] | None = Field(default_factory=list)
    steps_stored: int = 0

    def display_names(self, limit: int | None = None) -> dict[int, str]:
        """The players' names as shown (`bot.names.display_names`): «Игрок N» for a blank
        one, «Аня ¹»/«Аня ²» for two alike, at most `limit` clusters."""
        return display_names(self.players, self.names, get_translator(self.language), limit)

    def name(self, user: int) -> str:
        """One user's shown name (never his id)."""
        return name_of(user, self.players, self.names, get_translator(self.language))


class Store(Protocol):
    """One record per chat; `put` is compare-and-set on `expected` (0 = must not exist)."""

    persistent: bool
    check: RecordCheck | None  # refuses records that can't be played (see `get`)
    on_unreadable: Callable[[Unreadable], None] | None  # told of each value moved aside

    async def get(self, chat_id: int) -> GameRecord | None:
        """The chat's record, or None. A value that does not load (bot/storage/quarantine.py)
        is moved to the chat's quarantine list, reported once to `on_unreadable`, and
        counts as none."""
        ...

    async def quarantined(self, chat_id: int) -> list[bytes]:
        """The chat's values that did not load, as they were stored (oldest first)."""
        ...

    async def claim_notice(self, chat_id: int, uid: str) -> bool:
        """Claim the one notice to the chat that its game `uid` is no longer stored: True
        for the first caller only (across instances and restarts), and never within
        NOTICE_QUIET seconds of another notice about a lost game of the chat."""
        ...

    async def put(self, record: GameRecord, expected: int) -> GameRecord:
        """Write `record` with version `expected + 1`; raise Conflict otherwise."""
        ...

    async def delete(self, chat_id: int, expected: int) -> None: ...

    async def steps(self, record: GameRecord) -> list[str] | None:
        """Every step of `record`'s game (the stored ones, then its own), or None when it
        has no replay (or its stored steps are gone: expired)."""
        ...

    async def chats(self) -> list[int]:
        """Chats that have a stored record (for resuming timers and tables)."""
        ...

    async def mark_started(self, user_id: int) -> None:
        """Remember that a user opened the bot's private chat."""
        ...

    async def has_started(self, user_id: int) -> bool: ...

    async def get_pref(self, key: str) -> str | None:
        """A small lasting preference (e.g. "pings:chat:-100"), None when not set."""
        ...

    async def set_pref(self, key: str, value: str | None) -> None:
        """Set (None: forget) a preference of `get_pref`."""
        ...

    async def expire_prefs(self, keys: list[str], seconds: float | None) -> None:
        """The preferences `keys` go within `seconds` (never later than they would have);
        None: they get their usual lifetime back (the bot was removed from a chat, then
        added back: bot/retention.py)."""
        ...

    async def set_deadline(self, chat_id: int, when: float | None) -> None:
        """Remember when the chat's game next needs the bot (None: it doesn't)."""
        ...

    async def claim_due(self, now: float, lease: float) -> list[int]:
        """Chats whose deadline is at or before `now`, claimed atomically: each is handed
        to one caller only (its deadline moves to `now + lease`, so a caller that dies
        before finishing is replaced by another after the lease)."""
        ...

    async def alive_instances(self, instance: str, ttl: float) -> int:
        """Say that bot instance `instance` is alive for `ttl` seconds; the number of
        instances alive now, this one included (the send budget's share: bot/budget.py)."""
        ...

    async def reserve_send(self, chat_id: int, now: float, limit: int, window: float) -> float:
        """Take a slot of the chat's sliding window of `limit` messages per `window`
        seconds: 0 when taken, else the seconds to wait before asking again."""
        ...

    async def lock(self, name: str, ttl: float) -> str | None:
        """A lease shared by all instances: a token when taken, None when someone holds it
        (it expires after `ttl` seconds if its holder dies)."""
        ...

    async def unlock(self, name: str, token: str) -> None:
        """Give the lease back (only if `token` still holds it)."""
        ...

    async def renew(self, name: str, token: str, ttl: float) -> bool:
        """Hold the lease `ttl` seconds more from now; False if `token` no longer holds
        it (it expired, and another instance may have taken it)."""
        ...

    async def close(self) -> None: ...


def moved_steps(record: GameRecord) -> tuple[GameRecord, list[str], bool]:
    """`record` as it is written (its steps moved out), the steps to append to its game's
    step list, and whether that list starts anew (a game's start, or no replay)."""
    if record.steps is None:
        return record.model_copy(update={"steps_stored": 0}), [], True
    pending = list(record.steps)
    stored = record.model_copy(
        update={"steps": [], "steps_stored": record.steps_stored + len(pending)}
    )
    return stored, pending, record.steps_stored == 0


def next_version(record: GameRecord, expected: int) -> GameRecord:
    return record.model_copy(update={"version": expected + 1, "updated_at": time.time()})
