"""Two bot processes on one Redis (webhook mode behind a load balancer): the
compare-and-set lets exactly one of two simultaneous presses apply."""

from __future__ import annotations

import asyncio

from bot.app import App
from bot.callbacks import PlayCB
from games.seven_tracks import GAME, State
from tests.bot.e2e import open_lobby, record, running, settings_for, start_game, wait_phase
from tests.fake_telegram import FakeTelegram


async def test_simultaneous_presses_in_two_processes_apply_once(redis_url: str) -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1701, "Аня"), tg.user(1702, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, redis_url, turn_seconds=0)
        async with running(settings) as first:
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await wait_phase(chat, table, "🎲 Один кубик")
            await tg.settle()
            rec = await record(first, chat)
            assert rec.state is not None
            mover = GAME.to_act(State.model_validate_json(rec.state))
            assert mover is not None
            second = App(settings)  # another process: its own locks, the same Redis
            try:
                data = PlayCB(g=rec.uid, s=rec.seq, c="cd2")
                answers = await asyncio.gather(
                    first.service.play_press(chat.id, mover, table.message_id, data),
                    second.service.play_press(chat.id, mover, table.message_id, data),
                )
            finally:
                await second.service.close()
                await second.bot.session.close()
                await second.store.close()
            texts = sorted(str(a.text) for a in answers)
            assert any(x.startswith("🎲 Выпало") for x in texts), texts
            refused = [x for x in texts if not x.startswith("🎲 Выпало")]
            assert len(refused) == 1
            assert refused[0] in (
                "Стол только что изменился — нажмите ещё раз.",
                "Кнопка устарела — стол уже обновился.",
            )
            after = await record(first, chat)
            assert after.seq == rec.seq + 1
            state = State.model_validate_json(after.state or "")
            assert state.version == State.model_validate_json(rec.state).version + 1
