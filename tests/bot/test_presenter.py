"""The Семидорожник presenter: public keyboard, compound buttons, callback sizes, text."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from bot.callbacks import PlayCB, fits
from bot.presenters.base import HAND, Outcome, Refusal, TableCtx
from bot.presenters.seven_tracks import SevenTracksPresenter
from bot.presenters.seven_tracks.codes import Ui
from bot.storage import GameRecord, schema
from games import IllegalAction
from games.seven_tracks import GAME, Phase, State
from locales import get_translator

T = get_translator("ru")
NAMES = {1: "Аня", 2: "Борис", 3: "Вика"}
P = SevenTracksPresenter()


def ctx(ui: Ui | None = None, log: Sequence[str] = ()) -> TableCtx[Ui]:
    return TableCtx(t=T, ui=ui or Ui(), names=NAMES, log=log)


def press(s: State, user: int, code: str, ui: Ui | None = None) -> Outcome[State, Ui]:
    """A press of the button with `code`, as the service makes it (`parse`, then `press`)."""
    return P.press(s, user, P.parse(code), ctx(ui))


def advance(s: State, ui: Ui | None = None) -> tuple[State, Ui]:
    """The bot's formalities after a move (the window stays open)."""
    adv = P.advance(s, ctx(ui))
    return adv.state, adv.ui or ui or Ui()


def settled(s: State, ui: Ui | None = None) -> tuple[State, Ui]:
    """`advance`, and a first-move window run out (its timer: silence is a pass)."""
    s, ui = advance(s, ui)
    while P.game.is_simultaneous(s):
        s, _ = P.game.timeout_turn(s)
        s, ui = advance(s, ui)
    return s, ui


def random_states(n_games: int = 4, seed: int = 0) -> list[tuple[State, Ui]]:
    """States met while playing random buttons (with the menus they open)."""
    out: list[tuple[State, Ui]] = []
    rng = random.Random(seed)
    for g in range(n_games):
        s, ui = settled(P.new_state([1, 2, 3], seed * 100 + g, {"single_round": True}))
        for _ in range(400):
            if GAME.is_over(s):
                break
            out.append((s, ui))
            kb = P.keyboard(s, ctx(ui))
            codes = [b.code for row in kb for b in row if b.code != HAND]
            actor = P.actor(s) or rng.choice([1, 2, 3])
            code = rng.choice(codes)
            try:
                o = press(s, actor, code, ui)
            except (Refusal, IllegalAction):
                continue
            s, ui = settled(o.state, o.ui or ui)
    return out


STATES = random_states()


def test_the_group_keyboard_and_caption_do_not_depend_on_hands() -> None:
    p = P
    rng = random.Random(1)
    for s, ui in STATES[::5]:
        kb = p.keyboard(s, ctx(ui))
        cap = p.caption(s, ctx(ui))
        # swap the hidden parts: every hand and the bank, keeping their sizes
        hidden = [t for h in s.hands for t in h] + list(s.bank)
        rng.shuffle(hidden)
        other = s.model_copy(deep=True)
        i = 0
        for seat, hand in enumerate(s.hands):
            other.hands[seat] = hidden[i : i + len(hand)]
            i += len(hand)
        other.bank = hidden[i:]
        assert p.keyboard(other, ctx(ui)) == kb
        assert p.caption(other, ctx(ui)) == cap
        assert p.picture_key(other) == p.picture_key(s)


def test_every_callback_fits_64_bytes_and_codes_have_no_separator() -> None:
    p = P
    for s, ui in STATES:
        for row in p.keyboard(s, ctx(ui)):
            for b in row:
                assert ":" not in b.code
                assert fits(PlayCB(g="abcdef", s=999999, c=b.code).pack())
                p.parse(b.code)  # the one button language: an action or a compound code
        assert len(p.caption(s, ctx(ui, ["x" * 60] * 3))) <= 1024


