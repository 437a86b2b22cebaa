"""«Морской крест» through the same game-agnostic bot: a whole game by buttons.

The bot rolls for the player to act and plays every move that is the only legal one, so
the players tap only real choices; the test counts those taps per turn.
"""

from __future__ import annotations

import time

import pytest

from bot.app import App
from bot.presenters.sea_cross import SeaCrossPresenter
from bot.storage import RecordStatus
from fake_telegram import Chat
from games.sea_cross import State
from locales import get_translator
from tests.bot.e2e import changed, data_of, in_group, new_lobby, record
from tests.bot.sea_cross_play import choose, mover, sea_cross_table


async def state_of(app: App, chat: Chat) -> State:
    rec = await record(app, chat)
    assert rec.state is not None
    return State.model_validate_json(rec.state)


async def test_a_whole_sea_cross_game_by_buttons(backend: str | None) -> None:
    async with in_group(1701, ["Аня", "Борис"], redis_url=backend) as group:
        tg, app, chat, (anna, boris) = group
        users = {u.full_name: u for u in (anna, boris)}
        started = time.monotonic()
        lobby = await new_lobby(chat, anna, "/new морской крест")
        assert "Морской крест" in lobby.content
        await chat.press(boris, lobby, contains="Играть")
        await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
        await chat.press(anna, lobby, "▶ Начать")
        table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        assert (table.photo_bytes or b"").startswith(b"\x89PNG")
        await tg.settle(quiet=0.02)
        # The roll-off was made and told; the bot already rolled for the first player.
        first = await state_of(app, chat)
        assert first.rolloff and first.roll_no >= 1
        assert "🔵 Аня" in table.content and "🟢 Борис" in table.content
        presses = 0
        for _ in range(1500):
            await tg.settle(quiet=0.02)
            if (await record(app, chat)).status != RecordStatus.PLAYING:
                break
            who = mover(table, users)
            texts = table.button_texts
            assert texts and len(texts) <= 10, texts
            assert all(t.startswith(("№", "⚓")) for t in texts), texts
            before = data_of(table)
            answer = await chat.press(who, table, choose(texts))
            assert not answer.show_alert, answer
            presses += 1
            await chat.wait_for(changed(table, before), 30)
        else:
            raise AssertionError("the game did not end")
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, after=table)
        assert "1." in final.content and "2." in final.content and "🏆" in final.content
        assert "дома 4 из 4" in final.content
        end = await state_of(app, chat)
        assert end.winner is not None
        assert table.button_texts == []  # the finished table has no buttons
        assert "Игра окончена" in table.content
        turns = end.turn_no
        elapsed = time.monotonic() - started
        print(
            f"sea cross: {turns} turns, {end.roll_no} rolls, {presses} taps "
            f"({presses / turns:.2f}/turn), {elapsed:.1f}s"
        )
        assert presses < 2.5 * turns


async def test_a_press_out_of_turn_is_refused_privately_and_changes_nothing() -> None:
    async with in_group(1711, ["Аня", "Борис", "Вика"]) as (tg, app, chat, (anna, boris, vika)):
        users = {u.full_name: u for u in (anna, boris)}
        table = await sea_cross_table(chat, anna, boris, "/new крест")
        await tg.settle(quiet=0.05)
        who = mover(table, users)
        other = boris if who is anna else anna
        rec = await record(app, chat)
        label = table.button_texts[0]
        answer = await chat.press(other, table, label)
        assert answer.text == f"Сейчас ходит {who.full_name}, не вы."
        stranger = await chat.press(vika, table, label)
        assert stranger.show_alert and "не участвуете" in (stranger.text or "")
        await tg.settle(quiet=0.05)
        after = await record(app, chat)
        assert after.state == rec.state and after.seq == rec.seq
        # The right player's press of the same button is accepted.
        answer = await chat.press(who, table, label)
        assert not answer.show_alert
        await tg.settle(quiet=0.05)
        assert (await record(app, chat)).state != rec.state


async def test_an_absent_player_is_played_for_then_removed_and_the_other_wins() -> None:
    async with in_group(
        1721, ["Аня", "Борис"], turn_seconds=0.3, timeouts_before_removal=2
    ) as group:
        _, app, chat, (anna, boris) = group
        table = await sea_cross_table(chat, anna, boris)
        # nobody presses anything from now on
        removed = await chat.wait_message(lambda m: "выбывает из игры" in m.content, timeout=15)
        assert "2-й раз" in removed.content
        final = await chat.wait_message(lambda m: "Игра окончена" in m.content, timeout=10)
        assert "— вне игры" in final.content and "🏆" in final.content
        assert (await record(app, chat)).status == RecordStatus.OVER
        await chat.wait_for(lambda: not table.buttons, 30)


# ------------------------------------------------------------- the presenter alone


def _presenter_game(seed: int, players: int = 3) -> list[tuple[State, list[str]]]:
    """(state, narration) at every decision of a game played by random buttons."""
    import random

    from bot.presenters.sea_cross import make_presenter
    from locales import get_translator

    p = make_presenter(None)
    c = p.context(get_translator("ru"), {}, {1: "Аня", 2: "Борис", 3: "Вика", 4: "Гоша"})
    rng = random.Random(seed)
    s = p.new_state(list(range(1, players + 1)), seed, {})
    adv = p.advance(s, c)
    out: list[tuple[State, list[str]]] = []
    lines = p.narrate(adv.events, adv.state, c)
    s = adv.state
    while not p.game.is_over(s):
        assert isinstance(s, State)
        out.append((s, lines))
        codes = [b.code for row in p.keyboard(s, c) for b in row]
        actor = p.actor(s)
        assert actor is not None
        o = p.press(s, actor, p.parse(rng.choice(codes)), c)
        assert o.ui is None  # the table keeps nothing between presses
        adv = p.advance(o.state, c)
        lines = p.narrate([*o.events, *adv.events], adv.state, c)
        s = adv.state
    assert isinstance(s, State)
    out.append((s, lines))
    return out


