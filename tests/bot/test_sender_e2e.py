"""One sender, and chatter never delays the game (bot/sender.py, bot/replies.py).

With the fake server's 429 enforcement on (20 calls per window in a chat, sends and
edits alike, as Telegram counts them), a member spamming `/rules` and `/help` during a
game costs the game nothing: the table's edits, the `/leave` question and notice and the final
standings arrive at once, Telegram never answers 429, no error is logged, and every
press is answered. Replies to commands go ephemeral or as one reply in the group, where
they were asked (never to the asker's private chat); a 429 on a reply is no Traceback.
"""

from __future__ import annotations

import logging
import time

import pytest

from fake_telegram import Chat, User
from fake_telegram.server import ApiCall, FloodLimit
from tests.bot.e2e import (
    in_group,
    leave_question,
    mover,
    open_lobby,
    start_game,
    started_table,
    wait_phase,
    window_empty,
)

WINDOW = 8.0  # seconds: the flood window of these tests (Telegram's is 60)
LIMIT = 20
SMALL = 3.0  # seconds: "at once" for a game message here (the old code took a window)
COUNTED = {"sendMessage", "sendPhoto", "editMessageText", "editMessageCaption"}
COUNTED |= {"editMessageMedia", "editMessageReplyMarkup"}


def problems(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Errors, and any record with a traceback (a 429 that escaped)."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR or r.exc_info is not None
    ]


def most_in_a_window(calls: list[ApiCall], window: float) -> int:
    """The most calls Telegram received within any `window` seconds."""
    times = sorted(c.time for c in calls)
    best = 0
    start = 0
    for end, t in enumerate(times):
        while t - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def counted(chat: Chat) -> list[ApiCall]:
    ephemeral = ("ephemeral_message_parameters", "receiver_user_id")
    return [
        c for c in chat.calls() if c.method in COUNTED and not any(k in c.params for k in ephemeral)
    ]


def replies_to(chat: Chat, user: User, *, deleted: bool = True) -> list[str]:
    """The bot's replies to `user`'s messages; `deleted`: also those deleted since (at a
    game's end the bot deletes its replies of the game: bot/service/clean_chat.py)."""
    return [
        m.content
        for m in (chat.all_messages if deleted else chat.messages)
        if m.from_bot
        and m.reply_to is not None
        and (m.reply_to.from_user or {}).get("id") == user.id
    ]


