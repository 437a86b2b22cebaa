"""Players' names as the chats show them: cleaned, shortened, told apart, escaped.

A Telegram name may be anything: invisible (spaces, zero-width or Hangul fillers),
64 characters of emoji, two players may share it, it may contain `<`, `>` and `&`.
Everything the bot shows goes through here:

- `clean(raw)` drops invisible clusters (zero-width and bidi controls, fillers), folds
  whitespace to single spaces and reduces an overlong cluster (Zalgo marks, an endless
  ZWJ chain) to its base character;
- `shorten(text, graphemes, units)` cuts by extended grapheme clusters (the `regex`
  module's `\\X`), never inside an emoji sequence, a flag or a letter with its marks,
  and says so with «…»;
- `display_names(players, raw, t)` gives the final names in seat order: «Игрок N»
  (N = seat number) for a blank one and superscript numbers for names that look the
  same («Аня ¹», «Аня ²»). Presenters and pictures get exactly these;
- `html_name(name)` escapes a name for a HTML message: always after cutting, so a cut
  never falls inside `&amp;`.

    >>> from locales import get_translator
    >>> display_names([1, 2, 3], {1: "Аня", 2: " \\u200b ", 3: "Аня"}, get_translator("ru"))
    {1: 'Аня ¹', 2: 'Игрок 2', 3: 'Аня ²'}
    >>> shorten("👨‍👩‍👧‍👦👍🏽🇷🇺 Аня", 3)
    '👨‍👩‍👧‍👦👍🏽…'
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache

import regex

from locales import Translator

NAME_GRAPHEMES = 32  # the longest name shown in full (grapheme clusters)...
NAME_UNITS = 64  # ...and in UTF-16 units (Telegram's own limit of a first name)
ELLIPSIS = "…"
MAX_CLUSTER = 10  # code points; the longest emoji sequences have 10
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

_GRAPHEME = regex.compile(r"\X")
# Printable Latin, Greek and Cyrillic without combining marks, soft hyphens or fillers:
# one character is one cluster and nothing is invisible (the usual name, cleaned fast).
_SIMPLE = regex.compile(r"[\x20-\x7e\xa1-\xac\xae-\u02ff\u0370-\u03ff\u0400-\u0482\u048a-\u052f]*")
# A cluster that draws nothing: controls, format characters (zero-width, bidi), spaces,
# lone marks, and letters or symbols that are blank (the usual ingredients of a "blank"
# Telegram name: Hangul fillers, the blank Braille pattern...).
_FILLERS = "\u115f\u1160\u3164\uffa0\u2800\u180e\u034f\u17b4\u17b5\u2061-\u2064"
_BLANK = regex.compile(rf"[\p{{Cc}}\p{{Cf}}\p{{Cs}}\p{{Z}}\p{{Mn}}\p{{Me}}{_FILLERS}]+")
_SPACING = regex.compile(rf"[\s\p{{Z}}{_FILLERS}]")  # a blank cluster that takes room
# What pictures can't draw (outside the BMP, controls, variation selectors)
_UNDRAWN = regex.compile(r"[^\u0000-\uffff]|[\p{Cc}\p{Cf}\p{Cs}\p{Co}\ufe00-\ufe0f]")


def graphemes(text: str) -> list[str]:
    """The extended grapheme clusters of `text` (what a reader counts as characters)."""
    return list(_GRAPHEME.findall(text))


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: how Telegram counts its limits."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def clean(raw: str) -> str:
    """`raw` without invisible characters, with whitespace folded: "" when blank.

    >>> clean("  Аня\\n\\u200bБорис\\u202e ")
    'Аня Борис'
    >>> clean("\\u3164\\u2800\\u200b")
    ''
    """
    if _SIMPLE.fullmatch(raw):
        return " ".join(raw.split())
    out: list[str] = []
    space = False
    for cluster in graphemes(raw):
        if len(cluster) > MAX_CLUSTER:
            cluster = cluster[0]  # Zalgo or an endless chain: its base character
        if _BLANK.fullmatch(cluster):
            space = space or (bool(out) and _SPACING.search(cluster) is not None)
            continue
        if space:
            out.append(" ")
            space = False
        out.append(cluster)
    return "".join(out)


def shorten(text: str, limit: int, units: int | None = None) -> str:
    """`text` of at most `limit` grapheme clusters (and `units` UTF-16 units), «…» at the
    end when cut; a cut falls only between clusters.

    >>> shorten("Александра", 5)
    'Алек…'
    >>> shorten("🇷🇺🇷🇺🇷🇺", 2)
    '🇷🇺…'
    """
    if len(text) <= limit and (units is None or 2 * len(text) <= units):
        return text  # no more clusters than code points, no more units than two each
    clusters = graphemes(text)
    if len(clusters) <= limit and (units is None or utf16_len(text) <= units):
        return text
    room = (units if units is not None else utf16_len(text)) - utf16_len(ELLIPSIS)
    kept: list[str] = []
    for cluster in clusters[: max(0, limit - 1)]:
        room -= utf16_len(cluster)
        if room < 0:
            break
        kept.append(cluster)
    return "".join(kept).rstrip() + ELLIPSIS


def stored_name(first: str | None, last: str | None = None, username: str | None = None) -> str:
    """The name kept in a game record for a Telegram user ("" when it is blank)."""
    name = clean(" ".join(x for x in (first, last) if x))
    if not name and username:
        name = clean(username)
    return shorten(name, NAME_GRAPHEMES, NAME_UNITS)


@lru_cache(maxsize=4096)
def _shown(raw: str, width: int) -> str:
    """`raw` cleaned and shortened (cached: a game shows the same names at every move)."""
    return shorten(clean(raw), width, NAME_UNITS)


@lru_cache(maxsize=4096)
def _lookalike(name: str) -> str:
    """What a name looks like where emoji can't be drawn (the board pictures): two names
    equal here are told apart everywhere."""
    if _SIMPLE.fullmatch(name):
        return name
    kept = _UNDRAWN.sub("", unicodedata.normalize("NFC", name))
    return " ".join(kept.split()) or name


def superscript(n: int) -> str:
    """«²» for 2, «¹²» for 12."""
    return str(n).translate(SUPERSCRIPT)


def display_names(
    players: Sequence[int],
    raw: Mapping[int, str],
    t: Translator,
    limit: int | None = None,
) -> dict[int, str]:
    """The final names of `players` (in seat order, seat N = position N): cleaned,
    «Игрок N» when blank, at most `limit` clusters (default `NAME_GRAPHEMES`), and names
    that look alike numbered with superscripts in seat order («Аня ¹», «Аня ²»)."""
    width = NAME_GRAPHEMES if limit is None else limit
    names: dict[int, str] = {}
    for seat, user in enumerate(players, 1):
        names[user] = _shown(raw.get(user) or "", width) or shorten(
            t("lobby.player_blank", n=seat), width
        )
    for _ in range(3):  # a number may make a name equal to another player's own
        groups: dict[str, list[int]] = {}
        for user, name in names.items():
            groups.setdefault(_lookalike(name), []).append(user)
        clashes = [users for users in groups.values() if len(users) > 1]
        if not clashes:
            break
        for users in clashes:
            for k, user in enumerate(users, 1):
                names[user] = f"{names[user]} {superscript(k)}"
    return names


def name_of(user: int, players: Sequence[int], raw: Mapping[int, str], t: Translator) -> str:
    """One user's shown name; someone not (or no longer) in `players` gets his cleaned
    stored name, or «Кто-то»."""
    if user in players:
        return display_names(players, raw, t)[user]
    name = clean(raw.get(user) or "")
    return shorten(name, NAME_GRAPHEMES, NAME_UNITS) if name else t("lobby.someone")


def html_name(name: str) -> str:
    """`name` for a HTML message (escape after cutting, never before)."""
    return html.escape(name, quote=False)