def test_keyboard_offers_exactly_the_legal_moves_and_fits_telegram() -> None:
    from bot.callbacks import PlayCB, fits
    from bot.presenters.sea_cross import make_presenter
    from locales import get_translator

    p = make_presenter(None)
    c = p.context(get_translator("ru"), {}, {1: "Аня", 2: "Борис", 3: "Вика"})
    for s, _ in _presenter_game(1):
        kb = p.keyboard(s, c)
        codes = [b.code for row in kb for b in row]
        if p.game.is_over(s):
            assert codes == []
            continue
        legal = [a.encode() for a in p.game.legal_actions(s)]
        assert len(legal) >= 2  # a single legal move is never left to a tap
        assert sorted(codes) == sorted(legal) and len(codes) <= 10
        assert all(len(row) <= 3 for row in kb)
        for code in codes:
            assert ":" not in code and fits(PlayCB(g="abcdef", s=999999, c=code).pack())
        assert len(p.caption(s, c.but(log=["x" * 80] * 3))) <= 1024


def test_narration_tells_rolls_moves_and_the_winner() -> None:
    game = _presenter_game(2, players=2)
    first_lines = game[0][1]
    assert first_lines[0].startswith("🎲 Кто начинает:")
    assert "первым ходит" in first_lines[0]
    text = "\n".join(x for _, lines in game for x in lines)
    assert "№" in text and "🎲" in text
    # the moves the bot played without a choice (the engine's `forced`) are told so
    assert "(единственный ход)" in text and "(ходы без выбора)" in text
    assert "все четыре фишки дома" in game[-1][1][-1]


def test_timeout_plays_the_whole_turn_of_the_absent_player() -> None:
    from bot.presenters.sea_cross import make_presenter
    from locales import get_translator

    p = make_presenter(None)
    c = p.context(get_translator("ru"), {}, {1: "Аня", 2: "Борис", 3: "Вика"})
    for s, _ in _presenter_game(3)[5:40:5]:
        if p.game.is_over(s):
            continue
        actor = p.actor(s)
        assert actor is not None
        out = p.timeout_move(s, actor)
        after = out.state
        assert isinstance(after, State)
        assert p.game.is_over(after) or after.turn_no > s.turn_no
        assert out.events
        # told from the roll it continues (the caption showed those dice, not the log)
        dice = ":".join(map(str, s.dice))
        who = {1: "Аня", 2: "Борис", 3: "Вика"}[actor]
        line = p.narrate(out.events, after, c)[0]
        assert f" {who} 🎲 {dice}" in line, line


def test_an_illegal_or_forged_code_is_refused_with_the_engines_reason() -> None:
    import pytest

    from bot.presenters.buttons import Unknown
    from bot.presenters.sea_cross import make_presenter
    from games import IllegalAction
    from games.sea_cross import CODES
    from locales import get_translator

    t = get_translator("ru")
    p = make_presenter(None)
    c = p.context(t, {})
    s, _ = _presenter_game(4)[3]
    actor = p.actor(s)
    assert actor is not None
    legal = {a.encode() for a in p.game.legal_actions(s)}
    for code in ("M,1,7", "X", "E,1", "x"):  # not an action of the game: never pressed
        with pytest.raises(Unknown):
            p.parse(code)
    for code in ("M,4,6" if "M,4,6" not in legal else "E", "J,1", "R"):
        if code in legal:
            continue
        with pytest.raises(IllegalAction) as err:
            p.press(s, actor, p.parse(code), c)
        text = p.error_text(err.value.code, t)
        assert text and not text.startswith("Так нельзя"), (code, text)
    for code in CODES:  # every engine code has its own Russian and English reason
        assert t.has(f"sc.error.{code}")
        assert get_translator("en")(f"sc.error.{code}") != t(f"sc.error.{code}")


OPENING_SEED = 1813382119  # three players: six automatic rolls before the first choice


async def test_the_table_opens_with_one_line_of_the_bot_s_first_rolls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot plays the roll-off and every roll with no choice before the first real one.
    Issue 18 told them all in three lines under «ход 6»; issue 31: nobody asked for them.
    The table opens with no turn number and one line: who starts and how many rolls the
    bot made (the picture shows the tokens they brought out)."""
    async with in_group(1721, ["Аня", "Борис", "Вика"]) as (tg, app, chat, (anna, boris, vika)):
        # a seed whose opening has six automatic rolls (two tokens entered, four passes)
        new_state = SeaCrossPresenter.new_state
        monkeypatch.setattr(
            SeaCrossPresenter,
            "new_state",
            lambda self, players, seed, options: new_state(self, players, OPENING_SEED, options),
        )
        lobby = await new_lobby(chat, anna, "/new крест")
        await chat.press(boris, lobby, contains="Играть")
        await chat.press(vika, lobby, contains="Играть")
        await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
        await chat.press(anna, lobby, "▶ Начать")
        table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
        await tg.settle(quiet=0.05)
        state = await state_of(app, chat)
        assert state.roll_no >= 5, state.roll_no  # the seed still gives a long opening
        head, phase, _, story, _, *players = table.content.split("\n")
        assert head == "⚓ Морской крест" and phase.startswith("Ходит "), table.content
        assert story.startswith("🎲 Кто начинает") and "первым ходит" in story, story
        rolls = get_translator("ru").plural(state.roll_no - 1, "sc.unit.roll")
        assert f"До первого выбора бот сделал за игроков {rolls}" in story, story
        assert len(players) == 3 and "⚓ №1 на кон" not in table.content, table.content
