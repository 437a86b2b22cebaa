"""The lobby fits a phone (play-polish issue 18): at most three buttons to a row, no label
cut (a label fits its share of the row: bot/phone.py), and the game is picked from its
own menu («🎲 Игра: …» opens it, a game or «« Назад» closes it). Against the fake
Telegram server, in both languages, through every game and every option."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.types import InlineKeyboardButton

from bot import phone
from fake_telegram.server import StoredMessage
from locales import get_translator
from tests.bot.e2e import in_group

GAMES = ("seven_tracks", "cell_capture", "sea_cross", "hypnosia", "dominas")


def action(button: dict[str, Any]) -> tuple[str, str]:
    """A lobby button's (action, value): `L1:<game>:<a>:<x>`."""
    _, _, a, x = str(button.get("callback_data")).split(":", 3)
    return a, x


def data(lobby: StoredMessage, a: str, x: str = "") -> str:
    found = [b for row in lobby.keyboard for b in row if action(b) == (a, x)]
    assert found, (a, x, lobby.button_texts)
    return str(found[0]["callback_data"])


def unfit(keyboard: list[list[dict[str, Any]]]) -> list[list[str]]:
    """The rows that do not fit a phone (more than three buttons, or a label cut)."""
    return [
        [b["text"] for b in row]
        for row in keyboard
        if not phone.fits([[InlineKeyboardButton(text=b["text"], callback_data="x") for b in row]])
    ]


def marked(lobby: StoredMessage, a: str, x: str) -> bool:
    return any(
        b["text"].startswith("✅") and action(b) == (a, x) for r in lobby.keyboard for b in r
    )


def test_a_row_never_cuts_a_label_and_the_rows_do_not_jump_when_one_is_chosen() -> None:
    def b(text: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data="x")

    assert phone.width("✅ Один кон") == 11 and phone.width("Гипнозия") == 8
    assert phone.width("⏱ 10 мин") == 9 and phone.width("🙋 Играть") == 9
    labels = ["2 партии", "1 партия", "Команды · 2 партии", "Команды · 1 партия"]
    for chosen in range(len(labels)):
        shown = [("✅ " if i == chosen else "") + x for i, x in enumerate(labels)]
        got = phone.rows([b(x) for x in shown], spare=phone.MARK)
        assert [len(r) for r in got] == [2, 1, 1] and phone.fits(got)
    five = phone.rows([b(x) for x in ("a", "b", "c", "d", "e")])
    assert [len(r) for r in five] == [3, 2]
    timers = phone.rows([b(x) for x in ("⏱ 2 мин", "✅ 3 мин", "⏱ 10 мин", "⏱ без таймера")])
    assert [[x.text for x in r] for r in timers] == [
        ["⏱ 2 мин", "✅ 3 мин"],
        ["⏱ 10 мин", "⏱ без таймера"],
    ]
    assert not phone.fits([[b("Семидорожник"), b("Захват клеток"), b("Морской крест")]])


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_lobby_fits_a_phone_and_the_game_is_picked_from_its_own_menu(lang: str) -> None:
    t = get_translator(lang)
    async with in_group(7901, ["Аня", "Борис"], bot_language=lang, language=lang) as group:
        tg, _, chat, (anna, boris) = group
        await chat.send(anna, "/new")
        lobby = await chat.wait_message(lambda m: bool(m.buttons))
        seen = 0

        async def press(user: Any, a: str, x: str = "") -> Any:
            nonlocal seen
            answer = await chat.press(user, lobby, by_data=data(lobby, a, x))
            if not answer.show_alert:
                await chat.wait_for(lambda: lobby.edit_count > seen, 10)
                seen = lobby.edit_count
            return answer

        # the lobby's own keyboard: one button opens the menu of games, no game row
        assert unfit(lobby.keyboard) == []
        assert [action(b)[0] for b in lobby.keyboard[0]] == ["menu"]
        assert lobby.keyboard[0][0]["text"] == t(
            "lobby.pick_game", game=t("game.seven_tracks.short")
        )
        assert not [b for row in lobby.keyboard for b in row if action(b)[0] == "game"]
        # only the creator opens it
        answer = await chat.press(boris, lobby, by_data=data(lobby, "menu"))
        assert answer.show_alert and answer.text == t("lobby.only_creator")
        current = "seven_tracks"
        for game in GAMES:
            answer = await press(anna, "menu")
            assert answer.text == t("lobby.choose_game")
            assert unfit(lobby.keyboard) == []
            shown = [action(b) for row in lobby.keyboard for b in row]
            assert [x for a, x in shown if a == "game"] == list(GAMES)
            assert ("back", "") in shown and ("join", "") in shown
            assert marked(lobby, "game", current)  # the chosen game is marked
            assert game == current or not marked(lobby, "game", game)
            await press(anna, "game", game)
            current = game
            title = t("lobby.title", game=t(f"game.{game}.title"))
            assert lobby.content.startswith(title.replace("<b>", "").replace("</b>", ""))
            assert [action(b)[0] for b in lobby.keyboard[0]] == ["menu"]
            assert t(f"game.{game}.short") in lobby.keyboard[0][0]["text"]
            # every option and every timer chosen in turn: it still fits
            for a in ("opt", "tmr"):
                values = [action(b)[1] for r in lobby.keyboard for b in r if action(b)[0] == a]
                for x in values:
                    if not marked(lobby, a, x):  # (the chosen one: no change, no edit)
                        await press(anna, a, x)
                    assert marked(lobby, a, x) and unfit(lobby.keyboard) == [], lobby.keyboard
        # «« Назад» closes the menu without a change; Борис may join while it is open
        await press(anna, "menu")
        await chat.press(boris, lobby, by_data=data(lobby, "join"))
        await chat.wait_for(lambda: "Борис" in lobby.content, 10)
        seen = lobby.edit_count
        await press(anna, "back")
        assert [action(b)[0] for b in lobby.keyboard[0]] == ["menu"]
        assert t("game.dominas.short") in lobby.keyboard[0][0]["text"]
        assert ("start", "") in [action(b) for row in lobby.keyboard for b in row]
        assert unfit(lobby.keyboard) == []
        assert all(c.answered for c in tg.callbacks)
