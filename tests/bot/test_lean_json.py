"""`bot.lean_json`: Telegram's answers and updates read without the table's keyboards
they echo; a question's few buttons are kept (a press is checked against them)."""

from __future__ import annotations

import json

from aiogram import Bot
from aiogram.methods import EditMessageMedia, GetUpdates
from aiogram.types import InputMediaPhoto

from bot import lean_json
from bot.app import make_bot
from bot.callbacks import CancelCB, PlayCB
from bot.config import Settings
from bot.service.hands import HandCB

KEYBOARD = {"inline_keyboard": [[{"text": "▶ Выставить всё", "callback_data": "P1:ab:3:pa"}]]}
QUESTION = {
    "inline_keyboard": [
        [
            {"text": "✖ Да, завершить", "callback_data": CancelCB(g="ab", a="yes").pack()},
            {"text": "Нет", "callback_data": CancelCB(g="ab", a="no").pack()},
        ]
    ]
}
MESSAGE = {
    "message_id": 5,
    "date": 1700000000,
    "chat": {"id": -100, "type": "supergroup", "title": "Группа"},
    "photo": [{"file_id": "F1", "file_unique_id": "u1", "width": 320, "height": 320}],
    "caption": "Ход Ани",
    "reply_markup": KEYBOARD,
}


def test_the_dropped_keyboards_are_the_tables_and_the_hands() -> None:
    prefixes = {f"{cb.__prefix__}{cb.__separator__}" for cb in (PlayCB, HandCB)}
    assert set(lean_json.DROPPED) == prefixes


def test_a_questions_keyboard_is_kept() -> None:
    question = {**MESSAGE, "reply_markup": QUESTION}
    pressed = {"id": "1", "data": CancelCB(g="ab", a="no").pack(), "message": question}
    text = json.dumps({"ok": True, "result": [{"update_id": 1, "callback_query": pressed}]})
    assert lean_json.loads(text) == json.loads(text)


def test_loads_drops_every_tables_keyboard_and_keeps_the_rest() -> None:
    update = {"update_id": 1, "callback_query": {"id": "1", "data": "x", "message": MESSAGE}}
    text = json.dumps({"ok": True, "result": [update, {"result": MESSAGE}]})
    data = lean_json.loads(text)
    assert data == json.loads(text.replace(', "reply_markup": ' + json.dumps(KEYBOARD), ""))
    assert "reply_markup" not in json.dumps(data)
    assert lean_json.loads(b'{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}


def test_the_bot_reads_answers_without_keyboards() -> None:
    """An edit's answer is still a message with its picture (the `file_id` kept for the
    next edit: bot/uploaded.py); only its keyboard is not read back."""
    settings = Settings(bot_token="42:TEST", telegram_api_url="http://127.0.0.1:1")
    bot: Bot = make_bot(settings)
    session = bot.session
    edit = EditMessageMedia(chat_id=-100, message_id=5, media=InputMediaPhoto(media="F1"))
    answer = session.check_response(bot, edit, 200, json.dumps({"ok": True, "result": MESSAGE}))
    msg = answer.result
    assert msg is not None and not isinstance(msg, bool)
    assert msg.photo is not None and msg.photo[-1].file_id == "F1"
    assert msg.caption == "Ход Ани" and msg.reply_markup is None
    update = {
        "update_id": 9,
        "callback_query": {
            "id": "1",
            "chat_instance": "c",
            "data": "x",
            "from": {"id": 7, "is_bot": False, "first_name": "Аня"},
            "message": MESSAGE,
        },
    }
    got = session.check_response(
        bot, GetUpdates(), 200, json.dumps({"ok": True, "result": [update]})
    )
    assert got.result is not None
    pressed = got.result[0].callback_query
    assert pressed is not None and pressed.message is not None
    assert pressed.message.message_id == 5
