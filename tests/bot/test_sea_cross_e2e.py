"""«Морской крест» through the same game-agnostic bot: a whole game by buttons.

The bot rolls for the player to act and plays every move that is the only legal one, so
the players tap only real choices; the test counts those taps per turn.
"""

from __future__ import annotations

import re
import time

import pytest

from bot.app import App
from bot.presenters.sea_cross import SeaCrossPresenter
from bot.storage import RecordStatus
from fake_telegram import Chat, FakeTelegram, User
from fake_telegram.server import StoredMessage
from games.sea_cross import State
from tests.bot.e2e import changed, data_of, record, running, settings_for

MOVER = re.compile(r"Ходит \S+ (.+?): 🎲")


def mover(table: StoredMessage, users: dict[str, User]) -> User:
    match = MOVER.search(table.content)
    assert match, table.content
    return users[match.group(1)]


def choose(texts: list[str]) -> str:
    """A player's sensible pick among the buttons he sees: into the home, a capture, a new
    token on the board, else the biggest step."""
    for mark in ("🏠", "⚔", "⚓", "⤳"):
        for x in texts:
            if mark in x:
                return x
    steps = [(int(m.group(1)), x) for x in texts if (m := re.search(r"\+(\d)", x))]
    assert steps, texts
    return max(steps)[1]


async def sea_cross_table(
    chat: Chat, creator: User, joiner: User, command: str = "/new морской крест"
) -> StoredMessage:
    """`creator` opens a «Морской крест» lobby, `joiner` joins, «Начать»: its table."""
    await chat.send(creator, command)
    lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
    await chat.press(joiner, lobby, contains="Играть")
    await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
    await chat.press(creator, lobby, "▶ Начать")
    # generous: a cold render process needs seconds of CPU on a loaded 2-core machine
    return await chat.wait_message(lambda m: m.photo is not None, timeout=30)


async def state_of(app: App, chat: Chat) -> State:
    rec = await record(app, chat)
    assert rec.state is not None
    return State.model_validate_json(rec.state)


async def test_a_whole_sea_cross_game_by_buttons(backend: str | None) -> None:
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1701, "Аня"), tg.user(1702, "Борис")
        users = {u.full_name: u for u in (anna, boris)}
        chat = tg.group(members=list(users.values()))
        async with running(settings_for(tg, redis_url=backend)) as app:
            started = time.monotonic()
            await chat.send(anna, "/new морской крест")
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
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
                await chat.wait_for(changed(table, before), 5)
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
    async with FakeTelegram() as tg:
        anna, boris, vika = tg.user(1711, "Аня"), tg.user(1712, "Борис"), tg.user(1713, "Вика")
        users = {u.full_name: u for u in (anna, boris)}
        chat = tg.group(members=[anna, boris, vika])
        async with running(settings_for(tg)) as app:
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
    async with FakeTelegram() as tg:
        anna, boris = tg.user(1721, "Аня"), tg.user(1722, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, turn_seconds=0.3, timeouts_before_removal=2)
        async with running(settings) as app:
            await chat.send(anna, "/new морской крест")
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
            await chat.press(boris, lobby, contains="Играть")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
            await chat.press(anna, lobby, "▶ Начать")
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
            # nobody presses anything from now on
            removed = await chat.wait_message(lambda m: "выбывает из игры" in m.content, timeout=15)
            assert "2-й раз" in removed.content
            final = await chat.wait_message(lambda m: "Игра окончена" in m.content, timeout=10)
            assert "— вне игры" in final.content and "🏆" in final.content
            assert (await record(app, chat)).status == RecordStatus.OVER
            await chat.wait_for(lambda: not table.buttons, 5)


# ------------------------------------------------------------- the presenter alone


def _presenter_game(seed: int, players: int = 3) -> list[tuple[State, list[str]]]:
    """(state, narration) at every decision of a game played by random buttons."""
    import random

    from bot.presenters.sea_cross import make_presenter
    from locales import get_translator

    t = get_translator("ru")
    p = make_presenter(None)
    names = {1: "Аня", 2: "Борис", 3: "Вика", 4: "Гоша"}
    rng = random.Random(seed)
    s = p.new_state(list(range(1, players + 1)), seed, {})
    adv = p.advance(s, {}, 0.0)
    out: list[tuple[State, list[str]]] = []
    lines = p.narrate(adv.events, adv.state, names, t)
    s = adv.state
    while not p.game.is_over(s):
        assert isinstance(s, State)
        out.append((s, lines))
        codes = [b.code for row in p.keyboard(s, {}, names, t) for b in row]
        actor = p.actor(s)
        assert actor is not None
        o = p.press(s, actor, rng.choice(codes), {}, t, 0.0)
        adv = p.advance(o.state, o.ui, 0.0)
        lines = p.narrate([*o.events, *adv.events], adv.state, names, t)
        s = adv.state
    assert isinstance(s, State)
    out.append((s, lines))
    return out


