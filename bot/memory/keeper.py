"""The chat's memory at work: a finished game is recorded once (`Keeper.finish`, from the
table worker before the final standings go out, so they show the rating changes and what
was not rated, and why), the season rolls over, and the commands read it
(bot/handlers/memory.py). Who is rated and how: bot/memory/ratings.py."""

from __future__ import annotations

import asyncio
import logging
import math
import weakref
from typing import TYPE_CHECKING, Any

from bot.memory import ratings as rt
from bot.memory.ratings import Overall
from bot.memory.records import (
    CUT_SHORT,
    RATED_HUMANS,
    RATED_TEAMS,
    TOO_FEW,
    Backend,
    Change,
    ChatMemory,
    GameEntry,
    GameStats,
    MemoryBackend,
    RedisBackend,
    ResultLine,
)
from bot.memory.seasons import Standing, Summary, carried_over, leaders, season_of, summarise
from bot.storage import GameRecord, RecordStatus, RedisStore, StoreUnavailable
from games.players import is_computer
from locales import Translator

if TYPE_CHECKING:
    from bot.service.context import Context

log = logging.getLogger(__name__)

LOCK_SECONDS = 10.0
_KEEPERS: weakref.WeakKeyDictionary[Context, Keeper] = weakref.WeakKeyDictionary()


def number(n: int) -> str:
    """A score as Russians write it: «1 312» (a no-break space between thousands).

    >>> number(1312), number(-5)
    ('1\\xa0312', '-5')
    """
    return f"{n:,}".replace(",", "\u00a0")


def mark_assisted(rec: GameRecord, player: int) -> None:
    """The running game helped `player` decide (a hint, an undo...): it will not be rated
    for him (the others are still rated among themselves). The caller stores `rec`."""
    if player not in rec.assisted:
        rec.assisted.append(player)


def sides_of(state: Any) -> dict[int, int] | None:
    """ДОМИНА*С's teams: player -> side, when seats share a side (its state's `side_of`);
    None for a game of each for himself.

    >>> from types import SimpleNamespace as S
    >>> sides_of(S(players=[5, 6, 7, 8], side_of=[0, 1, 0, 1])), sides_of(S(players=[5, 6]))
    ({5: 0, 6: 1, 7: 0, 8: 1}, None)
    >>> sides_of(S(players=[5, 6], side_of=[0, 1]))
    """
    side_of, players = getattr(state, "side_of", None), getattr(state, "players", None)
    if not isinstance(side_of, list) or not isinstance(players, list):
        return None
    if len(set(side_of)) == len(side_of) or len(side_of) != len(players):
        return None
    return dict(zip(players, side_of, strict=True))


def memory_of(ctx: Context) -> Keeper:
    """The memory part of a service (one per `Context`)."""
    found = _KEEPERS.get(ctx)
    if found is None:
        found = _KEEPERS[ctx] = Keeper(ctx)
    return found


