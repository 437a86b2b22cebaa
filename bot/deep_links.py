"""The bot's t.me links (deep links) and what their payloads ask for.

- `?startgroup=new` (or `new_<game id>`): the user picks a group, the bot is added there
  and Telegram sends `/start@<bot> new` in his name: a lobby opens, as with `/new`.
- `?start=rules_<game id>`: the game's rules in short, in the private chat.
- `?start=<anything else>` (`hello`, `notify`, …): the private chat's usual `/start`.

Telegram allows only `A-Z a-z 0-9 _ -` (at most 64) in a payload: links carry game ids,
and the bot also accepts any alias it knows there (`ctx.find_game`).

    >>> new_game_arg("new"), new_game_arg("new_dominas"), new_game_arg("rules_x")
    ('', 'dominas', None)
    >>> rules_arg("rules_sea_cross"), rules_arg("new")
    ('sea_cross', None)
    >>> start_link("nastolka_bot", rules_payload("hypnosia"))
    'https://t.me/nastolka_bot?start=rules_hypnosia'
    >>> startgroup_link("nastolka_bot", new_payload("dominas"))
    'https://t.me/nastolka_bot?startgroup=new_dominas'
"""

from __future__ import annotations

from aiogram import Bot

NEW = "new"
RULES = "rules"
HELLO = "hello"  # the group's greeting: «open the bot once» (bot/onboarding.py)


def new_payload(game_id: str | None = None) -> str:
    return f"{NEW}_{game_id}" if game_id else NEW


def rules_payload(game_id: str) -> str:
    return f"{RULES}_{game_id}"


def _arg(payload: str | None, head: str) -> str | None:
    if not payload:
        return None
    word, _, rest = payload.strip().partition("_")
    return rest if word.lower() == head else None


def new_game_arg(payload: str | None) -> str | None:
    """`new` → "" (the chat's default game), `new_<game>` → the game; else None."""
    return _arg(payload, NEW)


def rules_arg(payload: str | None) -> str | None:
    """`rules_<game>` → the game as written; else None."""
    return _arg(payload, RULES)


def start_link(username: str, payload: str) -> str:
    return f"https://t.me/{username}?start={payload}"


def startgroup_link(username: str, payload: str) -> str:
    return f"https://t.me/{username}?startgroup={payload}"


async def bot_username(bot: Bot) -> str | None:
    """The bot's @username (`getMe`, which aiogram asks once and keeps)."""
    return (await bot.me()).username
