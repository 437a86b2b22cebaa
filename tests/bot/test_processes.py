"""The bot as real processes (`python -m bot`) against the fake Telegram and a real Redis:
killed hard in the middle of a game and started again; two instances in webhook mode
behind one Redis receiving a double tap, one press on each."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

import aiohttp

from bot.callbacks import PlayCB
from fake_telegram import FakeTelegram
from games.seven_tracks import GAME, Action, ActionType
from tests.bot.bot_process import BotProcess, free_port, game, photos, play_a_turn, store_of
from tests.bot.e2e import data_of, mover, open_lobby, start_game, wait_phase

OUTDATED = ("Кнопка устарела — стол уже обновился.", "Стол только что изменился — нажмите ещё раз.")
UPDATING = "Стол обновляется — дождитесь новых кнопок."  # the table still shows the press's seq


async def test_sigkill_mid_game_and_a_restart_continue_on_the_same_table(
    redis_url: str, tmp_path: Path
) -> None:
    prefix = f"kill-{secrets.token_hex(4)}"
    async with FakeTelegram() as tg, store_of(redis_url, prefix) as store:
        anna, boris = tg.user(2301, "Аня"), tg.user(2302, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users)
        bot = BotProcess(tg, tmp_path / "bot.log", REDIS_URL=redis_url, REDIS_PREFIX=prefix)
        await bot.start()
        try:
            await bot.ready(tg)
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик", timeout=15)
            await tg.settle()
            assert await play_a_turn(chat, table, users) >= 2
            await wait_phase(chat, table, "🎲🎲 Два кубика")
            await tg.settle()
            # the next player rolls; the press is acknowledged ... and the bot dies at once
            player = mover(table, users)
            assert player is not None
            answer = await chat.press(player, table, "🎲🎲 Два кубика", timeout=10)
            assert "Выпало" in (answer.text or "")
            bot.kill()
            assert bot.proc is not None
            await bot.proc.wait()
            acknowledged, state = await game(store, chat)
            assert state.turn.dice

            await bot.start()  # the same update may come again: it must not apply twice
            await bot.ready(tg)
            await chat.wait_for(
                lambda: f":{acknowledged.seq}:" in str(data_of(table)), 15
            )  # the table caught up with the acknowledged move (by an edit)
            await tg.settle(quiet=0.5, timeout=10)
            resumed, state2 = await game(store, chat)
            assert state2 == state and resumed.seq == acknowledged.seq  # nothing lost or redone
            assert resumed.table_message_id == table.message_id
            assert len(photos(chat)) == 1  # the same table message, edited
            # Telegram delivers the acknowledged press again (its offset was not confirmed)
            # and the player taps the old button once more: neither applies
            update = next(u for u in tg.updates if u.update_id == answer.record.update_id)
            await tg.push_update(update.payload)
            pressed = str(update.payload["callback_query"]["data"])
            again = await chat.press(player, table, by_data=pressed, check=False, timeout=10)
            assert again.text in OUTDATED
            await tg.settle(quiet=0.3)
            resumed, state2 = await game(store, chat)
            assert state2 == state and resumed.seq == acknowledged.seq
            assert await play_a_turn(chat, table, users) >= 1  # the game goes on
            _after, state3 = await game(store, chat)
            assert state3.version > state.version and state3.turn_no == state.turn_no + 1
            assert len(photos(chat)) == 1
        finally:
            await bot.stop()
        assert "Traceback" not in bot.text(), bot.text()


async def post_update(url: str, secret: str, update: dict[str, Any]) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}
        ) as response,
    ):
        return response.status


async def test_two_webhook_instances_on_one_redis_apply_a_double_tap_once(
    redis_url: str, tmp_path: Path
) -> None:
    prefix = f"hook-{secrets.token_hex(4)}"
    secret = "s3cret"
    async with FakeTelegram() as tg, store_of(redis_url, prefix) as store:
        anna, boris = tg.user(2401, "Аня"), tg.user(2402, "Борис")
        users = [anna, boris]
        chat = tg.group(members=users)
        ports = [free_port(), free_port()]
        bots = [
            BotProcess(
                tg,
                tmp_path / f"bot{i}.log",
                REDIS_URL=redis_url,
                REDIS_PREFIX=prefix,
                WEBHOOK_URL=f"http://127.0.0.1:{port}",
                WEBHOOK_HOST="127.0.0.1",
                WEBHOOK_PORT=str(port),
                WEBHOOK_SECRET=secret,
            )
            for i, port in enumerate(ports)
        ]
        for b in bots:
            await b.start()
        try:
            await tg.wait_for(lambda: len(tg.calls("setWebhook")) >= 2 or None, 30)
            # the fake server delivers to the last registered URL: one of the instances
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик", timeout=15)
            await tg.settle()
            before, state = await game(store, chat)
            player = mover(table, users)
            assert player is not None
            data = next(d for row in table.buttons for t, d in row if t == "🎲🎲 Два кубика")
            two_dice = GAME.encode_action(Action(type=ActionType.CHOOSE_DICE, n=2))
            assert data == PlayCB(g=before.uid, s=before.seq, c=two_dice).pack()
            # a double tap: two callback queries, the load balancer sends one to each instance
            records, updates = [], []
            for i in range(2):
                rec = tg.server.new_callback(chat.id, table, player.to_api(), data)
                records.append(rec)
                updates.append(
                    {
                        "update_id": 900_000 + i,
                        "callback_query": {
                            "id": rec.id,
                            "from": player.to_api(),
                            "message": table.to_api(),
                            "chat_instance": "lb",
                            "data": data,
                        },
                    }
                )
            statuses = await asyncio.gather(
                *(
                    post_update(f"http://127.0.0.1:{port}/webhook", secret, update)
                    for port, update in zip(ports, updates, strict=True)
                )
            )
            assert statuses == [200, 200]
            answers = [await tg.answer_of(r, timeout=10) for r in records]
            texts = [a.text or "" for a in answers]
            assert sum("Выпало" in x for x in texts) == 1, texts
            assert sum(x in (*OUTDATED, UPDATING) for x in texts) == 1, texts
            await wait_phase(chat, table, "▶ Выставить всё", timeout=10)
            await tg.settle()
            after, state2 = await game(store, chat)
            assert after.seq == before.seq + 1  # the version advanced once
            assert state2.version == state.version + 1
            assert state2.turn.dice and not state.turn.dice
            assert len(photos(chat)) == 1
        finally:
            for b in bots:
                await b.stop()
        for b in bots:
            assert "Traceback" not in b.text(), b.text()
