"""Django's ``{# … #}`` comment ends at the line's end: one spread over lines is printed on
the page as text. Every template's multi-line comment is ``{% comment %}``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("casino", "console", "tables", "poker_room", "jackpots", "finance")


def test_no_template_comment_spans_lines() -> None:
    bad = []
    for app in APPS:
        for path in (ROOT / app).rglob("templates/**/*.html"):
            for n, line in enumerate(path.read_text().splitlines(), start=1):
                if "{#" in line and "#}" not in line[line.index("{#"):]:
                    bad.append(f"{path.relative_to(ROOT)}:{n}")
    assert bad == []
