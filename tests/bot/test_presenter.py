"""The Семидорожник presenter: public keyboard, compound buttons, callback sizes, text."""

from __future__ import annotations

import random

from bot.callbacks import PlayCB, fits
from bot.presenters.base import Refusal
from bot.presenters.seven_tracks import SevenTracksPresenter
from games import IllegalAction
from games.seven_tracks import GAME, Phase, State
from locales import get_translator

T = get_translator("ru")
NAMES = {1: "Аня", 2: "Борис", 3: "Вика"}


def random_states(n_games: int = 4, seed: int = 0) -> list[tuple[State, dict[str, object]]]:
    """States met while playing random buttons (with the menus they open)."""
    p = SevenTracksPresenter(first_move_seconds=0)
    out: list[tuple[State, dict[str, object]]] = []
    rng = random.Random(seed)
    for g in range(n_games):
        s = p.new_state([1, 2, 3], seed * 100 + g, {"single_round": True})
        adv = p.advance(s, {}, 0.0)
        s, ui = adv.state, adv.ui
        assert isinstance(s, State)
        for _ in range(400):
            if GAME.is_over(s):
                break
            out.append((s, dict(ui)))
            kb = p.keyboard(s, ui, NAMES, T)
            codes = [b.code for row in kb for b in row if b.code != "hand"]
            actor = p.actor(s) or rng.choice([1, 2, 3])
            code = rng.choice(codes)
            try:
                o = p.press(s, actor, code, ui, T, 100.0)
            except (Refusal, IllegalAction):
                continue
            adv = p.advance(o.state, o.ui, 100.0)
            s, ui = adv.state, adv.ui
            assert isinstance(s, State)
    return out


STATES = random_states()


def test_the_group_keyboard_and_caption_do_not_depend_on_hands() -> None:
    p = SevenTracksPresenter()
    rng = random.Random(1)
    for s, ui in STATES[::5]:
        kb = p.keyboard(s, ui, NAMES, T)
        cap = p.caption(s, NAMES, ui, [], T)
        # swap the hidden parts: every hand and the bank, keeping their sizes
        hidden = [t for h in s.hands for t in h] + list(s.bank)
        rng.shuffle(hidden)
        other = s.model_copy(deep=True)
        i = 0
        for seat, hand in enumerate(s.hands):
            other.hands[seat] = hidden[i : i + len(hand)]
            i += len(hand)
        other.bank = hidden[i:]
        assert p.keyboard(other, ui, NAMES, T) == kb
        assert p.caption(other, NAMES, ui, [], T) == cap
        assert p.picture_key(other) == p.picture_key(s)


def test_every_callback_fits_64_bytes_and_codes_have_no_separator() -> None:
    p = SevenTracksPresenter()
    for s, ui in STATES:
        for row in p.keyboard(s, ui, NAMES, T):
            for b in row:
                assert ":" not in b.code
                assert fits(PlayCB(g="abcdef", s=999999, c=b.code).pack())
        assert len(p.caption(s, NAMES, ui, ["x" * 60] * 3, T)) <= 1024


def test_a_typical_turn_is_three_taps() -> None:
    p = SevenTracksPresenter(first_move_seconds=0)
    s = p.new_state([1, 2], 5, {"single_round": True})
    adv = p.advance(s, {}, 0.0)
    s = adv.state
    assert isinstance(s, State)
    assert s.phase == Phase.PRE_MOVE
    who = GAME.to_act(s)
    assert who is not None
    turn = s.turn_no
    taps = 0
    for code in ("cd2", "all", "end"):
        try:
            o = p.press(s, who, code, {}, T, 0.0)
        except Refusal:
            # nothing to place after drawing: the turn still ends with «Закончить ход»
            continue
        s = o.state
        assert isinstance(s, State)
        taps += 1
    assert s.turn_no == turn + 1 or GAME.is_over(s)
    assert taps <= 3


def test_hand_popup_is_private_and_short() -> None:
    p = SevenTracksPresenter()
    for s, _ui in STATES[::7]:
        for user in (1, 2, 3):
            text = p.hand_popup(s, user, T)
            assert len(text) <= 200
            hand = s.hands[s.players.index(user)]
            assert f"({len(hand)})" in text


def test_round_summary_and_final_standings_in_russian() -> None:
    p = SevenTracksPresenter(first_move_seconds=0)
    rng = random.Random(3)
    s = p.new_state([1, 2, 3], 11, {"single_round": True})
    events = list(p.advance(s, {}, 0.0).events)
    s = p.advance(s, {}, 0.0).state
    assert isinstance(s, State)
    for _ in range(5000):
        if GAME.is_over(s):
            break
        actions = GAME.legal_actions(s)
        s, ev = GAME.apply(s, rng.choice(actions))
        events.extend(ev)
    texts = p.summaries(events, s, NAMES, T)
    assert len(texts) == 2
    assert "Кон 1 окончен" in texts[0] and "Счёт" in texts[0]
    assert "Игра окончена" in texts[1] and "1. " in texts[1]
    lines = p.narrate(events, s, NAMES, T)
    assert any("бросает" in line for line in lines)
    assert not any("{" in line for line in lines)


def _holders(s: State) -> list[int]:
    from games.seven_tracks.model import FIRST_MOVE, UNIVERSAL, kind_of

    return [
        seat
        for seat, hand in enumerate(s.hands)
        if {kind_of(x) for x in hand} & {FIRST_MOVE, UNIVERSAL}
    ]


def _window_with_holder() -> State:
    p = SevenTracksPresenter()
    for seed in range(200):
        s = p.new_state([1, 2, 3], seed, {"single_round": True})
        assert isinstance(s, State)
        if _holders(s):
            return s
    raise AssertionError("no deal with an FM or U")


