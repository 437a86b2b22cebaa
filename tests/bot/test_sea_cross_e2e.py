"""«Морской крест» through the same game-agnostic bot: a whole game by buttons.

The bot rolls for the player to act and plays every move that is the only legal one, so
the players tap only real choices; the test counts those taps per turn.
"""

from __future__ import annotations

import re
import time

from bot.storage import RecordStatus
from games.sea_cross import State
from tests.bot.e2e import data_of, record, running, settings_for
from tests.fake_telegram import Chat, FakeTelegram, User
from tests.fake_telegram.server import StoredMessage

MOVER = re.compile(r"Ходит \S+ (.+?): 🎲")


def mover(table: StoredMessage, users: dict[str, User]) -> User:
    match = MOVER.search(table.content)
    assert match, table.content
    return users[match.group(1)]


def choose(texts: list[str]) -> str:
    """A player's sensible pick among the buttons he sees: into the home, a capture, a new
    token on the board, else the biggest step."""
    for mark in ("🏠", "⚔", "⚓", "⤳"):
        for x in texts:
            if mark in x:
                return x
    steps = [(int(m.group(1)), x) for x in texts if (m := re.search(r"\+(\d)", x))]
    assert steps, texts
    return max(steps)[1]


async def state_of(app: object, chat: Chat) -> State:
    rec = await record(app, chat)  # type: ignore[arg-type]
    assert rec.state is not None
    return State.model_validate_json(rec.state)


async def test_a_whole_sea_cross_game_by_buttons(backend: str | None) -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1701, "Аня"), tg.user(1702, "Борис")
        users = {u.full_name: u for u in (anna, boris)}
        chat = tg.group(members=list(users.values()))
        async with running(settings_for(tg, redis_url=backend)) as app:
            started = time.monotonic()
            await chat.send(anna, "/new морской крест")
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
            assert "Морской крест" in lobby.content
            await chat.press(boris, lobby, contains="Играть")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
            await chat.press(anna, lobby, "▶ Начать")
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
            assert table.photo_bytes.startswith(b"\x89PNG")
            await tg.settle(quiet=0.02)
            # The roll-off was made and told; the bot already rolled for the first player.
            first = await state_of(app, chat)
            assert first.rolloff and first.roll_no >= 1
            assert "🔵 Аня" in table.content and "🟢 Борис" in table.content
            presses = 0
            for _ in range(1500):
                await tg.settle(quiet=0.02)
                if (await record(app, chat)).status != RecordStatus.PLAYING:
                    break
                who = mover(table, users)
                texts = table.button_texts
                assert texts and len(texts) <= 10, texts
                assert all(t.startswith(("№", "⚓")) for t in texts), texts
                before = data_of(table)
                answer = await chat.press(who, table, choose(texts))
                assert not answer.show_alert, answer
                presses += 1
                await chat.wait_for(lambda b=before: data_of(table) != b, 5)  # type: ignore[misc]
            else:
                raise AssertionError("the game did not end")
            final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table)
            assert "1." in final.content and "2." in final.content and "🏆" in final.content
            assert "дома 4 из 4" in final.content
            end = await state_of(app, chat)
            assert end.winner is not None
            assert table.button_texts == []  # the finished table has no buttons
            assert "Игра окончена" in table.content
            turns = end.turn_no
            elapsed = time.monotonic() - started
            print(
                f"sea cross: {turns} turns, {end.roll_no} rolls, {presses} taps "
                f"({presses / turns:.2f}/turn), {elapsed:.1f}s"
            )
            assert presses < 2.5 * turns


async def test_a_press_out_of_turn_is_refused_privately_and_changes_nothing() -> None:
    async with FakeTelegram() as tg:
        anna, boris, vika = tg.user(1711, "Аня"), tg.user(1712, "Борис"), tg.user(1713, "Вика")
        users = {u.full_name: u for u in (anna, boris)}
        chat = tg.group(members=[anna, boris, vika])
        async with running(settings_for(tg)) as app:
            await chat.send(anna, "/new крест")
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
            await chat.press(boris, lobby, contains="Играть")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
            await chat.press(anna, lobby, "▶ Начать")
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
            await tg.settle(quiet=0.05)
            who = mover(table, users)
            other = boris if who is anna else anna
            rec = await record(app, chat)
            label = table.button_texts[0]
            answer = await chat.press(other, table, label)
            assert answer.text == f"Сейчас ходит {who.full_name}, не вы."
            stranger = await chat.press(vika, table, label)
            assert stranger.show_alert and "не участвуете" in (stranger.text or "")
            await tg.settle(quiet=0.05)
            after = await record(app, chat)
            assert after.state == rec.state and after.seq == rec.seq
            # The right player's press of the same button is accepted.
            answer = await chat.press(who, table, label)
            assert not answer.show_alert
            await tg.settle(quiet=0.05)
            assert (await record(app, chat)).state != rec.state
