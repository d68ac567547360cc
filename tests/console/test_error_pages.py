"""The console's 404 and 403 pages (issue 23: "a forged form for another property's row
(404)", "a role without the right (403)"): under ``/console/`` each is a console page
(``console/page.html``: the language, a title, one ``<h1>``, the skip link first, the
person's navigation), never the API's problem+json; under ``/api/`` a 404 stays
problem+json (casino.urls: ``handler404``, ``handler403`` are console.errors's)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

pytestmark = pytest.mark.django_db


def _console_page(r, status: int, heading: str) -> str:  # noqa: ANN001
    assert r.status_code == status
    assert r["Content-Type"].startswith("text/html")
    body = r.content.decode()
    assert '<html lang="en"' in body
    assert re.search(r"<title>[^<]+</title>", body)
    assert body.count("<h1") == 1 and f"<h1>{heading}</h1>" in body
    # the skip link is the body's first link, to <main id="main">
    first_link = re.search(r'<body[^>]*>\s*<a class="skip-link" href="#main">', body)
    assert first_link and 'id="main"' in body
    return body


def test_an_unknown_console_address_is_the_console_not_found_page(
        console_client: Callable) -> None:
    body = _console_page(console_client("floorperson").get("/console/no-such-page/"), 404,
                         "Not found")
    assert 'aria-label="Console"' in body  # the navigation: the person goes on from here
    assert "problem" in body and "urn:casino:problem" not in body


def test_another_propertys_person_is_the_same_not_found_page(
        console_client: Callable, make_staff: Callable) -> None:
    """A row of another property answers exactly what a row that never was answers
    (casino.scoping): the console page, nothing said of the other property."""
    from casino.services import property_register

    theirs = make_staff("dealer", username="their_dealer")  # PA-TEST-1's
    other = property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")
    c = console_client("compliance", property=other)
    forged = c.get(f"/console/staff/{theirs.pk}/")
    never = c.get("/console/staff/999999/")
    body = _console_page(forged, 404, "Not found")
    _console_page(never, 404, "Not found")
    assert "their_dealer" not in body


def test_the_api_keeps_its_problem_json_404(console_client: Callable) -> None:
    r = console_client("floorperson").get("/api/v1/no-such-thing/")
    assert r.status_code == 404
    assert r["Content-Type"].startswith("application/problem+json")
    assert r.json()["code"] == "not_found"


def test_a_page_the_role_may_not_open_is_the_console_forbidden_page(
        console_client: Callable) -> None:
    """A dealer at the Rules Submissions page (compliance and administrators): 403, a
    console page with the reason and the way home; nothing appended."""
    from casino.eventstore.models import Event

    c = console_client("dealer")
    before = Event.objects.count()
    body = _console_page(c.get("/console/rules/"), 403, "Not allowed")
    assert "This page is not for your role." in body
    assert 'href="/console/"' in body
    assert Event.objects.count() == before


def test_the_staff_pages_refusal_is_a_console_page_with_the_navigation(
        console_client: Callable) -> None:
    body = _console_page(console_client("cashier").get("/console/staff/"), 403,
                         "Not available to you")
    assert "The staff pages need the administrator or compliance role." in body
    assert 'aria-label="Console"' in body


def test_a_printable_the_role_may_not_read_is_the_console_forbidden_page(
        console_client: Callable) -> None:
    """jackpots.console_pages.printable raises PermissionDenied: handler403's page."""
    body = _console_page(console_client("dealer").get("/console/print/tables/x/2026-01-01/drop/"),
                         403, "Not allowed")
    assert "needs one of the roles" in body
