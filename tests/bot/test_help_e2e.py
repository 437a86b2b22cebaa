"""`/help` is short and complete, and every command answers in under a phone screen
(issue 16, point 6).

A phone screen: `LINES` lines, `CHARS` characters. Every command the bot has (its menu,
`/season` and `/start`, a few with arguments) is sent in a group by a member who has not
started the bot — so each answer is a reply in the group, where it can be measured —
once with no game and once while a game runs. The full rules of a game (a button under
the short ones) are the one longer answer: the user asked for the whole text.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.app import App
from bot.command_menus import COMMANDS
from fake_telegram import Chat, FakeTelegram, FloodLimit, User
from tests.bot.e2e import in_group, started_table

LINES = 30
CHARS = 2000
HELP_LINES = 25  # /help itself: a little less than a screen
HELP_CHARS = 1500
EXTRA = ("/season", "/start", "/new неизвестная", "/pings off", "/stats off")
LOCALES = Path(__file__).resolve().parents[2] / "locales"


def every_command() -> list[str]:
    games = ("семидорожник", "захват", "крест", "гипнозия", "доминас")
    return [*(f"/{c}" for c in COMMANDS), *EXTRA, *(f"/rules {g}" for g in games)]


async def ask_all(tg: FakeTelegram, chat: Chat, users: list[User]) -> dict[str, list[str]]:
    """Each of `users` sends every command; the answers (the bot's messages that reply to
    a command, deleted ones included), by command."""
    sent: dict[int, str] = {}
    for text in every_command():
        for user in users:
            sent[(await chat.send(user, text)).message_id] = text
            await tg.settle(quiet=0.1)
    await tg.settle(quiet=0.5)
    answers: dict[str, list[str]] = {}
    for m in chat.all_messages:
        if m.from_bot and m.reply_to is not None and m.reply_to.message_id in sent:
            answers.setdefault(sent[m.reply_to.message_id], []).append(m.content)
    return answers


def on_a_screen(text: str) -> bool:
    return len(text.splitlines()) <= LINES and len(text) <= CHARS


def test_help_lists_every_command_once_on_one_line_in_both_languages() -> None:
    for lang in ("ru", "en"):
        texts = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
        text = texts["help.group"]
        assert len(text.splitlines()) <= HELP_LINES and len(text) <= HELP_CHARS, lang
        lines = text.splitlines()
        for c in (*COMMANDS, "season"):
            mine = [x for x in lines if x.startswith(f"/{c} ")]
            assert len(mine) == 1, (lang, c)
        private = texts["help.private"]
        assert len(private.splitlines()) <= HELP_LINES and len(private) <= HELP_CHARS
        for c in ("start", "new", "rules", "pings", "help"):
            assert len([x for x in private.splitlines() if x.startswith(f"/{c} ")]) == 1


async def test_every_command_answers_in_under_a_phone_screen() -> None:
    roomy = FloodLimit(count=1000, window=6.0)  # every reply is checked, none dropped
    async with in_group(16501, ["Аня", "Борис", "Вика"], flood_limit=roomy) as group:
        tg, app, chat, (anna, boris, vika) = group
        assert isinstance(app, App)
        first = await ask_all(tg, chat, [vika])  # no game in the chat
        assert set(first) >= {"/help", "/rules", "/new неизвестная", "/table", "/cancel"}
        await tg.settle()
        await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
        second = await ask_all(tg, chat, [boris, vika])  # a game runs: Борис plays
        assert set(second) >= {"/help", "/leave", "/cancel", "/pings off", "/stats"}
        answers = [(c, x) for found in (first, second) for c, xs in found.items() for x in xs]
        for command, text in answers:
            assert on_a_screen(text), (command, text)
        for m in chat.all_messages:  # and whatever else the bot posted meanwhile
            assert not m.from_bot or on_a_screen(m.content), m.content
        command, text = max(answers, key=lambda a: len(a[1]))
        lines = len(text.splitlines())
        print(f"the longest answer: {command!r}, {lines} lines, {len(text)} characters")
