"""«Семидорожник» play polish at the table (issue 18), by pressing buttons against the
fake Telegram server on positions built with tests/games/seven_tracks/builder.py:
priority tiles in «▶ Выставить всё», the hints and «📥 Взять из кассы» (R48); the
universal spent only when chosen; an option's move reachable from the buttons (R39);
first-move refusals that do not tell where the holder sits (R58); «⋯ N» offering only
what is usable and naming a missing tile; the round summary's sum (R67)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.app import App
from bot.storage import Conflict
from fake_telegram import CallbackAnswer, Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.seven_tracks import Phase, State
from games.seven_tracks.model import kind_of
from tests.bot.e2e import engine_state, in_group, record, started_table
from tests.bot.e2e import wait_phase as wait_button
from tests.bot.hands import hand_of
from tests.games.seven_tracks.builder import build, roll

PRIORITY = "⭐ Приоритет…"
BACK = "« Назад"


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


async def rig(
    app: App,
    chat: Chat,
    hands: dict[int, list[str]],
    *,
    dice: tuple[int, ...] = (),
    options: dict[str, Any] | None = None,
    tweak: Callable[[State], None] | None = None,
    **kw: Any,
) -> State:
    """Replace the running game's position by one built from `hands` (seat -> kinds), the
    same players, seat to move and turn; `dice` puts the turn into PLACING with that roll."""
    seat = kw.pop("seat", None)
    for _ in range(20):  # a background write (the time of a press) may come in between
        rec = await record(app, chat)
        now = State.model_validate_json(rec.state or "")
        s = build(
            n=len(now.players),
            seat=now.current if seat is None else seat,
            hands=hands,
            options={**now.options.model_dump(), **(options or {})},
            turn_no=now.turn_no,
            **kw,
        )
        if dice:
            s = roll(s, *dice)
        update = {"players": list(now.players), "seed": now.seed, "version": now.version}
        s = s.model_copy(update=update)
        if tweak is not None:
            tweak(s)
        rec.state = s.model_dump_json()
        try:
            await app.store.put(rec, rec.version)
        except Conflict:
            continue
        return s
    raise AssertionError("the record kept changing")


async def synced(app: App, chat: Chat, table: StoredMessage) -> None:
    """Wait until the table's buttons carry the record's current version (the edit after
    a move may come a little later than the answer to the press)."""
    seq = (await record(app, chat)).seq

    def fresh() -> bool:
        data = [b.callback_data or "" for row in table.buttons for b in row]
        return any(d.startswith("P1:") and d.split(":")[2] == str(seq) for d in data)

    await chat.wait_for(fresh, timeout=10)


async def refresh(
    app: App, tg: FakeTelegram, chat: Chat, table: StoredMessage, user: User, label: str
) -> None:
    """Show the rigged position's keyboard: open and close the priority menu."""
    await synced(app, chat, table)
    answer = await chat.press(user, table, PRIORITY)
    assert not answer.show_alert, answer
    await wait_button(chat, table, BACK)
    answer = await chat.press(user, table, BACK)
    assert not answer.show_alert, answer
    await wait_button(chat, table, label)
    await tg.settle()


async def press_code(chat: Chat, user: User, table: StoredMessage, code: str) -> CallbackAnswer:
    """Press a table button by its code (one that this keyboard does not show)."""
    data = next(b.callback_data for row in table.buttons for b in row if b.callback_data)
    assert data is not None
    return await chat.press(user, table, by_data=data.rsplit(":", 1)[0] + ":" + code, check=False)


async def seated(
    tg: FakeTelegram, app: App, chat: Chat, users: list[User]
) -> tuple[StoredMessage, int, User]:
    """A started game: its table, the seat to move and that seat's player."""
    table = await started_table(tg, chat, users, "🎲🎲 Два кубика")
    seat = (await engine_state(app, chat)).current
    return table, seat, users[seat]


def hand_kinds(s: State, seat: int) -> list[str]:
    return sorted(kind_of(x) for x in s.hands[seat])


