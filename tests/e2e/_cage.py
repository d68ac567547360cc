"""What the cage's end-to-end tests share (tests/e2e/test_cage_*.py): a committed table with
rules in force and its dealer, the pages' moves a person makes (the home's "Waiting for
me" item opened by its button, a form sent), axe-core on every page visited, the
screenshots the role guides show, and the events a table day's or a deck's stream
recorded, the same way for the pages' path and the API's.

Setting things up that are not the task (a table, its rules, the tray's opener) goes
through the services, as the floor would have done earlier in the day; the task itself
goes through the pages only."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

from casino.actors import actor_of
from tests.console._axe import serious_violations

#: the role guides' pictures (docs/guides/img/cage-*.png), taken when CONSOLE_SCREENSHOTS=1
IMG = Path(__file__).resolve().parents[2] / "docs" / "guides" / "img"
SCREENSHOTS = os.environ.get("CONSOLE_SCREENSHOTS") == "1"
#: the screenshots' viewport: a laptop's, small enough to keep each picture light
WIDE = {"width": 1280, "height": 800}
_names = itertools.count(1)


def checked(page: Any, shot: str | None = None) -> None:
    """axe-core on the page as it is now: no serious or critical violation (issue 23 item
    7); then, when asked for and screenshots are on, ``docs/guides/img/cage-<shot>.png``."""
    assert serious_violations(page) == [], page.url
    if shot and SCREENSHOTS:
        IMG.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMG / f"cage-{shot}.png"))


def home(page: Any) -> None:
    """The person's home, "Waiting for me", fresh."""
    page.set_viewport_size(WIDE)
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
    """From the home, the item's button (``action``) opens its form."""
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

def actor(user: Any) -> Any:
    return actor_of(user)


def hilo_table(staff: Any, dealer: Any, floor: Any, *, name: str | None = None) -> Any:
    """An open Five Card Hi-Lo table with rules in force (drafted and submitted by one
    compliance officer, approved by a second) and ``dealer`` assigned by ``floor``."""
    from tables.domain.rules_options import example_options
    from tables.models import RulesSubmission
    from tables.services import rules, tables

    game = "five-card-hi-lo"
    if not RulesSubmission.objects.filter(game=game, property__licence_number="PA-TEST-1"
                                          ).exists():
        officer, second = actor(staff("compliance")), actor(staff("compliance"))
        rs = rules.rules_draft(actor=officer, game=game, options=example_options(game))
        rules.rules_submit(actor=officer, rules_id=rs.pk)
        rules.rules_approve(actor=second, rules_id=rs.pk)
    t = tables.table_configure(actor=actor(staff("admin")), name=name or f"HL-{next(_names)}",
                               game=game, positions=5, dealing_method="automated-shoe",
                               shuffler="automated")
    tables.table_assign_dealer(actor=actor(floor), table_id=t.pk, dealer=dealer.username)
    return tables.table_open(actor=actor(floor), table_id=t.pk)


# --- the API's path, for the same people -------------------------------------------------

def api(user: Any) -> Any:
    """A DRF client with an API token (knox, as ``POST auth/token/`` issues) for ``user``."""
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return c


def post(user: Any, path: str, body: dict[str, Any] | None = None) -> Any:
    answer = api(user).post(f"/api/v1/{path}", body or {}, format="json")
    assert answer.status_code in (200, 201), answer.content
    return answer


# --- the events ----------------------------------------------------------------------------

def steps(stream_id: str, types: set[str], *, drop: tuple[str, ...] = ()) -> list[tuple]:
    """The stream's events of ``types`` as (type, person, role, data without ``drop``)."""
    from casino.eventstore.models import Event

    rows = Event.objects.filter(stream_id=stream_id, type__in=types).order_by("version")
    return [(e.type, e.metadata["actor"], e.metadata["role"],
             {k: v for k, v in e.data.items() if k not in drop}) for e in rows]
