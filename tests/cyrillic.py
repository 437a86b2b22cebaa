"""Cyrillic string literals in code: the scans that keep player-facing text in `locales/`
(tests/bot/test_locales_complete.py for `bot/`, tests/render/test_picture_language.py for
`render/`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

CYRILLIC = re.compile(r"[\u0400-\u04FF]")


def cyrillic_literals(
    path: Path,
    where: str,
    not_text: Callable[[ast.Module], set[int]],
    allowed: set[tuple[str, str]],
) -> list[str]:
    """«where:line: 'literal'» for each string constant of `path` with a Cyrillic letter,
    except the nodes `not_text(tree)` names (docstrings, …) and the `(where, value)`
    pairs `allowed`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = not_text(tree)
    return [
        f"{where}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and CYRILLIC.search(node.value)
        and (where, node.value) not in allowed
    ]