async def test_chatter_never_delays_the_game_and_telegram_never_says_429(
    backend: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with in_group(
        3101,
        ["Аня", "Борис", "Вика", "Гоша"],  # Вика and Гоша watch
        backend,
        turn_seconds=0,
        chat_calls_per_minute=LIMIT,
        chat_window_seconds=WINDOW,
        flood_limit=FloodLimit(count=LIMIT, window=WINDOW),
    ) as (tg, _, chat, (anna, boris, vika, gosha)):
        gosha_private = await tg.start_private(gosha)  # started the bot: answered here still
        await gosha_private.wait_message()
        table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
        player = mover(table, [anna, boris])
        assert player is not None
        other = boris if player is anna else anna
        await window_empty(chat, WINDOW + 1.5)  # the lobby's and the table's calls are gone

        # the chatter: Вика twelve times the longest rules (3 messages each) and
        # /help; Гоша (he started the bot) /rules three times
        for _ in range(12):
            await chat.send(vika, "/rules доминас")
        await chat.send(vika, "/help")
        for _ in range(3):
            await chat.send(gosha, "/rules")

        # the game meanwhile: a press, its table edit (the caption and the buttons: the
        # first new picture of a game may take a moment to draw, which is not timed here);
        # the chatter has pushed the table up, so it comes anew at the bottom
        answer = await chat.press(player, table, "⭐ Приоритет…", timeout=10)
        assert not answer.show_alert
        pressed = time.monotonic()
        table = await chat.wait_message(
            lambda m: m.photo is not None and "« Назад" in m.button_texts,
            after=table,
            timeout=30,
        )
        edit_delay = table.created_at - pressed

        # /leave of the other player, confirmed, ends the game: the question, the
        # notice (the question's new text), the final table and the standings
        left = time.monotonic()
        question = await leave_question(chat, other, timeout=30)
        await chat.press(other, question, "Да, выйти", timeout=10)
        confirmed = time.monotonic()
        await chat.wait_for(lambda: "выходит из игры" in question.content, 30)
        final = await chat.wait_message(
            lambda m: "Игра окончена" in m.content, after=question, timeout=30
        )
        await chat.wait_for(lambda: not table.buttons, 30)
        await tg.settle(quiet=0.3, timeout=30)
        notice_delay = (question.edited_at or 0) - confirmed

        print(
            f"table edit {edit_delay:.2f}s after the press; /leave question "
            f"{question.created_at - left:.2f}s after /leave, notice {notice_delay:.2f}s "
            f"and standings {final.created_at - confirmed:.2f}s after the confirmation "
            f"(window {WINDOW:g}s)"
        )
        assert edit_delay < SMALL
        assert question.created_at - left < SMALL
        assert notice_delay < SMALL
        assert final.created_at - confirmed < SMALL
        # the table is edited before the standings are posted
        last_edit = max(
            c.time
            for c in chat.calls()
            if c.method.startswith("editMessage") and c.message_id == table.message_id
        )
        sends = chat.calls("sendMessage")
        standings = next(c for c in sends if c.message_id == final.message_id)
        assert last_edit < standings.time

        # Telegram never refused a call and saw at most LIMIT in any window
        assert not [c.method for c in chat.calls() if c.error_code == 429]
        assert most_in_a_window(counted(chat), WINDOW) <= LIMIT
        # Вика got the rules once (three parts) and /help once; Гоша his at most once,
        # in the group too (a reply dropped in a busy window leaves room for his next);
        # each gone with the game
        to_vika = replies_to(chat, vika)
        assert len([t for t in to_vika if "ДОМИНА" in t and "📖" in t]) == 1, to_vika
        assert len(to_vika) <= 4, to_vika
        assert len(replies_to(chat, gosha)) <= 1, replies_to(chat, gosha)
        for user in (vika, gosha):
            await chat.wait_for(lambda: not replies_to(chat, user, deleted=False), 10)  # noqa: B023
        assert not [m for m in gosha_private.bot_messages if "📖" in m.content]
        assert all(c.answered for c in tg.callbacks)
    assert not problems(caplog)


async def test_an_ephemeral_rules_gets_an_ephemeral_reply_visible_only_to_the_asker(
    backend: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    async with in_group(
        3201, ["Аня", "Борис"], backend, flood_limit=FloodLimit(count=1, window=30)
    ) as (tg, _, chat, (anna, boris)):
        await tg.wait_for(lambda: tg.calls("setMyCommands"), 10)
        await tg.settle()
        waiter = chat.wait_ephemeral(anna, timeout=10)
        await chat.send_ephemeral(anna, "/rules")
        reply = await waiter
        assert "Семидорожник" in reply.content and "кубик" in reply.content
        assert chat.ephemeral(boris) == []
        assert not chat.bot_messages  # nothing in the group's history
        # ... and it cost the group nothing: a game message still has the one slot
        waiter = chat.wait_ephemeral(anna, timeout=10)
        await chat.send_ephemeral(anna, "/help")
        assert "/new" in (await waiter).content
        await chat.send(anna, "/new")
        lobby = await chat.wait_message(lambda m: "Новая игра" in m.content, timeout=10)
        assert lobby.from_bot
        # a refusal asked ephemerally twice is answered twice (it costs nothing)
        for _ in range(2):
            waiter = chat.wait_ephemeral(boris, timeout=10)
            await chat.send_ephemeral(boris, "/leave")
            assert "не участвуете" in (await waiter).content
        assert len([m for m in chat.ephemeral(boris) if m.from_bot]) == 2
        assert not [m for m in chat.ephemeral(anna) if "не участвуете" in m.content]
        assert not [c for c in chat.calls() if c.error_code == 429]
    assert not problems(caplog)


async def test_ephemeral_refused_the_reply_goes_once_in_the_group(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with in_group(3301, ["Аня", "Борис"]) as (tg, _, chat, (anna, _)):
        private = await tg.start_private(anna)  # started the bot: answered in the group still
        await private.wait_message()
        await tg.wait_for(lambda: tg.calls("setMyCommands"), 10)
        tg.server.ephemeral.fail = True  # e.g. an older Telegram
        await chat.send_ephemeral(anna, "/help")
        msg = await chat.wait_message(lambda m: "/new" in m.content, timeout=10)
        assert "«Настольщики»" not in msg.content  # no header of a private answer
        await chat.send(anna, "/help")  # a repeat within a while: no second message
        await chat.send(anna, "/leave")  # another command: its own reply
        refusal = await chat.wait_message(lambda m: "не участвуете" in m.content, timeout=10)
        assert refusal.reply_to is not None and refusal.reply_to.from_user
        assert refusal.reply_to.from_user["id"] == anna.id
        await tg.settle(quiet=0.3)
        assert len([m for m in chat.bot_messages if "/new" in m.content]) == 1
        assert len(private.bot_messages) == 1  # her /start's answer alone
    assert not problems(caplog)


async def test_a_429_on_a_command_reply_is_no_traceback_and_a_game_message_waits_it_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    # a window roomy enough that Вика's last /help is not dropped as chatter in a busy
    # window (lobby, table, ping, the refused sends, the final standings: 7 of 20
    # is above the chatter share): what is checked here is the hold after a 429
    async with in_group(
        3401, ["Аня", "Борис", "Вика"], turn_seconds=0, flood_limit=FloodLimit(40, 6.0)
    ) as (tg, app, chat, (anna, boris, vika)):
        lobby = await open_lobby(chat, anna, boris)  # Вика watches
        table = await start_game(chat, anna, lobby)
        await wait_phase(chat, table, "🎲 Один кубик")
        await tg.settle()
        # Telegram refuses the next message in the chat: retry after 1 s
        tg.server.inject_error(
            "sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1
        )
        await chat.send(vika, "/help")  # chatter: dropped, no Traceback
        await chat.wait_for(lambda: chat.calls("sendMessage")[-1].error_code == 429, 10)
        tg.server.inject_error(
            "sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1
        )
        leaver = mover(table, [anna, boris])
        assert leaver is not None
        # /leave: its question, a game message, is sent after the wait
        question = await leave_question(chat, leaver, timeout=15)
        await chat.press(leaver, question, "Да, выйти", timeout=10)
        await chat.wait_for(lambda: "выходит из игры" in question.content, 10)
        assert leaver.first_name in question.content
        # once the hold is over, Вика's next /help is answered (the dropped one gave
        # its once-a-while mark back)
        await chat.wait_for(lambda: app.sender.hold_left(chat.id) == 0, 10)
        await window_empty(chat, 6.0 + 0.5)  # (a reply waits for a quiet window)
        await chat.send(vika, "/help")
        msg = await chat.wait_message(lambda m: "/new" in m.content, timeout=10)
        assert msg.reply_to is not None
        assert all(c.answered for c in tg.callbacks)
    assert not problems(caplog)
