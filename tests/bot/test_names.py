"""bot/names.py and bot/caption_fit.py: names cut by grapheme clusters, «Игрок N», «Аня ¹»,
escaping after the cut, captions fitted into Telegram's limit as valid HTML."""

from __future__ import annotations

import doctest

import pytest

import bot.names
from bot import caption_fit
from bot.caption_fit import fit_caption, plain_cut, visible_length
from bot.names import (
    NAME_UNITS,
    clean,
    display_names,
    graphemes,
    html_name,
    name_of,
    shorten,
    stored_name,
    utf16_len,
)
from bot.storage import GameRecord
from bot.table import CAPTION_LIMIT, clip
from fake_telegram.formatting import FormattingError, apply_formatting
from locales import get_translator
from render.text import ellipsize, text_width

RU = get_translator("ru")
EN = get_translator("en")

FAMILY = "👨\u200d👩\u200d👧\u200d👦"  # a ZWJ sequence: 7 code points, one cluster
THUMB = "👍🏽"  # a skin-tone modifier
FLAG = "🇷🇺"  # two regional indicators
KEYCAP = "1\ufe0f\u20e3"  # digit, variation selector, enclosing keycap
HEART = "❤\ufe0f"  # a variation selector
ACCENT = "е\u0301"  # a combining mark (no precomposed form)
SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # tag sequence
SEQUENCES = [FAMILY, THUMB, FLAG, KEYCAP, HEART, ACCENT, SCOTLAND]


def test_the_module_docstrings_run() -> None:
    assert doctest.testmod(bot.names).failed == 0


@pytest.mark.parametrize("seq", SEQUENCES)
def test_a_cut_never_falls_inside_a_cluster(seq: str) -> None:
    text = "А" + seq * 6 + "Б"
    assert shorten(text, 8) == text
    for limit in range(2, 8):
        cut = shorten(text, limit)
        assert len(graphemes(cut)) <= limit
        body = cut.removesuffix("…")
        assert body == "А" + seq * (len(graphemes(body)) - 1)  # whole clusters only
    for units in range(2, utf16_len(text)):
        cut = shorten(text, 100, units)
        assert utf16_len(cut) <= units
        assert cut.removesuffix("…").removeprefix("А").replace(seq, "") == ""


def test_short_names_are_kept_and_long_ones_say_they_were_cut() -> None:
    assert shorten("Аня", 3) == "Аня"
    assert shorten("Александра", 5) == "Алек…"
    assert shorten("Аня Борисовна", 5) == "Аня…"  # no space before the ellipsis
    assert shorten(FLAG * 20, 100, 10) == FLAG * 2 + "…"


def test_blank_and_invisible_names_are_blank() -> None:
    for raw in ("", "   ", "\u3164", "\u2800\u200b", "\u200e\u202e\u2066", "\ufe0f", "\n\t"):
        assert clean(raw) == "", repr(raw)
    assert clean("  Аня \n\n Борис  ") == "Аня Борис"
    assert clean("Аня\u3164Борис") == "Аня Борис"  # a filler takes room like a space
    assert clean("А\u200bня\u202e") == "Аня"  # zero-width and bidi controls go
    assert clean(FAMILY + THUMB + SCOTLAND) == FAMILY + THUMB + SCOTLAND  # joiners stay
    assert clean("a" + "\u0301" * 40) == "a"  # Zalgo keeps its letter


def test_a_stored_name_is_cleaned_and_cut_to_telegram_sizes() -> None:
    assert stored_name("Аня", "Петрова") == "Аня Петрова"
    assert stored_name("\u3164", None, "boris") == "boris"
    assert stored_name("\u3164", None, None) == ""
    long = stored_name(FAMILY * 40)
    assert utf16_len(long) <= NAME_UNITS and long.endswith("…")
    assert long.removesuffix("…") == FAMILY * (len(graphemes(long)) - 1)


def test_display_names_number_blank_seats_and_tell_equal_names_apart() -> None:
    raw = {1: "Аня", 2: "\u3164 ", 3: "Аня", 4: "Борис", 5: "  Аня  "}
    names = display_names([1, 2, 3, 4, 5], raw, RU)
    assert names == {1: "Аня ¹", 2: "Игрок 2", 3: "Аня ²", 4: "Борис", 5: "Аня ³"}
    assert display_names([7, 8], {}, EN) == {7: "Player 1", 8: "Player 2"}
    # names that look the same on a picture (emoji can't be drawn there) are told apart
    assert display_names([1, 2], {1: "Аня 🌸", 2: "Аня"}, RU) == {1: "Аня 🌸 ¹", 2: "Аня ²"}
    # a number never makes two names equal
    clash = display_names([1, 2, 3], {1: "Аня", 2: "Аня", 3: "Аня ¹"}, RU)
    assert len(set(clash.values())) == 3
    # 12 equal names: two-digit superscripts
    many = display_names(list(range(12)), dict.fromkeys(range(12), "Аня"), RU)
    assert many[11] == "Аня ¹²" and len(set(many.values())) == 12


def test_names_equal_after_shortening_are_told_apart_again() -> None:
    raw = {1: "Александра Первая", 2: "Александра Вторая"}
    assert display_names([1, 2], raw, RU, limit=6) == {1: "Алекс… ¹", 2: "Алекс… ²"}


