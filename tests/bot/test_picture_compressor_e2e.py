"""The table picture the real bot sends (drawn in its render process, as `python -m bot`
does) is compressed by ISA-L, or by the standard zlib when `RENDER_ZLIB=zlib` tells the
render process so; either way Telegram gets a valid PNG of the same pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from fake_telegram import FakeTelegram
from render import deflate
from render.png import encode_indexed_png
from tests.bot.e2e import open_lobby, running, settings_for, start_game


async def table_picture() -> bytes:
    """The first table picture of a «Семидорожник» game, drawn by the bot's render process."""
    async with FakeTelegram() as tg:
        anna, boris = tg.user(101, "Аня"), tg.user(102, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, render_process=True)
        assert settings.render_processes >= 1
        async with running(settings) as app:
            assert app.service.pictures.in_process  # not the threads of this test's process
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await chat.wait_for(lambda: table.photo_bytes is not None, timeout=10)
            data = table.photo_bytes
            assert data is not None
            return data


def written_by(png: bytes, compressor: str) -> bool:
    """Whether `compressor` writes exactly `png` for its pixels and palette, at some zlib
    level (the first pictures of a game are drawn before its warm-up, on a palette of
    their own and at `render.png.PNG_LEVEL`; warm ones at the game's `PNG_LEVEL`)."""
    Image.open(io.BytesIO(png)).verify()
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG" and im.mode == "P"
    with deflate.using(compressor):
        return any(png == encode_indexed_png(im, level) for level in range(1, 10))


@pytest.mark.skipif(deflate.isal() is None, reason="the isal package is not installed")
async def test_the_bot_sends_pictures_compressed_by_isal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(deflate.ENV, raising=False)
    png = await table_picture()
    assert written_by(png, "isal")
    assert not written_by(png, "zlib")


async def test_told_zlib_the_bot_sends_the_same_pixels_compressed_by_zlib(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(deflate.ENV, "zlib")  # read by the render process when it starts
    png = await table_picture()
    assert written_by(png, "zlib")
    if deflate.isal() is not None:
        assert not written_by(png, "isal")
