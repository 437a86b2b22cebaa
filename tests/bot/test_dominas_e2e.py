"""«ДОМИНА*С» through the game-agnostic bot: a whole match by buttons, private hands.

The simulated players see what a Telegram user sees: the table's buttons (nests, slot
numbers, «🀄 Мои фишки», «⏹ Хватит»), the popup of their own hand and the toasts. A
player looks at his hand (popup), taps a slot marked ✓ and, when the toast asks for a
nest, the first nest it names.
"""

from __future__ import annotations

import random
import time

from bot.presenters.dominas import tile_text
from bot.storage import RecordStatus
from fake_telegram.server import StoredMessage
from games.dominas import GAME, State
from games.dominas.engine import slot_numbers
from games.dominas.model import POS_MARK
from games.dominas.tiles import ALL_TILES, BONUS_SUM, KOLOBOK
from tests.bot.dominas_play import NEST, SLOT, dominas_state, nest_button, open_table
from tests.bot.e2e import changed, data_of, in_group, mover, record


def plain_tile(s: State) -> str:
    """The button of a tile of the player to move that starts no bonus (numbers are dealt
    at random: «1» may be the Колобок), so that his turn ends when he places it."""
    seat = s.current
    hand = s.hands[seat]
    return str(
        next(
            k
            for k, x in zip(slot_numbers(s, seat), hand, strict=True)
            if x not in (KOLOBOK, *BONUS_SUM)
        )
    )


def assert_public(table: StoredMessage) -> None:
    """No tile id on any button (the keyboard reveals no hand)."""
    for text in table.button_texts:
        assert not any(tile in text for tile in ALL_TILES), text


async def test_a_whole_dominas_match_by_buttons(backend: str | None) -> None:
    rng = random.Random(5)
    async with in_group(1701, ["Аня", "Борис"], backend) as (tg, app, chat, users):
        anna, boris = users
        table = await open_table(tg, chat, anna, [boris], "1 партия")
        assert "🀄 Мои фишки" in table.button_texts
        started = time.monotonic()
        taps = peeks = 0
        for _ in range(600):
            await tg.settle(quiet=0.02)
            if (await record(app, chat)).status != RecordStatus.PLAYING:
                break
            assert_public(table)
            user = mover(table, users)
            assert user is not None, table.content
            if "⏹ Хватит" in table.button_texts and rng.random() < 0.3:
                before = data_of(table)
                answer = await chat.press(user, table, "⏹ Хватит")
                assert not answer.show_alert, answer
                taps += 1
                await chat.wait_for(changed(table, before), 30)
                continue
            popup = await chat.press(user, table, "🀄 Мои фишки")
            peeks += 1
            assert popup.show_alert and popup.text and len(popup.text) <= 200, popup
            slots = SLOT.findall(popup.text)
            assert slots, popup.text  # the bot waits only for a player who can place
            before = data_of(table)
            answer = await chat.press(user, table, rng.choice(slots))
            assert not answer.show_alert, answer
            taps += 1
            if answer.text and "нажмите гнездо" in answer.text:
                nests = NEST.findall(answer.text.split(":", 1)[1])
                label = nest_button(table, rng.choice(nests))
                answer = await chat.press(user, table, label)
                assert not answer.show_alert, answer
                taps += 1
            assert answer.text and answer.text.startswith("✅"), answer
            await chat.wait_for(changed(table, before), 30)
        else:
            raise AssertionError("the match did not end")
        final = await chat.wait_message(lambda m: "Матч окончен" in m.content, after=table)
        assert "Партия 1 окончена" in final.content and "1. " in final.content
        s = await dominas_state(app, chat)
        assert GAME.is_over(s)
        placed = len(s.figure)
        elapsed = time.monotonic() - started
        print(
            f"dominas: {placed} tiles placed, {taps} taps on the table "
            f"({taps / max(1, placed):.2f}/tile) + {peeks} looks at the hand, {elapsed:.1f}s"
        )
        assert taps <= 2 * placed


async def test_out_of_turn_and_unfitting_presses_are_refused_privately() -> None:
    async with in_group(1711, ["Аня", "Борис"]) as (tg, app, chat, users):
        anna, boris = users
        table = await open_table(tg, chat, anna, [boris], "2 партии")
        user = mover(table, users)
        assert user is not None
        other = boris if user is anna else anna
        rec = await record(app, chat)
        answer = await chat.press(other, table, "1")
        assert answer.text == f"Сейчас ходит {user.full_name}, не вы.", answer
        after = await record(app, chat)
        assert after.state == rec.state and after.seq == rec.seq
        # his own popup: the other player's hand stays his
        popup = await chat.press(other, table, "🀄 Мои фишки")
        s = await dominas_state(app, chat)
        seat = s.players.index(other.id)
        assert popup.show_alert and popup.text
        assert all(tile_text(tile) in popup.text for tile in s.hands[seat][:5])
        # the first tile goes anywhere; then a slot that fits nowhere is refused
        before_data = data_of(table)
        answer = await chat.press(user, table, plain_tile(await dominas_state(app, chat)))
        assert answer.text and answer.text.startswith("✅"), answer
        await chat.wait_for(lambda: data_of(table) != before_data, 30)
        s = await dominas_state(app, chat)
        nxt = GAME.to_act(s)
        mover_user = next(u for u in users if u.id == nxt)
        hand = s.hands[s.players.index(mover_user.id)]
        legal = {a.tile for a in GAME.legal_actions(s) if a.tile}
        numbers = slot_numbers(s, s.players.index(mover_user.id))
        bad = next((k for k, x in zip(numbers, hand, strict=True) if x not in legal), None)
        if bad is not None:
            before = await record(app, chat)
            answer = await chat.press(mover_user, table, str(bad))
            assert answer.show_alert and "не подходит" in (answer.text or ""), answer
            assert (await record(app, chat)).state == before.state


