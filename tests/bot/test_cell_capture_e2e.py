"""«Захват клеток» through the same game-agnostic bot: a whole game by buttons."""

from __future__ import annotations

import re

from bot.storage import RecordStatus
from fake_telegram import FakeTelegram
from tests.bot.e2e import changed, data_of, in_group, new_lobby, record, running, settings_for


async def test_a_two_player_lobby_cannot_start_a_cell_capture_game() -> None:
    """R1 (revised 2026-12): «Захват клеток» needs three players; with two the lobby asks
    for one more and offers no «Начать» (two players would always end 12 : 12)."""
    async with in_group(1611, ["Аня", "Борис", "Вика"]) as (_, _, chat, (anna, boris, vika)):
        lobby = await new_lobby(chat, anna, "/new захват")
        assert "нужно 3–6" in lobby.content, lobby.content
        await chat.press(boris, lobby, contains="Играть")
        await chat.wait_for(lambda: "Борис" in lobby.content, timeout=10)
        assert "Нужен ещё 1 игрок" in lobby.content, lobby.content
        assert "▶ Начать" not in lobby.button_texts
        await chat.press(vika, lobby, contains="Играть")
        await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)


async def test_a_whole_cell_capture_game_by_buttons() -> None:
    async with in_group(1601, ["Аня", "Борис", "Вика"]) as (tg, app, chat, (anna, boris, vika)):
        users = {u.full_name: u for u in (anna, boris, vika)}
        lobby = await new_lobby(chat, anna, "/new захват")
        assert "Захват клеток" in lobby.content
        await chat.press(boris, lobby, contains="Играть")
        await chat.press(vika, lobby, contains="Играть")
        await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
        await chat.press(anna, lobby, "▶ Начать")
        table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        presses = 0
        for _ in range(400):
            await tg.settle(quiet=0.02)
            if (await record(app, chat)).status != RecordStatus.PLAYING:
                break
            match = re.search(r"Ходит \S+ (.+?):", table.content)
            assert match, table.content
            mover = users[match.group(1)]
            texts = table.button_texts
            label = next(
                x
                for x in texts
                if x in ("✅ Готово",) or x.isdigit() or x.startswith(("⚓", "➡️", "⬆️", "⬇️", "⬅️"))
            )
            before = data_of(table)
            answer = await chat.press(mover, table, label)
            assert not answer.show_alert, answer
            presses += 1
            await chat.wait_for(changed(table, before), 30)
        else:
            raise AssertionError("the game did not end")
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table)
        assert "1." in final.content and "клет" in final.content
        assert presses > 4


ARROW_ROW = ("⬆️", "➡️", "⬇️", "⬅️")


async def test_cell_capture_keyboard_pages_anchors_skips_forced_choices_keeps_arrows() -> None:
    """Issue 18 by buttons, a whole four-player game: anchor buttons come in pages (never
    more than 8 at once, ◀ ▶ reach every offered anchor); a single allowed number or a
    single anchor is never asked (the bot applies it); while a path is drawn the arrows keep
    their columns ⬆️ ➡️ ⬇️ ⬅️, a closed direction being a «·» that changes nothing. Issue
    31: never more than 9 buttons at once (spec §5)."""
    from games.cell_capture import GAME, Phase, State
    from games.cell_capture.engine import phase
    from games.cell_capture.model import DIR_ORDER

    async with FakeTelegram() as tg:
        people = [
            tg.user(1631 + i, name) for i, name in enumerate(("Аня", "Борис", "Вика", "Гена"))
        ]
        users = {u.full_name: u for u in people}
        chat = tg.group(members=people)
        async with running(settings_for(tg)) as app:
            lobby = await new_lobby(chat, people[0], "/new захват")
            for u in people[1:]:
                await chat.press(u, lobby, contains="Играть")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts, timeout=10)
            await chat.press(people[0], lobby, "▶ Начать")
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
            seen = {"paged": 0, "forced_anchor": 0, "holes": 0, "hole_pressed": 0}
            for _ in range(600):
                await tg.settle(quiet=0.02)
                rec = await record(app, chat)
                if rec.status != RecordStatus.PLAYING:
                    break
                assert rec.state is not None
                s = State.model_validate_json(rec.state)
                v = GAME.view(s, None)
                ph = phase(s)
                named = re.search(r"Ходит \S+ (.+?):", table.content)
                assert named is not None, table.content
                mover = users[named.group(1)]
                texts = table.button_texts
                assert len(texts) <= 9, texts  # spec §5 (issue 31: 11 while drawing)
                anchors = [x for x in texts if x.startswith("⚓")]
                assert len(anchors) <= 8, texts
                if ph is Phase.PICK_K:
                    assert len(v.allowed) >= 2, (v.allowed, texts)  # one number: not asked
                elif ph is Phase.PICK_ANCHOR:
                    assert len(v.offered_anchors) >= 2, texts  # one anchor: not asked
                    if "▶" in texts:  # pages: together they offer every anchor once
                        seen["paged"] += 1
                        assert len(anchors) <= 6
                        found = list(anchors)
                        for _page in range(10):
                            before = data_of(table)
                            answer = await chat.press(mover, table, "▶")
                            assert not answer.show_alert, answer
                            await chat.wait_for(changed(table, before), 30)
                            page = [x for x in table.button_texts if x.startswith("⚓")]
                            if page == anchors:
                                break
                            found += page
                        assert found == [f"⚓ {a}" for a in v.offered_anchors], found
                else:
                    row = table.buttons[0]
                    expected = [
                        a if d in v.steps else "·"
                        for a, d in zip(ARROW_ROW, DIR_ORDER, strict=True)
                    ]
                    assert [b.text for b in row] == expected, texts
                    if not s.draft.path and "↩ Отменить шаг" not in texts:
                        seen["forced_anchor"] += 1  # undo would only choose it again
                    hole = next((b for b in row if b.text == "·"), None)
                    if hole is not None:
                        seen["holes"] += 1
                        if seen["hole_pressed"] < 3:  # a closed direction does nothing
                            answer = await chat.press(mover, table, by_data=hole.callback_data)
                            assert answer.text and not answer.show_alert, answer
                            assert (await record(app, chat)).state == rec.state
                            seen["hole_pressed"] += 1
                label = next(
                    x
                    for x in table.button_texts
                    if x == "✅ Готово" or x.isdigit() or x.startswith(("⚓", *ARROW_ROW))
                )
                before = data_of(table)
                answer = await chat.press(mover, table, label)
                assert not answer.show_alert, answer
                await chat.wait_for(changed(table, before), 30)
            else:
                raise AssertionError("the game did not end")
            assert seen["paged"] and seen["forced_anchor"] and seen["hole_pressed"], seen
