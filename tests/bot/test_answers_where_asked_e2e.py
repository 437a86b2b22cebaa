"""Answers where they were asked (issue 31, point 6): a command in a group is answered in
the group — ephemerally to the asker when he sent it so, else as a reply to it, cleaned
up with the game — never in his private chat, where nobody in the group sees it; a solo
player's `/stats`, `/history`, `/top` and `/replay` in his private chat are about his
own games there. (The playground shows a replay's animation: tests/playground/.)"""

from __future__ import annotations

import json
import random

import games
from bot.memory.keeper import memory_of
from bot.memory.steps import NEW
from bot.storage import GameRecord, RecordStatus
from fake_telegram.server import StoredMessage
from games.players import computer_id
from tests.bot.e2e import in_group, new_lobby

COMMANDS = ("/top", "/stats", "/history", "/rules")


async def test_a_groups_commands_are_answered_in_the_group_and_cleaned_up() -> None:
    async with in_group(31601, ["Аня", "Борис"], admins=["Аня"]) as group:
        tg, _, chat, (anna, boris) = group
        privates = [await tg.start_private(u) for u in (anna, boris)]  # both started it
        await tg.settle()
        private_before = [len(p.messages) for p in privates]
        await new_lobby(chat, anna)
        replies: list[StoredMessage] = []
        for command in COMMANDS:
            asked = await chat.send(boris, command)
            reply = await chat.wait_message(
                lambda m: m.reply_to is not None and m.reply_to.message_id == asked.message_id,  # noqa: B023
                timeout=30,
            )
            assert reply.content and reply.chat_id == chat.id, (command, reply)
            replies.append(reply)
        asked = await chat.send(boris, "/settings")  # not an admin: told so, where he asked
        refusal = await chat.wait_message(
            lambda m: m.reply_to is not None and m.reply_to.message_id == asked.message_id,
            timeout=30,
        )
        assert "только его администраторы" in refusal.content
        replies.append(refusal)
        # sent ephemerally, a command gets an ephemeral answer, his alone
        await tg.wait_for(lambda: tg.calls("setMyCommands"), 30)
        waiter = chat.wait_ephemeral(anna, timeout=30)
        await chat.send_ephemeral(anna, "/stats")
        answer = await waiter
        assert answer.content and answer.from_bot
        await tg.settle()
        assert [len(p.messages) for p in privates] == private_before  # nothing in private

        # the lobby ends: its replies go with it
        await chat.send(anna, "/cancel")
        confirm = await chat.wait_message(lambda m: "Закрыть лобби?" in m.content, timeout=30)
        await chat.press(anna, confirm, "✖ Да, завершить")
        await chat.wait_for(lambda: all(m.deleted for m in replies), timeout=30)


def solo_game(user: int, name: str, seed: int) -> GameRecord:
    """A «Морской крест» of `user` against a novice computer in his private chat, played
    to its end by the engine (random legal moves), as the bot stores it when it ends."""
    g = games.get("sea_cross")
    players = [user, computer_id(0)]
    state = g.new(players=players, seed=seed)
    rng = random.Random(seed)
    start = {"players": players, "seed": seed, "options": None}
    steps = [NEW + json.dumps(start, separators=(",", ":"))]
    while not g.is_over(state):
        action = rng.choice(g.legal_actions(state))
        steps.append(g.encode_action(action))
        state, _ = g.apply(state, action)
    return GameRecord(
        chat_id=user,
        uid="solo01",
        game_id="sea_cross",
        status=RecordStatus.OVER,
        creator=user,
        players=players,
        names={user: name, computer_id(0): "🤖 Робот-новичок"},
        computers={computer_id(0): "novice"},
        with_computers=True,
        seed=seed,
        state=state.model_dump_json(),
        steps=steps,
    )


async def test_a_solo_player_sees_his_own_games_in_private() -> None:
    async with in_group(31701, ["Аня"]) as (tg, app, _, (anna,)):
        private = tg.private(anna)
        await memory_of(app.service.ctx).finish(solo_game(anna.id, "Аня", seed=5))
        await private.send(anna, "/replay")  # drawn meanwhile
        answers = {}
        words = {"/stats": "📊", "/history": "📜", "/top": "/replay"}  # each answer's own
        for command, word in words.items():
            asked = await private.send(anna, command)
            reply = await private.wait_message(
                lambda m: word in m.content,  # noqa: B023
                after=asked,
                timeout=30,
            )
            answers[command] = reply.content
        assert "Аня: 1 игра" in answers["/stats"] and "Морской крест" in answers["/stats"]
        assert "№1 · Морской крест" in answers["/history"]
        assert "Морской крест" in answers["/top"] and "/stats" in answers["/top"]
        replay = await private.wait_message(lambda m: m.animation is not None, timeout=30)
        assert "Повтор игры №1 · Морской крест" in replay.content