async def test_an_absent_player_gets_a_penalty_tile_and_the_turn_passes() -> None:
    async with in_group(1721, ["Аня", "Борис"], turn_seconds=2.0, timer_poll_seconds=0.1) as group:
        tg, app, chat, users = group
        anna, boris = users
        table = await open_table(tg, chat, anna, [boris], "1 партия")
        user = mover(table, users)
        assert user is not None
        # the first tile, so that the bazaar penalty applies to a real decision
        before = data_of(table)
        assert (await chat.press(user, table, plain_tile(await dominas_state(app, chat)))).text
        await chat.wait_for(lambda: data_of(table) != before, 30)
        s = await dominas_state(app, chat)
        late = s.players[s.current]
        hand, bazaar = len(s.hands[s.current]), len(s.bazaar)
        await chat.wait_for(lambda: "время вышло" in table.content, 10)
        s2 = await dominas_state(app, chat)
        seat = s2.players.index(late)
        assert len(s2.hands[seat]) == hand + 1 and len(s2.bazaar) == bazaar - 1
        assert "штрафную" in table.content
        assert s2.players[s2.current] != late or GAME.is_over(s2)


def _states() -> list[State]:
    rng = random.Random(7)
    out: list[State] = []
    for n, options in ((2, None), (3, None), (4, {"mode": "teams"})):
        s = GAME.new(list(range(1, n + 1)), seed=n, options=options)
        for _ in range(400):
            if GAME.is_over(s):
                break
            out.append(s)
            actions = [a for a in GAME.legal_actions(s) if a.type.value != "T"]
            s, _ = GAME.apply(s, rng.choice(actions))
        out.append(s)
    return out


def test_keyboard_and_caption_are_public_and_compact() -> None:
    from bot.callbacks import PlayCB, fits
    from bot.presenters.dominas import DominasPresenter
    from locales import get_translator

    t = get_translator("ru")
    p = DominasPresenter()
    names = {1: "Аня", 2: "Борис", 3: "Вика", 4: "Гоша"}
    rng = random.Random(1)
    for s in _states()[::3]:
        c = p.context(t, {}, names, ["x" * 80] * 3)
        kb = p.keyboard(s, c)
        cap = p.caption(s, c)
        assert len(cap) <= 1024
        for row in kb:
            assert len(row) <= 8
            for b in row:
                assert fits(PlayCB(g="abcdef", s=999999, c=b.code).pack()) and len(b.code) <= 24
                p.parse(b.code)  # a code of the game's language (else Unknown)
        other = s.model_copy(deep=True)  # the same sizes, other hidden tiles
        pool = [x for h in other.hands for x in h] + list(other.bazaar)
        rng.shuffle(pool)
        i = 0
        for seat, hand in enumerate(s.hands):
            other.hands[seat] = pool[i : i + len(hand)]
            i += len(hand)
            # the same tiles of his hand got the same numbers
            swap = dict(zip(hand, other.hands[seat], strict=True))
            other.entered[seat] = [swap.get(x, x) for x in s.entered[seat]]
        other.bazaar = pool[i:]
        assert p.keyboard(other, c) == kb
        assert p.caption(other, c) == cap
        assert p.picture_key(other) == p.picture_key(s)
        for user in s.players:
            assert len(p.hand_popup(s, user, t)) <= 200


def test_the_table_state_reads_an_older_record_and_old_buttons_are_outdated() -> None:
    """The older bot kept `{"sel": {"k", "v"}, "page": {"n", "v"}}` in the record's `ui`:
    read as the same number chosen and page; junk is nothing chosen. A button of the older
    bot («h7», «nT0», «q7.T0», «pg1», «s») is no code now: the service says it is outdated."""
    import pytest

    from bot.presenters.base import Page, ToPage
    from bot.presenters.buttons import Unknown
    from bot.presenters.dominas import DominasPresenter
    from bot.presenters.dominas.common import AtNest, Number, Put, Sel, Ui
    from games.dominas import Action, ActionType, Pos

    p = DominasPresenter()
    old = {"sel": {"k": 7, "v": 12}, "page": {"n": 1, "v": 12}}
    ui = p.load_ui(old)
    assert ui == Ui(sel=Sel(k=7, v=12), page=Page(n=1, v=12))
    assert p.dump_ui(ui) == old and p.dump_ui(Ui()) == {}
    assert p.load_ui({"sel": "7"}) == Ui()
    for code in ("h7", "nT0", "q7.T0", "pg1", "s"):
        with pytest.raises(Unknown):
            p.parse(code)
    assert p.parse("h.7") == Number(7) and p.parse("pg.1") == ToPage(1)
    assert p.parse("n.T.1") == AtNest(Pos.TOP, 1) and p.parse("q.7.T.0") == Put(7, Pos.TOP, 0)
    assert p.parse("S") == Action(type=ActionType.STOP)


