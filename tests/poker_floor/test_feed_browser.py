"""The live games feed's page, the kiosk form and the room board's lists in a real browser
(Debian's Chromium driven by Playwright) against the product on a real socket: no serious
axe violation, and a player listed shows on the open page within two seconds, without a
reload (the page asks feed.json every second; the change drops the feed at once)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connections
from playwright.sync_api import expect

from poker_floor import feed
from tests.console._axe import serious_violations
from tests.poker_floor._helpers import make_floor_for

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

LICENCE = "PA-LIVE-1"
KEY = "room-screen-key-for-the-feed-test"


@pytest.fixture
def room(settings: Any) -> Iterator[SimpleNamespace]:
    """A committed property with an open Hold'em table (seats 1-8 taken), the Hold'em
    list with two players, and the Omaha interest list; the kiosk on."""
    from casino.services import property_register, staff_bootstrap

    settings.FLOOR_KIOSK = True
    settings.ROOM_BOARD_DISPLAY_KEYS = {KEY: LICENCE}
    feed.forget()
    prop = property_register(licence_number=LICENCE, name="Live Casino", system="test")
    seq = iter(range(1, 100))

    def make_staff(*roles: str, property: Any = None) -> Any:
        n = next(seq)
        return staff_bootstrap(property=property or prop, username=f"live{n}",
                               password="x" * 12, credential_number=f"L-{n:04d}",
                               roles=roles, system="test").user

    floor = make_floor_for(prop, make_staff)
    table = floor.table()
    floor.fill(table, leave=(9, 10))
    holdem = floor.waitlist()
    floor.list_players(holdem, "Ann Lee", "Bob Stone")
    floor.waitlist("omaha-high")
    try:
        yield SimpleNamespace(floor=floor, table=table, holdem=holdem)
    finally:
        feed.forget()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page()
    try:
        yield page
    finally:
        page.close()
        # the test's own ORM calls ran beside Playwright's event loop, on a connection of
        # their own: closed here, in that context, so no session outlives the test
        connections.close_all()


def test_the_live_page_passes_axe_and_shows_a_new_player_within_two_seconds(
        room, live_server_ctl, page) -> None:
    page.goto(f"{live_server_ctl.url}/poker/live/{LICENCE}/")
    row = page.locator("#games tr[data-game='holdem']")
    expect(row.locator("td.waiting")).to_have_text("2")
    assert "seat 9, 10" in row.inner_text()
    assert page.locator("#interest tr").inner_text().startswith("$4.00/$8.00")
    assert serious_violations(page) == []
    room.floor.list_player(room.holdem, "Cy Young", phone="617-555-0142")
    started = time.monotonic()
    expect(row.locator("td.waiting")).to_have_text("3", timeout=2000)
    assert time.monotonic() - started < 2
    text = page.locator("main").inner_text()
    assert "Ann" not in text and "Young" not in text and "C.Y." not in text


def test_the_kiosk_form_and_the_board_lists_pass_axe(room, live_server_ctl, page) -> None:
    page.goto(f"{live_server_ctl.url}/poker/live/{LICENCE}/join/")
    assert page.get_by_label("Name or initials").is_visible()
    assert page.get_by_label("Mobile phone").is_visible()
    assert serious_violations(page) == []
    # a refusal (no phone) shown on the form: still accessible, the field marked
    page.select_option("#id_waitlist", str(room.holdem.pk))
    page.fill("#id_name", "Jo")
    page.click("button[type=submit]")
    expect(page.locator("#refusal")).to_be_visible()
    assert page.locator("#id_phone").get_attribute("aria-invalid") == "true"
    assert serious_violations(page) == []
    page.goto(f"{live_server_ctl.url}/poker/board/?key={KEY}")
    lists = page.locator("#lists tr")
    expect(lists.first).to_contain_text("A.L., B.S.")
    assert serious_violations(page) == []