def test_first_move_window_waits_only_for_holders_and_silence_is_a_pass() -> None:
    p = SevenTracksPresenter(first_move_seconds=20)
    s = _window_with_holder()
    adv = p.advance(s, {}, 1000.0)
    st = adv.state
    assert isinstance(st, State)
    # non-holders before the first holder were passed at once; the window waits for him
    assert st.phase == Phase.FIRST_MOVE
    assert st.current in _holders(s)
    assert adv.deadline == 1020.0
    # the keyboard is the same for everyone and says nothing about who holds what
    assert [b.code for row in p.keyboard(st, adv.ui, NAMES, T) for b in row] == [
        "fmd",
        "fmp",
        "hand",
    ]
    later = p.advance(st, adv.ui, 1021.0)
    assert isinstance(later.state, State)
    assert later.state.phase != Phase.FIRST_MOVE


def test_first_move_claim_makes_the_holder_move_first() -> None:
    p = SevenTracksPresenter(first_move_seconds=20)
    s = _window_with_holder()
    adv = p.advance(s, {}, 0.0)
    st = adv.state
    assert isinstance(st, State)
    holder = st.players[st.current]
    o = p.press(st, holder, "fmd", adv.ui, T, 1.0)
    assert o.toast is not None
    assert o.toast.startswith("Заявка принята") and not o.visible
    events = list(o.events)  # applied at once, with his seat (R58, revised 2026-12)
    others = [u for u in st.players if u != holder]
    for u in others:
        try:
            o2 = p.press(o.state, u, "fmp", o.ui, T, 1.0)
            o = o2
            events += o.events
        except Refusal:
            pass
    done = p.advance(o.state, o.ui, 2.0)
    final = done.state
    assert isinstance(final, State)
    assert final.phase == Phase.PRE_MOVE
    lines = p.narrate([*events, *done.events], final, NAMES, T)
    assert any("право первого хода" in line for line in lines)


def test_declaring_without_the_tile_is_refused_privately() -> None:
    p = SevenTracksPresenter(first_move_seconds=20)
    for seed in range(200):
        s = p.new_state([1, 2, 3], seed, {"single_round": True})
        assert isinstance(s, State)
        lacking = [u for seat, u in enumerate(s.players) if seat not in _holders(s)]
        if lacking:
            break
    adv = p.advance(s, {}, 0.0)
    assert isinstance(adv.state, State)
    if adv.state.phase != Phase.FIRST_MOVE:
        return
    try:
        p.press(adv.state, lacking[0], "fmd", adv.ui, T, 1.0)
    except Refusal as r:
        assert "нет ни" in r.text
    else:
        raise AssertionError("a claim without FM or U must be refused")


def test_the_first_move_window_does_not_show_whose_decision_is_pending() -> None:
    p = SevenTracksPresenter(first_move_seconds=20)
    s = _window_with_holder()
    adv = p.advance(s, {}, 0.0)
    st = adv.state
    assert isinstance(st, State) and st.phase == Phase.FIRST_MOVE
    others = [seat for seat in range(len(st.players)) if seat != st.current]
    moved = st.model_copy(update={"current": others[0]})
    assert p.caption(st, NAMES, adv.ui, [], T) == p.caption(moved, NAMES, adv.ui, [], T)
    assert "▶" not in p.caption(st, NAMES, adv.ui, [], T)
    assert p.picture_key(st) == p.picture_key(moved)
    assert not p.seq_changes(st, moved)  # no edit of the table while the window runs


def test_holders_answer_in_any_order_and_an_answer_is_final() -> None:
    """R58 (revised 2026-12): the window is the engine's simultaneous decision: a later
    seat may answer first, and a second press of the same player is refused."""
    p = SevenTracksPresenter(first_move_seconds=20)
    for seed in range(400):
        s = p.new_state([1, 2, 3], seed, {"single_round": True})
        assert isinstance(s, State)
        if len(_holders(s)) >= 2:
            break
    else:
        raise AssertionError("no deal with two holders")
    adv = p.advance(s, {}, 0.0)
    st = adv.state
    assert isinstance(st, State) and st.phase == Phase.FIRST_MOVE
    first, last = st.players[min(_holders(s))], st.players[max(_holders(s))]
    o = p.press(st, last, "fmp", adv.ui, T, 1.0)
    assert o.toast == "Принято: не используете." and not o.visible
    assert isinstance(o.state, State) and last not in p.game.deciders(o.state)
    assert first in p.game.deciders(o.state)
    try:
        p.press(o.state, last, "fmd", o.ui, T, 1.0)
    except Refusal as r:
        assert "уже ответили" in r.text
    else:
        raise AssertionError("a second answer must be refused")


def test_a_window_stored_before_2026_12_keeps_its_pending_answers() -> None:
    """The ui of a window stored by the previous bot held answers not yet applied
    (`choices`): the new bot applies them with their seats, and drops them."""
    p = SevenTracksPresenter(first_move_seconds=20)
    s = _window_with_holder()
    adv = p.advance(s, {}, 0.0)
    st = adv.state
    assert isinstance(st, State) and st.phase == Phase.FIRST_MOVE
    pending = [u for u in p.game.deciders(st)]
    ui = {**adv.ui, "fm": {**adv.ui["fm"], "choices": {str(u): "P" for u in pending}}}
    later = p.advance(st, ui, 1.0)
    assert isinstance(later.state, State) and later.state.phase != Phase.FIRST_MOVE
    assert [e.seat for e in later.events if e.type == "fm_passed"] == [
        st.players.index(u) for u in pending
    ]
