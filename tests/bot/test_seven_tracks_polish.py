"""«Семидорожник» play polish (issue 18), below the buttons: the final board's words, the
track menu by public facts, the hint, and the universal kept out of the plain buttons."""

from __future__ import annotations

from typing import Any

from bot.presenters.base import TableCtx
from bot.presenters.seven_tracks import SevenTracksPresenter
from bot.presenters.seven_tracks.codes import After, Exchange, Ui
from games.seven_tracks import GAME, Action, ActionType, Phase, State
from games.seven_tracks.model import kind_of
from locales import get_translator
from render import seven_tracks as board
from tests.games.seven_tracks.builder import act, build, roll

T = get_translator("ru")
NAMES = {101: "Аня", 102: "Борис"}
P = SevenTracksPresenter(first_move_seconds=0)


class _Texts:
    """Stands for a picture part and keeps the text drawn on it."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def text(self, xy: Any, text: str, **kw: Any) -> int:
        self.texts.append(text)
        return 0

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **kw: 0


def _over(single_round: bool) -> State:
    s = build(options={"single_round": single_round})
    s.phase = Phase.GAME_OVER
    return s


def test_the_final_board_of_a_one_round_game_says_so() -> None:
    line, _ = board._status_line(GAME.view(_over(True), None), T)
    assert line == "Игра на один кон сыграна"
    line, _ = board._status_line(GAME.view(_over(False), None), T)
    assert line == "Игра сыграна до 144 очков"


def test_the_board_has_no_unexplained_cycle_or_discard_count() -> None:
    view = GAME.view(build(options={"target_score": 72}), None)
    view = view.model_copy(update={"cycle_no": 2, "round_no": 5, "out_count": 17})
    part = _Texts()
    board._draw_round(part, view, None, T)  # type: ignore[arg-type]
    line, _ = board._status_line(view, T)
    drawn = " ".join([*part.texts, line])
    assert "Кон 5" in drawn and "цикл" not in drawn and "сброшено" not in drawn, drawn


def _ctx(ui: dict[str, Any]) -> TableCtx[Ui]:
    """The table's state as the older bot stored it (its menus' names: "t2", "pri")."""
    return P.context(T, ui, NAMES)


def _keyboard(s: State, ui: dict[str, Any]) -> list[str]:
    return [b.text for row in P.keyboard(s, _ctx(ui)) for b in row]


def _spends(code: str) -> str | None:
    """The tile a priority button spends (its kind), None for any other button."""
    pressed = P.parse(code)
    if isinstance(pressed, After | Exchange):
        return pressed.kind
    if isinstance(pressed, Action) and pressed.type == ActionType.SHIFT:
        return pressed.kind
    return None


def test_the_track_menu_hides_what_the_public_facts_rule_out() -> None:
    s = roll(build(hands={0: ["O", "Y", "K"]}), 2, 5)  # two dice: one tile per track
    s = act(s, ActionType.PLACE, kind="O", track=2)
    texts = _keyboard(s, {"menu": "t2"})
    assert not any(x.startswith(("Цветную", "⬜ Белую", "✨ Универсальную")) for x in texts), texts
    assert "⬛ Блок" in texts
    # a block placed this turn cannot be lifted by its owner (R35): no unblock buttons
    s = act(s, ActionType.BLOCK, kind="K", track=2)
    texts = _keyboard(s, {"menu": "t2"})
    assert not any("Снять блок" in x for x in texts), texts
    assert "На 2-ю дорожку сейчас ничего не поставить" in texts


def test_the_hint_names_a_priority_tile_when_nothing_fits() -> None:
    s = roll(build(hands={0: ["R", "K", "OP"]}), 3)
    popup = P.hand_popup(s, 101, T)
    assert "🔄" in popup and "Приоритет" in popup, popup


def test_plain_priority_buttons_never_spend_the_universal() -> None:
    """Every plain priority button (no «✨») refuses when only the universal would do."""
    from bot.presenters.base import Refusal

    # the universal fits nowhere (each track ends with a white), so it could only be
    # spent as a priority tile: a shift, a waive, an exchange
    tracks = {2: ["O", "W"], 5: ["C", "W"]}
    s = roll(build(hands={0: ["U", "R", "R"]}, n=3, tracks=tracks), 2, 5)
    codes = [b.code for row in P.keyboard(s, _ctx({"menu": "pri"})) for b in row]
    spendable = [c for c in codes if _spends(c) is not None]
    assert {type(P.parse(c)) for c in spendable} == {Action, After, Exchange}
    assert "U" not in {_spends(c) for c in spendable}
    for code in spendable:
        try:
            out = P.press(s, 101, P.parse(code), _ctx({"menu": "pri"}))
        except Refusal as r:
            assert "✨ Универсальной…" in r.text, (code, r.text)
        else:
            raise AssertionError(f"{code} spent something: {out.events}")
    codes = [b.code for row in P.keyboard(s, _ctx({"menu": "priu"})) for b in row]
    universal = [c for c in codes if _spends(c) == "U"]
    assert {type(P.parse(c)) for c in universal} == {Action, After, Exchange}
    shift = Action(type=ActionType.SHIFT, kind="U", role="SK", die=0)
    assert P.buttons.action(shift) in universal
    out = P.press(s, 101, shift, _ctx({"menu": "priu"}))
    assert "U" not in [kind_of(t) for t in out.state.hands[0]]


def test_the_centre_menu_offers_only_the_colours_it_lacks() -> None:
    s = roll(build(hands={0: ["R", "O", "K"]}, t7=["R", "Y"]), 3, 3)
    texts = _keyboard(s, {"menu": "t7"})
    assert "🟥" not in texts and "🟨" not in texts and "🟧" in texts and "🟪" in texts, texts
