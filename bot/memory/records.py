"""What the memory keeps, and where: a chat's document, its finished games, their lines.

Per chat (every key under the chat's hash tag, `RedisStore.tag`):
- `…:mem:{chat}:doc` — `ChatMemory` (JSON): this season's ratings, everyone's totals,
  the closed seasons' summaries, who hid from the leaderboards, who asked to be called;
- `…:mem:{chat}:games` — the last `FULL` finished games in full (`GameEntry`, newest
  first): players, seed, options, every step (it replays), standings, duration;
- `…:mem:{chat}:lines` — the last `LINES` games' result lines (`ResultLine`), so a game
  older than the last `FULL` still has its line.
Overall, per game and player: `…:mem:overall:<game>:<player>` — his rating over all chats
(`bot.memory.ratings.Overall`: each chat's part of it, kept `retention` seconds after his
last rated game in that chat, so a chat's part never outlives the chat's own memory; the
key expires with its last part). Per game: `…:mem:{best:<game>}:scores` — the `BEST`
best overall ratings that stand on the all-chats leaderboard (a sorted set player ->
shown score, trimmed at every update: its size never grows past `BEST`), and
`…:mem:{best:<game>}:check` — when each of them must be looked at again (his first part to
go); both of one hash tag (one slot of a cluster), both expiring `retention` after the
game's last rated game anywhere. (The older `…:mem:rating:<game>` hash and
`…:mem:best:<game>` set, which never expired, are read once more and then expire.)

Every key of a chat expires `retention` seconds after the chat's last finished game
(and at most that long after the bot was removed from it: `Keeper.forget_later`).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from pydantic import BaseModel, Field

from bot.memory.seasons import Standing, Summary

# `GameEntry.rating`: the humans rated among themselves, the computers' places ignored;
# rated as teams; not rated — ended by a leave before a real share of moves, or fewer than
# two humans to rate (a computer's seat, an assisted player left out)
RATED_HUMANS, RATED_TEAMS, CUT_SHORT, TOO_FEW = "humans", "teams", "short", "few"

FULL = 200  # games kept in full per chat
BEST = 100  # overall ratings kept in the overall leaderboard of a game
LINES = 1000  # result lines kept per chat


class Change(BaseModel):
    """What a game did to a player's rating (this season, in this chat)."""

    delta: int
    score: int  # shown score after the game
    rank: int  # his place in the season's leaderboard of this game
    provisional: bool = False
    damped: bool = False  # moved less: few different opponents lately (ratings.damping)


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
    # how it was rated (RATED_*: "" of humans alone, or an older entry), and who not
    rating: str = ""
    assisted: list[int] = Field(default_factory=list)  # helped (a hint...): unrated for them

    @property
    def length(self) -> int:
        return max(0, len(self.steps or []) - 1)


class GameStats(BaseModel):
    """A player's totals in one game (all seasons)."""

    games: int = 0
    wins: int = 0
    computers: int = 0  # games with a computer player, not rated for him
    places: dict[int, int] = Field(default_factory=dict)  # place -> times
    best_score: int | None = None  # the highest score he made
    low_score: int | None = None  # the lowest (kept since issue 31; older totals lack it)

    def best(self, lower_wins: bool) -> int | None:
        """His best score: the lowest where a lower score wins (`Game.lower_score_wins`:
        «Семидорожник»), else the highest."""
        return self.low_score if lower_wins else self.best_score


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
    async def overall(self, game_id: str, players: list[int], keep: int) -> dict[int, str]:
        """The players' stored overall ratings (`Overall` JSON, or an older plain rating:
        the older ones then expire within `keep` seconds)."""
        ...

    async def set_overall(self, game_id: str, values: dict[int, tuple[str, int]]) -> None:
        """Store overall ratings: player -> (`Overall` JSON, seconds it is kept)."""
        ...

    async def rank(
        self, game_id: str, scores: dict[int, tuple[int, float]], drop: list[int], keep: int
    ) -> None:
        """Put players on the game's all-chats leaderboard (player -> (shown score, when
        to look at him again)), take `drop` off it, keep its `BEST` best; the board is
        kept `keep` seconds."""
        ...

    async def due(self, game_id: str, now: float, count: int) -> list[int]:
        """Up to `count` players of the leaderboard to look at again by `now`."""
        ...

    async def best(self, game_id: str, count: int) -> list[tuple[int, int]]:
        """The game's best overall (player, shown score), best first."""
        ...

    async def expire(self, chat_id: int, ttl: int) -> None: ...


# KEYS: the board's scores and its times to look again (one hash tag). ARGV: seconds the
# board is kept, BEST, the count of players put, then (player, score, when) each, the
# count dropped, then each player dropped.
BOARD = """
local keep, best = tonumber(ARGV[1]), tonumber(ARGV[2])
local i = 4
for _ = 1, tonumber(ARGV[3]) do
  redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
  redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i])
  i = i + 3
end
local dropped = tonumber(ARGV[i])
for j = i + 1, i + dropped do
  redis.call('ZREM', KEYS[1], ARGV[j])
  redis.call('ZREM', KEYS[2], ARGV[j])
end
local extra = redis.call('ZRANGE', KEYS[1], 0, -best - 1)
for _, m in ipairs(extra) do redis.call('ZREM', KEYS[2], m) end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -best - 1)
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then redis.call('EXPIRE', key, keep) end
end
return 1
"""


