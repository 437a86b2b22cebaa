"""«Гипнозия» through the game-agnostic bot: a whole game by buttons, refusals, a timeout."""

from __future__ import annotations

import asyncio
import re
import time

from bot.app import App
from bot.callbacks import PlayCB, fits
from bot.presenters.hypnosia import OtherDie, PickDie, Ui, make_presenter
from bot.storage import RecordStatus
from fake_telegram import Chat, User
from fake_telegram.server import StoredMessage
from games import IllegalAction
from games.hypnosia import GAME, Phase, State
from locales import get_translator
from tests.bot.computers import add_computers
from tests.bot.e2e import data_of, in_group, new_lobby, record
from tests.bot.hypnosia_play import choose


async def state_of(app: App, chat: Chat) -> State:
    rec = await record(app, chat)
    assert rec.state is not None
    return State.model_validate_json(rec.state)


async def lobby_and_start(
    chat: Chat, creator: User, *others: User, variant: str | None = None
) -> StoredMessage:
    lobby = await new_lobby(chat, creator, "/new гипнозия")
    assert "Гипнозия" in lobby.content
    assert any("Классика" in x for x in lobby.button_texts)
    assert any("Пары по мостам" in x for x in lobby.button_texts)
    for user in others:
        await chat.press(user, lobby, contains="Играть")
    if variant is not None:
        await chat.press(creator, lobby, contains=variant)
        await chat.wait_for(lambda: any(f"✅ {variant}" in x for x in lobby.button_texts))
    await chat.wait_for(lambda: any("Начать" in x for x in lobby.button_texts))
    await chat.press(creator, lobby, contains="Начать")
    return await chat.wait_message(lambda m: m.photo is not None, timeout=10)


def mover_of(table: StoredMessage, users: dict[str, User]) -> User:
    match = re.search(r"Ходит \S+ (.+?):", table.content)
    assert match, table.content
    return users[match.group(1)]


async def test_a_whole_hypnosia_game_by_buttons(backend: str | None) -> None:
    async with in_group(1701, ["Аня", "Борис"], backend) as (tg, app, chat, (anna, boris)):
        users = {u.full_name: u for u in (anna, boris)}
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

            await chat.wait_for(changed, 30)
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
    async with in_group(1711, ["Аня", "Борис"], turn_seconds=0.4, timer_poll_seconds=0.05) as group:
        _, app, chat, (anna, boris) = group
        table = await lobby_and_start(chat, anna, boris, variant="Пары по мостам")
        s = await state_of(app, chat)
        assert s.options.pairs_cross_bridges  # the lobby's variant reached the engine
        assert "пары ходят по мостам" in table.content
        turn = s.turn_no
        await chat.wait_for(lambda: "время вышло —" in table.content, 30)
        # (the caption may say so already: on a loaded machine the first turns can
        # time out before the table is seen, so wait for this turn's own timeout)
        later = await state_of(app, chat)
        for _ in range(160):
            if later.turn_no > turn or GAME.is_over(later):
                break
            await asyncio.sleep(0.05)
            later = await state_of(app, chat)
        assert later.turn_no > turn or GAME.is_over(later)
        rec = await record(app, chat)
        assert sum(rec.timeouts.values()) >= 1


async def test_a_game_of_absent_players_ends_normally_not_at_the_round_guard() -> None:
    """Spec §5 AFK decision (revised 2026-12): nobody presses anything, every turn times
    out and is played by the novice policy, which brings tokens off the start and across
    the bridges, so the game ends by the centre or the tokens (about 20–95 turns), not at
    the 200-round guard (the old "first legal action" never moved №3/№4 off the start)."""
    async with in_group(
        1731,
        ["Аня", "Борис"],
        turn_seconds=0.15,
        timer_poll_seconds=0.05,
        timeouts_before_removal=10_000,
    ) as (_, app, chat, (anna, boris)):
        await lobby_and_start(chat, anna, boris)
        final = await chat.wait_message(lambda m: "Итог" in m.content, timeout=120)
        end = await state_of(app, chat)
        assert end.end_reason in ("centre_full", "no_tokens", "last_racer"), end.end_reason
        assert end.round_no < 100 and not end.left
        assert "окончена" in final.content and "1." in final.content
        crossed = [t for row in end.tokens for t in row if t.startswith(("C", "2.", "3."))]
        assert crossed, end.tokens  # somebody's token crossed a bridge


