"""No symbol in a message or on a button that phones show as a black glyph (issue 31
point 2): «🂠» (U+1F0A0, a playing card's back) has no emoji presentation, so phones draw
it from a text font — a black card, or a box — in «Семидорожник»'s and ДОМИНА*С's
captions, buttons and hands. Every character beyond the Basic Multilingual Plane that
the bot sends must be an emoji (Unicode's Emoji property: Telegram and the phones draw
it from their colour emoji font — «🀄» now stands for the hand), a part of an emoji
sequence (a skin tone, a flag's letters, a tag), or be asked for in colour with the
variation selector U+FE0F.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import regex

from locales import LANGUAGES, get_translator, keys

ROOT = Path(__file__).resolve().parents[2]
EMOJI = regex.compile(r"\p{Emoji}")
PART = regex.compile(r"\p{Emoji_Modifier}|\p{Regional_Indicator}|[\U000E0020-\U000E007F]")
VS16 = "\ufe0f"


def black_boxes(text: str) -> list[str]:
    """The characters of `text` beyond the BMP that a phone may not show in colour.

    >>> black_boxes("🀄 Мои фишки · 🗑 · 🇷🇺 · 👍🏽 · ⚔️ · 𝄞\\ufe0f"), black_boxes("🂠 Мои")
    ([], ['🂠'])
    """
    found = []
    for i, ch in enumerate(text):
        if ord(ch) <= 0xFFFF or EMOJI.match(ch) or PART.match(ch):
            continue
        if text[i + 1 : i + 2] == VS16:
            continue
        found.append(ch)
    return found


def _locale_texts() -> Iterator[tuple[str, str]]:
    for language in LANGUAGES:
        t = get_translator(language)
        for key in sorted(keys(language)):
            value = t.raw(key)
            for form in value.values() if isinstance(value, dict) else [value]:
                yield f"{language}:{key}", str(form)


def _bot_literals() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value


def test_no_text_the_bot_sends_has_a_symbol_phones_show_black() -> None:
    texts = [*_locale_texts(), *_bot_literals()]
    assert len(texts) > 1000
    bad = {where: black_boxes(text) for where, text in texts if black_boxes(text)}
    assert bad == {}


def test_the_hand_buttons_keep_one_symbol_in_every_language() -> None:
    """«🀄 Мои фишки» / «🀄 My tiles»: the same colour emoji for the hand everywhere."""
    for language in LANGUAGES:
        t = get_translator(language)
        for key in ("st.btn.hand", "dom.btn.hand", "hand.opened"):
            assert t(key).startswith("🀄 "), (language, key, t(key))
