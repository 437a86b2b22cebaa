"""Play polish, round three (issue 31), below the buttons: what the tables, summaries and
statistics say (points 4 and 8). The lobby's and the commands' words are in
tests/bot/test_polish_round_three_e2e.py."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.handlers.memory import stats_text
from bot.memory.keeper import Keeper
from bot.memory.records import ChatMemory
from bot.presenters import registry
from bot.presenters.cell_capture import CellCapturePresenter
from bot.presenters.cell_capture import Ui as CellUi
from bot.presenters.sea_cross import SeaCrossPresenter
from bot.presenters.seven_tracks import SevenTracksPresenter
from bot.service.context import Context
from bot.storage import MemoryStore
from games import Event
from games.cell_capture import GAME as CELLS
from games.cell_capture import Phase as CellPhase
from games.cell_capture import State as CellState
from games.seven_tracks import GAME, Action, ActionType, State
from games.seven_tracks.events import PriorityUse, PriorityUsed
from games.seven_tracks.model import TileKind
from locales import get_translator, keys
from tests.games.seven_tracks.builder import build, roll

T = get_translator("ru")
NAMES = {101: "Аня", 102: "Борис", 103: "Вика", 104: "Гоша"}
ST = SevenTracksPresenter(first_move_seconds=0)
A = ActionType


def _st_summaries(events: list[Event], s: State) -> list[str]:
    return ST.summaries(events, s, ST.context(T, {}, NAMES))


def _idle_circles(s: State, turns: int) -> tuple[State, list[Event]]:
    """`turns` turns in which nothing fits and nothing is played: roll, end, end."""
    told: list[Event] = []
    for _ in range(turns):
        s = roll(s, 2, 3)
        for a in (Action(type=A.END_PLACING), Action(type=A.END_TURN)):
            s, events = GAME.apply(s, a)
            told += events
    return s, told


# ------------------------------------------------------------ 4. «Семидорожник» endings


def test_a_blocked_round_says_why_it_ended_though_priority_tiles_were_in_hand() -> None:
    """Point 4: a two-player round «в тупике» while both held priority tiles. R66 is right
    (tests/games/seven_tracks/test_rules.py, test_r66_priority_tiles_…): the backstop
    ended it after three circles in which nobody placed or played a tile; the summary says
    so, and that the priority tiles could have been played — never «никто не смог
    походить»."""
    s = build(n=2, hands={0: ["SK", "K"], 1: ["OP", "K"]}, bank_size=0)
    s, events = _idle_circles(s, 6)
    [text] = _st_summaries(events, s)
    assert "никто не смог" not in text, text
    assert "три круга подряд никто не выставил и не сыграл ни одной фишки" in text, text
    assert "Фишки приоритета на руках можно было сыграть вместо хода" in text, text


def test_a_dead_position_is_told_as_one() -> None:
    s = build(n=2, hands={i: ["K", "K"] for i in range(2)}, bank_size=0)
    s, events = _idle_circles(s, 1)
    [text] = _st_summaries(events, s)
    assert "ни одну фишку с рук не выставить ни при каком броске" in text, text
    assert "приоритета" not in text and "три круга" not in text, text


def _one_round_won_in_one_turn() -> tuple[State, list[Event]]:
    """A one-round game: Борис (a computer, say «мастер») places his last tile on his
    first turn, Аня holds 190 points of tiles — over the 144 a longer game ends at."""
    heavy = ["U", "U", "SK", "SK", "EX", "EX", *["K"] * 6, "W", "W"]
    s = build(n=2, seat=1, hands={0: heavy, 1: ["R"]}, options={"single_round": True})
    return GAME.apply(roll(s, 1), Action(type=A.PLACE, kind="R", track=1))


def test_a_one_round_game_names_no_one_eliminated_and_says_why_it_ended() -> None:
    """Point 4 («Выбыли (набрали предел)» after one round) and point 8 (a solo game
    against «мастер» ended after two turns with no word of why): the round's summary
    names nobody out of the game (the game ends with it), and the final standings say
    the game was one round, which ends when someone has placed all his tiles, and that
    fewer points are better."""
    s, events = _one_round_won_in_one_turn()
    summary, final = _st_summaries(events, s)
    assert "Выбыли" not in summary and "выбывает" not in summary, summary
    assert "1. Борис — 0 очков 🏆" in final and "2. Аня — 190 очков" in final, final
    assert "Игра шла на один кон" in final and "здесь это Борис" in final, final
    assert "у кого меньше, тот выше" in final, final


def test_a_longer_game_says_who_is_out_and_at_what_score() -> None:
    s = build(n=3, seat=2, hands={0: ["U", "U", "SK"], 1: ["R", "O"], 2: ["R"]})
    s.scores = [100, 10, 20]
    s, events = GAME.apply(roll(s, 1), Action(type=A.PLACE, kind="R", track=1))
    [summary] = _st_summaries(events, s)
    assert "Из игры выбывает Аня: набрано 144 очка или больше." in summary, summary


def _keeper() -> Keeper:
    ctx = SimpleNamespace(
        store=MemoryStore(),
        settings=SimpleNamespace(memory_retention_days=180.0),
        presenters=registry(),
    )
    return Keeper(cast(Context, ctx))


def test_stats_call_the_lowest_score_the_best_where_lower_wins() -> None:
    """Point 4: `/stats` called a losing 150 «лучший счёт» in «Семидорожник», where a
    score is the tiles left in hand (`Game.lower_score_wins`); in «Захват клеток» more
    cells are better."""
    k = _keeper()
    doc = ChatMemory()
    for standings in ([(1, 1, 12), (2, 2, 150)], [(2, 1, 40), (1, 2, 95)]):
        k._count(doc, "seven_tracks", standings, False, set())
    k._count(doc, "cell_capture", [(1, 1, 30), (2, 2, 20), (3, 3, 5)], False, set())
    doc.names = {1: "Аня", 2: "Борис"}
    boris = stats_text(k, doc, 2, T)
    assert "Семидорожник: 2 игры, 1 победа; места: 1×1 2×1; лучший счёт: 40" in boris, boris
    assert "(чем меньше, тем лучше)" in boris and "150" not in boris, boris
    anna = stats_text(k, doc, 1, T)
    assert "лучший счёт: 12 (чем меньше, тем лучше)" in anna, anna
    assert "Захват клеток: 1 игра, 1 победа; места: 1×1; лучший счёт: 30;" not in anna
    assert "лучший счёт: 30" in anna and "30 (чем" not in anna, anna


def test_stats_of_someone_with_no_games_name_him() -> None:
    """Point 8: `/stats` with no games said «?: здесь пока нет доигранных игр»."""
    text = stats_text(_keeper(), ChatMemory(), 7, T, known_as="Аня")
    assert text == "Аня: здесь пока нет доигранных игр.", text


# ------------------------------------------------------------ 8. small things


def test_an_exchange_of_no_tile_is_not_told_as_zero_tiles() -> None:
    """«меняет 0 фишек»: an exchange may take no tile (R60), the tile is spent anyway."""
    s = build(hands={0: ["EX", "R"]})
    used = PriorityUsed(tile=TileKind.EXCHANGE, use=PriorityUse.EXCHANGE, size=0)
    lines = ST.narrate([Event.of(used, 0)], s, ST.context(T, {}, NAMES))
    assert lines == ["Аня играет замену 🔀 вхолостую: ни одной фишки не меняет"], lines
    used = PriorityUsed(tile=TileKind.EXCHANGE, use=PriorityUse.EXCHANGE, size=2)
    assert ST.narrate([Event.of(used, 0)], s, ST.context(T, {}, NAMES)) == ["Аня меняет 2 фишки 🔀"]


CC = CellCapturePresenter()


def _cells_ctx() -> Any:
    return CC.context(T, CellUi().model_dump(), NAMES)


def _cell_games(seed: int, steps: int) -> list[CellState]:
    """The first `steps` states of a random four-player «Захват клеток» game."""
    rng = random.Random(seed)
    s = CELLS.new([101, 102, 103, 104], seed=seed)
    states = [s]
    while not CELLS.is_over(s) and len(states) < steps:
        legal = CELLS.legal_actions(s)
        s, _ = CELLS.apply(s, rng.choice(legal))
        states.append(s)
    return states


def test_cell_capture_lists_players_in_the_order_of_play_and_no_colour_in_its_title() -> None:
    """Point 8: the caption listed players in lobby order while play went in another (the
    picture's legend had the round's order), and its title began with 🟦, one player's
    colour."""
    checked = 0
    for s in _cell_games(5, 400)[::10]:
        v = CELLS.view(s, None)
        if v.over:
            continue
        caption = CC.caption(s, _cells_ctx())
        assert not caption.startswith(("🟥", "🟦", "🟩", "🟧", "🟪", "🩵")), caption
        listed = [line for line in caption.split("\n") if " — " in line and "клет" in line]
        order = [NAMES[v.players[seat].player] for seat in v.order]
        names = [next(n for n in NAMES.values() if n in line) for line in listed]
        assert names == order, (names, order)
        checked += v.order != sorted(v.order)
    assert checked, "no round played out of seat order"


@pytest.mark.parametrize("seed", [1, 3])
def test_cell_capture_never_shows_more_than_nine_buttons(seed: int) -> None:
    """Point 8: while a path was drawn the keyboard had 11 buttons (4 arrows, 4 straight
    runs, 3 below), and a page of anchors 10; the spec (§5) allows 9. The arrows keep
    their row and columns. (A whole game by buttons: tests/bot/test_cell_capture_e2e.py.)"""
    drawn = 0
    for s in _cell_games(seed, 500):
        if CELLS.is_over(s):
            continue
        rows = CC.keyboard(s, _cells_ctx())
        texts = [b.text for row in rows for b in row]
        assert len(texts) <= 9, texts
        if CELLS.view(s, None).phase in (CellPhase.DRAW, CellPhase.READY):
            drawn += 1
            assert len(rows[0]) == 4 and all(b.text[0] in "⬆➡⬇⬅·" for b in rows[0]), texts
    assert drawn


def test_sea_cross_opens_with_one_line_and_no_turn_number() -> None:
    """Point 8: «Морской крест» opened at «ход 6» with three lines of the bot's own rolls
    (seed 5: the roll-off, then seven rolls before the first choice)."""
    p = SeaCrossPresenter()
    c = p.context(T, {}, {101: "Аня", 102: "Борис"})
    start = p.new_state([101, 102], 5, {})
    adv = p.advance(start, c)
    lines = p.narrate(adv.events, adv.state, c)
    assert lines == [
        "🎲 Кто начинает: 🔵 Аня 6, 🟢 Борис 4 → первым ходит 🔵 Аня. До первого выбора "
        "бот сделал за игроков 7 бросков: ходить было нечем или ход был один."
    ], lines
    caption = p.caption(adv.state, c.but(log=lines))
    assert caption.split("\n")[0] == "⚓ <b>Морской крест</b>", caption


def test_no_text_says_under_the_table() -> None:
    """Point 8: «под столом» reads as "hidden" (and "under the table" as "secretly")."""
    for lang, words in (("ru", "под столом"), ("en", "under the table")):
        t = get_translator(lang)
        said = {k: t.raw(k) for k in keys(lang)}
        assert [k for k, v in said.items() if words in str(v)] == []


GENDERED = ("вышел", "вышла", "выбыл", "выбыла", "ушла")


def test_a_player_who_left_or_went_out_is_labelled_without_a_gendered_verb() -> None:
    """Point 8: the pictures labelled every player who left «вышел» (a woman, or a robot
    taking a seat, read it wrong): the labels beside a name say «вне игры», «без фишек»."""
    labels = [
        "render.left",
        "render.sea_cross.left_game",
        "render.seven_tracks.state.out",
        "render.seven_tracks.state.eliminated",
        "cc.left",
        "sc.player_left",
        "hy.d.left",
    ]
    said = {k: T(k, mark="", who="Вика") for k in labels}
    assert {k: v for k, v in said.items() if any(w in v for w in GENDERED)} == {}
