"""An English-speaking group plays all five games without a Russian word (issue 16).

The bot's default language stays Russian: the chat is English because the player who
opens the lobby has an English Telegram (`language_code="en"`, bot/language.py). Each game
runs to its end in its own group — one human, who has started the bot (his private hands
and replies go there), and computer players; he presses whatever buttons he sees on the
table and in his private chat, and his turn timer plays for him when his presses don't.
Every text, caption, button, callback answer and alert the fake Telegram saw (bar the
Russian command menu, registered for Russian users) has no Cyrillic letter, and the tables'
pictures were drawn in English (their words: tests/render/test_picture_language.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re

from bot.app import App
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import ApiCall
from locales import get_translator
from tests.bot.computers import FAST, add_computers, places
from tests.bot.e2e import record, running, settings_for, until

PRESSES = 60
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
EN = get_translator("en")
GAMES = [  # the game, the shortest length (None: the only one), the computers seated
    ("seven_tracks", "One round", ("Experienced",)),  # its one round is long: one computer
    ("cell_capture", None, ("Novice", "Novice")),
    ("sea_cross", None, ("Novice", "Experienced")),
    ("hypnosia", None, ("Novice", "Novice")),
    ("dominas", "1 game", ("Novice", "Experienced")),
]
# Registered per language: the Russian menu is for Russian users (tests the menus).
NOT_SEEN_BY_THE_CHAT = {"setMyCommands", "setMyDescription", "setMyShortDescription"}


def russian_in(call: ApiCall) -> list[str]:
    """The Cyrillic words of a call's parameters (texts, captions, buttons, answers)."""
    text = json.dumps(call.params, ensure_ascii=False)
    return re.findall(r"[\wА-Яа-яЁё]*[А-Яа-яЁё][\wА-Яа-яЁё]*", text)


async def press_what_you_see(chat: Chat, private: Chat, human: User, rng: random.Random) -> None:
    """`PRESSES` presses, now and then, of a random button of the table or of a private
    message (his hand); then his turn timer alone plays for him (a random press may open
    a menu and close it again, and each press keeps his turn alive)."""
    for _ in range(PRESSES):
        await asyncio.sleep(0.15)
        shown = [
            m
            for m in (*chat.bot_messages[-2:], *private.bot_messages[-2:])
            if any(b.callback_data for row in m.buttons for b in row)
        ]
        if not shown:
            continue
        message = rng.choice(shown)
        data = [b.callback_data for row in message.buttons for b in row if b.callback_data]
        where = chat if message in chat.bot_messages else private
        # the message may change or go under the press: then the next one
        with contextlib.suppress(AssertionError, LookupError, ValueError):
            await where.press(human, message, by_data=rng.choice(data))


async def play_in_english(
    app: App, tg: FakeTelegram, human: User, game: str, length: str | None, levels: tuple[str, ...]
) -> None:
    private = await tg.start_private(human)
    await private.wait_message(lambda m: "Add me to a group" in m.content)
    chat = tg.group(title="Board gamers", members=[human])
    title = EN(f"game.{game}.title")
    await chat.send(human, f"/new {title}")
    lobby = await chat.wait_message(lambda m: "New game" in m.content)
    assert title in lobby.content, lobby.content
    if length is not None:
        await chat.press(human, lobby, contains=length)
    await add_computers(chat, human, lobby, *levels, lang="en")
    await chat.wait_for(lambda: "▶ Start" in lobby.button_texts, timeout=10)
    answer = await chat.press(human, lobby, "▶ Start")
    assert answer.text == "Let's go!", answer
    presses = asyncio.ensure_future(press_what_you_see(chat, private, human, random.Random(game)))
    placing = asyncio.ensure_future(places(app, chat, human, "en")) if game == "dominas" else None
    try:

        async def over() -> bool:
            return (await record(app, chat)).status != RecordStatus.PLAYING

        await until(over, 120, f"{game}: the game did not end\n{chat.transcript()[-3000:]}")
    finally:
        presses.cancel()
        if placing is not None:
            placing.cancel()
    rec = await record(app, chat)
    assert rec.status == RecordStatus.OVER and rec.language == "en", (game, rec.end_reason)
    await chat.wait_message(lambda m: "A game with computers" in m.content, after=lobby, timeout=20)
    rec = await record(app, chat)  # the table's last picture was drawn in English
    assert rec.shown_picture is not None and rec.shown_picture.endswith(".en"), rec


async def test_an_english_group_plays_all_five_games_without_a_russian_word() -> None:
    async with FakeTelegram() as tg:
        humans = [
            tg.user(1601 + i, name, language_code="en")
            for i, name in enumerate(["Anna", "Bob", "Carl", "Dora", "Eve"])
        ]
        async with running(settings_for(tg, **FAST)) as app:
            assert app.settings.bot_language == "ru"
            await asyncio.gather(
                *(
                    play_in_english(app, tg, human, game, length, levels)
                    for human, (game, length, levels) in zip(humans, GAMES, strict=True)
                )
            )
            await tg.settle(timeout=20)
        seen = [c for c in tg.calls() if c.method not in NOT_SEEN_BY_THE_CHAT]
        assert len(seen) > 100
        russian = {c.method + ": " + " ".join(words) for c in seen if (words := russian_in(c))}
        assert sorted(russian) == []
        callbacks = [c for c in tg.callbacks if c.answered_at is not None]
        assert callbacks and not [c.text for c in callbacks if CYRILLIC.search(c.text or "")]