def test_a_record_names_users_without_ids() -> None:
    rec = GameRecord(chat_id=1, uid="x", game_id="seven_tracks", creator=11, players=[11, 12])
    rec.names = {11: "Аня", 12: "", 13: "<Гость>"}
    assert rec.display_names() == {11: "Аня", 12: "Игрок 2"}
    assert rec.name(12) == "Игрок 2"
    assert rec.name(13) == "<Гость>"  # not a player: his cleaned name
    assert rec.name(99) == "Кто-то" and "99" not in rec.name(99)
    assert name_of(99, [], {}, EN) == "Someone"


def test_escaping_comes_after_the_cut() -> None:
    name = shorten("&&&&&&", 4)
    assert name == "&&&…"
    assert html_name(name) == "&amp;&amp;&amp;…"
    text, _ = apply_formatting(f"<b>{html_name('<b>Гоша</b> & Co')}</b>", "HTML")
    assert text == "<b>Гоша</b> & Co"


def test_telegram_counts_emoji_and_entities_like_telegram() -> None:
    assert visible_length("<b>Аня</b> &amp; " + FLAG) == len("Аня & ") + 4
    assert visible_length("  <i>x</i>\n") == 1  # trimmed like Telegram


def ensure_valid(caption: str) -> str:
    text, _ = apply_formatting(caption, "HTML")  # raises on broken HTML
    assert utf16_len(text) <= CAPTION_LIMIT
    return text


def test_a_too_long_caption_loses_narration_then_name_length() -> None:
    players = list(range(1, 7))
    raw = {u: f"Игрок{u}" + (FAMILY + "<&>") * 20 for u in players}

    def names_at(width: int | None) -> dict[int, str]:
        return display_names(players, raw, RU, width)

    def build(names: dict[int, str], log: list[str]) -> str:
        lines = [f"Ходит <b>{html_name(names[3])}</b>"]
        lines += log
        for u in players:  # each name three times: full names can't fit
            name = html_name(names[u])
            lines.append(("▶ " if u == 3 else "") + f"{name} — 5 фишек ({name}, {name})")
        return "\n".join(lines)

    log = ["x" * 100, "y" * 100, "z" * 100]
    text = ensure_valid(fit_caption(build, names_at, log, CAPTION_LIMIT))
    assert "xxx" not in text and "zzz" not in text  # the narration went first
    for u in players:
        assert f"Игрок{u}" in text
    assert "▶ Игрок3" in text and "Ходит Игрок3" in text
    full = display_names(players, raw, RU)[1]
    assert full not in text and len(graphemes(full)) > 16  # the names were shortened
    for cluster in graphemes(text):
        assert "\u200d" not in cluster or cluster == FAMILY


def test_a_fitting_caption_keeps_its_narration() -> None:
    def build(names: dict[int, str], log: list[str]) -> str:
        return "\n".join(["<b>стол</b>", *log, names[1]])

    caption = fit_caption(build, lambda w: {1: "Аня"}, ["a", "b", "c"], CAPTION_LIMIT)
    assert caption == "<b>стол</b>\na\nb\nc\nАня"


def test_the_last_resort_is_valid_html_cut_between_clusters() -> None:
    caption = "<b>" + html_name("<&>" + FLAG) * 400 + "</b>"
    cut = plain_cut(caption, CAPTION_LIMIT)
    text = ensure_valid(cut)
    assert text.endswith("…") and FLAG in text
    body = graphemes(text.removesuffix("…"))
    assert body == graphemes(("<&>" + FLAG) * 400)[: len(body)]
    assert clip(caption) == cut
    short = "<b>Аня</b> &amp; " * 10
    assert clip(short) == short  # fits: unchanged (tags and entities are not counted)


def test_caption_fit_module_names_widths_in_decreasing_order() -> None:
    widths = caption_fit.NAME_WIDTHS
    assert list(widths) == sorted(widths, reverse=True) and widths[-1] >= 2


def test_the_fake_server_refuses_a_bare_angle_bracket_like_telegram() -> None:
    for bad in ("a < b", "<3 Аня", "Аня<", "a <> b", "<b>x</b"):
        with pytest.raises(FormattingError):
            apply_formatting(bad, "HTML")
    assert apply_formatting("a &lt; b", "HTML")[0] == "a < b"


@pytest.mark.parametrize("seq", [FAMILY, THUMB, FLAG, KEYCAP, ACCENT, "ф\u0301\u0302"])
def test_pictures_ellipsize_between_clusters(seq: str) -> None:
    """(«Захват клеток» draws a name as it is: an emoji shows as a box, but whole.)"""
    text = "Аня " + seq * 30
    for width in range(60, 400, 7):
        cut = ellipsize(text, 30, width)
        assert text_width(cut, 30) <= width
        body = graphemes(cut.removesuffix("…"))
        assert body == graphemes(text)[: len(body)]


def test_pictures_of_ordinary_names_are_cut_as_before() -> None:
    def old(text: str, size: int, max_width: int) -> str:
        if text_width(text, size) <= max_width:
            return text
        while text and text_width(text + "…", size) > max_width:
            text = text[:-1]
        return text.rstrip() + "…"

    for name in ("Александра Константинопольская", "Аня", "Борис Борисович", "W" * 40):
        for width in (40, 80, 150, 300):
            assert ellipsize(name, 28, width) == old(name, 28, width)
