"""Telegram text formatting as the Bot API applies it: ``parse_mode`` → plain text + entities.

Only what a bot needs to be caught out: HTML (the supported tag set, unknown or unbalanced
tags are refused with Telegram's wording), MarkdownV2 (reserved characters must be escaped)
and legacy Markdown. Entity offsets and lengths are in UTF-16 code units, like Telegram's.
Leading and trailing whitespace of the result is trimmed, as Telegram does.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

__all__ = ["FormattingError", "apply_formatting", "utf16_len"]


class FormattingError(ValueError):
    """The text cannot be parsed; the message is Telegram's ``can't parse entities`` reason."""


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (the unit of Telegram entity offsets)."""
    return len(text.encode("utf-16-le")) // 2


_HTML_TAGS: dict[str, str] = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}


class _HtmlParser(HTMLParser):
    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.parts: list[str] = []
        self.len16 = 0
        self.stack: list[tuple[str, int, dict[str, Any] | None]] = []
        self.entities: list[dict[str, Any]] = []
        lines = source.split("\n")
        self._line_starts: list[int] = []
        pos = 0
        for line in lines:
            self._line_starts.append(pos)
            pos += len(line.encode("utf-8")) + 1

    def _offset(self) -> int:
        line, col = self.getpos()
        start = self._line_starts[line - 1]
        text_line = self.source.split("\n")[line - 1]
        return start + len(text_line[:col].encode("utf-8"))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kind = _HTML_TAGS.get(tag)
        attributes = dict(attrs)
        if kind is None or (tag == "span" and attributes.get("class") != "tg-spoiler"):
            raise FormattingError(f'Unsupported start tag "{tag}" at byte offset {self._offset()}')
        entity: dict[str, Any] | None = {"type": kind}
        assert entity is not None
        if tag == "a":
            href = attributes.get("href") or ""
            if href.startswith("tg://user?id="):
                entity = {"type": "text_mention", "user": {"id": int(href[13:] or 0)}}
            else:
                entity["url"] = href
        elif tag == "blockquote" and "expandable" in attributes:
            entity["type"] = "expandable_blockquote"
        elif tag == "tg-emoji":
            entity["custom_emoji_id"] = attributes.get("emoji-id") or ""
        elif tag == "code" and self.stack and self.stack[-1][0] == "pre":
            language = attributes.get("class") or ""
            pre = self.stack[-1][2]
            if language.startswith("language-") and pre is not None:
                pre["language"] = language[len("language-") :]
                entity = None
        self.stack.append((tag, self.len16, entity))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raise FormattingError(f'Unsupported start tag "{tag}" at byte offset {self._offset()}')

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            raise FormattingError(
                f'Unexpected end tag at byte offset {self._offset()}, found "</{tag}>"'
            )
        open_tag, start, entity = self.stack.pop()
        if open_tag != tag:
            raise FormattingError(
                f"Unmatched end tag at byte offset {self._offset()}, "
                f'expected "</{open_tag}>", found "</{tag}>"'
            )
        if entity is not None and self.len16 > start:
            entity["offset"] = start
            entity["length"] = self.len16 - start
            self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.len16 += utf16_len(data)


def _check_angles(source: str) -> None:
    """Telegram reads every ``<`` as the start of a tag (a bare one, as in ``a < b``,
    ``<3`` or an unescaped name, is refused), up to a space or ``>``."""
    start = source.find("<")
    while start >= 0:
        end = start + 1
        if source.startswith("/", end):
            close = source.find(">", end)
            if close < 0:
                raise FormattingError(
                    f"Unclosed end tag at byte offset {len(source[:start].encode())}"
                )
        else:
            while end < len(source) and not source[end].isspace() and source[end] != ">":
                end += 1
            offset = len(source[:start].encode())
            if end >= len(source):
                raise FormattingError(f"Unclosed start tag at byte offset {offset}")
            name = source[start + 1 : end].lower()
            if name not in _HTML_TAGS:
                raise FormattingError(f'Unsupported start tag "{name}" at byte offset {offset}')
        start = source.find("<", end)


def _parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    _check_angles(source)
    parser = _HtmlParser(source)
    parser.feed(source)
    parser.close()
    if parser.stack:
        raise FormattingError(
            f'Can\'t find end tag corresponding to start tag "{parser.stack[-1][0]}"'
        )
    return "".join(parser.parts), parser.entities


_MD2_RESERVED = frozenset("_*[]()~`>#+-=|{}.!")
_MD2_MARKERS = {
    "*": "bold",
    "_": "italic",
    "__": "underline",
    "~": "strikethrough",
    "||": "spoiler",
}
_MD1_MARKERS = {"*": "bold", "_": "italic"}