def test_a_typical_turn_is_three_taps() -> None:
    p = P
    s, ui = settled(p.new_state([1, 2], 5, {"single_round": True}))
    assert s.phase == Phase.PRE_MOVE
    who = GAME.to_act(s)
    assert who is not None
    turn = s.turn_no
    taps = 0
    for label in ("st.btn.two_dice", "st.btn.place_all", "st.btn.end_turn"):
        (code,) = [b.code for row in p.keyboard(s, ctx(ui)) for b in row if b.text == T(label)]
        try:
            o = press(s, who, code, ui)
        except Refusal:
            # nothing to place after drawing: the turn still ends with «Закончить ход»
            continue
        s, ui = advance(o.state, o.ui or ui)
        taps += 1
    assert s.turn_no == turn + 1 or GAME.is_over(s)
    assert taps <= 3


def test_hand_popup_is_private_and_short() -> None:
    p = P
    for s, _ui in STATES[::7]:
        for user in (1, 2, 3):
            text = p.hand_popup(s, user, T)
            assert len(text) <= 200
            hand = s.hands[s.players.index(user)]
            assert f"({len(hand)})" in text


def test_round_summary_and_final_standings_in_russian() -> None:
    p = P
    rng = random.Random(3)
    s = p.new_state([1, 2, 3], 11, {"single_round": True})
    adv = p.advance(s, ctx())
    events = list(adv.events)
    s, ev = p.game.timeout_turn(adv.state)  # the window ran out
    events.extend(ev)
    for _ in range(5000):
        if GAME.is_over(s):
            break
        actions = GAME.legal_actions(s)
        s, ev = GAME.apply(s, rng.choice(actions))
        events.extend(ev)
    texts = p.summaries(events, s, ctx())
    assert len(texts) == 2
    assert "Кон 1 окончен" in texts[0] and "Счёт" in texts[0]
    assert "Игра окончена" in texts[1] and "1. " in texts[1]
    lines = p.narrate(events, s, ctx())
    assert any("бросает" in line for line in lines)
    assert not any("{" in line for line in lines)


def _holders(s: State) -> list[int]:
    from games.seven_tracks.model import TileKind, kind_of

    return [
        seat
        for seat, hand in enumerate(s.hands)
        if {kind_of(x) for x in hand} & {TileKind.FIRST_MOVE, TileKind.UNIVERSAL}
    ]


def _window_with_holder() -> State:
    p = P
    for seed in range(200):
        s = p.new_state([1, 2, 3], seed, {"single_round": True})
        assert isinstance(s, State)
        if _holders(s):
            return s
    raise AssertionError("no deal with an FM or U")


def test_first_move_window_waits_only_for_holders_and_silence_is_a_pass() -> None:
    p = P
    s = _window_with_holder()
    adv = p.advance(s, ctx())
    st = adv.state
    # non-holders before the first holder were passed at once; the window waits for him
    assert st.phase == Phase.FIRST_MOVE and p.game.is_simultaneous(st)
    assert st.current in _holders(s)
    assert {e.seat for e in adv.events if e.type == "fm_passed"}.isdisjoint(_holders(s))
    # its own timer (the service's window): a decision of its own, open to all
    assert (p.game.turn_key(st) or "").startswith("w") and p.actor(st) is None
    # the keyboard is the same for everyone and says nothing about who holds what
    assert [b.code for row in p.keyboard(st, ctx()) for b in row] == ["fmd", "fmp", HAND]
    later, _ = p.game.timeout_turn(st)  # the window ran out
    assert later.phase != Phase.FIRST_MOVE


def test_first_move_claim_makes_the_holder_move_first() -> None:
    p = P
    s = _window_with_holder()
    st, ui = advance(s)
    holder = st.players[st.current]
    o = press(st, holder, "fmd", ui)
    assert o.toast is not None
    assert o.toast.startswith("Заявка принята") and not o.visible
    events = list(o.events)  # applied at once, with his seat (R58, revised 2026-12)
    others = [u for u in st.players if u != holder]
    for u in others:
        try:
            o = press(o.state, u, "fmp", ui)
            events += o.events
        except Refusal:
            pass
    done = p.advance(o.state, ctx(ui))
    final = done.state
    assert final.phase == Phase.PRE_MOVE
    lines = p.narrate([*events, *done.events], final, ctx())
    assert any("право первого хода" in line for line in lines)


