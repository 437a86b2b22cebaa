"""«Семидорожник»'s blocked rounds at the table (R66, revised 2026-12): a turn in which,
after the roll, nothing can be placed, drawn or played is ended by the bot, and the
table says so in one line; a dead position ends the round at once."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import App
from fake_telegram import Chat
from games.seven_tracks import Phase, State
from tests.bot.e2e import engine_state, in_group, record, started_table, wait_phase
from tests.games.seven_tracks.builder import build

AUTO = "выставить нечего, взять из кассы нельзя — ход закончен автоматически"


async def rig(app: App, chat: Chat, hands: dict[int, list[str]], **kw: Any) -> State:
    """Replace the running game's position (same players, seat to move and turn) by one
    built from `hands` (seat -> kinds) with an empty bank (or `bank_size` tiles); return
    it."""
    rec = await record(app, chat)
    now = State.model_validate_json(rec.state or "")
    s = build(
        n=len(now.players),
        seat=now.current,
        hands=hands,
        bank_size=kw.pop("bank_size", 0),
        options=now.options.model_dump(),  # the lobby's length
        **kw,
    )
    s = s.model_copy(
        update={
            "players": list(now.players),
            "seed": now.seed,
            "turn_no": now.turn_no,
            "version": now.version,
        }
    )
    rec.state = s.model_dump_json()
    await app.store.put(rec, rec.version)
    return s


@pytest.mark.parametrize("drawn", [0, 5])
async def test_a_turn_with_nothing_to_do_is_ended_by_the_bot_in_one_line(
    backend: str | None, drawn: int
) -> None:
    """After the roll (`drawn` 0), or after «📥 Взять из кассы» drew all he may from a
    bank of blacks (`drawn` 5): nothing fits, and the bot ends the turn."""
    async with in_group(1851, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table = await started_table(tg, chat, users, "🎲🎲 Два кубика")
        seat = (await engine_state(app, chat)).current
        other = 1 - seat
        # the mover holds blacks (nothing ever fits); the other's red fits track 1
        # on a 1, so the round is not dead (the centre already holds a red)
        hands = {seat: ["K"] * (2 - drawn // 5), other: ["R", "K"]}
        await rig(app, chat, hands, t7=["R"], bank_top=["K"] * drawn, bank_size=drawn)
        mover, waiting = users[seat], users[other]
        answer = await chat.press(mover, table, "🎲🎲 Два кубика")
        assert not answer.show_alert, answer
        if drawn:
            await wait_phase(chat, table, "📥 Взять из кассы")
            await tg.settle()
            answer = await chat.press(mover, table, "📥 Взять из кассы")
            assert not answer.show_alert, answer
        await chat.wait_for(lambda: AUTO in table.content, timeout=10)
        await tg.settle()
        assert table.content.count(AUTO) == 1, table.content
        assert f"{mover.first_name}: {AUTO}" in table.content
        assert "не смог" not in table.content  # one line, not two
        s = await engine_state(app, chat)
        assert s.phase == Phase.PRE_MOVE and s.current == other and s.idle_turns == 1
        assert s.round_no == 1 and s.last_round is None
        assert len(s.hands[seat]) == 2 - drawn // 5 + drawn and s.bank == []
        assert f"Ходит {waiting.first_name}" in table.content, table.content
        assert "🎲🎲 Два кубика" in table.button_texts


async def test_a_dead_position_ends_the_round_at_once(backend: str | None) -> None:
    async with in_group(1861, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table = await started_table(tg, chat, users, "🎲🎲 Два кубика")
        seat = (await engine_state(app, chat)).current
        await rig(app, chat, {seat: ["K", "K"], 1 - seat: ["K", "K"]})  # nothing ever fits
        answer = await chat.press(users[seat], table, "🎲🎲 Два кубика")
        assert not answer.show_alert, answer
        summary = await chat.wait_message(lambda m: "Кон 1 окончен" in m.content, timeout=10)
        assert "тупик" in summary.content and "−7" in summary.content
        s = await engine_state(app, chat)
        assert s.last_round is not None and s.last_round.stalled
        assert s.phase == Phase.GAME_OVER  # «Один кон»: the game ends with the round
        await chat.wait_for(lambda: AUTO in table.content or not table.buttons, timeout=10)
