"""What the memory keeps, and where: a chat's document, its finished games, their lines.

Per chat (every key under the chat's hash tag, `RedisStore.tag`):
- `…:mem:{chat}:doc` — `ChatMemory` (JSON): this season's ratings, everyone's totals,
  the closed seasons' summaries, who hid from the leaderboards, who asked to be called;
- `…:mem:{chat}:games` — the last `FULL` finished games in full (`GameEntry`, newest
  first): players, seed, options, every step (it replays), standings, duration;
- `…:mem:{chat}:lines` — the last `LINES` games' result lines (`ResultLine`), so a game
  older than the last `FULL` still has its line.
Overall, per game: `…:mem:rating:<game>` — a hash player -> rating, over all chats;
`…:mem:best:<game>` — the `BEST` best overall ratings (a sorted set player -> shown
score, trimmed at every update: its size never grows past `BEST`).

Every key of a chat expires `retention` seconds after the chat's last finished game
(and at most that long after the bot was removed from it: `Keeper.forget_later`).
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field

from bot.memory.ratings import Rating
from bot.memory.seasons import Standing, Summary

FULL = 200  # games kept in full per chat
BEST = 100  # overall ratings kept in the overall leaderboard of a game
LINES = 1000  # result lines kept per chat


class Change(BaseModel):
    """What a game did to a player's rating (this season, in this chat)."""

    delta: int
    score: int  # shown score after the game
    rank: int  # his place in the season's leaderboard of this game
    provisional: bool = False


class ResultLine(BaseModel):
    n: int  # the chat's game number
    game_id: str
    ended_at: float
    standings: list[tuple[int, int, int]]  # (player, place, score)
    computers: bool = False


class GameEntry(ResultLine):
    uid: str
    option_choice: str = ""
    options: dict[str, Any] = Field(default_factory=dict)
    names: dict[int, str] = Field(default_factory=dict)
    levels: dict[int, str] = Field(default_factory=dict)  # computer seat -> level
    steps: list[str] | None = None  # the engine's `new` call, then every step
    started_at: float = 0.0
    changes: dict[int, Change] = Field(default_factory=dict)

    @property
    def length(self) -> int:
        return max(0, len(self.steps or []) - 1)


class GameStats(BaseModel):
    """A player's totals in one game (all seasons)."""

    games: int = 0
    wins: int = 0
    computers: int = 0  # games with a computer player (never rated)
    places: dict[int, int] = Field(default_factory=dict)  # place -> times
    best_score: int | None = None


class ChatMemory(BaseModel):
    season: str = ""
    length: str = "quarter"
    count: int = 0  # finished games recorded
    ratings: dict[str, dict[int, Standing]] = Field(default_factory=dict)
    stats: dict[int, dict[str, GameStats]] = Field(default_factory=dict)
    names: dict[int, str] = Field(default_factory=dict)
    hidden: list[int] = Field(default_factory=list)
    notify: list[int] = Field(default_factory=list)
    title: str = ""
    seasons: list[Summary] = Field(default_factory=list)
    language: str = "ru"


class Backend(Protocol):
    async def get_doc(self, chat_id: int) -> str | None: ...
    async def put_doc(self, chat_id: int, doc: str, ttl: int) -> None: ...
    async def push_game(self, chat_id: int, entry: str, line: str, ttl: int) -> None: ...
    async def games(self, chat_id: int, count: int) -> list[str]: ...
    async def game_at(self, chat_id: int, index: int) -> str | None: ...
    async def lines(self, chat_id: int, count: int) -> list[str]: ...
    async def ratings(self, game_id: str, players: list[int]) -> dict[int, str]: ...
    async def set_ratings(self, game_id: str, values: dict[int, str]) -> None: ...
    async def rank(self, game_id: str, scores: dict[int, int]) -> None: ...
    async def best(self, game_id: str, count: int) -> list[tuple[int, int]]: ...
    async def expire(self, chat_id: int, ttl: int) -> None: ...