def test_declaring_without_the_tile_is_refused_privately() -> None:
    p = P
    for seed in range(200):
        s = p.new_state([1, 2, 3], seed, {"single_round": True})
        assert isinstance(s, State)
        lacking = [u for seat, u in enumerate(s.players) if seat not in _holders(s)]
        if lacking:
            break
    st, ui = advance(s)
    if st.phase != Phase.FIRST_MOVE:
        return
    try:
        press(st, lacking[0], "fmd", ui)
    except Refusal as r:
        assert "нет ни" in r.text
    else:
        raise AssertionError("a claim without FM or U must be refused")


def test_the_first_move_window_does_not_show_whose_decision_is_pending() -> None:
    p = P
    s = _window_with_holder()
    st, ui = advance(s)
    assert st.phase == Phase.FIRST_MOVE
    others = [seat for seat in range(len(st.players)) if seat != st.current]
    moved = st.model_copy(update={"current": others[0]})
    assert p.caption(st, ctx(ui)) == p.caption(moved, ctx(ui))
    assert "▶" not in p.caption(st, ctx(ui))
    assert p.picture_key(st) == p.picture_key(moved)
    assert not p.seq_changes(st, moved)  # no edit of the table while the window runs


def test_holders_answer_in_any_order_and_an_answer_is_final() -> None:
    """R58 (revised 2026-12): the window is the engine's simultaneous decision: a later
    seat may answer first, and a second press of the same player is refused."""
    p = P
    for seed in range(400):
        s = p.new_state([1, 2, 3], seed, {"single_round": True})
        assert isinstance(s, State)
        if len(_holders(s)) >= 2:
            break
    else:
        raise AssertionError("no deal with two holders")
    st, ui = advance(s)
    assert st.phase == Phase.FIRST_MOVE
    first, last = st.players[min(_holders(s))], st.players[max(_holders(s))]
    o = press(st, last, "fmp", ui)
    assert o.toast == "Принято: не используете." and not o.visible
    assert last not in p.game.deciders(o.state)
    assert first in p.game.deciders(o.state)
    try:
        press(o.state, last, "fmd", ui)
    except Refusal as r:
        assert "уже ответили" in r.text
    else:
        raise AssertionError("a second answer must be refused")


def test_a_window_stored_before_2026_12_keeps_its_pending_answers() -> None:
    """The ui of a window stored by the previous bot held answers not yet applied
    (`choices`): the record's format 2 applies them with their seats, and drops them;
    the window they close leaves no window timer behind (bot/storage/schema.py)."""
    p = P
    s = _window_with_holder()
    st, _ = advance(s)
    assert st.phase == Phase.FIRST_MOVE
    pending = list(p.game.deciders(st))
    window = {"round": [1, 1, 0], "deadline": 20.0, "choices": {str(u): "P" for u in pending}}
    rec = GameRecord(
        chat_id=-1, uid="a1", game_id="seven_tracks", creator=1, players=[1, 2, 3]
    ).model_dump(mode="json")
    rec |= {"schema_version": 1, "state": st.model_dump_json(), "ui": {"fm": window}}
    rec.pop("window")
    new = schema.load(json.dumps(rec))
    assert new.state is not None and new.ui == {}
    later = State.model_validate_json(new.state)
    assert later.phase != Phase.FIRST_MOVE
    assert later.fm_decided == [*st.fm_decided, *(st.players.index(u) for u in pending)]
    assert not new.window and new.turn_id is None and new.turn_deadline is None


