"""`/replay [N]`: a finished game of the chat as a short animation (the chat's game №N,
the latest without N; the numbers are /history's; in the private chat, the solo player's
own games), sent to the chat through the one sender. Drawn in the background where the
tables' pictures are (bot/memory/replay.py); one replay at a time in the whole bot and
one per chat, and one already sent is sent again by its file_id instead of being drawn
again."""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import logging
import weakref
from typing import TYPE_CHECKING

from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.methods import SendAnimation
from aiogram.types import BufferedInputFile, Message, ReplyParameters

from bot.handlers.memory import in_group, keeper
from bot.memory.records import FULL, GameEntry
from bot.memory.replay import Animation, animate
from bot.names import display_names
from bot.replies import Asked
from bot.service import GameService
from bot.uploaded import Uploaded
from locales import Translator

if TYPE_CHECKING:
    from bot.service.context import Context

log = logging.getLogger(__name__)

SENT = 256  # file_ids of replays sent, kept to send again (the oldest forgotten first)


class Replays:
    """The replays of one bot (`Context`): who is drawing, and what was sent."""

    def __init__(self) -> None:
        self.drawing: set[int] = set()  # chats with a replay being drawn
        self.gate = asyncio.Semaphore(1)  # one replay drawn at a time
        self.sent = Uploaded(limit=SENT)  # file_ids by chat, game and language


_REPLAYS: weakref.WeakKeyDictionary[Context, Replays] = weakref.WeakKeyDictionary()


def replays_of(ctx: Context) -> Replays:
    found = _REPLAYS.get(ctx)
    if found is None:
        found = _REPLAYS[ctx] = Replays()
    return found


def wanted(arg: str) -> int | None:
    """The game number asked for: 0 for the latest, None for something else.

    >>> wanted(""), wanted("12"), wanted("№3"), wanted("#4"), wanted("abc"), wanted("-1")
    (0, 12, 3, 4, None, None)
    """
    arg = arg.strip().lstrip("№#")
    if not arg:
        return 0
    return int(arg) if arg.isdigit() and len(arg) < 10 else None


def caption(entry: GameEntry, title: str, t: Translator) -> str:
    when = dt.datetime.fromtimestamp(entry.ended_at, dt.UTC).strftime("%d.%m %H:%M")
    return t("memory.replay_caption", n=entry.n, game=html.escape(title), when=when)


def names_of(entry: GameEntry, players: list[int], t: Translator) -> dict[int, str]:
    raw = dict(entry.names)
    for pid, level in entry.levels.items():
        raw[pid] = t(f"computers.name.{level}")
    return display_names(players, raw, t)


async def replay_command(message: Message, command: CommandObject, service: GameService) -> None:
    if not await in_group(message, service, solo=True):  # a solo player's own games too
        return
    t = service.t()
    asked = Asked.of(message)
    chat_id = message.chat.id

    async def refuse(text: str, topic: str) -> None:
        await service.replies.answer(asked, text, t, topic=f"replay:{topic}")

    n = wanted(command.args or "")
    if n is None:
        await refuse(t("memory.replay_usage"), "usage")
        return
    k = keeper(service)
    doc = await k.load(chat_id)
    if not doc.count:
        await refuse(t("memory.replay_empty"), "empty")
        return
    n = n or doc.count
    if n > doc.count:
        await refuse(t("memory.replay_unknown", n=n, last=doc.count), "unknown")
        return
    raw = await k.backend.game_at(chat_id, doc.count - n) if doc.count - n < FULL else None
    entry = None if raw is None else GameEntry.model_validate_json(raw)
    if entry is None or entry.n != n:
        kept = t.plural(FULL, "memory.unit.game")
        await refuse(t("memory.replay_too_old", n=n, kept=kept), "old")
        return
    p = service.presenters.get(entry.game_id)
    if not entry.steps or p is None:
        await refuse(t("memory.replay_none", n=n), "none")
        return
    replays = replays_of(service.ctx)
    if chat_id in replays.drawing:
        await refuse(t("memory.replay_busy"), "busy")
        return
    title = k.title(entry.game_id, t)
    key = f"{chat_id}:{entry.uid}:{t.lang}"
    replays.drawing.add(chat_id)
    try:
        file_id = replays.sent.get(key)
        shown: Animation | None = None
        if file_id is None:
            names = names_of(entry, [x for x, _, _ in entry.standings], t)
            try:
                async with replays.gate:
                    shown = await animate(
                        service.ctx.pictures.draw,
                        p,
                        entry.steps,
                        entry.standings,
                        names,
                        t.lang,
                        title,
                    )
            except Exception:
                log.exception("chat %s: the replay of game №%s could not be drawn", chat_id, n)
                await refuse(t("memory.replay_failed", n=n), "failed")
                return
        method = SendAnimation(
            chat_id=chat_id,
            animation=file_id or "",
            caption=caption(entry, title, t),
            reply_parameters=ReplyParameters(
                message_id=message.message_id, allow_sending_without_reply=True
            ),
        )
        if shown is not None:
            method.animation = BufferedInputFile(shown.data, filename=f"replay-{n}.gif")
            method.duration = round(shown.seconds)
            method.width, method.height = shown.width, shown.height
        try:
            sent = await service.ctx.sender.call(method)
        except TelegramAPIError as e:
            log.warning("chat %s: the replay of game №%s was not sent: %s", chat_id, n, e)
            replays.sent.drop(key)  # a file_id refused: drawn and uploaded anew next time
            return
        if sent is not None and sent.animation is not None:
            replays.sent.put(key, sent.animation.file_id)
    finally:
        replays.drawing.discard(chat_id)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="replay")
    router.message.register(replay_command, Command("replay"))
    return router
