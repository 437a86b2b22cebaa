"""One spelling per game name (play-polish issue 18): «Семидорожник», «Захват клеток»,
«Морской крест», «Гипнозия», «ДОМИНА*С» — and Seven Tracks, Cell Capture, Sea Cross,
Hypnosia, DOMINA*S — in every player-facing string (both locales, the command menu), the
players' rules in docs/rules/ and the README.

What a player types (`/new доминас`, `/rules крест`) is an alias, not a name: text in
<code>…</code> and `…` is left out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.command_menus import command_menu
from bot.config import Settings
from bot.presenters import registry
from locales import LANGUAGES, get_translator, keys
from tests.bot.game_names import CANONICAL

ROOT = Path(__file__).resolve().parents[2]


# (any spelling of a name, found case-insensitively) -> the form it must have; a form
# ending in "…" may go on with a case ending (в «Гипнозии», «Морском кресте»), None: never
SPELLINGS: list[tuple[re.Pattern[str], str | None]] = [
    (re.compile(p, re.IGNORECASE), want)
    for p, want in [
        (r"шестигранник\s*[–—-]", None),  # «Шестигранник – Семидорожник»: the long title
        (r"семидорожник\w*", "Семидорожник…"),
        (r"домина\*?с(?!\w)", "ДОМИНА*С"),
        (r"гипнози\w*", "Гипнози…"),
        (r"захват\s+клет\w*", "Захват клеток"),
        (r"морск\w*\s+крест\w*", "Морск…"),
        (r"hexagon\s*[–—-]", None),
        (r"seven[\s-]*tracks?", "Seven Tracks"),
        (r"cell\s+capture", "Cell Capture"),
        (r"sea\s+cross", "Sea Cross"),
        (r"hypnosi\w*", "Hypnosia"),
        (r"domina\*?s(?!\w)", "DOMINA*S"),
    ]
]
CODE = re.compile(r"<code>.*?</code>|```.*?```|`[^`\n]*`", re.DOTALL)


def variants(text: str) -> list[str]:
    """The spellings in `text` that are not the game's one spelling."""
    text = CODE.sub(" ", text)
    bad: list[str] = []
    for pattern, want in SPELLINGS:
        for m in pattern.finditer(text):
            found = m.group(0)
            if want is None:
                ok = False
            elif want.endswith("…"):  # the rest (a case ending, «кресте») in small letters
                rest = found[len(want) - 1 :]
                ok = found.startswith(want[:-1]) and rest == rest.lower()
            else:
                ok = found == want
            if not ok:
                bad.append(found)
    return bad


def test_the_check_catches_the_old_spellings() -> None:
    assert variants("«Шестигранник – Семидорожник»") == ["Шестигранник –"]
    found = variants("Доминас, DOMINAS, Dominas, Hexagon – Seven Tracks, семидорожник")
    assert sorted(found) == sorted(["семидорожник", "Доминас", "DOMINAS", "Dominas", "Hexagon –"])
    assert sorted(variants("морской Крест, Cell capture")) == ["Cell capture", "морской Крест"]
    ok = "В «Гипнозии», в «Морском кресте», «ДОМИНА*С», <code>/new доминас</code>, `/rules 7`"
    assert variants(ok) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_of_the_locale_spells_the_games_one_way(lang: str) -> None:
    t = get_translator(lang)
    bad: dict[str, list[str]] = {}
    for key in sorted(keys(lang)):
        value = t.raw(key)
        forms = value.values() if isinstance(value, dict) else [value]
        found = [v for form in forms for v in variants(str(form))]
        if found:
            bad[key] = found
    assert bad == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_has_one_title_long_and_short(lang: str) -> None:
    t = get_translator(lang)
    presenters = registry(Settings(bot_token="1:x"))
    assert set(presenters) == set(CANONICAL[lang])
    for gid, p in presenters.items():
        assert t(p.title_key) == t(p.title_short_key) == CANONICAL[lang][gid], gid


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_command_menu_names_no_single_game(lang: str) -> None:
    """/new names all five games, in their one spelling; no other command names one."""
    titles = [p.title_key for p in registry(Settings(bot_token="1:x")).values()]
    for groups in (False, True):
        for command in command_menu(lang, groups=groups, games=titles):
            assert variants(command.description) == [], command
            named = [n for n in CANONICAL[lang].values() if n in command.description]
            assert named == (list(CANONICAL[lang].values()) if command.command == "new" else [])


@pytest.mark.parametrize(
    "path", [*sorted((ROOT / "docs" / "rules").glob("*.md")), ROOT / "README.md"], ids=str
)
def test_the_docs_spell_the_games_one_way(path: Path) -> None:
    assert variants(path.read_text(encoding="utf-8")) == []
