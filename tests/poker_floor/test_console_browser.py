"""The poker floor's console pages in Chromium (issue 24; issue 23's rules for every console
page): the lists, one list and the fairness record on a 768 px tablet — no horizontal
scrolling of the page (a wide table scrolls in its own captioned, focusable box) and no
serious or critical axe-core violation — for the floor (names, phones, the steps) and for
a compliance officer (initials only); and the lists' results polled: a player added
elsewhere appears without a reload. The data is committed (the live server's thread reads
it)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.actors import actor_of
from poker_floor.services import calls
from tests.console._axe import serious_violations
from tests.console.conftest import console_page  # noqa: F401  (a Chromium page, logged in)
from tests.poker_floor._helpers import PEOPLE, Floor

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def _floor(console_page: Any) -> Floor:  # noqa: F811
    """A floor of the console page's property, its people committed."""
    people = {who: actor_of(console_page.staff(*roles, username=f"fl-{who}"))
              for who, roles in PEOPLE.items() if roles}
    return Floor(property=people["floor"].property, people=people, make_staff=None)


def _check(page: Any, what: str) -> dict[str, list[str]]:
    wide = page.evaluate("document.documentElement.scrollWidth"
                         " - document.documentElement.clientWidth")
    found = ([f"scrolls sideways by {wide}px"] if wide > 0 else []) + serious_violations(page)
    return {what: found} if found else {}


def test_the_lists_and_the_fairness_record_pass_axe_on_a_tablet_and_poll(
        console_page, settings) -> None:  # noqa: F811
    settings.CONSOLE_POLL_SECONDS = 1
    f = _floor(console_page)
    t1, t2 = f.tables(2)
    f.fill(t1, leave=(9,))
    f.fill(t2, leave=(8, 9))
    wl = f.waitlist(open_table_at=3)
    ann, bob, cy = f.list_players(wl, "Ann Lee", "Bob Stone", "Cy Young")
    f.list_player(wl, "Di Ross", email="di@example.com")
    calls.call_player(actor=f["floor"], waitlist_id=wl.pk, entry_id=cy.pk, table_id=t1.pk,
                      seat=9, reason="asked for the first table")
    calls.call_next(actor=f["floor"], waitlist_id=wl.pk, table_id=t2.pk, seat=9)
    omaha = f.waitlist("omaha-high")
    f.list_player(omaha, "Oma One")

    problems: dict[str, list[str]] = {}
    paths = ["/console/poker/lists/", f"/console/poker/lists/{wl.pk}/",
             f"/console/poker/lists/{omaha.pk}/", f"/console/poker/lists/{wl.pk}/fairness/",
             f"/console/poker/lists/{wl.pk}/fairness/?entry={ann.pk}",
             f"/console/poker/lists/{wl.pk}/fairness/?day=nonsense", "/console/"]
    for role in ("floorperson", "compliance"):
        page = console_page(role)
        page.set_viewport_size({"width": 768, "height": 1024})
        for path in paths:
            response = page.goto(page.server + path)
            expected = 400 if "nonsense" in path else 200
            assert response.status == expected, (role, path)
            problems.update(_check(page, f"{role} {path}"))
        html = page.goto(page.server + "/console/poker/lists/") and page.content()
        assert ("Ann Lee" in html) == (role == "floorperson")
        assert "A.L." in html
    assert problems == {}

    # the results are polled: a player added elsewhere shows without a reload
    page.wait_for_function("document.querySelector('#lists-results').dataset.updated")
    f.list_player(wl, "Ed Wood")
    # (a selector, not a function: the page's CSP allows no string evaluated as script)
    page.wait_for_selector("#lists-results :text('E.W.')", timeout=15_000)
    assert "E.W." in page.inner_text("#lists-results")
