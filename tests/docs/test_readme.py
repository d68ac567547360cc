"""The README stays a front page: short, the two commands a newcomer needs on its first
screen, and no link into the repository that leads nowhere."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_LINES = 200
FIRST_SCREEN = 40  # lines: what a terminal or GitHub shows before any scrolling

#: a Markdown link or image target: ``](target)`` or ``](target "title")``
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: a reference-style definition: ``[name]: target``
DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.MULTILINE)


def _lines() -> list[str]:
    return README.read_text(encoding="utf-8").splitlines()


def test_the_readme_is_at_most_two_hundred_lines() -> None:
    assert len(_lines()) <= MAX_LINES, (
        f"README.md has {len(_lines())} lines; move detail into docs/ and link it")


def test_the_first_screen_says_make_run_and_make_test() -> None:
    first = "\n".join(_lines()[:FIRST_SCREEN])
    for command in ("make run", "make test"):
        assert re.search(rf"(?m)^\s*{command}\b", first), (
            f"README.md's first {FIRST_SCREEN} lines do not show `{command}` as a command")


def _relative_targets(text: str) -> list[str]:
    targets = LINK.findall(text) + DEFINITION.findall(text)
    return [t for t in targets
            if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.IGNORECASE)  # http:, mailto:
            and not t.startswith("#")]


def test_every_relative_link_resolves_to_a_file() -> None:
    text = README.read_text(encoding="utf-8")
    targets = _relative_targets(text)
    assert targets, "README.md links no page of the docs (the pattern found none)"
    missing = [t for t in targets
               if not (ROOT / unquote(t.split("#", 1)[0])).is_file()]
    assert not missing, f"README.md links files that do not exist: {missing}"


def test_the_link_check_sees_what_a_reader_clicks() -> None:
    """The pattern itself, on a line written by hand."""
    sample = ('See [the guide](docs/guides/dealer.md), [a part](docs/a.md#b "title"), '
              "[the web](https://example.com/x), [here](#tests) and <http://127.0.0.1:8000>.\n"
              "[ref]: docs/reference/api.md\n")
    assert _relative_targets(sample) == ["docs/guides/dealer.md", "docs/a.md#b",
                                         "docs/reference/api.md"]