async def test_a_human_out_of_tokens_is_told_and_the_computers_finish_without_him() -> None:
    """Issue 31, spec R18: Аня plays two computers and sends her last token into the
    centre. A message of its own tells her that her score is final and nothing waits for
    her; the computers then race on at once — not a second a turn for a table nobody
    needs to watch (a dozen rounds took half a minute and more) — to the final standings."""
    async with in_group(1741, ["Аня"], turn_seconds=60, computer_move_seconds=1.0) as group:
        _, app, chat, (anna,) = group
        lobby = await new_lobby(chat, anna, "/new гипнозия")
        await add_computers(chat, anna, lobby, "Новичок", "Новичок")
        await chat.press(anna, lobby, contains="Начать")
        table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        for _ in range(50):  # rig: her turn, her last token on a ring-3 bridge, dice 1 and 3
            rec = await record(app, chat)
            s = State.model_validate_json(rec.state or "")
            seat = s.players.index(anna.id)
            tokens = [["S"] * 4 for _ in s.players]
            tokens[seat] = ["3.2", "X", "X", "X"]
            lost = [3 if x == seat else 0 for x in range(3)]
            captured = [3 if x == (seat + 1) % 3 else 0 for x in range(3)]
            update = {"tokens": tokens, "current": seat, "phase": Phase.MOVE, "dice": [1, 3],
                      "unused": [1, 3], "lost": lost, "captured": captured}  # fmt: skip
            rec.state = s.model_copy(update=update).model_dump_json()
            rec.computer_due = None
            try:
                rec = await app.store.put(rec, rec.version)
                break
            except Exception:  # a computer moved meanwhile: again
                await asyncio.sleep(0.05)
        started = time.monotonic()
        code = PlayCB(g=rec.uid, s=rec.seq, c="M,1,1,b").pack()  # «№1 ⤵ +1 → центр (5)»
        answer = await chat.press(anna, table, by_data=code, check=False)
        assert not answer.show_alert, answer
        told = await chat.wait_message(lambda m: "ждать не нужно" in m.content, timeout=10)
        assert told.content.startswith(
            "🏁 Аня, ваших фишек в игре не осталось: 2 очка"
        )  # 5 − 3 lost, told
        final = await chat.wait_message(lambda m: "Итог" in m.content, timeout=30)
        elapsed = time.monotonic() - started
        end = await state_of(app, chat)
        assert GAME.is_over(end) and end.round_no >= 3, end.round_no  # rounds of theirs
        assert elapsed < 12, elapsed  # at once, not a second a computer turn
        assert "Аня" in final.content


async def test_rules_in_russian() -> None:
    async with in_group(1721, ["Аня"]) as (_, _, chat, (anna,)):
        await chat.send(anna, "/rules гипнозия")
        short = await chat.wait_message(lambda m: "«Гипнозия» — правила коротко" in m.content)
        await chat.press(anna, short, "📖 Полные правила")  # in full: to her alone
        first = await chat.wait_for(
            lambda: next((m for m in chat.ephemeral(anna) if "правила" in m.content), None)
        )
        assert "против часовой стрелки" in first.content
        last = await chat.wait_for(
            lambda: next((m for m in chat.ephemeral(anna) if "Кнопки" in m.content), None)
        )
        assert "№4 ⤵ +1 → центр (5)" in last.content


# ---------------------------------------------------------------- the presenter alone

T = get_translator("ru")
P = make_presenter(None)
C = P.context(T, {}, {1: "Аня", 2: "Борис"})


