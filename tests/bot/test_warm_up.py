"""Renderers warm up per game on first use, in the background (bot/warm_up.py), and a
picture drawn before that (cold, on a palette of its own) shows the same board."""

from __future__ import annotations

import threading

from PIL import ImageChops, ImageStat

import render.seven_tracks as st
from bench.render import mid_game_views
from bot.warm_up import Warmer, draw_cold
from tests.render.pixels import MAX_BYTES, decode


def test_games_warm_up_one_at_a_time_in_the_order_they_were_wanted_without_blocking() -> None:
    started: list[str] = []
    gates = {"a": threading.Event(), "b": threading.Event()}

    def warm(game_id: str) -> None:
        started.append(game_id)
        gates[game_id].wait(10)

    w = Warmer(warm, delay=0)
    assert w.want("a") and w.want("b")  # returns at once: the warm-up runs in the background
    assert not w.want("a")  # asked for once
    assert not w.is_warm("a") and not w.wait("a", 0.2)
    assert started == ["a"]  # "b" waits for "a": one game at a time
    gates["a"].set()
    assert w.wait("a", 10) and not w.is_warm("b")
    gates["b"].set()
    assert w.wait("b", 10)
    assert started == ["a", "b"]


def test_a_failing_warm_up_leaves_the_game_usable() -> None:
    def warm(game_id: str) -> None:
        raise RuntimeError("no fonts")

    w = Warmer(warm, delay=0)
    w.want("x")
    assert w.wait("x", 10)  # logged; its pictures are the usual ones (drawn as they come)


def test_a_cold_picture_shows_the_board_of_the_warm_one() -> None:
    view, names = mid_game_views("seven_tracks", 4, 1)[0]
    cold = decode(cold_png := draw_cold(st, view, names))
    warm = decode(st.render(view, names))
    assert cold.size == warm.size
    assert len(cold_png) <= MAX_BYTES
    diff = ImageStat.Stat(ImageChops.difference(cold, warm)).mean
    assert max(diff) < 2.0, diff  # the same drawing, only its own 256 colours