class RedisBackend:
    def __init__(self, redis: Any, prefix: str, tag: str = "{%d}") -> None:
        self.r = redis
        self.prefix = prefix
        self.tag = tag

    def key(self, chat_id: int, kind: str) -> str:
        return f"{self.prefix}:mem:{self.tag % chat_id}:{kind}"

    async def get_doc(self, chat_id: int) -> str | None:
        raw = await self.r.get(self.key(chat_id, "doc"))
        return None if raw is None else str(raw)

    async def put_doc(self, chat_id: int, doc: str, ttl: int) -> None:
        await self.r.set(self.key(chat_id, "doc"), doc, ex=ttl)

    async def push_game(self, chat_id: int, entry: str, line: str, ttl: int) -> None:
        games, lines = self.key(chat_id, "games"), self.key(chat_id, "lines")
        pipe = self.r.pipeline(transaction=True)
        pipe.lpush(games, entry)
        pipe.ltrim(games, 0, FULL - 1)
        pipe.expire(games, ttl)
        pipe.lpush(lines, line)
        pipe.ltrim(lines, 0, LINES - 1)
        pipe.expire(lines, ttl)
        await pipe.execute()

    async def games(self, chat_id: int, count: int) -> list[str]:
        return [str(x) for x in await self.r.lrange(self.key(chat_id, "games"), 0, count - 1)]

    async def game_at(self, chat_id: int, index: int) -> str | None:
        """The finished game `index` places from the newest (0), None past the last."""
        raw = await self.r.lindex(self.key(chat_id, "games"), index)
        return None if raw is None else str(raw)

    async def lines(self, chat_id: int, count: int) -> list[str]:
        return [str(x) for x in await self.r.lrange(self.key(chat_id, "lines"), 0, count - 1)]

    async def ratings(self, game_id: str, players: list[int]) -> dict[int, str]:
        if not players:
            return {}
        values = await self.r.hmget(
            f"{self.prefix}:mem:rating:{game_id}", [str(p) for p in players]
        )
        return {p: str(v) for p, v in zip(players, values, strict=True) if v is not None}

    async def set_ratings(self, game_id: str, values: dict[int, str]) -> None:
        if values:
            await self.r.hset(
                f"{self.prefix}:mem:rating:{game_id}",
                mapping={str(k): v for k, v in values.items()},
            )

    async def rank(self, game_id: str, scores: dict[int, int]) -> None:
        """Put the players' new overall scores on the game's overall leaderboard, keep
        its `BEST` best."""
        if not scores:
            return
        key = f"{self.prefix}:mem:best:{game_id}"
        pipe = self.r.pipeline(transaction=True)
        pipe.zadd(key, {str(p): score for p, score in scores.items()})
        pipe.zremrangebyrank(key, 0, -BEST - 1)
        await pipe.execute()

    async def best(self, game_id: str, count: int) -> list[tuple[int, int]]:
        """The game's best overall (player, shown score), best first."""
        rows = await self.r.zrevrange(
            f"{self.prefix}:mem:best:{game_id}", 0, count - 1, withscores=True
        )
        return [(int(p), int(score)) for p, score in rows]

    async def expire(self, chat_id: int, ttl: int) -> None:
        for kind in ("doc", "games", "lines"):
            key = self.key(chat_id, kind)
            current = await self.r.ttl(key)
            if current is None or current < 0 or current > ttl:
                await self.r.expire(key, ttl)


class MemoryBackend:
    """The same in this process (the in-memory store; tests). No expiry: the process's
    life is shorter than any retention."""

    def __init__(self) -> None:
        self.docs: dict[int, str] = {}
        self.full: dict[int, list[str]] = {}
        self.result_lines: dict[int, list[str]] = {}
        self.overall: dict[str, dict[int, str]] = {}
        self.leaders: dict[str, dict[int, int]] = {}

    async def get_doc(self, chat_id: int) -> str | None:
        return self.docs.get(chat_id)

    async def put_doc(self, chat_id: int, doc: str, ttl: int) -> None:
        self.docs[chat_id] = doc

    async def push_game(self, chat_id: int, entry: str, line: str, ttl: int) -> None:
        self.full[chat_id] = [entry, *self.full.get(chat_id, [])][:FULL]
        self.result_lines[chat_id] = [line, *self.result_lines.get(chat_id, [])][:LINES]

    async def games(self, chat_id: int, count: int) -> list[str]:
        return self.full.get(chat_id, [])[:count]

    async def game_at(self, chat_id: int, index: int) -> str | None:
        kept = self.full.get(chat_id, [])
        return kept[index] if 0 <= index < len(kept) else None

    async def lines(self, chat_id: int, count: int) -> list[str]:
        return self.result_lines.get(chat_id, [])[:count]

    async def ratings(self, game_id: str, players: list[int]) -> dict[int, str]:
        table = self.overall.get(game_id, {})
        return {p: table[p] for p in players if p in table}

    async def set_ratings(self, game_id: str, values: dict[int, str]) -> None:
        self.overall.setdefault(game_id, {}).update(values)

    async def rank(self, game_id: str, scores: dict[int, int]) -> None:
        board = self.leaders.setdefault(game_id, {})
        board.update(scores)
        for p, _ in sorted(board.items(), key=lambda x: (x[1], x[0]))[: max(0, len(board) - BEST)]:
            del board[p]

    async def best(self, game_id: str, count: int) -> list[tuple[int, int]]:
        board = self.leaders.get(game_id, {})
        return sorted(board.items(), key=lambda x: (-x[1], -x[0]))[:count]

    async def expire(self, chat_id: int, ttl: int) -> None:
        return None


def overall_rating(raw: str | None) -> Rating:
    return Rating() if raw is None else Rating.model_validate_json(raw)
