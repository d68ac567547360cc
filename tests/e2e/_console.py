"""What the end-to-end tests of the console share (tests/e2e/test_cage_*.py and
test_floor_*.py): the pages' moves a person makes (the home's "Waiting for me" item opened
by its button, a form sent), axe-core on every page visited, the screenshots the role
guides show, the events recorded (a stream's, or all since a position), and for the
cage's tests a committed table with rules in force and its dealer, and the API's path for
the same people.

Setting things up that are not the task (a table, its rules, the tray's opener) goes
through the services, as the floor would have done earlier in the day; the task itself
goes through the pages only.

Screenshots are written only with ``CONSOLE_SCREENSHOTS=1`` (a normal run leaves the
committed PNGs of docs/guides/img/ alone), at a 1280 x 800 viewport."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

from casino.actors import actor_of
from tests.conftest import token_client
from tests.console._axe import serious_violations

#: the role guides' pictures (docs/guides/img/*.png), taken when CONSOLE_SCREENSHOTS=1
IMG = Path(__file__).resolve().parents[2] / "docs" / "guides" / "img"
SCREENSHOTS = os.environ.get("CONSOLE_SCREENSHOTS") == "1"
#: the screenshots' viewport: a laptop's, small enough to keep each picture light
VIEWPORT = {"width": 1280, "height": 800}
_names = itertools.count(1)


def shot(page: Any, name: str) -> None:
    """``docs/guides/img/<name>.png`` of the viewport, when CONSOLE_SCREENSHOTS=1."""
    if SCREENSHOTS:
        IMG.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")  # the page's heading in view
        page.screenshot(path=str(IMG / f"{name}.png"))


def checked(page: Any, name: str | None = None) -> None:
    """axe-core on the page as it is now: no serious or critical violation (issue 23 item
    7); then, when asked for, ``docs/guides/img/cage-<name>.png``."""
    assert serious_violations(page) == [], page.url
    if name:
        shot(page, f"cage-{name}")


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


def home(page: Any) -> None:
    """The person's home, "Waiting for me", fresh."""
    page.set_viewport_size(VIEWPORT)
    page.goto(f"{page.server}/console/")
    assert page.locator("h1").inner_text() == "Waiting for me"


def waiting_item(page: Any, section: str, words: str) -> Any:
    """The item of the home's list ``section`` (its provider's key) whose text holds
    ``words``, exactly one."""
    item = page.locator(f"#{section} li.waiting-item").filter(has_text=words)
    assert item.count() == 1, page.locator(f"#{section}").inner_text()
    return item


def open_waiting(page: Any, section: str, words: str, action: str, *,
                 shot: str | None = None) -> None:
    """From the home, the item's button (``action``) opens its form (``shot``: the home's
    screenshot, ``cage-<shot>.png``)."""
    home(page)
    item = waiting_item(page, section, words)
    checked(page, shot)
    item.get_by_role("button", name=action).click()
    page.wait_for_url("**/console/do/**")


def send(page: Any, button: str, *, shot: str | None = None) -> None:
    """The form checked (axe, its screenshot), sent by its button; back home with
    "Recorded: …" in the messages region."""
    checked(page, shot)
    page.locator(".command-actions").get_by_role("button", name=button).click()
    page.wait_for_url(f"{page.server}/console/")
    assert "Recorded:" in page.locator("#messages").inner_text(), page.content()


def not_offered(page: Any, section: str, words: str) -> None:
    """The item is on the person's list with who did the first step, and no button."""
    home(page)
    item = waiting_item(page, section, words)
    assert item.locator("a.waiting-action").count() == 0
    assert "the second step is another person's" in item.inner_text()


def gone(page: Any, words: str) -> None:
    """Nothing on the person's home mentions ``words`` any more (the item is done)."""
    home(page)
    assert words not in page.locator("#waiting").inner_text()


# --- set-up through the services (not the task) -----------------------------------------

def hilo_table(staff: Any, dealer: Any, floor: Any, *, name: str | None = None) -> Any:
    """An open Five Card Hi-Lo table with rules in force (drafted and submitted by one
    compliance officer, approved by a second) and ``dealer`` assigned by ``floor``."""
    from tables.domain.rules_options import example_options
    from tables.models import RulesSubmission
    from tables.services import rules, tables

    game = "five-card-hi-lo"
    if not RulesSubmission.objects.filter(game=game, property__licence_number="PA-TEST-1"
                                          ).exists():
        officer, second = actor_of(staff("compliance")), actor_of(staff("compliance"))
        rs = rules.rules_draft(actor=officer, game=game, options=example_options(game))
        rules.rules_submit(actor=officer, rules_id=rs.pk)
        rules.rules_approve(actor=second, rules_id=rs.pk)
    t = tables.table_configure(actor=actor_of(staff("admin")), name=name or f"HL-{next(_names)}",
                               game=game, positions=5, dealing_method="automated-shoe",
                               shuffler="automated")
    tables.table_assign_dealer(actor=actor_of(floor), table_id=t.pk, dealer=dealer.username)
    return tables.table_open(actor=actor_of(floor), table_id=t.pk)


# --- the API's path, for the same people -------------------------------------------------

def post(user: Any, path: str, body: dict[str, Any] | None = None) -> Any:
    answer = token_client(user).post(f"/api/v1/{path}", body or {}, format="json")
    assert answer.status_code in (200, 201), answer.content
    return answer


# --- the events ----------------------------------------------------------------------------

def steps(stream_id: str, types: set[str], *, drop: tuple[str, ...] = ()) -> list[tuple]:
    """The stream's events of ``types`` as (type, person, role, data without ``drop``)."""
    from casino.eventstore.models import Event

    rows = Event.objects.filter(stream_id=stream_id, type__in=types).order_by("version")
    return [(e.type, e.metadata["actor"], e.metadata["role"],
             {k: v for k, v in e.data.items() if k not in drop}) for e in rows]


def mark() -> int:
    """The global position of the newest event (0: none)."""
    from casino.eventstore.models import Event

    last = Event.objects.order_by("-position").values_list("position", flat=True).first()
    return last or 0


def events_since(position: int) -> list[Any]:
    """The events appended after ``position``, in order."""
    from casino.eventstore.models import Event

    return list(Event.objects.filter(position__gt=position).order_by("position"))


# --- the floor's tests' moves ------------------------------------------------------------

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
