"""All player-facing text. A tiny translator: JSON catalogues loaded once.

    >>> from locales import get_translator
    >>> t = get_translator("ru")
    >>> t("lobby.join")
    '🙋 Играть'
    >>> t.plural(3, "unit.tile")
    '3 фишки'

A value is a string with `{name}` fields (str.format), or a dict of plural forms
`one`/`few`/`many` (Russian rules; English uses one/many) chosen by `n`.
A missing key falls back to Russian, then to the key itself, so the bot never crashes
on a missing string.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: tuple[str, ...] = ("ru", "en")
DEFAULT_LANGUAGE = "ru"
_DIR = Path(__file__).resolve().parent


@cache
def _catalogue(lang: str) -> dict[str, Any]:
    with (_DIR / f"{lang}.json").open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    # Per-game catalogues (locales/<lang>/<game>.json) let a game add its strings alone.
    for path in sorted((_DIR / lang).glob("*.json")):
        with path.open(encoding="utf-8") as f:
            data.update(json.load(f))
    return data


def plural_form(lang: str, n: int) -> str:
    """`one`, `few` or `many` for the count `n`."""
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "many"


class _SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Translator:
    """Callable: `t(key, **fields)`; `t.plural(n, key)` gives "3 фишки"."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            lang = DEFAULT_LANGUAGE
        self.lang = lang
        self._own = _catalogue(lang)
        self._fallback = _catalogue(DEFAULT_LANGUAGE)

    def has(self, key: str) -> bool:
        return key in self._own or key in self._fallback

    def raw(self, key: str) -> Any:
        if key in self._own:
            return self._own[key]
        return self._fallback.get(key)

    def __call__(self, key: str, /, **fields: Any) -> str:
        value = self.raw(key)
        if value is None:
            return key
        if isinstance(value, dict):
            n = int(fields.get("n", 0))
            lang = self.lang if key in self._own else DEFAULT_LANGUAGE
            value = value.get(plural_form(lang, n)) or value.get("many") or ""
        if not fields:
            return str(value)
        try:
            return str(value).format_map(_SafeDict(fields))
        except (ValueError, IndexError, AttributeError):
            return str(value)

    def plural(self, n: int, key: str) -> str:
        """`n` with the right form of the noun at `key`: '1 фишка', '5 фишек'."""
        return self(key, n=n)

    def listing(self, items: Sequence[str]) -> str:
        """'А, Б и В': the items, the last joined by the language's «и».

        >>> get_translator("ru").listing(["Аня", "Борис", "Вика"])
        'Аня, Борис и Вика'
        >>> get_translator("en").listing(["Anna"])
        'Anna'
        """
        if len(items) < 2:
            return "".join(items)
        return ", ".join(items[:-1]) + self("list.and") + items[-1]


@cache
def get_translator(lang: str = DEFAULT_LANGUAGE) -> Translator:
    return Translator(lang)


def keys(lang: str) -> set[str]:
    """Every key of a catalogue (for tests)."""
    return set(_catalogue(lang))
