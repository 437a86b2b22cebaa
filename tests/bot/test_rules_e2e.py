"""`/rules <игра>` opens with the rules in short — one phone screen: the goal, a turn, how
it ends — and a «📖 Полные правила» button; `/start` in a private chat lists all five
games (play-polish issue 18). Against the fake Telegram server."""

from __future__ import annotations

import re
import textwrap

import pytest

from bot.presenters import registry
from fake_telegram import FakeTelegram
from locales import LANGUAGES, get_translator
from tests.bot.e2e import in_group, running, settings_for

GAMES = ("seven_tracks", "cell_capture", "sea_cross", "hypnosia", "dominas")
TITLES = ("Семидорожник", "Захват клеток", "Морской крест", "Гипнозия", "ДОМИНА*С")
FULL = "📖 Полные правила"
# a phone screen: lines of about 38 characters in a message bubble, about 24 of them
SCREEN_LINES, SCREEN_CHARS = 24, 700


def screen_lines(html: str) -> int:
    text = re.sub(r"<[^>]+>", "", html)
    return sum(len(textwrap.wrap(line, 38)) or 1 for line in text.split("\n"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_short_version_fits_a_phone_screen_and_says_goal_turn_end(lang: str) -> None:
    t = get_translator(lang)
    heads = ("<b>Цель.</b>", "<b>Ход.</b>", "<b>Конец.</b>")
    if lang == "en":
        heads = ("<b>Goal.</b>", "<b>A turn.</b>", "<b>The end.</b>")
    for game in GAMES:
        short, full = t(f"rules.{game}.short"), t(f"rules.{game}")
        assert all(h in short for h in heads), (game, short)
        assert screen_lines(short) <= SCREEN_LINES, (game, screen_lines(short))
        assert len(re.sub(r"<[^>]+>", "", short)) <= SCREEN_CHARS, game
        assert len(short) < len(full), game


async def test_rules_in_a_group_short_first_then_the_full_rules_to_the_presser_alone() -> None:
    async with in_group(7101, ["Аня", "Борис"]) as (tg, _, chat, (anna, boris)):
        await chat.send(anna, "/rules гипнозия")
        short = await chat.wait_message(lambda m: "📖" in m.content)
        assert "«Гипнозия» — правила коротко" in short.content
        assert "Цель." in short.content and "Ход." in short.content
        assert "Конец." in short.content
        assert "Кнопки" not in short.content  # not the full rules
        assert short.button_texts == [FULL]
        assert screen_lines(short.content) <= SCREEN_LINES
        before = len(chat.bot_messages)
        # Борис presses it: the full rules come to him alone (ephemeral, for his press)
        answer = await chat.press(boris, short, FULL)
        assert not answer.show_alert
        full = await chat.wait_for(
            lambda: [m for m in chat.ephemeral(boris) if m.from_bot] or None, 10
        )
        await chat.wait_for(lambda: any("Кнопки" in m.content for m in chat.ephemeral(boris)), 10)
        text = "\n".join(m.content for m in chat.ephemeral(boris) if m.from_bot)
        assert "«Гипнозия» — правила" in full[0].content and "коротко" not in text
        assert "против часовой стрелки" in text and "№4 ⤵ +1 → центр (5)" in text
        assert not [m for m in chat.ephemeral(anna) if m.from_bot]
        await tg.settle()
        assert len(chat.bot_messages) == before  # the group saw nothing more
        assert all(c.answered for c in tg.callbacks)


async def test_without_ephemeral_the_full_rules_go_to_a_started_presser_privately() -> None:
    async with in_group(7201, ["Аня", "Борис"]) as (tg, _, chat, (anna, boris)):
        private = await tg.start_private(boris)
        await private.wait_message()
        tg.server.ephemeral.fail = True
        await chat.send(anna, "/rules доминас")
        short = await chat.wait_message(lambda m: "📖" in m.content)
        assert "«ДОМИНА*С» — правила коротко" in short.content
        waiter = private.wait_message(lambda m: "«ДОМИНА*С» — правила" in m.content)
        answer = await chat.press(boris, short, FULL)
        assert answer.text == "Правила — у вас в личном чате со мной."
        first = await waiter
        assert "«Настольщики»" in first.content and "коротко" not in first.content
        # Аня has not started the bot: one reply in the group, then a repeat is refused
        answer = await chat.press(anna, short, FULL)
        reply = await chat.wait_message(lambda m: "Башня" in m.content, after=short)
        assert reply.reply_to is not None
        assert reply.reply_to.message_id == short.message_id
        answer = await chat.press(anna, short, FULL)
        assert answer.text == "Эти правила уже отправлены — они выше."


async def test_an_ephemeral_rules_and_its_button_stay_ephemeral() -> None:
    async with in_group(7301, ["Аня"]) as (tg, _, chat, (anna,)):
        await tg.wait_for(lambda: tg.calls("setMyCommands"), 10)
        waiter = chat.wait_ephemeral(anna, timeout=10)
        await chat.send_ephemeral(anna, "/rules крест")
        short = await waiter
        assert "«Морской крест» — правила коротко" in short.content
        assert short.button_texts == [FULL]
        waiter = chat.wait_ephemeral(anna, lambda m: "Как играть в чате" in m.content)
        await chat.press(anna, short, FULL)
        await waiter
        assert not chat.bot_messages


async def test_rules_without_a_name_are_those_of_the_game_open_in_the_chat() -> None:
    async with in_group(7401, ["Аня"]) as (_, _, chat, (anna,)):
        await chat.send(anna, "/new захват")
        await chat.wait_message(lambda m: "Новая игра" in m.content)
        await chat.send(anna, "/rules")
        short = await chat.wait_message(lambda m: "📖" in m.content)
        assert "«Захват клеток» — правила коротко" in short.content


async def test_start_in_private_lists_all_five_games_with_their_rules() -> None:
    async with FakeTelegram() as tg:
        anna = tg.user(7501, "Аня")
        async with running(settings_for(tg)):
            private = await tg.start_private(anna)
            hello = await private.wait_message()
            assert all(title in hello.content for title in TITLES), hello.content
            assert "Шестигранник" not in hello.content
            rows = hello.keyboard
            assert any("startgroup" in str(b.get("url")) for row in rows for b in row)
            assert all(len(row) <= 2 for row in rows)
            labels = [b["text"] for row in rows for b in row if b.get("callback_data")]
            assert labels == [f"📖 {title}" for title in TITLES]
            await private.press(anna, hello, "📖 Гипнозия")
            short = await private.wait_message(
                lambda m: "«Гипнозия» — правила коротко" in m.content
            )
            await private.press(anna, short, FULL)
            await private.wait_message(lambda m: "Кнопки" in m.content)
            assert all(c.answered for c in tg.callbacks)


def test_the_five_games_are_the_registered_ones() -> None:
    assert tuple(registry()) == GAMES