def test_keyboard_offers_exactly_the_legal_moves_and_fits_telegram() -> None:
    from bot.callbacks import PlayCB, fits
    from bot.presenters.sea_cross import make_presenter
    from locales import get_translator

    t = get_translator("ru")
    p = make_presenter(None)
    names = {1: "Аня", 2: "Борис", 3: "Вика"}
    for s, _ in _presenter_game(1):
        kb = p.keyboard(s, {}, names, t)
        codes = [b.code for row in kb for b in row]
        if p.game.is_over(s):
            assert codes == []
            continue
        legal = [a.encode() for a in p.game.legal_actions(s)]
        assert len(legal) >= 2  # a single legal move is never left to a tap
        assert sorted(codes) == sorted(legal) and len(codes) <= 10
        assert all(len(row) <= 3 for row in kb)
        for c in codes:
            assert ":" not in c and fits(PlayCB(g="abcdef", s=999999, c=c).pack())
        assert len(p.caption(s, names, {}, ["x" * 80] * 3, t)) <= 1024


def test_narration_tells_rolls_moves_and_the_winner() -> None:
    game = _presenter_game(2, players=2)
    first_lines = game[0][1]
    assert first_lines[0].startswith("🎲 Кто начинает:")
    assert "первым ходит" in first_lines[0]
    text = "\n".join(x for _, lines in game for x in lines)
    assert "№" in text and "🎲" in text
    assert "все четыре фишки дома" in game[-1][1][-1]


def test_timeout_plays_the_whole_turn_of_the_absent_player() -> None:
    from bot.presenters.sea_cross import make_presenter

    p = make_presenter(None)
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


def test_an_illegal_or_forged_code_is_refused_with_the_engines_reason() -> None:
    import pytest

    from bot.presenters.sea_cross import make_presenter
    from games import IllegalAction
    from games.sea_cross import CODES
    from locales import get_translator

    t = get_translator("ru")
    p = make_presenter(None)
    s, _ = _presenter_game(4)[3]
    actor = p.actor(s)
    assert actor is not None
    legal = {a.encode() for a in p.game.legal_actions(s)}
    for code in ("M,1,7", "X", "M,4,6" if "M,4,6" not in legal else "E,1", "J,1"):
        if code in legal:
            continue
        with pytest.raises(IllegalAction) as err:
            p.press(s, actor, code, {}, t, 0.0)
        text = p.error_text(err.value.code, t)
        assert text and not text.startswith("Так нельзя"), (code, text)
    for code in CODES:  # every engine code has its own Russian and English reason
        assert t.has(f"sc.error.{code}")
        assert get_translator("en")(f"sc.error.{code}") != t(f"sc.error.{code}")


OPENING_SEED = 1813382119  # three players: six automatic rolls before the first choice


async def test_the_bot_s_first_rolls_are_all_told_on_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 18: the bot plays the roll-off and every roll with no choice before the first
    real one. The table keeps only its last three narration lines, so the opening is told
    in three: the roll-off and who starts, the rolls the bot played, the last roll."""
    async with FakeTelegram() as tg:
        anna, boris, vika = tg.user(1721, "Аня"), tg.user(1722, "Борис"), tg.user(1723, "Вика")
        chat = tg.group(members=[anna, boris, vika])
        async with running(settings_for(tg)) as app:
            # a seed whose opening has six automatic rolls (two tokens entered, four passes)
            new_state = SeaCrossPresenter.new_state
            monkeypatch.setattr(
                SeaCrossPresenter,
                "new_state",
                lambda self, players, seed, options: new_state(
                    self, players, OPENING_SEED, options
                ),
            )
            await chat.send(anna, "/new крест")
            lobby = await chat.wait_message(lambda m: "Новая игра" in m.content)
            await chat.press(boris, lobby, contains="Играть")
            await chat.press(vika, lobby, contains="Играть")
            await chat.wait_for(lambda: "▶ Начать" in lobby.button_texts)
            await chat.press(anna, lobby, "▶ Начать")
            table = await chat.wait_message(lambda m: m.photo is not None, timeout=10)
            await tg.settle(quiet=0.05)
            state = await state_of(app, chat)
            assert state.roll_no >= 5, state.roll_no  # the seed still gives a long opening
            text = table.content
            assert "Кто начинает" in text and "первым ходит" in text, text
            assert "До первого выбора бот сыграл сам" in text, text
            on_board = sum(1 for toks in state.tokens for r in toks if r >= 0)
            assert on_board >= 2 and text.count("⚓ №1 на кон") == on_board, text
