"""The public live games feed (issue 24, item 6; § 637a.9(c): the room may announce its
games, their limits and its vacant seats): its JSON and page name no player, answer 304
to a matching ETag, limit each address, and show a change within a second."""

from __future__ import annotations

import re

import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from poker_floor import feed
from tests.poker_floor._helpers import Floor, event_count

pytestmark = pytest.mark.django_db

JSON = "/poker/live/PA-TEST-1/feed.json"
PAGE = "/poker/live/PA-TEST-1/"
STAKES = "$4.00/$8.00 fixed limit, blinds $2.00/$4.00"  # the example Rules Submission
#: what the listed players gave: none of it may reach the feed (nor their initials)
PERSONAL = ("Ann", "Lee", "Bob", "Stone", "Dee", "Kay", "A.L.", "B.S.", "D.K.",
            "201-555-0123", "2015550123", "212", "5550199", "4420", "dee@example.com")
#: the rows' ids: taken out before looking for digits (a uuid4 holds "212" about once in
#: two hundred)
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


def _personal_in(text: str) -> list[str]:
    """The personal details found in ``text``. A bare run of digits counts only standing
    alone (not inside a longer run of letters and digits: a nonce, an asset's hash, an
    ETag hold "212" now and then by chance)."""
    bare = UUID.sub("", text)
    return [p for p in PERSONAL if (re.search(rf"(?<![0-9A-Za-z]){p}(?![0-9A-Za-z])", bare)
                                    if p.isdigit() else p in bare)]


@pytest.fixture(autouse=True)
def fresh_feed() -> Iterator[None]:
    """No feed built and no request counted by another test (both live in the process)."""
    feed.forget()
    cache.clear()
    yield
    feed.forget()
    cache.clear()


@pytest.fixture
def room(floor: Floor) -> SimpleNamespace:
    """Two open Hold'em tables (ten seats: seat 3 free at the first, 5 and 7 at the
    second), a closed one, the Hold'em list with two players; an Omaha table closed and
    the Omaha list (an interest list) with one player."""
    t1, t2 = floor.tables(2)
    floor.fill(t1, leave=(3,))
    floor.fill(t2, leave=(5, 7))
    closed = floor.table(open=False)
    holdem = floor.waitlist()
    floor.list_player(holdem, "Ann Lee", phone="201-555-0123")
    floor.list_player(holdem, "Bob Stone", phone="(212) 555-0199")
    floor.table("omaha-high", open=False)
    omaha = floor.waitlist("omaha-high")
    floor.list_player(omaha, "Dee Kay", phone="+44 20 7946 0958", email="dee@example.com")
    return SimpleNamespace(floor=floor, tables=[t1, t2], closed=closed, holdem=holdem,
                           omaha=omaha)


def test_the_feed_gives_games_stakes_seats_and_list_lengths_never_a_player(room) -> None:
    r = Client().get(JSON)
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    body = r.json()
    t1, t2 = room.tables
    holdem = body["games"][0].pop("waitlist")
    assert body == {
        "property": "Test Casino", "licence": "PA-TEST-1",
        # the closed Hold'em table is neither counted nor its seats offered
        "games": [{"game": "holdem", "name": "Hold'em", "stakes": STAKES, "tables": 2,
                   "vacant_seats": 3,
                   "open_tables": [{"table": t1.name, "seats": 10, "vacant": [3]},
                                   {"table": t2.name, "seats": 10, "vacant": [5, 7]}]}],
        "interest_lists": [{"id": str(room.omaha.pk), "name": room.omaha.name,
                            "length": 1, "game": "omaha-high"}]}
    assert (holdem["id"], holdem["name"], holdem["length"]) == (
        str(room.holdem.pk), "$4.00/$8.00 fixed limit Hold'em", 2)
    # the estimated waits (poker_floor.wait): one per position, and a newcomer's;
    # unknown (None) here, where no seat has opened yet
    assert (holdem["estimated_waits"], holdem["next_wait"]) == ([None, None], None)
    text = r.content.decode()
    assert _personal_in(text) == []


def test_the_page_shows_the_same_and_no_player(room) -> None:
    r = Client().get(PAGE)
    assert r.status_code == 200
    text = r.content.decode()
    assert "Hold&#x27;em" in text and STAKES in text and "Omaha" in text
    assert f"{room.tables[1].name}: seat 5, 7" in text
    assert _personal_in(text) == []
    # the script that keeps it current, and no inline one (CSP)
    assert "poker_floor/live.js" in text
    assert "unsafe-inline" not in r["Content-Security-Policy"]


def test_an_unknown_licence_is_404(room) -> None:
    r = Client().get("/poker/live/PA-NOPE/feed.json")
    assert (r.status_code, r["Content-Type"], r.json()["code"]) == (
        404, "application/problem+json", "not_found")
    assert Client().get("/poker/live/PA-NOPE/").status_code == 404


