"""Helpers of the floor's end-to-end tests (tests/e2e/test_floor_*.py): screenshots for the
role guides, axe-core on every page visited, and the events a step appended.

Screenshots are written only with ``CONSOLE_SCREENSHOTS=1`` (a normal run leaves the
committed PNGs of docs/guides/img/ alone); the docs show the PNGs of one such run, at a
1280 x 800 viewport."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.console._axe import serious_violations

IMG = Path(__file__).resolve().parents[2] / "docs" / "guides" / "img"
VIEWPORT = {"width": 1280, "height": 800}


def shot(page: Any, name: str) -> None:
    """``docs/guides/img/floor-<name>.png`` of the viewport, when CONSOLE_SCREENSHOTS=1."""
    if os.environ.get("CONSOLE_SCREENSHOTS") == "1":
        IMG.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")  # the page's heading in view
        page.screenshot(path=str(IMG / f"floor-{name}.png"))


class Visited:
    """Runs axe-core on each page a test visits; ``problems`` maps a page to its serious
    or critical violations (issue 23 item 7: none on any console page)."""

    def __init__(self) -> None:
        self.problems: dict[str, list[str]] = {}
        self.pages: list[str] = []

    def check(self, page: Any, what: str) -> None:
        page.wait_for_load_state("load")
        self.pages.append(what)
        found = serious_violations(page)
        if found:
            self.problems[what] = found


def mark() -> int:
    """The global position of the newest event (0: none)."""
    from casino.eventstore.models import Event

    last = Event.objects.order_by("-position").values_list("position", flat=True).first()
    return last or 0


def events_since(position: int) -> list[Any]:
    """The events appended after ``position``, in order."""
    from casino.eventstore.models import Event

    return list(Event.objects.filter(position__gt=position).order_by("position"))


def open_waiting_item(page: Any, provider: str, action: str) -> None:
    """On the home page, follow the button ``action`` of the first item of the list
    ``provider`` (a task provider's key: the section's id)."""
    section = page.locator(f"section#{provider}")
    with page.expect_navigation():
        section.get_by_role("button", name=action).first.click()
    page.wait_for_selector("form.command-form")


def submit(page: Any) -> None:
    """Send the command form with its visible button and wait for the page after it."""
    with page.expect_navigation():
        page.locator("form.command-form .command-actions button[type=submit]").click()


def messages(page: Any) -> str:
    return page.locator("#messages").inner_text()
