"""The specs live in the repository (docs/spec/) and the coverage checks fail, never skip."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from tests.games import spec

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_has_its_spec_design_and_seeds_in_docs_spec() -> None:
    for game_id in games.ids():
        assert spec.spec_path(game_id).is_file(), game_id
        assert spec.rules(game_id) and spec.examples(game_id)
    assert (spec.SPEC_DIR / "DESIGN.md").is_file()
    seeds = sorted(p.name for p in (spec.SPEC_DIR / "seeds").glob("*.txt"))
    assert len(seeds) == 5 and (spec.SPEC_DIR / "seeds" / "README.md").is_file()


def test_a_missing_spec_fails_the_coverage_tests() -> None:
    with pytest.raises(pytest.fail.Exception, match="spec of no_such_game is missing"):
        spec.missing_rules("no_such_game", Path(__file__).parent)
    with pytest.raises(pytest.fail.Exception, match="missing"):
        spec.missing_examples("no_such_game", Path(__file__).parent)


def test_split_examples_need_a_test_per_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """E22 split into E22a/E22b needs both; E4 with a case E4b needs test_e4_ and test_e4b_."""
    monkeypatch.setattr(spec, "SPEC_DIR", tmp_path)
    (tmp_path / "toy.md").write_text(
        "- **R1** a rule.\n"
        "- **E4 Four** (R1).\n  - E4b: another case.\n"
        "- **E22 Split** (R1).\n  - E22a, one case.\n  - E22b, the other.\n"
    )
    tests = tmp_path / "t"
    tests.mkdir()
    (tests / "test_toy.py").write_text("def test_e4b_x():\n    pass\n\ndef test_e22a_x():\n")
    assert spec.missing_examples("toy", tests) == ["4", "22", "22b"]
    (tests / "test_more.py").write_text("def test_e4_x():\n    pass\n\ndef test_e22b_x():\n")
    assert spec.missing_examples("toy", tests) == []
    assert spec.missing_rules("toy", tests) == [1]


def test_no_test_or_module_reads_the_specs_outside_the_repository() -> None:
    """The project's copy is the one its tests and docs name (docs/spec/, not shared/)."""
    stale = [] if "shared/rules/" not in (ROOT / "README.md").read_text() else ["README.md"]
    for folder in ("tests", "games", "bot", "render", "locales", "bench", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".md") or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            if '"shared" / "rules"' in text or "shared/rules/" in text:
                stale.append(str(path.relative_to(ROOT)))
    stale.remove("tests/games/test_spec.py")
    assert stale == []
