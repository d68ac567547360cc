"""The room board in a real browser (Debian's Chromium driven by Playwright) against the
product served on a real socket: § 637a.9(c), a seat taken shows on the board within five
seconds, without a reload, on a screen opened with its display key."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.db import connections
from playwright.sync_api import expect

from poker_room.services import seats
from tests.poker_room._committed import poker_room

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

KEY = "room-screen-key-for-tests"


@pytest.fixture
def server(live_server_ctl: Any) -> str:
    """The product on a free port, in a thread (it sees what the test commits)."""
    return live_server_ctl.url


@pytest.fixture
def room(settings: Any) -> dict[str, Any]:
    """A property with one open Hold'em table under the example Rules Submission and a
    dealer; the screen's display key opens its board."""
    settings.ROOM_BOARD_DISPLAY_KEYS = {KEY: "PA-BOARD"}
    people, table = poker_room("PA-BOARD", "rb", table_name="P-BOARD")
    return {"people": people, "table": table}


def test_a_seat_taken_shows_on_the_board_within_five_seconds(room, server, browser) -> None:
    try:
        _seat_shows(room, server, browser)
    finally:
        # the test's own ORM calls ran beside Playwright's event loop, on a connection of
        # their own: closed here, so no session outlives the test
        connections.close_all()


def _seat_shows(room: dict[str, Any], server: str, browser: Any) -> None:
    # a screen whose own zone is far from the property's: the board's clock is the
    # property's wall clock all the same (as the jackpot board's test)
    page = browser.new_page(timezone_id="Asia/Tokyo")
    page.goto(f"{server}/poker/board/?key={KEY}")
    row = page.locator(f"tr[data-table='{room['table'].pk}']")
    assert "P-BOARD" in row.inner_text()
    expect(page.locator("#status")).to_have_text(re.compile(r"^updated"), timeout=6000)
    assert "10 open" in row.inner_text()
    seats.seat_player(actor=room["people"]["dealer"], table_id=room["table"].pk, seat=3,
                      buy_in_cents=10_000, paid_with="chips",
                      player={"name": "Screen Test", "phone": "555"})
    started = time.monotonic()
    expect(row).to_contain_text("9 open", timeout=5000)
    assert time.monotonic() - started < 5
    text = row.inner_text()
    assert "seat 1, 2, 4" in text and "Screen Test" not in text
    # the script's own "updated" reads the property's zone (America/New_York), not Tokyo's
    expect(page.locator("#status")).to_have_text(
        re.compile(r"^updated \d{1,2}:\d{2}\s[AP]M E[SD]T$"), timeout=6000)
    page.close()
