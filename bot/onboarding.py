"""The bot's hello when it is added to a group: once per group (while the group's memory
would be kept, `MEMORY_RETENTION_DAYS`), in the group's language.

It says what the bot does, `/new`, that the table is one message edited in place, that
private hands and reminders need each player to open the bot once (a button), and that
the bot works with privacy mode on. Each game's name links to its rules in the private
chat (`?start=rules_<game>`, bot/deep_links.py).

"Once": the time of the hello is kept as the chat's preference `hello:chat:<id>`; an
add within the retention of it (the bot removed and added back, a basic group turned
into a supergroup — the marker moves with it) says nothing. A lease per chat keeps two
updates of the same add (two instances, a repeated update) from greeting twice.
"""

from __future__ import annotations

import html
import logging

from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.methods import SendMessage
from aiogram.types import (
    ChatMemberUpdated,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
)

from bot.deep_links import HELLO, bot_username, rules_payload, start_link
from bot.language import chat_language
from bot.service import GameService
from bot.storage import Store

log = logging.getLogger(__name__)

OUT = (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED)
IN = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR)
LEASE_SECONDS = 30.0


def hello_key(chat_id: int) -> str:
    return f"hello:chat:{chat_id}"


def joined(event: ChatMemberUpdated) -> bool:
    """The bot came into a group (added, or back after a removal)."""
    return (
        event.chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)
        and event.old_chat_member.status in OUT
        and event.new_chat_member.status in IN
    )


async def greeted_lately(store: Store, chat_id: int, now: float, retention: float) -> bool:
    raw = await store.get_pref(hello_key(chat_id))
    try:
        return raw is not None and now - float(raw) < retention
    except ValueError:
        return False


async def move_greeting(store: Store, old_chat_id: int, new_chat_id: int) -> None:
    """A basic group became a supergroup: it was greeted already under its new id too."""
    raw = await store.get_pref(hello_key(old_chat_id))
    if raw is not None and await store.get_pref(hello_key(new_chat_id)) is None:
        await store.set_pref(hello_key(new_chat_id), raw)


def hello_text(service: GameService, lang: str, username: str | None) -> str:
    t = service.t(lang)
    names = []
    for gid, p in service.presenters.items():
        title = html.escape(t(p.title_key))
        if username:
            link = html.escape(start_link(username, rules_payload(gid)))
            title = f'<a href="{link}">{title}</a>'
        names.append(title)
    return t("onboarding.hello", games=", ".join(names))


async def greet(event: ChatMemberUpdated, service: GameService) -> None:
    """The hello, if the bot has just come into a group that was not greeted lately."""
    if not joined(event):
        return
    ctx = service.ctx
    chat_id = event.chat.id
    retention = ctx.settings.memory_retention_days * 86400
    token = await ctx.store.lock(f"hello:{chat_id}", LEASE_SECONDS)
    if token is None:
        return  # the same add, handled right now elsewhere
    try:
        if await greeted_lately(ctx.store, chat_id, ctx.clock(), retention):
            return
        default = ctx.settings.bot_language
        lang = await chat_language(ctx.store, event.chat, event.from_user, default)
        t = service.t(lang)
        username = await bot_username(service.bot)
        markup = None
        if username:
            button = InlineKeyboardButton(
                text=t("onboarding.open_button"), url=start_link(username, HELLO)
            )
            markup = InlineKeyboardMarkup(inline_keyboard=[[button]])
        method = SendMessage(
            chat_id=chat_id,
            text=hello_text(service, lang, username),
            reply_markup=markup,
            link_preview_options=LinkPreviewOptions(is_disabled=True),
        )
        try:
            sent = await ctx.sender.call(method)
        except TelegramAPIError as e:  # e.g. added without the right to write
            log.info("chat %s: the hello was not sent: %s", chat_id, e)
            return
        if sent is not None:
            await ctx.store.set_pref(hello_key(chat_id), str(ctx.clock()))
    finally:
        await ctx.store.unlock(f"hello:{chat_id}", token)
