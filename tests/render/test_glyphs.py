"""No missing-glyph box on a picture (issue 31 point 2): every text drawn into a picture —
the players' names, the computers' «🤖 Робот-мастер» among them, the words from locales/
and the games' own marks («1⤵3») — is drawn only with characters the font it is drawn
with has (its `cmap`); what it lacks is replaced by a look-alike or left out. Before, the
computers' names in «Захват клеток» showed the box of a missing glyph («Р · ￼ Робот-мастер»)
and a bridge move's mark in «Гипнозия» («1⤵3») another.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from PIL import ImageFont

from games.hypnosia import GAME as HYPNOSIA
from games.hypnosia.model import Route
from games.seven_tracks.model import TileKind
from locales import LANGUAGES, get_translator
from render import animation, hands
from render.compositor import Compositor
from render.text import FONT_DIR, charset, clean_text, drawable, font, has_glyph
from tests.render.language_samples import NAMES_EN, NAMES_RU, load

GAMES = ("cell_capture", "dominas", "hypnosia", "sea_cross", "seven_tracks")
# One seeded view of each game (half-way or at the end, seat 2 gone in some).
CASES = list({game_id: (game_id, view) for game_id, view, _ in load()}.values())
BOLD_FILE = "DejaVuSans-Bold.ttf"


def _robots(language: str) -> dict[int, str]:
    """Seats 1–3 played by the computers, under the names the bot gives them."""
    t = get_translator(language)
    levels = ("novice", "experienced", "master")
    return {i: t(f"computers.name.{level}") for i, level in enumerate(levels, 1)}


def _drop_caches() -> None:
    """Forget every cached glyph, sprite, patch and background, so that every text a
    picture shows is drawn while it is drawn."""
    text = importlib.import_module("render.text")
    for attr in ("glyph_mask", "fit_text_cached", "text_length", "drawable"):
        getattr(text, attr).cache_clear()
    hands._card.cache_clear()
    for game_id in GAMES:
        picture = getattr(importlib.import_module(f"render.{game_id}"), "PICTURE", None)
        if isinstance(picture, Compositor):
            for cache in picture.caches():
                if cache is not picture.palette:
                    cache.cache_clear()


def _missing(drawn: list[tuple[bool, str]]) -> dict[str, list[str]]:
    """The characters each drawn text has that its font lacks (none: an empty dict)."""
    out: dict[str, list[str]] = {}
    for bold, text in drawn:
        lacking = [ch for ch in text if ord(ch) not in charset(bold) and ch != "\n"]
        if lacking:
            out.setdefault(text, lacking)
    return out


def _bridge_view() -> Any:
    """A «Гипнозия» position whose legal moves include a bridge crossing (a «⤵» mark)."""
    s = HYPNOSIA.new([1, 2], seed=1)
    s = s.model_copy(update={"tokens": [["1.3", "S", "S", "S"], ["S"] * 4]}, deep=True)
    s, _ = HYPNOSIA.apply(s, HYPNOSIA.decode_action("R"))
    view = HYPNOSIA.view(s, None)
    assert any("⤵" in m.tag for m in view.moves), [m.tag for m in view.moves]
    assert Route.BRIDGE.value in {m.code.split(",")[3] for m in view.moves}
    return view


def test_every_text_drawn_into_a_picture_has_its_glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[bool, str]] = []
    getmask2 = ImageFont.FreeTypeFont.getmask2

    def spy(self: ImageFont.FreeTypeFont, text: str, *a: Any, **kw: Any) -> Any:
        drawn.append((str(self.path).endswith(BOLD_FILE), text))
        return getmask2(self, text, *a, **kw)

    _drop_caches()
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", spy)
    for language in LANGUAGES:
        people = {**(NAMES_RU if language == "ru" else NAMES_EN), **_robots(language)}
        people[4] = "🦄🦄 Ника ✨"  # nothing but a name left of it
        for game_id, view in CASES:
            picture = importlib.import_module(f"render.{game_id}").PICTURE
            picture.draw_rgb(view, people, language=language)  # every text, drawn whole
        hypnosia = importlib.import_module("render.hypnosia").PICTURE
        hypnosia.draw_rgb(_bridge_view(), people, language=language)
        hands.draw_seven_tracks([k.value for k in TileKind], language)
        hands.draw_dominas([("О1", True), ("З2", False)])
        rows = [(1, 1, 10), (2, 2, 5), (4, 3, 0)]
        animation.standings_frame((480, 600), rows, people, language, "🤖 «Гипнозия» 🌀")
    assert drawn
    assert _missing(drawn) == {}
    texts = " ".join(text for _, text in drawn)
    assert "Робот-мастер" in texts and "Robot-master" in texts and "Ника" in texts


@pytest.mark.parametrize("bold", [False, True])
def test_the_character_map_agrees_with_what_pillow_draws(bold: bool) -> None:
    """`has_glyph` reads the font's `cmap`; Pillow draws a character the font lacks as
    the missing glyph's box (glyph 0): the two agree on every character of the locales'
    words and on a sample of symbols and emoji."""
    f = font(40, bold)
    box = bytes(f.getmask("\U0010fffd"))  # a private-use character: surely missing
    sample = set("🤖🀄🀄⤵↴✨✦⏹■⬛⬜🎲🌀⚔➜↺★·−…№«»ЁёЖж¹²³")
    for language in LANGUAGES:
        t = get_translator(language)
        for key in ("computers.name.master", "render.hypnosia.note.direction"):
            sample.update(t(key))
    for ch in sorted(sample):
        drawn_as_box = bytes(f.getmask(ch)) == box
        assert has_glyph(ch, bold) is not drawn_as_box, (ch, hex(ord(ch)))


def test_names_and_marks_lose_only_what_the_font_lacks() -> None:
    assert clean_text("🤖 Робот-мастер") == "Робот-мастер"
    assert clean_text("Вика 🎲") == "Вика"
    assert drawable("1⤵3", bold=True) == "1↴3"  # a look-alike the font has
    assert drawable("Аня 🎲 и Боря") == "Аня и Боря"
    assert drawable("  2+5 ") == "  2+5 "  # nothing to drop: untouched
    assert (FONT_DIR / BOLD_FILE).exists()
