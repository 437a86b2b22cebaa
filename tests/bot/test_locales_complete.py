"""No player-facing string bypasses the locales (issue 16): the bot's code holds no
Russian text of its own, every key it uses is in both catalogues, and the two catalogues
agree key by key — the same `{fields}`, the same plural forms — with no Cyrillic letter in
the English one. (The pictures' code: tests/render/test_picture_language.py.)"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path
from typing import Any

import pytest

from games.dominas.tiles import NAMED
from locales import LANGUAGES, get_translator, keys
from tests.cyrillic import CYRILLIC, cyrillic_literals

ROOT = Path(__file__).resolve().parents[2]
# The developer's sandbox (python -m bot.playground) draws a chat of its own in a browser,
# for trying the bot out: it is no part of what players see.
NOT_PLAYERS = {"playground"}
# Cyrillic constants that are no text: what a player may type (compared, never shown) and
# the engine's own codes (`games/` keeps Cyrillic colour letters; shown as 🔴🟡🟢🔵).
NOT_TEXT = {
    ("handlers/memory.py", "вкл"),  # /stats вкл|выкл, /season сброс
    ("handlers/memory.py", "выкл"),
    ("handlers/memory.py", "сброс"),
    ("service/context.py", "ё"),  # a game's name typed with ё or е
    ("service/context.py", "е"),
    *(("presenters/dominas/common.py", code) for code in ("О", "М", "З", "В", "З1", "О11", "О15")),
}


def typed_words(name: str) -> bool:
    """A name that holds what players may type: `aliases`, `LENGTH_WORDS`, `ALL_WORDS`."""
    return name == "aliases" or name.endswith("_WORDS")


def _not_text_nodes(tree: ast.AST) -> set[int]:
    """ids of the string constants that are no player's text: docstrings, the arguments of
    logging calls, and what players may type (a presenter's `aliases`, `…_WORDS`)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            out.add(id(node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id in ("log", "logging", "logger"):
                out |= {id(n) for arg in node.args for n in ast.walk(arg)}
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(x, ast.Name) and typed_words(x.id) for x in targets):
                out |= {id(n) for n in ast.walk(node)}
    return out


def test_no_cyrillic_string_in_the_bots_code() -> None:
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        where = path.relative_to(ROOT / "bot").as_posix()
        if where.split("/")[0] in NOT_PLAYERS:
            continue
        found += [f"bot/{x}" for x in cyrillic_literals(path, where, _not_text_nodes, NOT_TEXT)]
    assert found == []


def _used_keys() -> set[str]:
    """Every key the code of bot/ and render/ names literally: `t("key"`, `t.plural(n, "key"`."""
    used: set[str] = set()
    for folder in ("bot", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            used |= set(re.findall(r'\bt\(\s*"([a-z0-9_.]+)"', text))
            used |= set(re.findall(r'\bt\.plural\(\s*[^,()]+,\s*"([a-z0-9_.]+)"', text))
    return {k for k in used if "." in k}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_code_uses_is_in_each_catalogue(lang: str) -> None:
    used = _used_keys()
    assert len(used) > 100
    assert sorted(used - keys(lang)) == []


def _fields(value: Any) -> dict[str, set[str]]:
    """A value's `{fields}`: per plural form, or under "" for a plain string."""
    forms = value if isinstance(value, dict) else {"": value}
    return {
        form: {name for _, name, _, _ in string.Formatter().parse(str(text)) if name}
        for form, text in forms.items()
    }


def test_both_catalogues_agree_on_fields_and_plural_forms() -> None:
    ru, en = get_translator("ru"), get_translator("en")
    assert keys("ru") == keys("en")
    bad = {}
    for key in sorted(keys("ru")):
        r, e = ru.raw(key), en.raw(key)
        if isinstance(r, dict) != isinstance(e, dict):
            bad[key] = "a plural in one language only"
        elif isinstance(r, dict):
            if set(r) != {"one", "few", "many"} or set(e) != {"one", "many"}:
                bad[key] = f"plural forms {sorted(r)} / {sorted(e)}"
            elif set().union(*_fields(r).values()) != set().union(*_fields(e).values()):
                bad[key] = f"fields {_fields(r)} / {_fields(e)}"
        elif _fields(r) != _fields(e):
            bad[key] = f"fields {_fields(r)} / {_fields(e)}"
    assert bad == {}


def test_the_english_catalogue_has_no_cyrillic_letter() -> None:
    en = get_translator("en")
    bad = {}
    for key in sorted(keys("en")):
        value = en.raw(key)
        forms = value.values() if isinstance(value, dict) else [value]
        if any(CYRILLIC.search(str(form)) for form in forms):
            bad[key] = value
    assert bad == {}


def test_each_named_tile_has_its_title_in_each_language() -> None:
    from bot.presenters.dominas import named_title

    ru, en = get_translator("ru"), get_translator("en")
    for tile, title in NAMED.items():
        assert named_title(tile, ru) == title
        assert not CYRILLIC.search(named_title(tile, en)), tile
