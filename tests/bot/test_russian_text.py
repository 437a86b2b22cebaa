"""Russian text: no gender brackets, numbers agree with their nouns (play-polish issue).

The bot knows no player's gender, so no string may say «завершил(а)» or «Первым(ой)»;
and a number before a noun goes through a plural dict selected by `n`, never «{n} фиш.».
Every key is rendered with every field filled and `n` (and every other count) set to
1, 2, 5 and 21. (Both languages having the same keys: tests/bot/test_locales.py.)
"""

from __future__ import annotations

import re
import string
from typing import Any

import pytest

from locales import LANGUAGES, get_translator, keys

NUMBERS = (1, 2, 5, 21)
# Fields that hold a player's (or a team's) name; every other field gets the number.
NAME_FIELDS = {"name", "names", "who", "victim", "team", "mark", "colour", "title"}
BRACKETS = re.compile(r"\((?:а|я|ой|ый|ы|и|ла|ло|ли|ов|ов|ев|ей|ся|ась|ёй|ое)\)")
# A number field right before a noun in a plain (non-plural) string: «{n} фиш.», «{max} игроков».
BARE_COUNT = re.compile(
    r"\{(?:n|count|max|min|k|score|size|left|drawn)\}\s*"
    r"(?:фиш|клет|игрок|очк|ход|раз\b|секунд|минут|час|дн|партии|партий|кон)",
    re.IGNORECASE,
)


def _fields(value: Any) -> set[str]:
    forms = value.values() if isinstance(value, dict) else [value]
    found: set[str] = set()
    for form in forms:
        for _, field, _, _ in string.Formatter().parse(str(form)):
            if field:
                found.add(field.split(".")[0].split("[")[0])
    return found


def _render(lang: str, key: str, n: int) -> str:
    t = get_translator(lang)
    fields: dict[str, Any] = {"n": n}
    for field in _fields(t.raw(key)):
        fields[field] = "Вика" if field in NAME_FIELDS else n
    return t(key, **fields)


@pytest.mark.parametrize("n", NUMBERS)
def test_no_russian_string_has_gender_brackets(n: int) -> None:
    bad = {k: text for k in sorted(keys("ru")) if BRACKETS.search(text := _render("ru", k, n))}
    assert bad == {}


def test_no_russian_string_puts_a_bare_number_before_a_noun() -> None:
    t = get_translator("ru")
    bad = {
        k: v for k in sorted(keys("ru")) if isinstance(v := t.raw(k), str) and BARE_COUNT.search(v)
    }
    assert bad == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_dicts_have_every_form(lang: str) -> None:
    need = {"one", "few", "many"} if lang == "ru" else {"one", "many"}
    t = get_translator(lang)
    bad = {
        k: sorted(v)
        for k in sorted(keys(lang))
        if isinstance(v := t.raw(k), dict) and not need <= set(v)
    }
    assert bad == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_renders_with_every_number(lang: str) -> None:
    for key in sorted(keys(lang)):
        for n in NUMBERS:
            text = _render(lang, key, n)
            assert text and "{" not in text.replace("{}", ""), (key, n, text)


# key -> the form expected for n = 1, 2, 5, 21 (a substring of the rendered text).
AGREEMENT: dict[str, tuple[str, str, str, str]] = {
    "unit.tile": ("1 фишка", "2 фишки", "5 фишек", "21 фишка"),
    "unit.cell": ("1 клетка", "2 клетки", "5 клеток", "21 клетка"),
    "unit.point": ("1 очко", "2 очка", "5 очков", "21 очко"),
    "st.tiles": ("1 фишка", "2 фишки", "5 фишек", "21 фишка"),
    "st.ev.drew": (
        "Вика берёт из кассы 1 фишку",
        "Вика берёт из кассы 2 фишки",
        "Вика берёт из кассы 5 фишек",
        "Вика берёт из кассы 21 фишку",
    ),
    "st.ev.exchange": ("меняет 1 фишку", "меняет 2 фишки", "меняет 5 фишек", "меняет 21 фишку"),
    "st.ev.final_turns": (
        "Остался 1 последний ход",
        "Осталось 2 последних хода",
        "Осталось 5 последних ходов",
        "Остался 21 последний ход",
    ),
    "cc.ev.captured": (
        "Вика захватывает 1 клетку",
        "Вика захватывает 2 клетки",
        "Вика захватывает 5 клеток",
        "Вика захватывает 21 клетку",
    ),
    "dom.ev.drew": (
        "Вика берёт из базара 1 фишку",
        "Вика берёт из базара 2 фишки",
        "Вика берёт из базара 5 фишек",
        "Вика берёт из базара 21 фишку",
    ),
    "dom.toast.at_nest_many": (
        "подходит 1 ваша фишка",
        "подходят 2 ваши фишки",
        "подходят 5 ваших фишек",
        "подходит 21 ваша фишка",
    ),
    "hy.unit.token": ("1 фишку", "2 фишки", "5 фишек", "21 фишку"),
    "hy.unit.move": ("1 ход", "2 хода", "5 ходов", "21 ход"),
    "sc.unit.step": ("1 клетка", "2 клетки", "5 клеток", "21 клетка"),
    "lobby.need_more": (
        "Нужен ещё 1 игрок",
        "Нужно ещё 2 игрока",
        "Нужно ещё 5 игроков",
        "Нужен ещё 21 игрок",
    ),
    "span.minute": ("1 минуту", "2 минуты", "5 минут", "21 минуту"),
    "span.day": ("1 день", "2 дня", "5 дней", "21 день"),
}


@pytest.mark.parametrize("key", sorted(AGREEMENT))
def test_numbers_agree_with_their_nouns(key: str) -> None:
    got = [_render("ru", key, n) for n in NUMBERS]
    assert [want in text for want, text in zip(AGREEMENT[key], got, strict=True)] == [True] * 4, got


def test_a_timed_out_turn_names_no_gender() -> None:
    t = get_translator("ru")
    assert t("timer.auto", name="Вика") == "⏰ Вика: время вышло — ход сделан автоматически"
