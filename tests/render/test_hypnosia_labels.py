"""«Гипнозия» read on a phone (issue 31 point 3): a 360-px-wide phone shows the picture
287 px wide, and there every word and number a player must read — the marks of the
moves, the tokens' and the centre fields' numbers, the header, the notes and the players'
lines — is at least 9 px tall, and no label lies over another (a move's mark over a
token, or over another mark: «3+4» lay over the number 19). Before: the ring numbers were
7 px, the marks 6, a pair's numbers 6, the start squares' 4.6, the legend's details 4.6.

`render.hypnosia.labels` lists what the picture draws for a player to read, each with its
type size and the box it covers; a label's height is the height of a digit (the capitals'
height) at its size, scaled to 287 px of width. That the list is what is drawn is checked
too: with the caches dropped, every text the picture draws is a label of it, at its size.
"""

from __future__ import annotations

import importlib
import itertools
import random
from typing import Any

import pytest
from PIL import ImageFont

from games.hypnosia import GAME, Phase, State
from render import hypnosia
from render.compositor import Compositor
from render.text import drawable, font

PHONE = 287  # px of picture width on a 360-px-wide phone
LEAST = 9.0  # px: the least a label may be there
NAMES = {1: "Аня", 2: "Борис", 3: "Вика 🎲", 4: "Александра Константиновна", 5: "🤖 Робот-мастер"}


def height_on_phone(size: int, bold: bool) -> float:
    """The height of a digit (the capitals' height) at `size`, on the phone."""
    _, top, _, bottom = font(size, bold).getbbox("0", anchor="ls")
    return (bottom - top) * PHONE / hypnosia.WIDTH


def _game(n: int, seed: int, steps: int) -> State:
    s = GAME.new(list(range(1, n + 1)), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
    return s


def _busy(n: int, seed: int) -> State:
    """A state of a seeded random game with many legal moves to mark (a move phase)."""
    s = GAME.new(list(range(1, n + 1)), seed=seed)
    rng = random.Random(seed)
    best, most = s, -1
    while not GAME.is_over(s):
        if s.phase == Phase.MOVE and len(GAME.legal_actions(s)) > most and s.round_no > 3:
            best, most = s, len(GAME.legal_actions(s))
        s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
    return best


def _rigged() -> list[State]:
    """The crowded cases: four marks around a start, marks onto tokens (captures, a pair,
    stacking), the centre's marks, sixteen moves of four tokens on bridges."""
    base = GAME.new([1, 2, 3], seed=1)

    def at(tokens: list[list[str]], dice: list[int], centre: list[int] | None = None) -> State:
        update = {"tokens": tokens, "current": 0, "phase": Phase.MOVE, "dice": dice,
                  "unused": list(dice), "centre": centre or []}  # fmt: skip
        return base.model_copy(update=update, deep=True)

    return [
        at([["S"] * 4, ["1.2", "1.3", "S", "S"], ["S"] * 4], [3, 5]),
        at(
            [["1.6", "1.6", "1.9", "S"], ["1.9", "1.11", "1.12", "S"], ["1.10", "S", "S", "S"]],
            [3, 6],
        ),
        at([["3.2", "3.6", "2.8", "2.16"], ["3.3", "3.7", "S", "S"], ["S"] * 4], [1, 1], [1]),
        at([["1.3", "1.9", "1.15", "1.21"], ["1.5", "1.12", "S", "S"], ["S"] * 4], [2, 5]),
        at([["2.0", "2.0", "3.10", "3.10"], ["2.2", "3.11", "S", "S"], ["S"] * 4], [1, 4]),
    ]


def views() -> list[Any]:
    states = [_game(n, seed, steps) for n in (2, 4, 6) for seed, steps in ((1, 0), (2, 10**4))]
    states += [_busy(n, n) for n in (2, 3, 5, 6)]
    states += _rigged()
    return [GAME.view(s, None) for s in states]


VIEWS = views()


def overlaps(a: hypnosia.Box, b: hypnosia.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_label_is_at_least_9_px_tall_on_a_phone_and_none_lies_over_another(
    language: str,
) -> None:
    smallest: dict[str, float] = {}
    for i, view in enumerate(VIEWS):
        labels = hypnosia.labels(view, NAMES, language)
        width, height = hypnosia.image_size(view)
        for label in labels:
            tall = height_on_phone(label.size, label.bold)
            smallest[label.kind] = min(smallest.get(label.kind, 99.0), tall)
            x0, y0, x1, y1 = label.box
            assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, (i, label)
        for a, b in itertools.combinations(labels, 2):
            assert not overlaps(a.box, b.box), (i, a, b)
    assert {"tag", "token", "field", "header", "note", "legend"} <= set(smallest)
    assert min(smallest.values()) >= LEAST, smallest


def test_the_labels_are_what_the_picture_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """...and nothing else is drawn: each text drawn (the caches dropped) is a label."""
    drawn: set[tuple[str, int]] = set()
    getmask2 = ImageFont.FreeTypeFont.getmask2

    def spy(self: ImageFont.FreeTypeFont, text: str, *a: Any, **kw: Any) -> Any:
        drawn.add((text, int(self.size)))
        return getmask2(self, text, *a, **kw)

    text = importlib.import_module("render.text")
    for attr in ("glyph_mask", "fit_text_cached", "text_length"):
        getattr(text, attr).cache_clear()
    picture = hypnosia.PICTURE
    assert isinstance(picture, Compositor)
    for cache in picture.caches():
        if cache is not picture.palette:
            cache.cache_clear()
    shown: set[tuple[str, int]] = set()
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", spy)
    for view in VIEWS[:3] + VIEWS[-5:]:
        picture.draw_rgb(view, NAMES, language="ru")
        labels = hypnosia.labels(view, NAMES, "ru")
        shown |= {(drawable(x.text, x.bold), x.size) for x in labels}
    assert shown - drawn == set()  # every label is drawn, at its size...
    assert {(t, size) for t, size in drawn if t not in hypnosia.DECORATION} - shown == set()
