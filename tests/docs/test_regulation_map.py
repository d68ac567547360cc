"""The regulation map (docs/hooks/regulation_map.py) lists each chapter's subsections with
the tests and the modules that cite them, counted the way ../shared/tools/regcov counts,
and says so, rather than failing the build, when the rule texts are not there."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("regulation_map", ROOT / "docs/hooks/regulation_map.py")
regulation_map = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regulation_map)


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "main"
    (root / "tests" / "jackpots").mkdir(parents=True)
    (root / "tests" / "jackpots" / "test_counts.py").write_text(
        'import pytest\n\n\n@pytest.mark.regulation("637a.15(d)(1)", "637a.15(b)")\n'
        'def test_count():\n    """The count is witnessed; 637a.15(a) in a docstring only."""\n')
    (root / "tests" / "jackpots" / "helpers.py").write_text('"""637a.15(c) is not a test file."""\n')
    (root / "jackpots" / "services").mkdir(parents=True)
    (root / "jackpots" / "services" / "counts.py").write_text('"""Counts (637a.15(d)(1))."""\n')
    (root / "jackpots" / "migrations").mkdir()
    (root / "jackpots" / "migrations" / "0001.py").write_text('"""637a.15(c)"""\n')
    regs = tmp_path / "shared" / "regs"
    regs.mkdir(parents=True)
    (regs / "ch637a-poker.txt").write_text(
        "§ 637a.1. Definitions.\n(a) Pot — words.\n"
        "§ 637a.15. Bad Beat payout.\n(a) First.\n(b) Second.\n  (i) roman, not a letter.\n"
        "(c) Third.\n(d) Fourth.\n")
    return root


def test_each_subsection_names_the_tests_and_the_code_that_cite_it(tmp_path: Path) -> None:
    """637a.15(d) checked by a test's marker and cited by one service; (a) only in a test's
    docstring and (c) only by a helper and a migration, which do not count; definitions
    (637a.1) are left out, as regcov leaves them."""
    root = _tree(tmp_path)
    page = regulation_map.render(root, tmp_path / "shared" / "regs")
    # 637a.15 (a)-(d) and the eight subsections regcov adds by hand: 12; tests cite (b), (d)
    assert "| [637a](#chapter-637a) | 12 | 2 | 1 |" in page
    assert ("| `§ 637a.15(d)` | `tests/jackpots/test_counts.py` "
            "| `jackpots/services/counts.py` |") in page
    assert "| `§ 637a.15(c)` (no test checks it) | — | — |" in page
    assert "| `§ 637a.15(a)` (no test checks it) | — | — |" in page
    assert "637a.1(a)" not in page


def test_without_the_rule_texts_the_page_says_so_and_lists_what_tests_cite(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    page = regulation_map.render(root, tmp_path / "nowhere")
    assert "The rule texts are not beside this checkout" in page
    assert "| [637a](#chapter-637a) | 2 | 2 | 1 |" in page
