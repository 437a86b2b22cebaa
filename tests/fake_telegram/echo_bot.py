"""A tiny real aiogram bot used to exercise the fake server, plus test helpers."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from aiogram import Bot, Dispatcher, F
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    ChatMemberUpdated,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)
from PIL import Image


def png(color: str = "red", size: tuple[int, int] = (640, 480)) -> bytes:
    """A small real PNG (the fake server checks that uploads are images)."""
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, "PNG")
    return buffer.getvalue()


def lobby_keyboard() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text="Играть", callback_data="join"),
                InlineKeyboardButton(text="Выйти", callback_data="leave"),
            ],
            [
                InlineKeyboardButton(text="Доска", callback_data="board"),
                InlineKeyboardButton(text="🀄 Мои фишки", callback_data="hand"),
            ],
        ]
    )


@dataclass
class EchoState:
    """What the echo bot saw, for assertions."""

    players: list[str] = field(default_factory=list)
    errors: list[TelegramAPIError] = field(default_factory=list)
    member_updates: list[ChatMemberUpdated] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)


def make_echo_dispatcher(state: EchoState) -> Dispatcher:
    """/new → a photo lobby with buttons; /echo <text> → the text back; /start in private;
    callbacks join/leave (caption edit), board (media edit), hand (alert), twice (answers
    twice, the second error is recorded), silent (never answered)."""
    dp = Dispatcher()

    @dp.message(CommandStart())
    async def start(message: Message, command: CommandObject) -> None:
        await message.answer(f"Привет! payload={command.args}")

    @dp.message(Command("new"))
    async def new(message: Message, command: CommandObject) -> None:
        await message.answer_photo(
            BufferedInputFile(png("red"), "table.png"),
            caption=f"Лобби {command.args or ''}".strip(),
            reply_markup=lobby_keyboard(),
        )

    @dp.message(Command("echo"))
    async def echo(message: Message, command: CommandObject) -> None:
        await message.answer(command.args or "—")

    @dp.message()
    async def anything(message: Message) -> None:
        state.messages.append(message)

    @dp.channel_post()
    async def channel_post(message: Message) -> None:
        state.messages.append(message)

    @dp.my_chat_member()
    async def my_member(update: ChatMemberUpdated) -> None:
        state.member_updates.append(update)

    def caption() -> str:
        return "Лобби: " + (", ".join(state.players) or "пока никого")

    @dp.callback_query(F.data == "join")
    async def join(query: CallbackQuery, bot: Bot) -> None:
        name = query.from_user.first_name
        if name in state.players:
            await query.answer("Вы уже в игре")
            return
        state.players.append(name)
        await query.answer("Вы в игре")
        assert query.message is not None
        try:
            await bot.edit_message_caption(
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                caption=caption(),
                reply_markup=lobby_keyboard(),
            )
        except TelegramAPIError as error:  # concurrent taps may produce the same caption
            state.errors.append(error)

    @dp.callback_query(F.data == "leave")
    async def leave(query: CallbackQuery, bot: Bot) -> None:
        name = query.from_user.first_name
        if name in state.players:
            state.players.remove(name)
        await query.answer("Вы вышли")
        assert query.message is not None
        try:
            await bot.edit_message_caption(
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                caption=caption(),
                reply_markup=lobby_keyboard(),
            )
        except TelegramAPIError as error:  # "message is not modified" when nothing changed
            state.errors.append(error)

    @dp.callback_query(F.data == "board")
    async def board(query: CallbackQuery, bot: Bot) -> None:
        await query.answer()
        assert query.message is not None
        await bot.edit_message_media(
            chat_id=query.message.chat.id,
            message_id=query.message.message_id,
            media=InputMediaPhoto(
                media=BufferedInputFile(png("blue"), "board.png"), caption=caption()
            ),
            reply_markup=lobby_keyboard(),
        )

    @dp.callback_query(F.data == "hand")
    async def hand(query: CallbackQuery) -> None:
        await query.answer("Ваши фишки: 3-5, 6-6", show_alert=True)

    @dp.callback_query(F.data == "twice")
    async def twice(query: CallbackQuery) -> None:
        await query.answer("раз")
        try:
            await query.answer("два")
        except TelegramAPIError as error:
            state.errors.append(error)

    @dp.callback_query(F.data == "silent")
    async def silent(query: CallbackQuery) -> None:
        return None

    return dp
