"""A HTML caption fitted into Telegram's limit without breaking it.

Telegram counts a caption after parsing its entities, in UTF-16 units (an emoji is
two, a flag four, `&amp;` one, a tag nothing), and refuses one that is too long. When a
caption does not fit, the narration goes first, then every name is shortened (by
grapheme clusters, told apart again: `bot.names`), so every player and the one to move
stay on the table; only a caption that still does not fit is cut, as plain text,
between clusters and escaped after the cut, so it stays valid HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence

from bot.names import graphemes, html_name, shorten, utf16_len

NAME_WIDTHS = (24, 20, 16, 12, 10, 8, 6, 5, 4, 3, 2)  # grapheme clusters, tried in turn
_TAG = re.compile(r"<[^>]*>")

Build = Callable[[dict[int, str], list[str]], str]  # (names, narration) -> caption


def plain_text(caption: str) -> str:
    """What Telegram shows of a HTML `caption`: tags dropped, entities decoded, trimmed."""
    return html.unescape(_TAG.sub("", caption)).strip()


def visible_length(caption: str) -> int:
    """The length Telegram checks against its limit (UTF-16 units of the plain text)."""
    return utf16_len(plain_text(caption))


def fits(caption: str, limit: int) -> bool:
    """`visible_length(caption) <= limit`; tags and entities only shorten the source, so
    a source of at most `limit` units fits without parsing."""
    return utf16_len(caption) <= limit or visible_length(caption) <= limit


def plain_cut(caption: str, limit: int) -> str:
    """The last resort: the plain text cut between clusters to `limit` units, escaped."""
    plain = plain_text(caption)
    return html_name(shorten(plain, len(plain) + 1, limit))


def fit_caption(
    build: Build,
    names_at: Callable[[int | None], dict[int, str]],
    log: Sequence[str],
    limit: int,
    keep: Sequence[int] = (3, 1, 0),
) -> str:
    """The first of: the caption with `keep[0]`, `keep[1]`... narration lines and full
    names; without narration and with names of at most `NAME_WIDTHS[0]`,
    `NAME_WIDTHS[1]`... clusters; the plain cut. `names_at(None)` are the full names."""
    names = names_at(None)
    caption = ""
    for k in keep:
        caption = build(names, list(log[-k:]) if k else [])
        if fits(caption, limit):
            return caption
    longest = max((len(graphemes(x)) for x in names.values()), default=0)
    for width in NAME_WIDTHS:
        if width >= longest:
            continue
        caption = build(names_at(width), [])
        if fits(caption, limit):
            return caption
    return plain_cut(caption, limit)
