"""The group's memory (bot/memory/): `/top [игра] [всё]`, `/stats [игрок|off|on]`,
`/history`, `/notify`, `/season [reset|month|quarter]` (`/replay`: bot/handlers/replay.py).
Every answer goes through `bot/replies.py` (ephemeral to the asker where Telegram allows,
else one reply in the group), so the group's flood budget is kept for the game.

A solo player's games against computers are kept in his private chat's memory (its id is
his): there `/stats`, `/history` and `/replay` are his own games', and `/top` the
overall leaderboard (games with computers are not rated)."""

from __future__ import annotations

import datetime as dt
import html

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Message

from bot.handlers.common import display_name, is_chat_admin, is_group
from bot.language import translator_for
from bot.memory.keeper import Keeper, memory_of, number
from bot.memory.ratings import BOARD_GAMES, BOARD_OPPONENTS, shown
from bot.memory.records import ChatMemory, GameStats, ResultLine
from bot.memory.seasons import leaders
from bot.replies import Asked
from bot.service import GameService
from bot.service.leaving import yes_no
from locales import Translator

TOP = 10
HISTORY = 10


class SeasonCB(CallbackData, prefix="SR1"):
    """The season reset's confirmation: a = yes | no, s = the season it asks about (its
    prefix its own: /settings' buttons are "S1", bot/service/settings_menu.py)."""

    a: str
    s: str


def keeper(service: GameService) -> Keeper:
    return memory_of(service.ctx)


async def in_group(message: Message, service: GameService, *, solo: bool = False) -> bool:
    """Whether the command is answered here: in a group, or (`solo`) also in the private
    chat, where a solo player's own games are kept; else the asker is told."""
    if message.from_user is not None and (
        is_group(message.chat) or (solo and message.chat.type == ChatType.PRIVATE)
    ):
        return True
    t = await translator_for(service, message.chat, message.from_user)
    await service.replies.answer(
        Asked.of(message), t("memory.groups_only"), t, topic="memory.groups"
    )
    return False


def top_text(k: Keeper, doc: ChatMemory, game_id: str, t: Translator) -> str:
    table = doc.ratings.get(game_id, {})
    board = leaders(table, set(doc.hidden), TOP)
    title = k.title(game_id, t)
    if not board:
        return t("memory.top_empty", game=title)
    lines = [t("memory.top_head", game=title, season=doc.season)]
    for i, (x, score) in enumerate(board, 1):
        line = t(
            "memory.top_line", place=i, name=html.escape(doc.names.get(x, "?")), score=number(score)
        )
        if table[x].rating.provisional:
            line += t("memory.provisional_short")
        lines.append(line)
    lines.append(t("memory.top_note"))
    return "\n".join(lines)


ALL_WORDS = ("all", "все", "всё", "везде")  # what players may type


def overall_asked(arg: str) -> tuple[str, bool]:
    """The game asked for and whether the overall leaderboard is: `/top крест всё`.

    >>> overall_asked("крест всё"), overall_asked("all"), overall_asked("доминас")
    (('крест', True), ('', True), ('доминас', False))
    """
    words = arg.split()
    if words and words[-1].lower() in ALL_WORDS:
        return " ".join(words[:-1]), True
    return arg, False


def overall_text(
    k: Keeper, doc: ChatMemory, game_id: str, board: list[tuple[int, int]], t: Translator
) -> str:
    """The game's overall leaderboard, over all chats: this chat's players by name (unless
    they hid), everyone else as a player of another chat; who stands on it (`on_board`)."""
    title = k.title(game_id, t)
    needs = {"games": BOARD_GAMES, "opponents": BOARD_OPPONENTS}
    if not board:
        return t("memory.top_all_empty", game=title, **needs)
    lines = [t("memory.top_all_head", game=title)]
    hidden = set(doc.hidden)
    for i, (x, score) in enumerate(board, 1):
        known = x in doc.names and x not in hidden
        name = html.escape(doc.names[x]) if known else t("memory.top_all_other")
        lines.append(t("memory.top_line", place=i, name=name, score=number(score)))
    lines.append(t("memory.top_all_note", **needs))
    return "\n".join(lines)


async def top_command(message: Message, command: CommandObject, service: GameService) -> None:
    if not await in_group(message, service, solo=True):
        return
    solo = not is_group(message.chat)  # his games with computers: not rated, all-chats board
    t = await translator_for(service, message.chat, message.from_user)
    k = keeper(service)
    doc = await k.change(message.chat.id, lambda d: None)  # (a season that ended rolls over)
    arg, overall = overall_asked((command.args or "").strip())
    game_id = service.find_game(arg) if arg else None
    if arg and game_id is None:
        titles = ", ".join(t(p.title_key) for p in service.presenters.values())
        text = t("memory.top_unknown", games=html.escape(titles))
    else:
        if game_id is None:  # the game most played this season (solo: ever, by him)
            played = {g: sum(s.games for s in tb.values()) for g, tb in doc.ratings.items()}
            if solo and message.from_user is not None:
                mine = doc.stats.get(message.from_user.id, {})
                played = {g: x.games + x.computers for g, x in mine.items()}
            game_id = (
                max(played, key=lambda g: played[g]) if played else next(iter(service.presenters))
            )
        if overall or solo:
            board = await k.overall_board(game_id, TOP)
            text = overall_text(k, doc, game_id, board, t)
            if solo:
                text += "\n\n" + t("memory.top_solo_note")
        else:
            text = top_text(k, doc, game_id, t)
    topic = f"top:{game_id}:{'all' if overall else 'chat'}"
    await service.replies.answer(Asked.of(message), text, t, topic=topic)


