"""The baseline of the end-to-end benchmark: a minimal aiogram bot in the same harness.

    BOT_TOKEN=... TELEGRAM_API_URL=... python -m bench.echo_bot

`/new` in a group sends one photo with three buttons; a press is answered at once and
the photo's caption (and the buttons' data) edited. It stores nothing and draws
nothing: the per-update floor of aiogram + long polling + one HTTP answer + one edit.
It is run as a subprocess exactly like `python -m bot`.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os

from aiogram import Bot, Dispatcher, F
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.filters import Command
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)
from PIL import Image


def keyboard(n: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=f"Кнопка {i}", callback_data=f"e:{n}:{i}") for i in range(3)]
        ]
    )


def picture() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (320, 200), (246, 240, 228)).save(buf, format="PNG")
    return buf.getvalue()


def make_dispatcher() -> Dispatcher:
    dp = Dispatcher()
    photo = picture()

    @dp.message(Command("new"))
    async def new(message: Message) -> None:
        await message.answer_photo(
            BufferedInputFile(photo, "table.png"), caption="Ход 0", reply_markup=keyboard(0)
        )

    @dp.callback_query(F.data.startswith("e:"))
    async def press(query: CallbackQuery) -> None:
        await query.answer("Принято")
        n = int((query.data or "e:0").split(":")[1]) + 1
        msg = query.message
        if msg is not None and query.bot is not None:
            await query.bot.edit_message_caption(
                chat_id=msg.chat.id,
                message_id=msg.message_id,
                caption=f"Ход {n}",
                reply_markup=keyboard(n),
            )

    return dp


async def run() -> None:
    session = AiohttpSession(api=TelegramAPIServer.from_base(os.environ["TELEGRAM_API_URL"]))
    bot = Bot(os.environ["BOT_TOKEN"], session=session)
    await make_dispatcher().start_polling(bot, handle_signals=True)


def main() -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(run())


if __name__ == "__main__":
    main()
