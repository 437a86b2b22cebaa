"""Two bot processes on one Redis (webhook mode behind a load balancer): the
compare-and-set lets exactly one of two simultaneous presses apply."""

from __future__ import annotations

import asyncio

from bot.app import App
from bot.callbacks import PlayCB
from fake_telegram import FakeTelegram
from games.seven_tracks import GAME, Action, ActionType, State
from tests.bot.e2e import record, running, settings_for, started_table


async def test_simultaneous_presses_in_two_processes_apply_once(redis_url: str) -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1701, "Аня"), tg.user(1702, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, redis_url, turn_seconds=0)
        async with running(settings) as first:
            table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
            rec = await record(first, chat)
            assert rec.state is not None
            mover = GAME.to_act(State.model_validate_json(rec.state))
            assert mover is not None
            second = App(settings)  # another process: its own locks, the same Redis
            try:
                two_dice = GAME.encode_action(Action(type=ActionType.CHOOSE_DICE, n=2))
                data = PlayCB(g=rec.uid, s=rec.seq, c=two_dice)
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
                "Стол обновляется — дождитесь новых кнопок.",  # the table still shows seq
            )
            after = await record(first, chat)
            assert after.seq == rec.seq + 1
            state = State.model_validate_json(after.state or "")
            assert state.version == State.model_validate_json(rec.state).version + 1


async def test_two_instances_send_a_pending_message_once_and_end_on_the_latest_table(
    redis_url: str,
) -> None:
    """Both instances' table workers wake for one chat: a lease in Redis lets one at a time
    work, so the pending round summary is posted once and the table shows the latest
    buttons (an older edit never lands over a newer one)."""
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1711, "Аня"), tg.user(1712, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, redis_url, turn_seconds=0)
        async with running(settings) as first:
            table = await started_table(tg, chat, [anna, boris], "🎲 Один кубик")
            second = App(settings)
            try:
                for round_no in range(3):
                    rec = await record(first, chat)
                    mover = GAME.to_act(State.model_validate_json(rec.state or ""))
                    assert mover is not None
                    rec.outbox.append(f"📜 Сводка {round_no}")
                    await first.store.put(rec, rec.version)
                    # a visible press on one instance, and both workers wake at once
                    code = "m.pri" if round_no % 2 == 0 else "back"
                    answer = await second.service.play_press(
                        chat.id, mover, table.message_id, PlayCB(g=rec.uid, s=rec.seq, c=code)
                    )
                    assert not answer.alert, answer
                    first.service._kick(chat.id)
                    second.service._kick(chat.id)
                    await asyncio.sleep(0.05)
                await tg.settle(quiet=0.3, timeout=10)
                for _ in range(50):
                    if not first.service._workers and not second.service._workers:
                        break
                    await asyncio.sleep(0.05)
                await tg.settle(quiet=0.2)
            finally:
                await second.service.close()
                await second.bot.session.close()
                await second.store.close()
            texts = [m.content for m in chat.bot_messages]
            for round_no in range(3):
                assert texts.count(f"📜 Сводка {round_no}") == 1, texts
            latest = await record(first, chat)
            assert all(f":{latest.seq}:" in str(d) for row in table.buttons for _, d in row)
