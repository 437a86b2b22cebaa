"""A whole game of «Семидорожник» played by simulated users pressing only the buttons
they see, against the real bot (fake Telegram server + Redis)."""

from __future__ import annotations

import random
import time

from games.seven_tracks import Phase
from tests.bot.e2e import engine_state, in_group, open_lobby, start_game
from tests.bot.seven_tracks_play import LATENCIES, play_by_buttons


async def test_a_full_single_round_game_by_buttons(backend: str | None) -> None:
    rng = random.Random(7)
    async with in_group(101, ["Аня", "Борис", "Вика"], backend) as (tg, app, chat, users):
        anna, boris, vika = users
        lobby = await open_lobby(chat, anna, boris, vika)
        await chat.wait_for(lambda: "Вика" in lobby.content)
        assert "Вика" in lobby.content and "Начать" in lobby.button_texts[-1]
        table = await start_game(chat, anna, lobby)
        assert "Семидорожник" in table.content
        table_id = table.message_id

        started = time.monotonic()
        taps, refusals = await play_by_buttons(tg, chat, app, table, users, rng)
        elapsed = time.monotonic() - started
        state = await engine_state(app, chat)
        assert state.phase == Phase.GAME_OVER
        turns = state.turn_no
        per_turn = taps / max(1, turns)
        all_taps = (taps + refusals) / max(1, turns)
        lat = sorted(LATENCIES)
        print(
            f"\nfull game: {turns} turns, {taps} accepted taps ({per_turn:.2f}/turn), "
            f"{refusals} refused ({all_taps:.2f} taps/turn in all), {elapsed:.1f}s; "
            f"answer latency median {lat[len(lat) // 2] * 1000:.0f} ms, "
            f"max {lat[-1] * 1000:.0f} ms"
        )
        assert per_turn <= 3.5 and all_taps <= 4.0

        summary = await chat.wait_message(lambda m: "Кон 1 окончен" in m.content, after=table_id)
        assert "Счёт" in summary.content and "Фишки на руках" in summary.content
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table_id)
        assert "1." in final.content
        # the same table message all along, its keyboard gone at the end
        assert table.message_id == table_id and table.edit_count > turns
        await chat.wait_for(lambda: not table.buttons, 30)
        photos = [m for m in chat.bot_messages if m.photo is not None]
        assert len(photos) == 1
