"""Issue 13 for «Семидорожник»: three players play a one-round game with their private
hands in the group — the tile choices, the priority tiles and the exchange's tiles are
pressed on each player's ephemeral hand, the dice, «▶ Выставить всё», drawing and the
end of the turn on the table — and nothing another member received shows his hand;
with ephemeral messages failing, the same game finishes by the table alone (fallback).
Taps per turn are printed (`-s`)."""

from __future__ import annotations

import random
import re
import time

from bot.app import App
from bot.storage import RecordStatus
from fake_telegram import CallbackAnswer, Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from tests.bot.e2e import (
    changed,
    data_of,
    in_group,
    mover,
    open_lobby,
    record,
    refused,
    running,
    settings_for,
    start_game,
)
from tests.bot.hands import (
    hand_buttons,
    hand_of,
    private_hands,
    private_words,
    received,
    seq_of,
    versions,
)

ASCII = re.compile(r"^[ -~]*$")
PLAN = ["🎲🎲 Два кубика", "🎲 Один кубик", "▶ Выставить всё", "✅ Закончить ход",
        "📥 Взять из кассы", "✅ Заменить"]  # fmt: skip
HAND_ONLY = ("⋯", "⭐ Приоритет…", "♻ Обменять пятую")


async def fresh_hand(chat: Chat, user: User, table: StoredMessage) -> StoredMessage | None:
    """His ephemeral hand once it carries the table's buttons' seq (None: no buttons)."""
    hand = await chat.wait_for(lambda: hand_of(chat, user), 30)
    if not hand_buttons(hand):
        return None
    await chat.wait_for(lambda: seq_of(hand) == seq_of(table) or not hand_buttons(hand), 30)
    return hand if hand_buttons(hand) else None


async def play_seven(
    tg: FakeTelegram, chat: Chat, app: App, users: list[User], *, fail: bool
) -> tuple[str, list[CallbackAnswer]]:
    tg.server.ephemeral.fail = fail
    rng = random.Random(11)
    answers: list[CallbackAnswer] = []
    lobby = await open_lobby(chat, users[0], *users[1:])
    table = await start_game(chat, users[0], lobby)
    started = time.monotonic()
    taps = turns = hand_taps = opened = 0
    placed = again = False
    for _ in range(1500):
        await tg.settle(quiet=0.02)
        rec = await record(app, chat)
        if rec.status != RecordStatus.PLAYING:
            break
        texts = table.button_texts
        if "Не использовать" in texts:  # the first-move window: silence is a pass
            await chat.wait_for(lambda: "Не использовать" not in table.button_texts, 30)
            continue
        user = mover(table, users)
        assert user is not None, table.content
        if user.id not in rec.hands:
            answer = await chat.press(user, table, "🀄 Мои фишки")
            answers.append(answer)
            assert answer.show_alert == fail, answer  # the popup only as the fallback
            opened += 1
            if not fail:  # the table gives the exact menus to his hand
                await chat.wait_for(
                    lambda: not any(x.startswith(HAND_ONLY) for x in table.button_texts), 5
                )
            await tg.settle(quiet=0.02)
            texts = table.button_texts
        if fail:
            assert hand_of(chat, user) is None
        else:  # the table's exact menus are on his hand now
            assert not any(x.startswith(HAND_ONLY) for x in texts), texts
        before = data_of(table)
        if "🎲 Один кубик" in texts:
            placed = False
            turns += 1
        hand = None if fail else await fresh_hand(chat, user, table)
        tile_buttons = [x for x in hand_buttons(hand) if "→" in x] if hand else []
        if hand and tile_buttons and not again and rng.random() < 0.4:
            answer = await chat.press(user, hand, rng.choice(tile_buttons))
            answers.append(answer)
            taps += 1
            hand_taps += 1
            assert not refused(answer), answer
            await chat.wait_for(changed(table, before), 10)
            continue
        plan = [x for x in PLAN if not (placed and x == "▶ Выставить всё")]
        if placed or again:
            plan.insert(0 if again else len(plan), "▶ Выставить всё")
        offered = again = False
        for label in plan:
            if label not in texts:
                continue
            if label == "🎲🎲 Два кубика" and rng.random() < 0.3:
                label = "🎲 Один кубик"
            answer = await chat.press(user, table, label)
            answers.append(answer)
            if refused(answer):
                if "ещё раз" in (answer.text or ""):
                    again = offered = True
                    break
                continue
            taps += 1
            placed = placed or label == "▶ Выставить всё"
            again = "ещё раз" in (answer.text or "")
            break
        else:  # only a priority tile helps: on his hand (or the table's menu as fallback)
            if hand is not None:
                options = [b for b in hand_buttons(hand) if "→" not in b]
                for label in options:
                    answer = await chat.press(user, hand, label)
                    answers.append(answer)
                    if not refused(answer):
                        taps += 1
                        hand_taps += 1
                        break
                else:
                    raise AssertionError(f"stuck: {hand.content} {options}")
            else:
                answer = await chat.press(user, table, "⭐ Приоритет…")
                answers.append(answer)
                taps += 1
                await chat.wait_for(changed(table, before), 30)
                uses = r":am\.|:xb\.|:IM,"  # after the move, an exchange, instead of it
                for data in [d for d in data_of(table) if d and re.search(uses, d)]:
                    answer = await chat.press(user, table, by_data=data)
                    answers.append(answer)
                    if not refused(answer):
                        taps += 1
                        break
                else:
                    raise AssertionError(f"stuck: {table.content}")
        if not offered:
            await chat.wait_for(changed(table, before), 10)
    else:
        raise AssertionError("the game did not end")
    await chat.wait_message(
        lambda m: "Игра окончена" in m.content or "🏆" in m.content, after=table
    )
    await tg.settle(quiet=0.05)
    for user in users:
        assert hand_of(chat, user) is None  # the hands are gone with the game
    elapsed = time.monotonic() - started
    line = (
        f"seven_tracks{' (fallback)' if fail else ''}: {turns} turns, {taps} taps "
        f"({taps / max(1, turns):.2f}/turn, {hand_taps} on the hand) + {opened} openings, "
        f"{elapsed:.1f}s"
    )
    return line, answers