def test_teams_need_four_six_or_eight_players() -> None:
    from bot.presenters.dominas import DominasPresenter

    p = DominasPresenter()
    solo = p.new_state([1, 2, 3], 1, {"mode": "teams", "match_games": 1})
    teams = p.new_state([1, 2, 3, 4], 1, {"mode": "teams", "match_games": 1})
    assert isinstance(solo, State) and isinstance(teams, State)
    assert solo.options.mode.value == "solo" and solo.side_of == [0, 1, 2]
    assert teams.options.mode.value == "teams" and teams.side_of == [0, 1, 0, 1]


def test_two_step_placement_and_a_nest_first() -> None:
    from bot.presenters.base import Refusal
    from bot.presenters.dominas import DominasPresenter
    from bot.presenters.dominas.common import Ui
    from locales import get_translator

    t = get_translator("ru")
    p = DominasPresenter()
    fresh = p.context(t, {})
    for seed in range(50):
        s = GAME.new([1, 2], seed=seed)
        s, _ = GAME.apply(s, GAME.legal_actions(s)[0])  # the first tile: three corners open
        hand = s.hands[s.current]
        user = s.players[s.current]
        legal = [a for a in GAME.legal_actions(s) if a.tile]
        twice = [x for x in hand if sum(a.tile == x for a in legal) >= 2]
        if twice:
            break
    else:
        raise AssertionError("no tile with two places")
    numbers = slot_numbers(s, s.current)
    k = numbers[hand.index(twice[0])]
    o = p.press(s, user, p.parse(f"h.{k}"), fresh)
    assert o.state is s and o.toast and "нажмите гнездо" in o.toast
    assert isinstance(o.ui, Ui) and not o.visible
    chosen = fresh.but(ui=o.ui)
    assert f"[{k}]" in [b.text for row in p.keyboard(s, chosen) for b in row]
    target = next(a for a in legal if a.tile == twice[0])
    assert target.nest is not None
    done = p.press(s, user, p.parse(f"n.{target.nest.value}.0"), chosen)
    assert isinstance(done.state, State) and done.state.figure[-1].tile == twice[0]
    assert done.toast and done.toast.startswith("✅") and done.ui == Ui()
    # a nest pressed first: one fitting tile is placed; where several fit, the nest waits
    # for its tile (issue 31): the toast names them, his hand is asked for, and a number
    # pressed then (the fallback's table) goes into that nest
    several = 0
    for pos in {a.nest for a in legal if a.nest is not None}:
        here = {a.tile for a in legal if a.nest is pos and a.variant == 0 and a.tile}
        o = p.press(s, user, p.parse(f"n.{pos.value}.0"), fresh)
        if len(here) == 1:
            assert isinstance(o.state, State) and o.state.figure[-1].tile in here
            continue
        several += 1
        assert o.state is s and o.hand and not o.visible and isinstance(o.ui, Ui)
        assert o.toast and len(o.toast) <= 120 and "номер" not in o.toast, o.toast
        waiting = fresh.but(ui=o.ui)
        assert f"[{POS_MARK[pos]} " in str(p.keyboard(s, waiting))
        assert "Выбрано гнездо" in p.caption(s, waiting)
        tile = sorted(here)[0]
        done = p.press(s, user, p.parse(f"h.{numbers[hand.index(tile)]}"), waiting)
        assert isinstance(done.state, State) and done.ui == Ui()
        assert (done.state.figure[-1].tile, done.state.figure[-1].pos) == (tile, pos)
    assert several
    # the other player's presses never reach the presenter (the service refuses them),
    # and a slot beyond the hand is an outdated button
    try:
        p.press(s, user, p.parse(f"h.{max(numbers) + 1}"), fresh)
    except Refusal as r:
        assert "устарела" in r.text
    else:
        raise AssertionError("a slot beyond the hand must be refused")


def test_a_dealt_hand_is_shown_whole_one_tile_a_line() -> None:
    """Issue 18: any dealt hand of 10 fits the popup with every tile's colour, number and
    symbols, one per line (the longest: two-digit numbers, named tiles, ✓ on each)."""
    from bot.presenters.dominas import DominasPresenter, utf16_len
    from locales import get_translator

    p = DominasPresenter()
    for lang in ("ru", "en"):
        t = get_translator(lang)
        for seed in range(150):
            s = GAME.new([1, 2, 3], seed=seed)
            for seat, user in enumerate(s.players):
                text = p.hand_popup(s, user, t)
                assert utf16_len(text) <= 200, text
                lines = text.splitlines()[1:]
                assert len(lines) == 10
                assert {line.split()[1] + " " + line.split()[2] for line in lines} == {
                    tile_text(x) for x in s.hands[seat]
                }, text