def _parse_markdown(source: str, v2: bool) -> tuple[str, list[dict[str, Any]]]:
    out: list[str] = []
    len16 = 0
    entities: list[dict[str, Any]] = []
    # open markers: (marker, start offset in utf-16 units, byte offset in source)
    stack: list[tuple[str, int, int]] = []
    markers = _MD2_MARKERS if v2 else _MD1_MARKERS
    i = 0
    n = len(source)

    def byte_offset(index: int) -> int:
        return len(source[:index].encode("utf-8"))

    def emit(text: str) -> None:
        nonlocal len16
        out.append(text)
        len16 += utf16_len(text)

    while i < n:
        char = source[i]
        if char == "\\" and (v2 or (i + 1 < n and source[i + 1] in "_*`[")):
            if i + 1 < n:
                emit(source[i + 1])
            i += 2
            continue
        if char == "`":
            fence = "```" if source.startswith("```", i) else "`"
            end = i + len(fence)
            content: list[str] = []
            while end < n and not source.startswith(fence, end):
                if v2 and source[end] == "\\" and end + 1 < n:
                    content.append(source[end + 1])
                    end += 2
                else:
                    content.append(source[end])
                    end += 1
            if end >= n:
                raise FormattingError(
                    f"Can't find end of the entity starting at byte offset {byte_offset(i)}"
                )
            body = "".join(content)
            entity: dict[str, Any] = {"type": "code" if fence == "`" else "pre"}
            if fence == "```":
                first, newline, rest = body.partition("\n")
                if newline and first and " " not in first:
                    entity["language"] = first
                    body = rest
            start = len16
            emit(body)
            if len16 > start:
                entity.update(offset=start, length=len16 - start)
                entities.append(entity)
            i = end + len(fence)
            continue
        marker = None
        for candidate in ("__", "||", char):
            if candidate in markers and source.startswith(candidate, i):
                marker = candidate
                break
        if marker is not None:
            if stack and stack[-1][0] == marker:
                _, start, _ = stack.pop()
                if len16 > start:
                    entities.append(
                        {"type": markers[marker], "offset": start, "length": len16 - start}
                    )
            elif any(open_marker == marker for open_marker, _, _ in stack):
                raise FormattingError(
                    f"Can't find end of the entity starting at byte offset {byte_offset(i)}"
                )
            else:
                stack.append((marker, len16, byte_offset(i)))
            i += len(marker)
            continue
        if char == "[":
            stack.append(("[", len16, byte_offset(i)))
            i += 1
            continue
        if char == "]" and stack and stack[-1][0] == "[":
            _, start, offset = stack.pop()
            if i + 1 >= n or source[i + 1] != "(":
                if v2:
                    raise FormattingError(
                        f"Can't find end of the entity starting at byte offset {offset}"
                    )
                emit("]")
                i += 1
                continue
            close = source.find(")", i + 2)
            if close < 0:
                raise FormattingError(
                    f"Can't find end of the entity starting at byte offset {offset}"
                )
            url = source[i + 2 : close].replace("\\)", ")").replace("\\\\", "\\")
            if len16 > start:
                entities.append(
                    {"type": "text_link", "offset": start, "length": len16 - start, "url": url}
                )
            i = close + 1
            continue
        if v2 and char == ">" and (i == 0 or source[i - 1] == "\n"):
            line_end = source.find("\n", i)
            line_end = n if line_end < 0 else line_end
            start = len16
            inner, inner_entities = _parse_markdown(source[i + 1 : line_end], v2=True)
            for inner_entity in inner_entities:
                inner_entity["offset"] += start
                entities.append(inner_entity)
            emit(inner)
            if len16 > start:
                entities.append({"type": "blockquote", "offset": start, "length": len16 - start})
            i = line_end
            continue
        if v2 and char in _MD2_RESERVED:
            raise FormattingError(
                f"Character '{char}' is reserved and must be escaped with the preceding '\\'"
            )
        emit(char)
        i += 1
    if stack:
        raise FormattingError(
            f"Can't find end of the entity starting at byte offset {stack[-1][2]}"
        )
    return "".join(out), entities


def _trim(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    stripped_left = text.lstrip()
    shift = utf16_len(text) - utf16_len(stripped_left)
    result = stripped_left.rstrip()
    total = utf16_len(result)
    kept: list[dict[str, Any]] = []
    for entity in entities:
        start = max(0, entity["offset"] - shift)
        end = min(total, entity["offset"] + entity["length"] - shift)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    kept.sort(key=lambda e: (e["offset"], -e["length"]))
    return result, kept


def apply_formatting(
    text: str, parse_mode: str | None, entities: list[dict[str, Any]] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """Return ``(plain_text, entities)`` as Telegram stores a text sent with ``parse_mode``.

    >>> apply_formatting("<b>Ход</b> Ани", "HTML")
    ('Ход Ани', [{'type': 'bold', 'offset': 0, 'length': 3}])

    Raises :class:`FormattingError` with Telegram's reason when the markup is invalid.
    Explicit ``entities`` win over ``parse_mode`` (Telegram ignores the mode then).
    """
    if entities:
        return _trim(text, [dict(e) for e in entities])
    mode = (parse_mode or "").lower()
    if mode == "html":
        plain, found = _parse_html(text)
    elif mode == "markdownv2":
        plain, found = _parse_markdown(text, v2=True)
    elif mode == "markdown":
        plain, found = _parse_markdown(text, v2=False)
    elif mode:
        raise FormattingError(f'Unsupported parse_mode "{parse_mode}"')
    else:
        plain, found = text, []
    return _trim(plain, found)
