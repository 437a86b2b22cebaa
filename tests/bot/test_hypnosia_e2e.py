"""«Гипнозия» through the game-agnostic bot: a whole game by buttons, refusals, a timeout."""

from __future__ import annotations

import re
import time

from bot.app import App
from bot.storage import RecordStatus
from games.hypnosia import GAME, Phase, State
from tests.bot.e2e import data_of, record, running, settings_for
from tests.fake_telegram import Chat, FakeTelegram, User
from tests.fake_telegram.server import StoredMessage

MOVE = re.compile(r"^(№\d|Пара \d\+\d).* \+(\d) → ")


def choose(texts: list[str]) -> str:
    """A purposeful player: into the centre, across a bridge, capture, go deep, go far."""

    def score(label: str) -> int:
        if label.startswith("🎲 "):  # the die choice: the bigger die first
            return int(label.split()[1])
        value = 0
        if "центр" in label:
            value += 1000
        if "⤵" in label:
            value += 100
        if "⚔" in label:
            value += 20
        ring = re.search(r"→ (\d)\.", label)
        if ring:
            value += 10 * int(ring.group(1))
        die = re.search(r" \+(\d) ", label)
        if die:
            value += int(die.group(1))
        return value

    offered = [x for x in texts if x.startswith("🎲 ") or MOVE.match(x)]
    assert offered, texts
    return max(offered, key=score)


async def state_of(app: App, chat: Chat) -> State:
    rec = await record(app, chat)
    assert rec.state is not None
    return State.model_validate_json(rec.state)


async def lobby_and_start(chat: Chat, creator: User, *others: User) -> StoredMessage:
    await chat.send(creator, "/new гипнозия")
    lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
    assert "Гипнозия" in lobby.content
    assert any("пары не по мостам" in x for x in lobby.button_texts)
    for user in others:
        await chat.press(user, lobby, contains="Играть")
    await chat.wait_for(lambda: any("Начать" in x for x in lobby.button_texts))
    await chat.press(creator, lobby, contains="Начать")
    return await chat.wait_message(lambda m: m.photo is not None, timeout=10)


def mover_of(table: StoredMessage, users: dict[str, User]) -> User:
    match = re.search(r"Ходит \S+ (.+?):", table.content)
    assert match, table.content
    return users[match.group(1)]


async def test_a_whole_hypnosia_game_by_buttons(backend: str | None) -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1701, "Аня"), tg.user(1702, "Борис")
        users = {u.full_name: u for u in (anna, boris)}
        chat = tg.group(members=list(users.values()))
        async with running(settings_for(tg, backend)) as app:
            started = time.monotonic()
            table = await lobby_and_start(chat, anna, boris)
            assert (table.photo_bytes or b"").startswith(b"\x89PNG")
            # The bot rolled for the first player: his dice and his moves are on the table.
            assert "🎲" in table.content and "Гипнозия" in table.content
            first = await state_of(app, chat)
            assert first.phase == Phase.MOVE and first.dice

            # A press out of turn is answered privately and changes nothing.
            mover = mover_of(table, users)
            other = boris if mover is anna else anna
            before = data_of(table)
            rec_before = await record(app, chat)
            answer = await chat.press(other, table, choose(table.button_texts))
            assert answer.text and "Сейчас ходит" in answer.text, answer
            after = await record(app, chat)
            assert after.state == rec_before.state and after.seq == rec_before.seq
            assert data_of(table) == before

            taps, pictures = 0, set()
            for _ in range(600):
                await tg.settle(quiet=0.02)
                rec = await record(app, chat)
                if rec.status != RecordStatus.PLAYING:
                    break
                s = State.model_validate_json(rec.state or "")
                pictures.add(hash(table.photo_bytes))
                mover = mover_of(table, users)
                assert s.players[s.current] == mover.id
                label = choose(table.button_texts)
                before = data_of(table)
                answer = await chat.press(mover, table, label)
                assert not answer.show_alert, (label, answer)
                taps += 1

                def changed(b: list[str | None] = before) -> bool:
                    return data_of(table) != b

                await chat.wait_for(changed, 5)
            else:
                raise AssertionError("the game did not end")
            final = await chat.wait_message(lambda m: "окончена" in m.content, after=table)
            assert "Итог" in final.content and "1. " in final.content and "очк" in final.content
            end = await state_of(app, chat)
            assert GAME.is_over(end)
            elapsed = time.monotonic() - started
            print(
                f"hypnosia full game: {end.turn_no} turns, {taps} taps "
                f"({taps / end.turn_no:.2f}/turn), {len(pictures)} pictures, {elapsed:.1f}s"
            )
            assert taps <= 2 * end.turn_no  # at most one tap per die (the roll is the bot's)
            assert len(pictures) > 10


async def test_a_timed_out_turn_is_played_for_the_absent_player() -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1711, "Аня"), tg.user(1712, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, turn_seconds=0.4, timer_poll_seconds=0.05)
        async with running(settings) as app:
            table = await lobby_and_start(chat, anna, boris)
            s = await state_of(app, chat)
            turn = s.turn_no
            await chat.wait_for(lambda: "не успел" in table.content, 8)
            later = await state_of(app, chat)
            assert later.turn_no > turn or GAME.is_over(later)
            rec = await record(app, chat)
            assert sum(rec.timeouts.values()) >= 1