def _places(g: GameStats) -> str:
    return " ".join(f"{place}×{n}" for place, n in sorted(g.places.items())) or "—"


def stats_text(
    k: Keeper, doc: ChatMemory, user: int, t: Translator, known_as: str | None = None
) -> str:
    """`user`'s totals in the chat; `known_as`: his name when the chat's memory has none
    yet (he asks of himself before finishing a game here)."""
    name = html.escape(doc.names.get(user) or known_as or t("lobby.someone"))
    per_game = doc.stats.get(user, {})
    games = sum(g.games for g in per_game.values())
    computers = sum(g.computers for g in per_game.values())
    if not games and not computers:
        return t("memory.stats_none", name=name)
    wins = sum(g.wins for g in per_game.values())
    lines = [
        t(
            "memory.stats_head",
            name=name,
            games=t.plural(games, "memory.unit.game"),
            wins=t.plural(wins, "memory.unit.win"),
        )
    ]
    if computers:
        lines.append(t("memory.stats_computers", games=t.plural(computers, "memory.unit.game")))
    if games:
        favourite = max(per_game, key=lambda g: per_game[g].games)
        lines.append(t("memory.stats_favourite", game=k.title(favourite, t)))
    for game_id, g in sorted(per_game.items(), key=lambda x: -x[1].games):
        if not g.games:
            continue
        s = doc.ratings.get(game_id, {}).get(user)
        rating = (
            t("memory.stats_rating", score=number(shown(s.rating))) if s and s.rating.games else ""
        )
        lower = k.lower_score_wins(game_id)
        best = g.best(lower)
        key = "memory.best_low" if lower else "memory.best"
        best_text = "—" if best is None else t(key, score=best)
        lines.append(
            t(
                "memory.stats_game",
                game=k.title(game_id, t),
                games=t.plural(g.games, "memory.unit.game"),
                wins=t.plural(g.wins, "memory.unit.win"),
                places=_places(g),
                best=best_text,
                rating=rating,
            )
        )
    return "\n".join(lines)


def _named(doc: ChatMemory, message: Message, arg: str) -> int | None:
    for e in message.entities or []:
        if e.type == "text_mention" and e.user is not None:
            return e.user.id
    wanted = arg.lstrip("@").strip().lower()
    for x, name in doc.names.items():
        if name.lower() == wanted:
            return x
    return None


async def stats_command(message: Message, command: CommandObject, service: GameService) -> None:
    if not await in_group(message, service, solo=True):
        return
    assert message.from_user is not None
    t = await translator_for(service, message.chat, message.from_user)
    k = keeper(service)
    user = message.from_user.id
    arg = (command.args or "").strip()
    asked = Asked.of(message)
    if arg.lower() in ("off", "on", "выкл", "вкл"):
        hide = arg.lower() in ("off", "выкл")

        def edit(d: ChatMemory) -> None:
            d.hidden = [x for x in d.hidden if x != user] + ([user] if hide else [])

        await k.change(message.chat.id, edit)
        key = "memory.stats_off" if hide else "memory.stats_on"
        await service.replies.answer(asked, t(key), t, topic=f"stats:{'off' if hide else 'on'}")
        return
    doc = await k.load(message.chat.id)
    target: int | None = user
    if arg:
        target = _named(doc, message, arg)
    if target is None:
        text = t("memory.stats_unknown", name=html.escape(arg))
    else:
        own = display_name(message.from_user) if target == user else None
        text = stats_text(k, doc, target, t, known_as=own)
    await service.replies.answer(asked, text, t, topic=f"stats:{target}")


def history_text(k: Keeper, doc: ChatMemory, lines: list[ResultLine], t: Translator) -> str:
    if not lines:
        return t("memory.history_empty")
    out = [t("memory.history_head")]
    for line in lines:
        when = dt.datetime.fromtimestamp(line.ended_at, dt.UTC).strftime("%d.%m %H:%M")
        standings = ", ".join(
            f"{place}. {html.escape(doc.names.get(x, '🤖') if x >= 0 else '🤖')} {score}"
            for x, place, score in line.standings
        )
        text = t(
            "memory.history_line",
            n=line.n,
            game=k.title(line.game_id, t),
            when=when,
            standings=standings,
        )
        if line.computers:
            text += t("memory.history_computers")
        out.append(text)
    return "\n".join(out)