async def test_place_all_and_the_hint_offer_the_priority_tile_when_nothing_fits(
    backend: str | None,
) -> None:
    async with in_group(1901, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table, seat, mover = await seated(tg, app, chat, users)
        # one die on track 3 (it expects 🟨); neither 🟥 nor ⬛ fits; he holds ⏭
        await rig(app, chat, {seat: ["R", "K", "SK"]}, dice=(3,), bank_top=["G", "O", "Y"])
        await refresh(app, tg, chat, table, mover, "▶ Выставить всё")
        answer = await chat.press(mover, table, "▶ Выставить всё")
        assert answer.show_alert, answer
        assert answer.text is not None, answer
        assert "⏭" in answer.text and "вместо добора" in answer.text.lower(), answer.text
        s = await engine_state(app, chat)
        assert s.turn.draws == 0 and hand_kinds(s, seat) == ["K", "R", "SK"]  # no draw
        # his private hand says it too, and offers the tile (tests/bot/hands.py) on its
        # own buttons: the table's «⭐ Приоритет…» has left the table (issue 31)
        await chat.press(mover, table, "🀄 Мои фишки")
        hand = await chat.wait_for(lambda: hand_of(chat, mover), 30)
        assert "⏭" in hand.content and "кнопкой ниже" in hand.content, hand.content
        assert any("⏭" in x for x in hand.button_texts), hand.button_texts
        # told once, he declines: pressed again, it draws until a tile fits (🟨, then 🟩)
        answer = await chat.press(mover, table, "▶ Выставить всё")
        assert not answer.show_alert, answer
        s = await engine_state(app, chat)
        assert s.turn.draws == 3 and hand_kinds(s, seat) == ["K", "O", "R", "SK"]

        # the draws are spent: not just «нажмите ✅ Закончить ход»
        def spent(s: State) -> None:
            s.turn.draws = s.options.max_draws

        await synced(app, chat, table)
        await rig(app, chat, {seat: ["R", "K", "SK"]}, dice=(3,), tweak=spent)
        answer = await chat.press(mover, table, "▶ Выставить всё")
        assert answer.show_alert, answer
        assert answer.text is not None, answer
        assert "⏭" in answer.text and "Закончить ход" in answer.text, answer.text


async def test_draw_takes_one_tile_at_a_time_while_a_priority_tile_could_be_played(
    backend: str | None,
) -> None:
    async with in_group(1911, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table, seat, mover = await seated(tg, app, chat, users)
        await rig(app, chat, {seat: ["R", "SK"]}, dice=(3,), bank_top=["G", "O", "B", "Y"])
        await refresh(app, tg, chat, table, mover, "📥 Взять из кассы")
        answer = await chat.press(mover, table, "📥 Взять из кассы")
        assert not answer.show_alert, answer
        assert answer.text is not None, answer
        assert "⏭" in answer.text and "Вы взяли: 🟩" in answer.text, answer.text
        s = await engine_state(app, chat)
        assert s.turn.draws == 1 and s.phase == Phase.PLACING
        turn_no = s.turn_no
        # he stops and plays ⏭ instead of drawing on (R48)
        await synced(app, chat, table)
        answer = await chat.press(mover, table, PRIORITY)
        assert not answer.show_alert, answer
        await wait_button(chat, table, "⏭ Пропуск хода")
        answer = await chat.press(mover, table, "⏭ Пропуск хода")
        assert not answer.show_alert, answer
        s = await engine_state(app, chat)
        assert s.turn_no > turn_no and hand_kinds(s, seat) == ["G", "R"]
        # without a priority tile the compound draw stays: until a tile fits
        await synced(app, chat, table)
        await rig(app, chat, {seat: ["R", "K"]}, dice=(3,), bank_top=["G", "O", "Y"])
        await refresh(app, tg, chat, table, mover, "📥 Взять из кассы")
        answer = await chat.press(mover, table, "📥 Взять из кассы")
        assert not answer.show_alert, answer
        s = await engine_state(app, chat)
        assert s.turn.draws == 3 and "Y" in hand_kinds(s, seat)


async def test_the_universal_is_spent_only_when_the_player_chooses_it(
    backend: str | None,
) -> None:
    async with in_group(1921, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table, seat, mover = await seated(tg, app, chat, users)
        await rig(app, chat, {seat: ["U", "R", "R"]})  # no ⏭ of his own, only ✨
        answer = await chat.press(mover, table, PRIORITY)
        await wait_button(chat, table, "⏭ Пропуск хода")
        answer = await chat.press(mover, table, "⏭ Пропуск хода")
        assert answer.show_alert, answer
        assert answer.text is not None, answer
        assert "✨ Универсальной…" in answer.text, answer.text
        s = await engine_state(app, chat)
        assert s.current == seat and "U" in hand_kinds(s, seat)  # nothing was spent
        answer = await chat.press(mover, table, "✨ Универсальной…")
        assert not answer.show_alert, answer
        await wait_button(chat, table, "✨ как ⏭ Пропуск хода")
        answer = await chat.press(mover, table, "✨ как ⏭ Пропуск хода")
        assert not answer.show_alert, answer
        s = await engine_state(app, chat)
        assert s.current != seat and hand_kinds(s, seat) == ["R", "R"]
        # holding both, the plain button spends the original and keeps the universal
        await synced(app, chat, table)
        await rig(app, chat, {seat: ["SK", "U", "R"]}, seat=seat)
        answer = await chat.press(mover, table, PRIORITY)
        await wait_button(chat, table, "⏭ Пропуск хода")
        answer = await chat.press(mover, table, "⏭ Пропуск хода")
        assert not answer.show_alert, answer
        s = await engine_state(app, chat)
        assert s.current != seat and hand_kinds(s, seat) == ["R", "U"]


async def test_black_discard_on_any_double_is_a_button_when_the_option_is_on(
    backend: str | None,
) -> None:
    async with in_group(1931, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table, seat, mover = await seated(tg, app, chat, users)
        await rig(
            app,
            chat,
            {seat: ["K", "Y", "R"]},
            dice=(3, 3),
            options={"black_discard_on_any_double": True},
        )
        await refresh(app, tg, chat, table, mover, "▶ Выставить всё")
        assert "⬛ Сбросить чёрную фишку" in table.button_texts, table.button_texts
        answer = await chat.press(mover, table, "⬛ Сбросить чёрную фишку")
        assert not answer.show_alert, answer
        s = await engine_state(app, chat)
        assert "K" not in hand_kinds(s, seat) and s.turn.black_discards == 1


async def test_first_move_refusals_are_the_same_wherever_the_holder_sits(
    backend: str | None,
) -> None:
    async with in_group(1941, ["Аня", "Борис", "Вика"], backend, turn_seconds=0) as group:
        tg, app, chat, users = group
        table = await started_table(tg, chat, users, "🎲🎲 Два кубика")
        middle = users[1]  # seat 1 holds neither 🥇 nor ✨
        answers: dict[int, tuple[str, str]] = {}
        for holder in (2, 0):  # after him (the window has passed him), then before him
            hands = {seat: ["R", "O", "Y"] for seat in range(3)}
            hands[holder] = ["FM", "R", "O"]
            await rig(app, chat, hands, seat=holder, phase=Phase.FIRST_MOVE)
            declare = await press_code(chat, middle, table, "fmd")
            passing = await press_code(chat, middle, table, "fmp")
            assert declare.text is not None and passing.text is not None, (declare, passing)
            answers[holder] = (declare.text, passing.text)
            assert declare.show_alert, declare
        assert answers[2] == answers[0], answers
        assert "нет ни" in answers[0][0] and "закрыто" not in answers[0][1], answers


async def test_the_track_menu_offers_only_usable_choices_and_names_a_missing_tile(
    backend: str | None,
) -> None:
    async with in_group(1951, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table, seat, mover = await seated(tg, app, chat, users)
        # dice 2 and 5: track 2 expects 🟧, track 5 expects 🩵; he has neither, no ⬜
        await rig(app, chat, {seat: ["R", "V", "K"]}, dice=(2, 5))
        await refresh(app, tg, chat, table, mover, "▶ Дорожка 2")
        answer = await chat.press(mover, table, "▶ Дорожка 2")
        assert answer.show_alert, answer
        assert answer.text is not None, answer
        assert "🟧 оранжевая или ⬜ белая" in answer.text, answer.text
        answer = await chat.press(mover, table, "⋯ 2")
        await wait_button(chat, table, "Цветную 🟧")
        answer = await chat.press(mover, table, "Цветную 🟧")
        assert answer.show_alert, answer
        assert answer.text is not None, answer
        assert "Нужна 🟧 оранжевая" in answer.text, answer.text
        # with an orange: placed; two dice allow one tile, so no more placing is offered
        await rig(app, chat, {seat: ["O", "Y", "R"]}, dice=(2, 5))
        answer = await chat.press(mover, table, "Цветную 🟧")
        assert not answer.show_alert, answer
        await chat.wait_for(lambda: "⬛ Блок" in table.button_texts, timeout=10)
        assert not any(x.startswith("Цветную") for x in table.button_texts), table.button_texts
        assert "⬜ Белую" not in table.button_texts


async def test_the_round_summary_shows_the_sum_with_the_bonus(backend: str | None) -> None:
    async with in_group(1961, ["Аня", "Борис"], backend, turn_seconds=0) as (tg, app, chat, users):
        table = await started_table(tg, chat, users, "🎲🎲 Два кубика")
        seat = (await engine_state(app, chat)).current
        other = 1 - seat
        mover = users[seat]

        def scores(s: State) -> None:
            s.scores[seat], s.scores[other] = 5, 60

        # his last tile, 🟥, goes on track 1: he is out first; the other holds 🟪⬛ = 17
        await rig(app, chat, {seat: ["R"], other: ["V", "K"]}, dice=(1,), tweak=scores)
        await refresh(app, tg, chat, table, mover, "▶ Выставить всё")
        answer = await chat.press(mover, table, "▶ Выставить всё")
        assert not answer.show_alert, answer
        summary = await chat.wait_message(lambda m: "Кон 1 окончен" in m.content, timeout=10)
        text = plain(summary.content)
        assert f"{mover.first_name}: 5 + 0 − 7 (бонус) → 0" in text, text
        assert "ниже нуля" in text
        assert f"{users[other].first_name}: 60 + 17 = 77" in text, text