def table_state(tokens: list[list[str]], dice: list[int], **kw: object) -> State:
    """Two players (Аня red on seat 0, entry 1.0; Борис green, entry 1.18), Аня to move."""
    s = GAME.new(players=[1, 2], seed=1)
    update: dict[str, object] = {"tokens": tokens, "current": 0, "phase": Phase.MOVE}
    update.update(dice=list(dice), unused=list(dice), **kw)
    return s.model_copy(update=update, deep=True)


def labels(s: State, ui: Ui | None = None) -> dict[str, str]:
    return {b.text: b.code for row in P.keyboard(s, C.but(ui=ui or Ui())) for b in row}


def test_move_labels_read_like_the_spec() -> None:
    # E2: №2 stopped on the bridge 1.3; a 3 crosses to 2.2 and goes on to 2.4.
    s = table_state([["S", "1.3", "S", "S"], ["S"] * 4], [3])
    assert labels(s)["№2 ⤵ +3"] == "M,2,3,b"
    assert "№2 +3" in labels(s)
    # E7: №4 on the ring-3 bridge 3.6 enters the centre with a 1.
    s = table_state([["X", "2.20", "X", "3.6"], ["S"] * 4], [1, 4])
    assert "№4 ⤵ +1 → центр (5)" in labels(s)
    # E5: Аня's pair №1+№2 lands on Борис's pair: both captured; a split is named.
    s = table_state([["1.6", "1.6", "S", "S"], ["1.9", "1.9", "S", "S"]], [3])
    assert labels(s)["Пара 1&2 +3 ⚔2"] == "M,1,3,r,p"
    assert "№1 из пары +3" not in labels(s)  # a single cannot capture a pair
    assert all(fits(PlayCB(g="abcdef", s=999999, c=c).pack()) for c in labels(s).values())
    out = P.press(s, 1, P.parse("M,1,3,r,p"), C)
    lines = P.narrate(out.events, out.state, C)
    assert lines[0] == "🔴 Аня: Пара 1&amp;2 +3 → мост ⚔ Борис теряет 2 фишки", lines


def test_more_than_eight_moves_ask_for_the_die_first() -> None:
    s = table_state([["1.3", "1.9", "1.15", "1.21"], ["S"] * 4], [2, 5])  # four bridges
    assert len(GAME.legal_actions(s)) == 16
    first = labels(s)
    assert list(first) == ["🎲 2 (8 ходов)", "🎲 5 (8 ходов)"]
    assert "каким кубиком" in P.caption(s, C)
    assert P.parse(first["🎲 5 (8 ходов)"]) == PickDie(5)
    out = P.press(s, 1, P.parse(first["🎲 5 (8 ходов)"]), C)
    assert out.ui == Ui(die=5, v=s.version) and not out.events
    adv = P.advance(out.state, C.but(ui=out.ui))
    assert isinstance(adv.state, State) and adv.ui is None  # the picked die is kept
    second = labels(adv.state, out.ui)
    assert "№1 +5" in second and "№1 ⤵ +5" in second and "↩ Другой кубик" in second
    assert not any("+2 " in x for x in second)
    assert "кубик 5: выберите ход" in P.caption(s, C.but(ui=out.ui))
    assert P.parse(second["↩ Другой кубик"]) == OtherDie()
    back = P.press(adv.state, 1, P.parse(second["↩ Другой кубик"]), C.but(ui=out.ui))
    assert isinstance(back.state, State) and back.ui == Ui()
    assert labels(back.state, back.ui) == first
    # A die picked for another position is not shown, and the table forgets it.
    moved = P.press(s, 1, P.parse(second["№1 +5"]), C.but(ui=out.ui))
    assert moved.ui == Ui()
    stale = P.advance(moved.state, C.but(ui=out.ui))
    assert stale.ui == Ui() and P.dump_ui(stale.ui) == {}
    # A record of the older bot kept the same dict: it reads as it is.
    assert P.load_ui({"die": 5, "v": s.version}) == out.ui and P.dump_ui(out.ui) == {
        "die": 5,
        "v": s.version,
    }
    assert P.load_ui({}) == Ui() and P.load_ui({"die": "five"}) == Ui()
    assert P.parse("d.5") == PickDie(5) and P.parse("b") == OtherDie()
    # A double is one list, never a die choice.
    s = table_state([["1.3", "1.9", "1.15", "1.21"], ["S"] * 4], [5, 5])
    assert not any(x.startswith("🎲") for x in labels(s))