async def history_command(message: Message, service: GameService) -> None:
    if not await in_group(message, service, solo=True):
        return
    t = await translator_for(service, message.chat, message.from_user)
    k = keeper(service)
    doc = await k.load(message.chat.id)
    raw = await k.backend.lines(message.chat.id, HISTORY)
    lines = [ResultLine.model_validate_json(x) for x in raw]
    await service.replies.answer(
        Asked.of(message), history_text(k, doc, lines, t), t, topic="history"
    )


async def notify_command(message: Message, service: GameService, bot: Bot) -> None:
    if not await in_group(message, service):
        return
    assert message.from_user is not None
    t = await translator_for(service, message.chat, message.from_user)
    user = message.from_user.id
    title = message.chat.title or ""
    on = False

    def edit(d: ChatMemory) -> None:
        nonlocal on
        on = user not in d.notify
        d.notify = [x for x in d.notify if x != user] + ([user] if on else [])
        d.title = title

    await keeper(service).change(message.chat.id, edit)
    if not on:
        text = t("memory.notify_off")
    elif await service.store.has_started(user):
        text = t("memory.notify_on")
    else:
        me = await bot.me()
        text = t("memory.notify_on_not_started", link=f"https://t.me/{me.username}?start=notify")
    await service.replies.answer(Asked.of(message), text, t, topic=f"notify:{on}")


LENGTH_WORDS = {
    **{w: "month" for w in ("month", "monthly", "месяц", "месячный")},
    **{w: "quarter" for w in ("quarter", "quarterly", "квартал", "квартальный")},
}


async def season_length(message: Message, service: GameService, bot: Bot, length: str) -> None:
    """`/season month|quarter` (a chat admin): the season's length from now on. The
    running season ends at once (its summary told) and one of the new length begins."""
    assert message.from_user is not None
    t = service.t()
    asked = Asked.of(message)
    admin = message.sender_chat is not None and message.sender_chat.id == message.chat.id
    if not admin and not await is_chat_admin(bot, message.chat.id, message.from_user.id):
        text = t("memory.season_length_not_allowed")
        await service.replies.answer(asked, text, t, topic="season:length:no")
        return
    k = keeper(service)
    was = ""

    def edit(d: ChatMemory) -> None:
        nonlocal was
        was = d.length
        d.length = length

    doc = await k.change(message.chat.id, edit)
    if was == length:
        text = t("memory.season_length_same", length=t(f"memory.season_length.{length}"))
    else:
        doc = await k.change(message.chat.id, lambda d: None)  # the season rolls over
        text = t(
            "memory.season_length_set",
            length=t(f"memory.season_length.{length}"),
            season=doc.season,
        )
    await service.replies.answer(asked, text, t, topic=f"season:length:{length}")


async def season_command(
    message: Message, command: CommandObject, service: GameService, bot: Bot
) -> None:
    if not await in_group(message, service):
        return
    assert message.from_user is not None
    t = await translator_for(service, message.chat, message.from_user)
    k = keeper(service)
    asked = Asked.of(message)
    doc = await k.change(message.chat.id, lambda d: None)
    arg = (command.args or "").strip().lower()
    if arg in LENGTH_WORDS:
        await season_length(message, service, bot, LENGTH_WORDS[arg])
        return
    if arg not in ("reset", "сброс"):
        text = t(
            "memory.season_status",
            season=doc.season,
            length=t(f"memory.season_length.{doc.length}"),
        )
        await service.replies.answer(asked, text, t, topic="season")
        return
    admin = message.sender_chat is not None and message.sender_chat.id == message.chat.id
    if not admin and not await is_chat_admin(bot, message.chat.id, message.from_user.id):
        await service.replies.answer(asked, t("memory.season_not_allowed"), t, topic="season:no")
        return
    markup = yes_no(
        t("memory.season_reset_yes"),
        SeasonCB(a="yes", s=doc.season).pack(),
        t("memory.season_reset_no"),
        SeasonCB(a="no", s=doc.season).pack(),
    )
    text = t("memory.season_reset_ask", season=doc.season)
    await service.replies.answer(asked, text, t, topic="season:reset", markup=markup)


async def season_button(
    query: CallbackQuery, callback_data: SeasonCB, service: GameService, bot: Bot
) -> None:
    msg = query.message
    t = await translator_for(service, msg.chat if msg else None, query.from_user)
    if msg is None or not await is_chat_admin(bot, msg.chat.id, query.from_user.id):
        await query.answer(t("memory.season_not_allowed"), show_alert=True)
        return
    if callback_data.a != "yes":
        await query.answer(t("memory.season_reset_kept"))
        return

    def edit(d: ChatMemory) -> None:
        if d.season == callback_data.s:
            d.ratings = {}

    await keeper(service).change(msg.chat.id, edit)
    await query.answer(t("memory.season_reset_done", season=callback_data.s), show_alert=True)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="memory")
    router.message.register(top_command, Command("top"))
    router.message.register(stats_command, Command("stats"))
    router.message.register(history_command, Command("history"))
    router.message.register(notify_command, Command("notify"))
    router.message.register(season_command, Command("season"))
    router.callback_query.register(season_button, SeasonCB.filter())
    return router