class RedisBackend:
    def __init__(self, redis: Any, prefix: str, tag: str = "{%d}") -> None:
        self.r = redis
        self.prefix = prefix
        self.tag = tag
        self._board: Any = redis.register_script(BOARD)
        self._older: set[str] = set()  # older keys already given their expiry

    def key(self, chat_id: int, kind: str) -> str:
        return f"{self.prefix}:mem:{self.tag % chat_id}:{kind}"

    def overall_key(self, game_id: str, player: int) -> str:
        return f"{self.prefix}:mem:overall:{game_id}:{player}"

    def board_keys(self, game_id: str) -> list[str]:
        """The all-chats leaderboard's scores and times to look again (one slot)."""
        return [f"{self.prefix}:mem:{{best:{game_id}}}:{kind}" for kind in ("scores", "check")]

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

    async def _older_expire(self, key: str, keep: int) -> None:
        """An older key that never expired goes within `keep` seconds (once a process)."""
        if key in self._older:
            return
        if await self.r.ttl(key) == -1:
            await self.r.expire(key, keep)
        self._older.add(key)

    async def overall(self, game_id: str, players: list[int], keep: int) -> dict[int, str]:
        out: dict[int, str] = {}
        for p in players:
            raw = await self.r.get(self.overall_key(game_id, p))
            if raw is not None:
                out[p] = str(raw)
        missing = [p for p in players if p not in out]
        if missing:
            older = f"{self.prefix}:mem:rating:{game_id}"
            values = await self.r.hmget(older, [str(p) for p in missing])
            out.update({p: str(v) for p, v in zip(missing, values, strict=True) if v is not None})
            await self._older_expire(older, keep)
        return out

    async def set_overall(self, game_id: str, values: dict[int, tuple[str, int]]) -> None:
        for p, (raw, seconds) in values.items():
            await self.r.set(self.overall_key(game_id, p), raw, ex=max(1, seconds))

    async def rank(
        self, game_id: str, scores: dict[int, tuple[int, float]], drop: list[int], keep: int
    ) -> None:
        if not scores and not drop:
            return
        args: list[Any] = [keep, BEST, len(scores)]
        for p, (score, when) in scores.items():
            args += [str(p), score, repr(float(when))]
        args += [len(drop), *(str(p) for p in drop)]
        await self._board(keys=self.board_keys(game_id), args=args)
        await self._older_expire(f"{self.prefix}:mem:best:{game_id}", keep)

    async def due(self, game_id: str, now: float, count: int) -> list[int]:
        rows = await self.r.zrangebyscore(
            self.board_keys(game_id)[1], "-inf", repr(float(now)), start=0, num=count
        )
        return [int(p) for p in rows]

    async def best(self, game_id: str, count: int) -> list[tuple[int, int]]:
        rows = await self.r.zrevrange(self.board_keys(game_id)[0], 0, count - 1, withscores=True)
        return [(int(p), int(score)) for p, score in rows]

    async def expire(self, chat_id: int, ttl: int) -> None:
        for kind in ("doc", "games", "lines"):
            key = self.key(chat_id, kind)
            current = await self.r.ttl(key)
            if current is None or current < 0 or current > ttl:
                await self.r.expire(key, ttl)


class MemoryBackend:
    """The same in this process (the in-memory store; tests). A chat's keys don't expire
    (the process's life is shorter than any retention); the overall ratings and the
    leaderboards do, as in Redis, by this process's clock."""

    def __init__(self) -> None:
        self.docs: dict[int, str] = {}
        self.full: dict[int, list[str]] = {}
        self.result_lines: dict[int, list[str]] = {}
        # game -> player -> (Overall JSON, when it expires)
        self.overall_ratings: dict[str, dict[int, tuple[str, float]]] = {}
        # game -> (player -> (score, when to look again), when the board expires)
        self.boards: dict[str, tuple[dict[int, tuple[int, float]], float]] = {}
        self.clock = time.time

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

    async def overall(self, game_id: str, players: list[int], keep: int) -> dict[int, str]:
        table = self.overall_ratings.get(game_id, {})
        now = self.clock()
        for p in [p for p, (_, until) in table.items() if until <= now]:
            del table[p]
        return {p: table[p][0] for p in players if p in table}

    async def set_overall(self, game_id: str, values: dict[int, tuple[str, int]]) -> None:
        table = self.overall_ratings.setdefault(game_id, {})
        now = self.clock()
        table.update({p: (raw, now + max(1, s)) for p, (raw, s) in values.items()})

    def _board(self, game_id: str) -> dict[int, tuple[int, float]]:
        board, until = self.boards.get(game_id, ({}, 0.0))
        return board if until > self.clock() else {}

    async def rank(
        self, game_id: str, scores: dict[int, tuple[int, float]], drop: list[int], keep: int
    ) -> None:
        if not scores and not drop:
            return
        board = self._board(game_id)
        board.update(scores)
        for p in drop:
            board.pop(p, None)
        worst = sorted(board.items(), key=lambda x: (x[1][0], x[0]))[: max(0, len(board) - BEST)]
        for p, _ in worst:
            del board[p]
        self.boards[game_id] = (board, self.clock() + keep)

    async def due(self, game_id: str, now: float, count: int) -> list[int]:
        board = self._board(game_id)
        due = [p for p, (_, when) in board.items() if when <= now]
        return sorted(due, key=lambda p: board[p][1])[:count]

    async def best(self, game_id: str, count: int) -> list[tuple[int, int]]:
        board = self._board(game_id)
        rows = sorted(board.items(), key=lambda x: (-x[1][0], -x[0]))[:count]
        return [(p, score) for p, (score, _) in rows]

    async def expire(self, chat_id: int, ttl: int) -> None:
        return None
