"""Locales: every key in Russian and English, every engine error code translated."""

from __future__ import annotations

import re

from games.seven_tracks import CODES
from locales import get_translator, keys, plural_form


def test_ru_and_en_have_the_same_keys() -> None:
    assert keys("ru") == keys("en")
    # ...and a key counted by `n` (a plural dict) in one language is counted in the other.
    ru, en = get_translator("ru"), get_translator("en")
    assert sorted(k for k in keys("ru") if isinstance(ru.raw(k), dict)) == sorted(
        k for k in keys("en") if isinstance(en.raw(k), dict)
    )


def test_every_engine_error_code_has_a_russian_text() -> None:
    t = get_translator("ru")
    missing = [c for c in CODES if not t.has(f"error.{c}")]
    assert missing == []
    assert t("error.two_whites") == "Две белые подряд ставить нельзя."


def test_keys_used_in_the_bot_exist() -> None:
    import pathlib

    used: set[str] = set()
    root = pathlib.Path(__file__).resolve().parents[2] / "bot"
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bt\(\s*"([a-z0-9_.]+)"', text))
        used |= set(
            re.findall(r'"((?:st|lobby|press|cancel|new|error|start|help)\.[a-z0-9_.]+)"', text)
        )
    catalogue = keys("ru")
    assert sorted(k for k in used if "." in k and k not in catalogue) == []


def test_russian_plurals() -> None:
    t = get_translator("ru")
    assert [t.plural(n, "unit.tile") for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 фишка",
        "2 фишки",
        "5 фишек",
        "11 фишек",
        "21 фишка",
        "22 фишки",
        "25 фишек",
    ]
    assert plural_form("en", 1) == "one" and plural_form("en", 2) == "many"


def test_missing_key_and_field_do_not_crash() -> None:
    t = get_translator("ru")
    assert t("no.such.key") == "no.such.key"
    assert "{name}" in t("press.not_your_turn")
