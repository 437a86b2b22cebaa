"""The doctests run in CI: every folder of the repository that has one is in pytest's
testpaths (with --doctest-modules), and a doctest that is skipped says why."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"^\s*>>> ", re.MULTILINE)
NOT_SOURCE = {".git", ".venv", "docs", "node_modules"}


def pytest_options() -> dict[str, object]:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    assert isinstance(options, dict)
    ini = options["ini_options"]
    assert isinstance(ini, dict)
    return ini


def collected_folders() -> list[str]:
    paths = pytest_options()["testpaths"]
    assert isinstance(paths, list)
    return [str(x) for x in paths]


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if ".venv" not in p.parts)


def test_every_folder_with_doctests_is_collected_with_doctest_modules() -> None:
    options = pytest_options()
    assert "--doctest-modules" in str(options["addopts"]).split()
    with_doctests = {
        folder.name
        for folder in ROOT.iterdir()
        if folder.is_dir()
        and folder.name not in NOT_SOURCE
        and any(EXAMPLE.search(p.read_text(encoding="utf-8")) for p in sources(folder))
    }
    assert {"bot", "games", "render", "locales", "fake_telegram", "bench"} <= with_doctests
    assert with_doctests - set(collected_folders()) == set()


def test_a_skipped_doctest_says_why() -> None:
    unexplained = [
        str(p.relative_to(ROOT))
        for folder in collected_folders()
        for p in sources(ROOT / folder)
        if "doctest: +SKIP" in (text := p.read_text(encoding="utf-8"))
        and "skipped by doctest" not in text
    ]
    assert unexplained == []
