"""axe-core in Chromium (axe-playwright-python): the serious and critical violations on a
page, as a list a test asserts empty (issue 23: none on any console page)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()


def serious_violations(page: Any) -> list[str]:
    """``["color-contrast: 2 nodes (serious) …"]`` for each serious or critical rule."""
    results = _AXE.run(page)
    bad = []
    for v in results.response["violations"]:
        if v.get("impact") in ("serious", "critical"):
            targets = [", ".join(n["target"]) for n in v["nodes"][:3]]
            bad.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return bad
