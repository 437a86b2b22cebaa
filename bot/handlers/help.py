"""/start, /help, /rules: answered through `bot.replies` (ephemeral to the asker, else one
reply in the group as chatter), so they never spend the game's budget."""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.filters.callback_data import CallbackData
from aiogram.methods import SendMessage
from aiogram.types import (
    CallbackQuery,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from bot.deep_links import bot_username, new_game_arg, new_payload, rules_arg, startgroup_link
from bot.handlers.common import is_group
from bot.handlers.lobby import open_lobby
from bot.language import translator_for
from bot.replies import Asked, Delivery
from bot.service import GameService
from bot.storage import RecordStatus
from locales import Translator

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 4000
GAME_BUTTONS_PER_ROW = 2  # a phone's width: two game names side by side


class RulesCB(CallbackData, prefix="R1"):
    """The rules' buttons: a = s (a game's rules in short) | f (in full); g = the game."""

    a: str
    g: str


def short_rules(
    game_id: str, t: Translator, username: str | None = None
) -> tuple[str, InlineKeyboardMarkup]:
    """A game's rules on one phone screen (the goal, a turn, how it ends), with a button
    for the full rules; with the bot's `username` (private chats) also «➕ Play it in a
    group»: a `?startgroup=new_<game>` link that adds the bot and opens its lobby."""
    button = InlineKeyboardButton(
        text=t("rules.full_button"), callback_data=RulesCB(a="f", g=game_id).pack()
    )
    rows = [[button]]
    if username:
        url = startgroup_link(username, new_payload(game_id))
        rows.append([InlineKeyboardButton(text=t("rules.play_in_group_button"), url=url)])
    return t(f"rules.{game_id}.short"), InlineKeyboardMarkup(inline_keyboard=rows)


def game_buttons(service: GameService, t: Translator) -> list[list[InlineKeyboardButton]]:
    """A «📖 game» button for each game (its short rules), two to a row."""
    buttons = [
        InlineKeyboardButton(
            text=t("rules.game_button", game=t(p.title_key)),
            callback_data=RulesCB(a="s", g=gid).pack(),
        )
        for gid, p in service.presenters.items()
    ]
    return [
        buttons[i : i + GAME_BUTTONS_PER_ROW] for i in range(0, len(buttons), GAME_BUTTONS_PER_ROW)
    ]


async def unknown_game(service: GameService, message: Message, t: Translator) -> None:
    """«Не знаю такой игры. Есть: …» — the games the bot has, by their titles."""
    games = ", ".join(t(p.title_key) for p in service.presenters.values())
    text = t("rules.unknown", games=games)
    await service.replies.answer(Asked.of(message), text, t, topic="rules.unknown")


async def start_private(
    message: Message, command: CommandObject, service: GameService, bot: Bot
) -> None:
    """`/start`: how to play, the games' rules as buttons. `/start rules_<game>` (a link
    of the group's hello): that game's rules (bot/deep_links.py)."""
    t = await translator_for(service, message.chat, message.from_user)
    if message.from_user is not None:
        await service.store.mark_started(message.from_user.id)
    username = await bot_username(bot)
    wanted = rules_arg(command.args)
    if wanted is not None:
        game_id = service.find_game(wanted)
        if game_id is None:
            await unknown_game(service, message, t)
            return
        text, markup = short_rules(game_id, t, username)
        await service.replies.answer(
            Asked.of(message), text, t, topic=f"rules:{game_id}", markup=markup
        )
        return
    rows = game_buttons(service, t)
    if username:
        url = startgroup_link(username, new_payload())
        rows.insert(0, [InlineKeyboardButton(text=t("start.add_button"), url=url)])
    games = "\n".join(
        t("start.game_line", game=t(p.title_key)) for p in service.presenters.values()
    )
    await service.replies.answer(
        Asked.of(message),
        t("start.private", games=games),
        t,
        topic="start",
        markup=InlineKeyboardMarkup(inline_keyboard=rows),
    )


async def start_group(message: Message, command: CommandObject, service: GameService) -> None:
    """`/start` in a group. `/start new` (`/start@bot new_<game>`): what Telegram sends
    after a `?startgroup=new` link added the bot: a lobby, exactly as `/new` opens it."""
    arg = new_game_arg(command.args)
    if arg is not None:
        await open_lobby(message, service, arg)
        return
    t = await translator_for(service, message.chat, message.from_user)
    await service.replies.answer(Asked.of(message), t("start.group"), t, topic="start")


async def help_command(message: Message, service: GameService) -> None:
    t = await translator_for(service, message.chat, message.from_user)
    key = "help.group" if is_group(message.chat) else "help.private"
    await service.replies.answer(Asked.of(message), t(key), t, topic="help")


def split(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    parts: list[str] = []
    current = ""
    for para in text.split("\n\n"):
        candidate = f"{current}\n\n{para}" if current else para
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            parts.append(current)
        while len(para) > limit:
            parts.append(para[:limit])
            para = para[limit:]
        current = para
    if current:
        parts.append(current)
    return parts


async def rules_command(
    message: Message, command: CommandObject, service: GameService, bot: Bot
) -> None:
    """`/rules [game]`: the game's rules in short, with a button for the full ones. Without
    a name: the game open in this group (its lobby or table), else the first game."""
    t = await translator_for(service, message.chat, message.from_user)
    game_id = next(iter(service.presenters))
    if command.args:
        found = service.find_game(command.args)
        if found is None:
            await unknown_game(service, message, t)
            return
        game_id = found
    elif is_group(message.chat):
        rec = await service.store.get(message.chat.id)
        active = (RecordStatus.LOBBY, RecordStatus.PLAYING)
        if rec is not None and rec.status in active and rec.game_id in service.presenters:
            game_id = rec.game_id
    username = None if is_group(message.chat) else await bot_username(bot)
    text, markup = short_rules(game_id, t, username)
    await service.replies.answer(
        Asked.of(message), text, t, topic=f"rules:{game_id}", markup=markup
    )


async def _ephemeral_for_press(
    service: GameService,
    query: CallbackQuery,
    chat_id: int,
    parts: list[str],
    markup: InlineKeyboardMarkup | None,
) -> bool:
    """Send `parts` to the presser alone, as ephemeral messages for his callback query
    (Bot API 10.2; outside the group's budget). True when at least the first went out."""
    for i, text in enumerate(parts):
        last = i == len(parts) - 1
        method = SendMessage(
            chat_id=chat_id,
            text=text,
            reply_markup=markup if last else None,
            ephemeral_message_parameters=EphemeralMessageParameters(
                receiver_user_id=query.from_user.id, callback_query_id=query.id
            ),
        )
        try:
            sent = await service.sender.call(method, chatter=True)
        except TelegramAPIError as e:
            log.info("ephemeral rules in %s %s: %s", chat_id, "cut short" if i else "failed", e)
            return i > 0
        if sent is None:
            return i > 0
    return True


async def rules_button(
    query: CallbackQuery, callback_data: RulesCB, service: GameService, bot: Bot
) -> None:
    """«📖 Полные правила» (or a game's «📖» on /start): the rules to the presser. In a
    private chat they are sent there; in a group ephemerally to him alone, else in his
    private chat if he has started the bot, else as one reply in the group (chatter)."""
    msg = query.message
    t = await translator_for(service, msg.chat if msg else None, query.from_user)
    game_id = callback_data.g
    if game_id not in service.presenters or callback_data.a not in ("s", "f"):
        await query.answer(t("press.old_button"))
        return
    msg = query.message
    if callback_data.a == "s":
        in_group = msg is not None and is_group(msg.chat)
        text, markup = short_rules(game_id, t, None if in_group else await bot_username(bot))
        parts, topic = [text], f"rules:{game_id}"
    else:
        parts, markup, topic = split(t(f"rules.{game_id}")), None, f"rules.full:{game_id}"
    user = query.from_user.id
    if msg is None or not is_group(msg.chat):
        chat_id = msg.chat.id if msg is not None else user
        asked = Asked(
            chat_id=chat_id, user_id=user, message_id=None, ephemeral_id=None, group_title=None
        )
        await query.answer()
        await service.replies.answer(asked, parts, t, topic=topic, markup=markup)
        return
    if await _ephemeral_for_press(service, query, msg.chat.id, parts, markup):
        await query.answer()
        return
    asked = Asked(
        chat_id=msg.chat.id,
        user_id=user,
        message_id=msg.message_id or None,
        ephemeral_id=None,
        group_title=msg.chat.title or "",
    )
    delivery = await service.replies.answer(
        asked, parts, t, topic=topic, markup=markup, private_ok=True
    )
    toast = {
        Delivery.PRIVATE: "rules.sent_private",
        Delivery.REPEATED: "rules.repeated",
        Delivery.DROPPED: "rules.dropped",
    }.get(delivery)
    await query.answer(t(toast) if toast else None, show_alert=delivery == Delivery.DROPPED)


def make_router() -> Router:
    """A fresh router (a router can be attached to one dispatcher only)."""
    router = Router(name="help")
    router.message.register(start_private, CommandStart(), F.chat.type == "private")
    router.message.register(start_group, CommandStart())
    router.message.register(help_command, Command("help"))
    router.message.register(rules_command, Command("rules"))
    router.callback_query.register(rules_button, RulesCB.filter())
    return router
