"""The playground and ephemeral messages (issue 13): a member's private hand is in the
page's data marked as his alone (`visible_to`), pressable by him only."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.playground.server import Playground


@pytest.fixture
async def playground() -> AsyncIterator[Playground]:
    settings = {"redis_url": None, "turn_seconds": 0, "bot_language": "ru"}
    async with Playground(port=0, settings=settings) as pg:
        yield pg


async def test_a_private_hand_is_shown_to_its_member_only(playground: Playground) -> None:
    group = playground.group
    assert group is not None
    anna, boris = playground.members[:2]
    async with aiohttp.ClientSession(base_url=playground.url) as http:

        async def send(user: int, text: str) -> None:
            r = await http.post("/api/send", json={"user": user, "chat": "group", "text": text})
            assert r.status == 200

        async def press(
            user: int, message_id: int, data: str, **extra: object
        ) -> aiohttp.ClientResponse:
            body = {"user": user, "chat_id": group.id, "message_id": message_id, "data": data}
            return await http.post("/api/press", json={**body, **extra})

        await send(anna.id, "/new доминас")
        lobby = await group.wait_message(lambda m: "Новая игра" in m.content)
        join = lobby.find_button(None, contains="Играть")
        assert join is not None
        assert (await press(boris.id, lobby.message_id, join["callback_data"])).status == 200
        await group.wait_for(lambda: any("Начать" in x for x in lobby.button_texts))
        start = lobby.find_button(None, contains="Начать")
        assert start is not None
        await press(anna.id, lobby.message_id, start["callback_data"])
        table = await group.wait_message(lambda m: m.photo is not None, timeout=10)
        hand = table.find_button("🀄 Мои фишки")
        assert hand is not None
        answer = await (await press(boris.id, table.message_id, hand["callback_data"])).json()
        assert not answer.get("show_alert"), answer
        views = [
            v
            for chat in playground.snapshot()["chats"]
            if chat["id"] == group.id
            for v in chat["messages"]
            if v.get("ephemeral_id") is not None
        ]
        assert len(views) == 1 and views[0]["visible_to"] == boris.id and views[0]["photo"]
        assert views[0]["message_id"] < 0
        # Аня may not press Борис's hand; Борис may
        view = views[0]
        buttons = [b for row in view["keyboard"] for b in row if b.get("callback_data")]
        eid = view["ephemeral_id"]
        if buttons:
            data = buttons[0]["callback_data"]
            denied = await press(anna.id, view["message_id"], data, ephemeral_id=eid)
            assert denied.status == 403
            ok = await press(boris.id, view["message_id"], data, ephemeral_id=eid)
            assert ok.status == 200 and "error" not in await ok.json()
        js = await (await http.get("/static/app.js")).text()
        assert "видно только вам" in js and "hiddenFromMe" in js