class Keeper:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        store = ctx.store
        self.backend: Backend
        if isinstance(store, RedisStore):
            self.backend = RedisBackend(store.client, store.prefix)
        else:
            self.backend = MemoryBackend()
        self.retention = int(ctx.settings.memory_retention_days * 86400)

    # ------------------------------------------------------------------ the document

    async def load(self, chat_id: int) -> ChatMemory:
        raw = await self.backend.get_doc(chat_id)
        return ChatMemory() if raw is None else ChatMemory.model_validate_json(raw)

    async def save(self, chat_id: int, doc: ChatMemory) -> None:
        await self.backend.put_doc(chat_id, doc.model_dump_json(), self.retention)

    async def _locked(self, chat_id: int) -> str:
        loop = asyncio.get_running_loop()
        end = loop.time() + LOCK_SECONDS
        while True:
            token = await self.ctx.store.lock(f"memory:{chat_id}", LOCK_SECONDS)
            if token is not None:
                return token
            if loop.time() > end:
                raise StoreUnavailable("the chat's memory is held by someone else")
            await asyncio.sleep(0.05)

    async def change(self, chat_id: int, edit: Any) -> ChatMemory:
        """Read, `edit(doc)` (it may return a season summary to tell), write: under the
        chat's memory lease, the season rolled over first."""
        token = await self._locked(chat_id)
        try:
            doc = await self.load(chat_id)
            summary = self.roll(doc)
            edit(doc)
            await self.save(chat_id, doc)
        finally:
            await self.ctx.store.unlock(f"memory:{chat_id}", token)
        if summary is not None:
            self.ctx.spawn(self.ctx.send(chat_id, self.summary_text(summary, doc)))
        return doc

    def roll(self, doc: ChatMemory) -> Summary | None:
        """Close the season if it has ended: its summary (None when nothing to tell)."""
        now = season_of(self.ctx.clock(), doc.length)
        if doc.season == now:
            return None
        old, doc.season = doc.season, now
        if not old or not any(s.games for table in doc.ratings.values() for s in table.values()):
            return None
        summary = summarise(old, doc.ratings, set(doc.hidden))
        doc.seasons.append(summary)
        doc.ratings = carried_over(doc.ratings)
        return summary

    # ------------------------------------------------------------------ a finished game

    async def finish(self, rec: GameRecord) -> list[str]:
        """Record the finished game `rec` once (later calls find it) and return the lines
        the final standings show about the ratings: the changes, or why it is not rated
        (ratings.py says who is rated and how)."""
        if rec.status != RecordStatus.OVER or rec.state is None:
            return []
        p = self.ctx.presenters.get(rec.game_id)
        if p is None:
            return []
        state = p.load(rec.state)
        if not p.game.is_over(state):
            return []
        t = self.ctx.t(rec.language)
        newest = await self.backend.games(rec.chat_id, 1)
        if newest:
            entry = GameEntry.model_validate_json(newest[0])
            if entry.uid == rec.uid:
                return self.change_lines(entry, t)
        result = p.game.result(state)
        now = self.ctx.clock()
        token = await self._locked(rec.chat_id)
        try:
            newest = await self.backend.games(rec.chat_id, 1)
            if newest and GameEntry.model_validate_json(newest[0]).uid == rec.uid:
                return self.change_lines(GameEntry.model_validate_json(newest[0]), t)
            doc = await self.load(rec.chat_id)
            summary = self.roll(doc)
            doc.language = rec.language
            standings = [(s.player, s.place, s.score) for s in result.standings]
            computers = rec.with_computers or any(is_computer(x) for x, _, _ in standings)
            entry = GameEntry(
                n=doc.count + 1,
                uid=rec.uid,
                game_id=rec.game_id,
                ended_at=now,
                standings=standings,
                computers=computers,
                option_choice=rec.option_choice,
                options=dict(rec.options),
                names={x: rec.name(x) for x, _, _ in standings if not is_computer(x)},
                levels=dict(rec.computers),
                steps=await self.ctx.store.steps(rec),
                started_at=rec.created_at,
            )
            doc.count += 1
            doc.names.update(entry.names)
            places = {x: place for x, place, _ in standings}
            entry.assisted = [x for x in rec.assisted if x in entry.names]
            # a human's seat handed to a computer is the computer's: its place is ignored
            unrated = {*rec.computers, *entry.assisted}
            teams = sides_of(state)
            sides = rt.rated_sides(places, unrated, teams)
            if rt.cut_short(rec.game_id, entry.steps, len(standings)):
                entry.rating = CUT_SHORT
            elif not sides:
                entry.rating = TOO_FEW if computers or entry.assisted else ""
            else:
                entry.rating = RATED_TEAMS if teams else RATED_HUMANS if computers else ""
                entry.changes = await self._rate(doc, rec.chat_id, rec.game_id, sides, now)
            # a solo player's private chat has games with computers alone: there they
            # count as his games (/stats in private), never rated
            apart = computers and rec.chat_id < 0
            self._count(doc, rec.game_id, standings, apart, set(entry.changes))
            line = ResultLine(**entry.model_dump(include=set(ResultLine.model_fields)))
            await self.backend.push_game(
                rec.chat_id, entry.model_dump_json(), line.model_dump_json(), self.retention
            )
            await self.save(rec.chat_id, doc)
        finally:
            await self.ctx.store.unlock(f"memory:{rec.chat_id}", token)
        if summary is not None:
            self.ctx.spawn(self.ctx.send(rec.chat_id, self.summary_text(summary, doc)))
        return self.change_lines(entry, t)

    async def _rate(
        self, doc: ChatMemory, chat_id: int, game_id: str, sides: list[rt.Side], now: float
    ) -> dict[int, Change]:
        """Rate `sides` (bot.memory.ratings.rated_sides) in the chat's season and overall,
        each player's change damped by his and his opponents' recent opponents (over every
        chat they are kept in: `ratings.damping`, `ratings.game_weights`)."""
        players = [x for _, team in sides for x in team]
        against = rt.opponents(sides)
        raw = await self.backend.overall(game_id, players, self.retention)
        overall = {x: Overall.load(raw.get(x), now, self.retention) for x in players}
        own = {x: rt.damping(overall[x].history(now), against[x]) for x in players}
        weight = rt.game_weights(own, against)
        table = doc.ratings.setdefault(game_id, {})
        before = {x: table.get(x, Standing()).rating for x in players}
        after = rt.rate_sides(before, sides, weight)
        for x, r in after.items():
            s = table.setdefault(x, Standing())
            s.rating = r
            s.games += 1
        board = [x for x, _ in leaders(table, set(doc.hidden))]
        changes = {
            x: Change(
                delta=rt.shown(after[x]) - rt.shown(before[x]),
                score=rt.shown(after[x]),
                rank=board.index(x) + 1 if x in board else 0,
                provisional=after[x].provisional,
                damped=weight[x] < 1,
            )
            for x in players
        }
        was = {x: o.rating(now) for x, o in overall.items()}
        rated = rt.rate_sides(was, sides, weight)
        until = now + self.retention
        new = {
            x: o.with_game(chat_id, rated[x], against[x], now, until) for x, o in overall.items()
        }
        await self.backend.set_overall(
            game_id, {x: (o.model_dump_json(), math.ceil(o.kept(now))) for x, o in new.items()}
        )
        await self._recheck(game_id, now)
        await self._place(game_id, new, now)
        return changes

    async def _place(self, game_id: str, entries: dict[int, Overall], now: float) -> None:
        """Put the players on the all-chats leaderboard, or take them off it."""
        scores: dict[int, tuple[int, float]] = {}
        drop: list[int] = []
        for x, o in entries.items():
            r = o.rating(now)
            if rt.on_board(r, o.history(now)):
                scores[x] = (rt.shown(r), o.check_at(now))
            else:
                drop.append(x)
        await self.backend.rank(game_id, scores, drop, self.retention)

    async def _recheck(self, game_id: str, now: float) -> None:
        """Look again at the leaderboard's players whose rating has changed by itself since
        (a chat's part gone with its memory): placed anew, or taken off."""
        for _ in range(10):
            due = await self.backend.due(game_id, now, 50)
            if not due:
                return
            raw = await self.backend.overall(game_id, due, self.retention)
            await self._place(
                game_id, {x: Overall.load(raw.get(x), now, self.retention) for x in due}, now
            )

    async def overall_board(self, game_id: str, count: int) -> list[tuple[int, int]]:
        """The game's all-chats leaderboard: (player, shown score), best first."""
        await self._recheck(game_id, self.ctx.clock())
        return await self.backend.best(game_id, count)

    @staticmethod
    def _count(
        doc: ChatMemory,
        game_id: str,
        standings: list[tuple[int, int, int]],
        computers: bool,
        rated: set[int],
    ) -> None:
        """Everyone's totals: a game with a computer counts apart for a player it did not
        rate (the others count all their finished games)."""
        for x, place, score in standings:
            if is_computer(x):
                continue
            g = doc.stats.setdefault(x, {}).setdefault(game_id, GameStats())
            if computers and x not in rated:
                g.computers += 1
                continue
            g.games += 1
            g.wins += place == 1
            g.places[place] = g.places.get(place, 0) + 1
            g.best_score = score if g.best_score is None else max(g.best_score, score)
            g.low_score = score if g.low_score is None else min(g.low_score, score)

    # ------------------------------------------------------------------ texts

    def change_lines(self, entry: GameEntry, t: Translator) -> list[str]:
        """What the final standings say of the ratings: the changes (among the humans, or
        by teams), or why the game was not rated, and for whom."""
        if entry.rating == CUT_SHORT:
            return [t("ratings.unrated_short")]
        lines: list[str] = []
        if entry.changes:
            heads = {RATED_HUMANS: "ratings.head_humans", RATED_TEAMS: "ratings.head_teams"}
            lines.append(t(heads.get(entry.rating, "memory.changes_head")))
        elif entry.rating == TOO_FEW:
            lines.append(t("ratings.unrated_few"))
        for x, _, _ in entry.standings:
            c = entry.changes.get(x)
            if c is None:
                continue
            sign = f"+{c.delta}" if c.delta > 0 else ("±0" if c.delta == 0 else f"−{-c.delta}")
            key = "memory.change_ranked" if c.rank else "memory.change"
            text = t(
                key, name=entry.names.get(x, "?"), delta=sign, score=number(c.score), rank=c.rank
            )
            if c.provisional:
                text += t("memory.provisional_mark")
            if c.damped:
                text += t("ratings.damped_mark")
            lines.append(text)
        if entry.assisted:
            names = ", ".join(entry.names.get(x, "?") for x in entry.assisted)
            lines.append(t("ratings.unrated_assisted", names=names))
        return lines

    def summary_text(self, summary: Summary, doc: ChatMemory) -> str:
        t = self.ctx.t(doc.language)
        lines = [t("memory.season_over", season=summary.season)]
        for game, top in summary.leaders.items():
            x, score = top[0]
            title = self.title(game, t)
            lines.append(
                t(
                    "memory.season_champion",
                    game=title,
                    name=doc.names.get(x, "?"),
                    score=number(score),
                )
            )
        if summary.most_games is not None:
            x, n = summary.most_games
            lines.append(
                t(
                    "memory.season_most",
                    name=doc.names.get(x, "?"),
                    games=t.plural(n, "memory.unit.game"),
                )
            )
        if summary.best_climb is not None:
            x, game, up = summary.best_climb
            lines.append(
                t(
                    "memory.season_climb",
                    name=doc.names.get(x, "?"),
                    points=up,
                    game=self.title(game, t),
                )
            )
        lines.append(t("memory.season_next", season=doc.season))
        return "\n".join(lines)

    def title(self, game_id: str, t: Translator) -> str:
        p = self.ctx.presenters.get(game_id)
        return t(p.title_key) if p is not None else game_id

    def lower_score_wins(self, game_id: str) -> bool:
        """Whether the game's lower score is the better one (its engine says so)."""
        p = self.ctx.presenters.get(game_id)
        return p is not None and p.game.lower_score_wins

    # ------------------------------------------------------------------ the rest

    async def lobby_opened(self, rec: GameRecord) -> None:
        """/notify: a private message to each player who asked, when a lobby opens."""
        try:
            doc = await self.load(rec.chat_id)
            if not doc.notify:
                return
            t = self.ctx.t(rec.language)
            text = t("memory.notify_lobby", title=doc.title or "", game=self.title(rec.game_id, t))
            for user in doc.notify:
                if user == rec.creator or not await self.ctx.store.has_started(user):
                    continue
                await self.ctx.sender.send_text(user, text)
        except Exception as e:  # a courtesy: never fail the lobby
            log.info("chat %s: /notify messages failed: %s", rec.chat_id, e)

    async def forget_later(self, chat_id: int) -> None:
        """The bot was removed from the chat: its memory goes within the retention. Its
        parts of its players' overall ratings (and with them their places on the all-chats
        leaderboards) go no later: each is kept the retention after that player's last
        rated game in the chat, which came before the removal (`ratings.Overall`)."""
        await self.backend.expire(chat_id, self.retention)

    async def standings(self, rec: GameRecord) -> list[str]:
        """The record's outbox to send; a finished game is recorded first, and its final
        standings (the last message) say what it did to the ratings."""
        outbox = list(rec.outbox)
        if rec.status != RecordStatus.OVER or not outbox:
            return outbox
        try:
            lines = await self.finish(rec)
        except Exception:  # the memory never holds up the game's last message
            log.exception("chat %s: game %s could not be recorded", rec.chat_id, rec.uid)
            lines = []
        if lines:
            outbox[-1] += "\n\n" + "\n".join(lines)
        return outbox