def test_the_roll_and_a_single_legal_move_are_played_by_the_bot() -> None:
    # E12: Аня's last token on 1.20, Борис's pairs on 1.25 and 1.22: a roll of 5s and 2s
    # has no use at all. The bot rolls, both dice lapse, and Борис's dice are rolled.
    for seed in range(1, 400):
        s = table_state([["1.20", "X", "X", "X"], ["1.25", "1.25", "1.22", "1.22"]], [])
        s = s.model_copy(update={"phase": Phase.ROLL, "seed": seed})
        adv = P.advance(s, C)
        if any(e.type == "dice_lapsed" and e.seat == 0 for e in adv.events):
            break
    else:
        raise AssertionError("no seed rolled 5s and 2s")
    lines = P.narrate(adv.events, adv.state, C)
    assert lines[0].startswith("🔴 Аня: 🎲") and "сгора" in lines[1], lines
    after = adv.state
    assert isinstance(after, State)
    assert after.current == 1 and after.phase == Phase.MOVE and after.dice  # Борис rolled
    assert any("Борис: 🎲" in x for x in lines)
    # One legal move: played for him, and the table says so.
    s = table_state([["3.1", "X", "X", "X"], ["S"] * 4], [1])
    adv = P.advance(s, C)
    assert [e.type for e in adv.events][:2] == ["forced", "moved"]  # the engine's `forced`
    lines = P.narrate(adv.events, adv.state, C)
    assert lines[0] == "🔴 Аня: №1 +1 → мост (единственный ход)", lines


def test_a_refused_move_is_explained_and_a_timeout_plays_the_whole_turn() -> None:
    s = table_state([["S"] * 4, ["S"] * 4], [3, 5])
    try:
        P.press(s, 1, P.parse("M,4,3,r"), C)
    except IllegalAction as e:
        assert P.error_text(e.code, T) == "Фишке №i нужен кубик не меньше i, чтобы выйти из дома."
    else:
        raise AssertionError("№4 left home with a 3")
    out = P.timeout_move(s, 1)
    after = out.state
    assert isinstance(after, State)
    assert after.current == 1  # both dice were used for Аня, by the novice policy:
    # the 5 brings №2 off the start onto the bridge 1.3, the 3 takes it across to 2.4
    assert after.tokens[0] == ["S", "2.4", "S", "S"] and after.turn_no == s.turn_no + 1
    assert P.hand_popup(s, 1, T) and len(P.hand_popup(s, 1, T)) <= 200


def test_no_button_names_a_ring_cell_each_spells_the_mark_on_the_board() -> None:
    """Issue 18: a move button says which token and die («№2 +5», «Пара 1&2 +3 ⚔2»), not
    where it lands («→ 1.7»); the picture marks the landing cell with the button's own
    mark («2+5», «1&2+3»: `View.moves`), the same digits and signs in the same order."""
    states = [
        table_state([["S", "1.3", "S", "S"], ["S"] * 4], [3, 5]),
        table_state([["1.6", "1.6", "S", "S"], ["1.9", "1.9", "S", "S"]], [3]),
        table_state([["X", "2.20", "X", "3.6"], ["S"] * 4], [1, 4]),
        table_state([["1.3", "1.9", "1.15", "1.21"], ["S"] * 4], [5, 5]),
    ]
    seen = 0
    for s in states:
        tags = {m.code: m.tag for m in GAME.view(s, None).moves}
        for text, code in labels(s).items():
            if isinstance(P.parse(code), PickDie):  # «🎲 3 (9 ходов)»: the die is picked first
                continue
            assert not re.search(r"\d\.\d", text), text  # no «1.7»
            core = text.split(" →")[0].split(" ⚔")[0]
            spelled = re.sub(r"[^0-9&⤵+]", "", core).replace("⤵+", "⤵")
            assert spelled == tags[code], (text, tags[code])
            seen += 1
    assert seen >= 12