def test_a_matching_etag_is_answered_304_and_a_change_gives_a_new_one(
        room, django_capture_on_commit_callbacks) -> None:
    c = Client()
    first = c.get(JSON)
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and not etag.startswith("W/")
    # no client cache serves it without asking again: no staleness added to the server's
    assert first["Cache-Control"] == "public, no-cache"
    again = c.get(JSON, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)
    assert again["Cache-Control"] == "public, no-cache"
    # the same body built again (the cache forgotten) has the same ETag: a hash of it
    feed.forget()
    assert c.get(JSON, HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        room.floor.list_player(room.holdem, "Eve Moss", phone="617-555-0142")
    changed = c.get(JSON, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["games"][0]["waitlist"]["length"] == 3


def test_a_change_committed_here_shows_at_once(room, django_capture_on_commit_callbacks
                                               ) -> None:
    """The store's after-commit hook drops the property's feed: the next read rebuilds it
    (however recently it was built)."""
    c = Client()
    assert c.get(JSON).json()["games"][0]["waitlist"]["length"] == 2
    with django_capture_on_commit_callbacks(execute=True):
        room.floor.leave(room.tables[0], 1)
        room.floor.list_player(room.holdem, "Eve Moss", phone="617-555-0142")
    game = c.get(JSON).json()["games"][0]
    assert (game["waitlist"]["length"], game["open_tables"][0]["vacant"]) == (3, [1, 3])


def test_a_change_committed_elsewhere_shows_within_a_second(room, settings) -> None:
    """A change another process commits runs no hook here (as here, where the test's
    transaction never commits): the feed built before it is served at most
    FEED_CACHE_SECONDS (0.5 s), so a read a second after the change shows it."""
    assert settings.FEED_CACHE_SECONDS == 0.5
    c = Client()
    assert c.get(JSON).json()["games"][0]["waitlist"]["length"] == 2
    room.floor.list_player(room.holdem, "Eve Moss", phone="617-555-0142")
    changed_at = time.monotonic()
    while c.get(JSON).json()["games"][0]["waitlist"]["length"] != 3:
        assert time.monotonic() - changed_at < 1.0, "the feed was more than 1 s stale"
        time.sleep(0.05)


def test_an_address_past_its_rate_is_429_with_retry_after(room, settings,
                                                          time_machine: Any) -> None:
    # five seconds into a minute: the test's requests all fall in that one minute
    time_machine.move_to("2030-01-07 15:00:05+00:00", tick=True)
    settings.FEED_RATE_PER_MINUTE = 3
    c = Client()
    assert [c.get(u).status_code for u in (JSON, PAGE, JSON)] == [200, 200, 200]
    before = event_count()
    r = c.get(JSON)
    assert (r.status_code, r["Content-Type"], r.json()["code"]) == (
        429, "application/problem+json", "rate_limited")
    assert 50 <= int(r["Retry-After"]) <= 55
    assert c.get(PAGE).status_code == 429
    # another address has its own count
    assert Client(REMOTE_ADDR="198.51.100.7").get(JSON).status_code == 200
    assert event_count() == before


def test_ten_pages_behind_one_address_are_never_limited_by_default(
        room, time_machine: Any) -> None:
    """live.js asks once a second: ten viewers behind one NAT make 600 requests a
    minute, all answered (the default FEED_RATE_PER_MINUTE)."""
    time_machine.move_to("2030-01-07 15:00:05+00:00", tick=False)
    pages = [Client() for _ in range(10)]
    etag = pages[0].get(JSON)["ETag"]
    statuses = {p.get(JSON, HTTP_IF_NONE_MATCH=etag).status_code
                for _ in range(60) for p in pages[:-1]}
    statuses |= {pages[-1].get(JSON).status_code for _ in range(59)}
    assert statuses == {200, 304}


def test_the_feed_is_read_only(room) -> None:
    before = event_count()
    c = Client()
    assert c.post(JSON).status_code == 405
    c.get(JSON), c.get(PAGE)
    assert event_count() == before


def test_the_page_words_the_estimated_wait_of_a_newcomer() -> None:
    assert feed.wait_words({"length": 4, "next_wait": {"position": 5, "low_minutes": 12,
                                                       "high_minutes": 31}}) == "12–31 min"
    assert feed.wait_words({"length": 0, "next_wait": None}) == "unknown"
    assert feed.wait_words(None) == "unknown"  # a game running without a list


def test_a_licence_with_a_nul_is_not_found_not_a_server_error(room, settings) -> None:
    settings.FLOOR_KIOSK = True
    for url in ("/poker/live/PA%00X/feed.json", "/poker/live/PA%00X/",
                "/poker/live/PA%00X/join/"):
        assert Client().get(url).status_code == 404, url