def test_every_fact_is_told_or_deliberately_silent() -> None:
    """Each kind of event of games/seven_tracks/events.py, as the narration tells it (its
    match arms name the fact classes: a wrong pattern would fall silent)."""
    from games import Event, Fact
    from games.automation import Forced
    from games.seven_tracks import events as ev
    from games.seven_tracks.model import RoundSummary, TileKind

    s = GAME.new([1, 2, 3], seed=1)
    empty: dict[int, int] = {}
    summary = RoundSummary(
        round=1,
        cycle=1,
        first_out=None,
        out_order=[],
        hands={},
        hand_values=empty,
        scores_before=empty,
        scores_after=empty,
        eliminated=[],
        stalled=True,
    )
    use = ev.PriorityUse
    told: list[tuple[Fact, str]] = [
        (ev.Rolled(dice=[3, 3], tracks=[3], double=True), "Аня бросает: [3] [3] — дубль!"),
        (ev.DiceOff(rolls={0: 7, 2: 9}), "Розыгрыш первого хода: Аня 7, Вика 9"),
        (ev.FmDeclared(tile=TileKind.FIRST_MOVE), "Аня заявляет право первого хода 🥇"),
        (ev.FirstMove(tile=TileKind.UNIVERSAL), "Первым ходит Аня"),
        (ev.Placed(tile=TileKind.RED, track=1, slot=1), "Аня: 🟥 на 1-ю дорожку"),
        (ev.PlacedT7(tile=TileKind.BLUE), "Аня: 🟦 в центр"),
        (ev.Drew(draws=1), "Аня берёт из кассы 1 фишку"),
        (ev.TrackCompleted(track=2), "🎉 Аня завершает 2-ю дорожку!"),
        (ev.T7Completed(), "🎉 Аня собирает все семь цветов в центре!"),
        (ev.Blocked(tile=TileKind.BLACK, track=4), "Аня ставит блок ⬛ на 4-ю дорожку"),
        (ev.Unblocked(tile=TileKind.WHITE, track=4), "Аня снимает блок с 4-й дорожки ⬜"),
        (
            ev.Reclaimed(tile=TileKind.WHITE, track=5, slot=2),
            "Аня забирает белую с 5-й дорожки (клетка 2)",
        ),
        (ev.BonusTaken(tile=TileKind.UNIVERSAL), "Аня берёт ✨ из бонусной кассы"),
        (ev.BlackDiscarded(), "Аня сбрасывает чёрную фишку"),
        (ev.FmDiscarded(), "Из кассы пришло «Право первого хода» — оно сброшено"),
        (ev.FifthSwap(tile=TileKind.GREEN), "Аня меняет пятую фишку 🟩"),
        (ev.ExchangeStarted(tile=TileKind.EXCHANGE), "Аня начинает замену фишек"),
        (ev.WentOut(first=False), "Аня: все фишки выставлены"),
        (ev.FinalTurns(count=2), "Осталось 2 последних хода кона"),
        (ev.PlayerLeft(), "Аня покидает игру"),
        (ev.PlacingEnded(obligation_met=False), "Аня: выставить фишку нельзя — ход переходит"),
        (ev.RoundEnded(summary=summary), "🏁 Кон окончен"),
        (
            ev.PriorityUsed(tile="U", use=use.SHIFT, role="SK", track_from=2, track_to=3),
            "Аня смещает дорожку 2→3 ✨",
        ),
        (ev.PriorityUsed(tile="EX", use=use.EXCHANGE, size=2), "Аня меняет 2 фишки 🔀"),
        (ev.PriorityUsed(tile="U", use=use.CANCEL), "Аня отменяет ограничение хода ✨"),
        (
            ev.PriorityUsed(tile="OP", use=use.AFTER, role="OP", target=2),
            "Аня после хода: 🔄 Напротив 🔄 → Вика",
        ),
        (
            Forced(action="EP"),
            "Аня: выставить нечего, взять из кассы нельзя — ход закончен автоматически",
        ),
    ]
    silent: list[Fact] = [
        ev.CycleStarted(cycle=1),
        ev.RoundStarted(round=1, cycle=1, active=[0, 1, 2]),
        ev.FmPassed(),
        ev.TurnStarted(turn=1, restricted=False, final=False),
        ev.TurnEnded(),
        ev.GameOver(winners=[0]),
        ev.DiceChosen(n=2),
        ev.PlacingEnded(obligation_met=True),
        Forced(action="ET"),
    ]
    for fact, line in told:
        assert P.narrate([Event.of(fact, seat=0)], s, ctx()) == [line], fact
    for fact in silent:
        assert P.narrate([Event.of(fact, seat=0)], s, ctx()) == [], fact
    drew = Event.of(ev.DrewTile(tile_id="W#03"), seat=1, private_to=1)
    assert P.narrate([drew], s, ctx()) == []
    assert P.private_notes([drew], s, 2, T) == ["Вы взяли: ⬜"]
    assert P.private_notes([drew], s, 1, T) == []
