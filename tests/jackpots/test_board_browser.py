"""The jackpot board in a real browser (Debian's Chromium driven by Playwright) against the
product served on a real socket: § 637a.15(b), § 637a.15(h): a display adjusted by
finance and witnessed shows on the screen within five seconds without a reload;
§ 637a.15(f)(1): a verified Bad Beat shows the amount pending adjustment; the page keeps
trying while the server restarts and picks up again."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

import pytest
from django.db import connections
from playwright.sync_api import expect

from casino.actors import actor_of
from casino.eventstore import projections
from casino.eventstore.store import NewEvent, append
from casino.roles import Role
from casino.services import staff_bootstrap
from jackpots import services
from jackpots.models import Fund
from tests.poker_room._committed import poker_room

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

KEY = "jackpot-screen-key-for-tests"


@pytest.fixture
def server(live_server_ctl: Any) -> Any:
    """The product on a port of its own; the test stops and starts it, as a restart."""
    return live_server_ctl


@pytest.fixture
def room(settings: Any) -> dict[str, Any]:
    """A property whose Hold'em table has paid $5 into the bad-beat fund (five pots'
    contributions, as the poker room records them) and held one hand as a Bad Beat."""
    settings.JACKPOT_BOARD_DISPLAY_KEYS = {KEY: "PA-JACKPOT-BOARD"}
    people, table = poker_room("PA-JACKPOT-BOARD", "jb", table_name="P-JB")
    prop = people["floor"].property
    for name, role in (("fin", Role.FINANCE), ("pss", Role.POKER_SHIFT_SUPERVISOR)):
        people[name] = actor_of(staff_bootstrap(
            property=prop, username=f"jb-{name}", password="x" * 12,
            credential_number=f"jb-{name}", roles=[role], system="test").user)
    meta = people["dealer"].metadata(role="dealer", table=str(table.pk))
    day = people["dealer"].gaming_day().isoformat()
    hand = str(uuid.uuid4())
    append(("round", f"round-{hand}"), 0, [NewEvent("JackpotContributed", {
        "fund": "bad-beat", "kind": "bad_beat", "pot": 0, "amount_cents": 100,
        "table_id": str(table.pk), "gaming_day": day, "hand_id": hand})
        for _ in range(5)] + [NewEvent("BadBeatQualified", {
            "losing_seat": 1, "losing_hand": "four of a kind, eights", "winning_seat": 2,
            "winning_hand": "royal flush", "players_dealt": [1, 2, 3, 4], "pot_cents": 7_200,
            "fund": "bad-beat", "table_id": str(table.pk), "gaming_day": day,
            "hand_id": hand,
            "payout_shares_bp": {"losing_hand": 5000, "winning_hand": 2500,
                                 "table_share": 2500}})], meta)
    _caught_up(lambda: Fund.objects.filter(name="bad-beat", property=prop).exists())
    return {"people": people, "hand": hand}


def _caught_up(done: Any) -> None:
    """Catch the follower up until ``done()``: it reads only settled events, and a
    transaction in flight anywhere on the server (another test run) holds them back a
    moment."""
    deadline = time.monotonic() + 15
    while True:
        projections.catch_up("jackpot_funds")
        if done() or time.monotonic() > deadline:
            return
        time.sleep(0.1)


def _shows(page: Any, text: str, timeout: float = 5000) -> float:
    started = time.monotonic()
    expect(page.locator("section[data-fund='bad-beat']")).to_contain_text(text,
                                                                         timeout=timeout)
    return time.monotonic() - started


def test_the_board_follows_the_display_and_survives_a_restart(room, server, browser) -> None:
    try:
        _follow_the_board(room, server, browser)
    finally:
        # the test's own ORM calls ran beside Playwright's event loop, on a connection of
        # their own: closed here, so no session outlives the test
        connections.close_all()


def _follow_the_board(room: dict[str, Any], server: Any, browser: Any) -> None:
    people = room["people"]
    # the screen's own clock is Tokyo's: the board shows the property's, New York's
    # (issue 22), with its zone named
    page = browser.new_page(timezone_id="Asia/Tokyo")
    page.goto(f"{server.url}/jackpots/board/?key={KEY}")
    card = page.locator("section[data-fund='bad-beat']")
    assert "to be announced" in card.inner_text()
    expect(page.locator("#status")).to_have_text(re.compile(r"^updated"), timeout=6000)
    services.display_adjust(actor=people["fin"], fund="bad-beat")
    _caught_up(lambda: Fund.objects.get(name="bad-beat", property=people["fin"].property)
               .adjustment_waiting_cents is not None)
    services.display_witness(actor=people["floor"], fund="bad-beat")
    _caught_up(lambda: Fund.objects.get(name="bad-beat", property=people["fin"].property)
               .displayed_cents is not None)
    assert _shows(page, "$5.00") < 5
    server.stop()
    expect(page.locator("#status")).to_have_text(re.compile(r"^reconnecting"), timeout=6000)
    services.bad_beat_verify(actor=people["pss"], fund="bad-beat", hand_id=room["hand"])
    _caught_up(lambda: Fund.objects.get(name="bad-beat", property=people["fin"].property)
               .display_pending)
    server.start()
    assert _shows(page, "Pending adjustment", timeout=8000) < 8
    assert "$5.00" in card.inner_text() and "Ann" not in page.content()
    # "reconnecting…" gave way to the script's own "updated", in the property's zone
    expect(page.locator("#status")).to_have_text(
        re.compile(r"^updated \d{1,2}:\d{2}\s[AP]M E[SD]T$"), timeout=6000)
    page.close()
