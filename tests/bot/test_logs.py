"""The log: LOG_LEVEL and LOG_FORMAT=json (one JSON object a line with the chat, game and
update ids and the event); neither the token nor a player's hidden tiles in any line,
also at DEBUG during a game played against the real bot (fake Telegram + Redis)."""

from __future__ import annotations

import io
import json
import logging
import os
import secrets
from functools import partial
from pathlib import Path
from typing import Any

from aiogram.types import Update

from bot import logs, redact
from fake_telegram import FakeTelegram
from tests.bot.bot_process import BotRun, play_a_turn, start_table
from tests.bot.e2e import mover, open_lobby
from tests.bot.hands import hand_of, versions

TOKEN = "123456:AAHsecretSECRETsecret_0123456789abc"


def update(data: str) -> Update:
    return Update.model_validate(
        {
            "update_id": 77,
            "callback_query": {
                "id": "q1",
                "from": {"id": 5, "is_bot": False, "first_name": "Аня"},
                "chat_instance": "ci",
                "data": data,
                "message": {
                    "message_id": 9,
                    "date": 0,
                    "chat": {"id": -1001, "type": "supergroup", "title": "t"},
                },
            },
        }
    )


async def test_json_lines_carry_the_update_chat_and_game_ids() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(redact.RedactingFormatter(logs.JsonFormatter()))
    log = logging.getLogger("test.logs")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    log.propagate = False
    redact.remember(TOKEN)
    try:

        async def handle(event: Any, data: dict[str, Any]) -> None:
            log.info("chat %s: a press", -1001)
            log.warning("request to https://api/bot%s/getMe failed", TOKEN)

        await logs.UpdateContext()(handle, update("P1:ab12cd:3:run.2"), {})
        log.info("outside any update", extra={"chat_id": 42})
    finally:
        log.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 3
    first, second, third = lines
    assert first["event"] == "chat -1001: a press" and first["level"] == "INFO"
    assert (first["update_id"], first["chat_id"], first["game_id"]) == (77, -1001, "ab12cd")
    assert first["logger"] == "test.logs" and first["ts"].endswith("+00:00")
    assert TOKEN.partition(":")[2] not in stream.getvalue()
    assert "***" in second["event"]
    assert third == {k: third[k] for k in ("ts", "level", "logger", "event", "chat_id")}


def test_bad_level_or_format_falls_back_and_text_is_the_default() -> None:
    assert logs.choose(None, None) == ("INFO", "text")
    assert logs.choose("debug", "JSON") == ("DEBUG", "json")
    assert logs.choose("loud", "xml") == ("INFO", "text")


# A deliberately leaking build, for the check below to be shown failing: every Bot API
# request the bot makes is logged with its fields (the hands' texts and buttons too) and
# the token, as a careless debug line would. Loaded into the bot's process only.
LEAKING_BUILD = """
import logging
from aiogram.client.session.aiohttp import AiohttpSession

_make_request = AiohttpSession.make_request


async def make_request(self, bot, method, timeout=None):
    logging.getLogger("bot.leak").info("request %r with token %s", method, bot.token)
    return await _make_request(self, bot, method, timeout)


AiohttpSession.make_request = make_request
"""


async def play_at_debug_in_json(
    tmp_path: Path, redis_url: str, **env: str
) -> tuple[str, str, set[str]]:
    """Two players, four turns with their hidden hands looked at, the bot at DEBUG in
    JSON: (the bot's stderr, the token, every line of a hidden hand they saw)."""
    async with FakeTelegram() as tg:
        users = [tg.user(101, "Аня"), tg.user(102, "Борис")]
        chat = tg.group(members=users)
        run = BotRun(
            tmp_path,
            "bot",
            pid1=False,  # given: then no key of `env` can stand for it (mypy)
            BOT_TOKEN=tg.token,
            TELEGRAM_API_URL=tg.api_url,
            REDIS_URL=redis_url,
            REDIS_PREFIX=f"logs-{secrets.token_hex(4)}",
            LOG_LEVEL="DEBUG",
            LOG_FORMAT="json",
            **env,
        )
        await run.start()
        try:
            await run.wait_log("Start polling", 90)
            lobby = await open_lobby(chat, *users)
            table = await start_table(chat, users[0], lobby)
            hands: list[str] = []
            for turn in range(4):
                await chat.wait_for(lambda: mover(table, users) is not None, 10)
                # two turns by the ephemeral hand, two by its fallback (the popup)
                tg.server.ephemeral.fail = turn >= 2
                for user in users:  # each looks at his hidden tiles
                    answer = await chat.press(user, table, by_data=hand_data(table), timeout=10)
                    if turn >= 2:
                        assert answer.show_alert and answer.text
                        hands.append(answer.text)
                        continue
                    assert not answer.show_alert
                    hand = await chat.wait_for(partial(hand_of, chat, user), 10)
                    assert "фишки" in hand.content, hand.content  # his tiles, in words
                    hands += [text for text, _ in versions(hand) if text]
                    hands += [b.text for row in hand.buttons for b in row]
                await play_a_turn(chat, table, users)
            for user in users:  # the hands' later edits too
                for hand in chat.ephemeral(user):
                    hands += [text for text, _ in versions(hand) if text]
        finally:
            await run.stop()
    # a player's ephemeral hand (its caption, buttons) and the fallback's popup
    secret_lines = {line for text in hands for line in text.splitlines() if len(line) >= 6}
    assert secret_lines
    return run.stderr(), tg.token, secret_lines


async def test_a_game_at_debug_in_json_shows_no_token_and_no_hidden_tiles(
    tmp_path: Path, redis_url: str
) -> None:
    stderr, token, secret_lines = await play_at_debug_in_json(tmp_path, redis_url)
    records = [json.loads(line) for line in stderr.splitlines() if line.strip()]  # all JSON
    assert len(records) > 10
    assert all({"ts", "level", "logger", "event"} <= set(r) for r in records)
    assert any(r["level"] == "DEBUG" for r in records)
    assert any(r["logger"] == "bot.render_worker" for r in records)  # the render process too
    assert token.partition(":")[2] not in stderr
    # none of a hidden hand's lines (a tile list) is ever logged, nor the hand's picture
    # (a PNG, in base64)
    leaked = [line for line in secret_lines if line in stderr]
    assert not leaked, leaked
    assert "iVBORw0KGgo" not in stderr and "\\x89PNG" not in stderr


async def test_the_check_catches_a_leaking_build(tmp_path: Path, redis_url: str) -> None:
    """The check above, run against a build that logs every request: it finds the hidden
    tiles (so it can fail), while the token is still masked by the redacting formatter."""
    (tmp_path / "sitecustomize.py").write_text(LEAKING_BUILD, encoding="utf-8")
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    stderr, token, secret_lines = await play_at_debug_in_json(tmp_path, redis_url, PYTHONPATH=path)
    assert '"logger": "bot.leak"' in stderr  # the leaking build ran
    leaked = [line for line in secret_lines if line in stderr]
    assert leaked  # the hands' lines are found in the log: the check would fail
    assert token.partition(":")[2] not in stderr  # the token is masked even so


def hand_data(table: Any) -> str:
    for row in table.buttons:
        for button in row:
            if button.callback_data and button.callback_data.endswith(":hand"):
                return str(button.callback_data)
    raise AssertionError(f"no hand button: {table.button_texts}")