def assert_private(
    tg: FakeTelegram, chat: Chat, users: list[User], answers: list[CallbackAnswer]
) -> None:
    """What each member received: no other player's ephemeral message, no hand caption of
    anybody in the group's messages, no answer to another's press, ASCII button data."""
    hands_seen = 0
    for user in users:
        got = received(tg, chat, user, answers)
        assert got.foreign_ephemeral == 0
        assert all(ASCII.match(d) for d in got.data), got.data
        group = [t for m in chat.all_messages for t in (m.content, *m.button_texts)]
        assert not any("Ваши фишки" in t for t in group)
        for message in tg.server.ephemeral.messages.values():
            if message.from_bot and message.photo is not None:
                receiver = message.extra["receiver_user"]["id"]
                hands_seen += receiver == user.id
                assert receiver in {u.id for u in users}
    assert hands_seen >= len(users) or not hands_seen


async def test_three_players_play_seven_tracks_by_their_ephemeral_hands() -> None:
    async with in_group(1921, ["Аня", "Борис", "Вика"], turn_seconds=0) as (tg, app, chat, users):
        # issue 31, point 7: Аня and Борис have started the bot, Борис takes his pings there
        anna, boris = users[:2]
        quiet, pinged = await tg.start_private(anna), await tg.start_private(boris)
        # their greetings (each may have come already: no wait for a newer message)
        await quiet.wait_for(lambda: quiet.bot_messages, 30)
        await pinged.wait_for(lambda: pinged.bot_messages, 30)
        await pinged.send(boris, "/pings")
        menu = await pinged.wait_message(lambda m: "Напоминание о ходе" in m.content)
        await pinged.press(boris, menu, "💬 В личке")
        await pinged.wait_for(lambda: "✓ 💬 В личке" in menu.button_texts)
        before = {u.id: len(tg.private(u).all_messages) for u in (anna, boris)}
        line, answers = await play_seven(tg, chat, app, users, fail=False)
        print("\n" + line)
        assert_private(tg, chat, users, answers)
        # her ephemeral hand worked: nothing reached Аня's private chat; Борис got only
        # his turn pings, each deleted once his turn was over
        assert tg.private(anna).all_messages[before[anna.id] :] == []
        pings = tg.private(boris).all_messages[before[boris.id] :]
        assert pings and all(m.content.startswith("🔔") for m in pings), pings
        await pinged.wait_for(lambda: all(m.deleted for m in pings), 10)


async def test_seven_tracks_finishes_by_the_table_when_ephemeral_messages_fail() -> None:
    async with FakeTelegram() as tg:
        users = [tg.user(1931, "Аня"), tg.user(1932, "Борис"), tg.user(1933, "Вика")]
        chat = tg.group(members=users)
        await tg.start_private(users[0])
        async with running(settings_for(tg, turn_seconds=0)) as app:
            line, answers = await play_seven(tg, chat, app, users, fail=True)
            print("\n" + line)
            assert_private(tg, chat, users, answers)
            # the fallback's private message: his hand with the same buttons (H1: data)
            private = [m for m in tg.private(users[0]).all_messages if m.from_bot]
            shown = [v for m in private for v in versions(m)]
            assert any("ваши фишки" in (text or "") for text, _ in shown)
            assert any("H1:" in str(kb) for _, kb in shown), shown
            # issue 31, point 7: that one message, edited in place; his tiles listed once
            # in each version, «your turn» only on his turn, the game's end at the end
            assert len(private_hands(tg, users[0])) == 1
            await tg.wait_for(lambda: "окончена" in private_words(tg, users[0])[-1], 10)
            words = private_words(tg, users[0])
            assert "Ваш ход" not in words[-1], words[-1]
            for text in words[:-1]:
                assert len(re.findall(r"ваши фишки \(\d+\)", text, re.I)) == 1, text
