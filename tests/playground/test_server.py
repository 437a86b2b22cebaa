"""The playground's server without a browser: the page's HTTP API and its live events,
with the real bot behind the fake Bot API."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest
from aiogram.methods import SendAnimation
from aiogram.types import BufferedInputFile
from PIL import Image

from bot.__main__ import main as bot_main
from bot.playground.server import GROUP_TITLE, Playground


@pytest.fixture
async def playground() -> AsyncIterator[Playground]:
    settings = {"redis_url": None, "turn_seconds": 0, "bot_language": "ru"}
    async with Playground(port=0, settings=settings) as pg:
        yield pg


class Events:
    """The page's server-sent event stream."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(self) -> tuple[str, Any]:
        event, data = "message", ""
        while True:
            line = (await self.response.content.readline()).decode()
            if line in ("\n", ""):
                if data:
                    return event, json.loads(data)
                if line == "":
                    raise EOFError
                continue
            if line.startswith("event: "):
                event = line[len("event: ") :].strip()
            elif line.startswith("data: "):
                data += line[len("data: ") :].strip()

    async def until(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(200):
            event, view = await self.next()
            if event == "msg" and predicate(view):
                return dict(view)
        raise AssertionError("no such message event")


async def test_snapshot_send_press_and_live_events(playground: Playground) -> None:
    assert playground.url.startswith("http://127.0.0.1:")
    async with aiohttp.ClientSession(base_url=playground.url) as http:
        page = await http.get("/")
        assert page.status == 200 and "/static/app.js" in await page.text()
        for name in ("app.js", "app.css"):
            assert (await http.get(f"/static/{name}")).status == 200
        assert (await http.get("/static/server.py")).status == 404
        assert (await http.get("/photo/nope")).status == 404

        async with http.get("/api/events") as response:
            assert response.headers["Content-Type"].startswith("text/event-stream")
            events = Events(response)
            kind, snapshot = await events.next()
            assert kind == "snapshot"
            assert [m["name"] for m in snapshot["members"]] == ["Аня", "Борис", "Вика", "Гоша"]
            chats = {chat["id"]: chat for chat in snapshot["chats"]}
            group = chats[snapshot["group_id"]]
            assert group["title"] == GROUP_TITLE and group["members"] == 4
            menu = [c["command"] for c in snapshot["commands"]["group"]]
            assert "new" in menu and "rules" in menu  # the bot's setMyCommands
            for member in snapshot["members"]:  # everyone has started the bot in private
                private = chats[member["id"]]["messages"]
                assert private[0]["text"] == "/start" and private[1]["from_bot"]

            # Аня writes /new in the group: her message and the bot's lobby arrive live
            sent = await http.post("/api/send", json={"user": 101, "chat": "group", "text": "/new"})
            assert sent.status == 200
            mine = await events.until(lambda v: v["text"] == "/new")
            assert mine["from"]["name"] == "Аня" and mine["chat_id"] == snapshot["group_id"]
            lobby = await events.until(
                lambda v: v["from_bot"] and "Новая игра" in (v["text"] or "")
            )
            assert any(e["type"] == "bold" for e in lobby["entities"])  # the HTML the bot used
            join = next(b for row in lobby["keyboard"] for b in row if "Играть" in b["text"])

            # Борис presses «Играть»: the bot's answer comes back, the lobby is edited
            pressed = await http.post(
                "/api/press",
                json={
                    "user": 102,
                    "chat_id": lobby["chat_id"],
                    "message_id": lobby["message_id"],
                    "data": join["callback_data"],
                },
            )
            answer = await pressed.json()
            assert answer["text"] == "Вы в игре!" and answer["show_alert"] is False
            edited = await events.until(
                lambda v: v["message_id"] == lobby["message_id"] and v["edit_count"] > 0
            )
            assert "Борис" in edited["text"]

            # Аня starts the game: the table's picture is served by the page's server
            start = next(b for row in edited["keyboard"] for b in row if "Начать" in b["text"])
            started = await http.post(
                "/api/press",
                json={
                    "user": 101,
                    "chat_id": lobby["chat_id"],
                    "message_id": lobby["message_id"],
                    "data": start["callback_data"],
                },
            )
            assert (await started.json())["text"]
            table = await events.until(lambda v: v["photo"] is not None)
            assert table["caption"] and table["keyboard"]
            photo = await http.get(table["photo"]["url"])
            assert photo.status == 200 and photo.content_type == "image/png"
            assert (await photo.read()).startswith(b"\x89PNG")
            assert "immutable" in photo.headers["Cache-Control"]

            # a button that is not on the message any more is refused, like Telegram does
            stale = await http.post(
                "/api/press",
                json={
                    "user": 103,
                    "chat_id": lobby["chat_id"],
                    "message_id": lobby["message_id"],
                    "data": "L1:nope",
                },
            )
            assert (await stale.json()) == {"error": "Этой кнопки уже нет"}

            # Вика writes to the bot in private: it answers there
            await http.post("/api/send", json={"user": 103, "chat": "private", "text": "/help"})
            reply = await events.until(lambda v: v["chat_id"] == 103 and v["from_bot"])
            assert reply["text"]


async def test_bad_requests_are_refused(playground: Playground) -> None:
    async with aiohttp.ClientSession(base_url=playground.url) as http:
        # a form post (what another site could make a browser send) is not accepted
        form = await http.post("/api/send", data={"user": "101", "text": "/new"})
        assert form.status == 415
        unknown = await http.post("/api/send", json={"user": 999, "chat": "group", "text": "x"})
        assert unknown.status == 400
        empty = await http.post("/api/send", json={"user": 101, "chat": "group", "text": "  "})
        assert empty.status == 400
        # a member cannot press buttons in another member's private chat
        other = await http.post(
            "/api/press", json={"user": 101, "chat_id": 102, "message_id": 2, "data": "x"}
        )
        assert other.status == 403
    assert playground.group is not None
    assert not [m for m in playground.group.messages if m.text == "x"]


def test_command_line_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bot_main(["playground", "--help"])
    assert exit_info.value.code == 0
    assert "--port" in capsys.readouterr().out


def tiny_gif() -> bytes:
    """A two-frame animated GIF, 8×6 px."""
    frames = [Image.new("RGB", (8, 6), colour) for colour in ("red", "blue")]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


async def test_an_animation_is_shown_and_served(playground: Playground) -> None:
    """A `/replay` comes as an animation (bot/handlers/replay.py): the page gets it with
    its size and a URL that serves the GIF, live and in the snapshot (issue 31, point 6)."""
    assert playground.app is not None and playground.group is not None
    gif = tiny_gif()
    async with aiohttp.ClientSession(base_url=playground.url) as http:
        async with http.get("/api/events") as response:
            events = Events(response)
            assert (await events.next())[0] == "snapshot"
            send = SendAnimation(
                chat_id=playground.group.id,
                animation=BufferedInputFile(gif, filename="replay-1.gif"),
                caption="🎞 Игра №1",
                width=8,
                height=6,
                duration=1,
            )
            await playground.app.service.ctx.sender.call(send)
            live = await events.until(lambda v: v["animation"] is not None)
        assert live["caption"] == "🎞 Игра №1"
        animation = live["animation"]
        assert (animation["width"], animation["height"]) == (8, 6)
        assert animation["mime_type"] == "image/gif"
        served = await http.get(animation["url"])
        assert served.status == 200 and served.content_type == "image/gif"
        assert await served.read() == gif
        async with http.get("/api/events") as response:
            _, snapshot = await Events(response).next()
        group = next(c for c in snapshot["chats"] if c["id"] == snapshot["group_id"])
        assert any(m["animation"] == animation for m in group["messages"])
