"""An English chat gets an English board: the bot draws the table picture in the chat's
language (`GameRecord.language`), and the picture's key changes with the language."""

from __future__ import annotations

import asyncio
import time

import render.seven_tracks as st
from bot.presenters.seven_tracks import SevenTracksPresenter
from bot.warm_up import draw_cold
from tests.bot.e2e import in_group, record
from tests.render.language_samples import pixel_hash


async def test_an_english_chat_gets_an_english_board() -> None:
    p = SevenTracksPresenter()
    async with in_group(1301, ["Anna", "Boris"], bot_language="en", language="en") as group:
        _, app, chat, (anna, boris) = group
        await chat.send(anna, "/new")
        lobby = await chat.wait_message(lambda m: "New game" in m.content)
        assert (await chat.press(boris, lobby, contains="Play")).text == "You are in!"
        await chat.wait_for(lambda: "▶ Start" in lobby.button_texts)
        await chat.press(anna, lobby, contains="Start")
        table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        deadline = time.monotonic() + 30
        while True:  # until the table shows the picture of the stored state
            rec = await record(app, chat)
            assert rec.state is not None
            state = p.load(rec.state)
            if rec.shown_picture == p.picture_key(state, "en"):
                break
            assert time.monotonic() < deadline, rec
            await asyncio.sleep(0.1)
        shown = table.photo_bytes
    assert rec.language == "en" and shown is not None
    assert rec.shown_picture != p.picture_key(state, "ru")
    view, names = p.game.view(state, None), rec.display_names()  # the public view
    # warm (the game's palette) or cold (a palette of its own: before the warm-up)
    english = {
        pixel_hash(st.render(view, names, language="en")),
        pixel_hash(draw_cold(st, view, names, "en")),
    }
    russian = {pixel_hash(st.render(view, names)), pixel_hash(draw_cold(st, view, names))}
    assert pixel_hash(shown) in english - russian