def test_krug_always_means_a_ring_a_round_of_turns_is_a_raund() -> None:
    """Issue 18: «круг» was both a ring of the board and a round of turns («круг 13»,
    «сыграно 200 кругов»). Now «круг» is only a ring — in the caption, the buttons, the
    picture and the rules — and a round of turns is a «раунд»."""
    from games.hypnosia.model import EndReason
    from render import hypnosia as picture

    s = table_state([["S", "1.3", "S", "S"], ["S"] * 4], [3, 5])
    caption = P.caption(s, C)
    assert "раунд 1" in caption and "круг" not in caption.lower(), caption
    _, line = picture._status(GAME.view(s, None), dict(C.names), T)
    assert line.startswith("Раунд 1 ·") and "круг" not in line.lower(), line
    assert "раунд" in T("hy.end.round_limit") and "круг" not in T("hy.end.round_limit")
    assert "раунд" in T(picture.END_TEXT[EndReason.ROUND_LIMIT])
    rules = T("rules.hypnosia")
    assert "200 раундов" in rules and "кругов ходов" not in rules
    assert "по кругу как можно" not in rules  # seats are spread around the board
    for text in labels(s):
        assert "круг" not in text.lower(), text


def test_a_player_out_of_tokens_is_told_his_score_is_final_and_not_waited_for() -> None:
    """Issue 31, spec R18: Борис's last token is captured while Аня and Вера still race:
    the table tells him by name that his score is final and the game goes on without him,
    and his line says so while it lasts; no move of the narration names a ring cell."""
    c = P.context(T, {}, {1: "Аня", 2: "Борис", 3: "Вера"})
    s = GAME.new(players=[1, 2, 3], seed=1)
    tokens = [["1.5", "X", "X", "X"], ["1.9", "X", "X", "X"], ["1.20", "X", "X", "X"]]
    s = s.model_copy(
        update={"tokens": tokens, "current": 0, "phase": Phase.MOVE, "dice": [4, 2],
                "unused": [4, 2], "captured": [3, 3, 3], "lost": [3, 3, 3]},
        deep=True,
    )  # fmt: skip
    out = P.press(s, 1, P.parse("M,1,4,r"), c)  # 1.5 + 4 = 1.9: Борис's last token
    lines = P.narrate(out.events, out.state, c)
    assert lines == ["🔴 Аня: №1 +4 → мост ⚔ Борис теряет 1 фишку"], lines
    assert P.summaries(out.events, out.state, c) == [  # a message of its own, to him
        "🏁 Борис, ваших фишек в игре не осталось: −1 очко — счёт окончательный. "
        "Игра идёт дальше без вас, ждать не нужно."
    ]
    assert isinstance(out.state, State) and not GAME.is_over(out.state)
    assert "Борис — −1 очко · фишек в игре нет, счёт окончательный" in P.caption(out.state, c)
    # Аня then takes Вера's last token too: she races alone, runs home at once (R17d)
    s = out.state.model_copy(
        update={"tokens": [["1.9", "X", "X", "X"], ["X"] * 4, ["1.11", "X", "X", "X"]]}
    )
    out = P.press(s, 1, P.parse("M,1,2,r"), c)
    lines = P.narrate(out.events, out.state, c)
    assert GAME.is_over(out.state)
    summaries = P.summaries(out.events, out.state, c)
    assert len(summaries) == 1 and "Итог" in summaries[0]  # the end says the rest
    assert "🔴 Аня: соперников в гонке больше нет — №1 сразу в центре (5)" in lines, lines
    assert lines[-1] == "🏁 Игра окончена: фишки в игре остались у одного игрока", lines
