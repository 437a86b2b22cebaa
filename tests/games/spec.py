"""The project's copy of the rules specs (`docs/spec/<game>.md`) and the coverage checks on it.

Every game's tests check, through this one helper, that each rule R<n> of its spec is
named by a test and that each worked example E<n> (E<n><letter> for a sub-example) is a
test function `test_e<n>…_`. A missing spec is a failure, never a skip: the spec is part
of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SPEC_DIR = Path(__file__).resolve().parents[2] / "docs" / "spec"

# `- R12.` (most specs) or `- **R66**` (seven_tracks), at the start of a list item
_RULE = re.compile(r"^\s*- (?:\*\*)?R(\d+)(?:\*\*|\.)", re.MULTILINE)
# `**E7 — …**` / `- **E22 Blocked round**`, and sub-examples `  - E22a, …` / `  - E4b: …`
_EXAMPLE = re.compile(r"\*\*E(\d+[a-z]?)\b")
_SUB_EXAMPLE = re.compile(r"^\s+- E(\d+[a-z])\b", re.MULTILINE)
# an R-number named in a test: `r66`, `R66`, `test_r66_…`, not `r660` nor `xr66`
_NAMED = re.compile(r"(?<![A-Za-z0-9])[rR](\d+)(?![0-9])")
_EXAMPLE_TEST = re.compile(r"^def (test_e(\d+)([a-z]?)_)", re.MULTILINE)


def spec_path(game_id: str) -> Path:
    return SPEC_DIR / f"{game_id}.md"


def spec_text(game_id: str) -> str:
    """The spec of `game_id`; the test fails when it is missing."""
    path = spec_path(game_id)
    if not path.is_file():
        pytest.fail(f"the spec of {game_id} is missing: {path}")
    return path.read_text(encoding="utf-8")


def rules(game_id: str) -> set[int]:
    """The R-numbers the spec defines (one list item each)."""
    found = {int(x) for x in _RULE.findall(spec_text(game_id))}
    assert found, f"no R-numbers found in {spec_path(game_id)}"
    return found


def examples(game_id: str) -> set[str]:
    """The worked examples' ids: `"7"`, `"22a"`, …"""
    text = spec_text(game_id)
    found = set(_EXAMPLE.findall(text)) | set(_SUB_EXAMPLE.findall(text))
    assert found, f"no worked examples found in {spec_path(game_id)}"
    return found


def _test_sources(test_dir: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(test_dir.glob("test_*.py")))


def missing_rules(game_id: str, test_dir: Path) -> list[int]:
    """R-numbers of the spec that no test file in `test_dir` names."""
    named = {int(x) for x in _NAMED.findall(_test_sources(test_dir))}
    return sorted(rules(game_id) - named)


def missing_examples(game_id: str, test_dir: Path) -> list[str]:
    """Example ids with no test function: `test_e7_…` for E7, `test_e7b_…` for E7b. An
    example split into cases from `a` on (E22 = E22a + E22b) is covered by its cases'
    tests; one whose sub-examples start at `b` (E4, E4b) is a case of its own."""
    ids = examples(game_id)
    tested = {n + letter for _, n, letter in _EXAMPLE_TEST.findall(_test_sources(test_dir))}
    split = {x for x in ids if x.isdigit() and f"{x}a" in ids}
    covered = tested | {
        x for x in split if all(y in tested for y in ids if y != x and _parent(y) == x)
    }
    return sorted(ids - covered, key=lambda x: (int(_parent(x)), x))


def _parent(example: str) -> str:
    return example.rstrip("abcdefghijklmnopqrstuvwxyz")
