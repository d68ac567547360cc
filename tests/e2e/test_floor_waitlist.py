"""The poker floor's list end to end in Chromium (issue 24, "Done when"): the poker shift
supervisor adds three players to the Hold'em list through the console's pages, a seat
opens, the first player is called and paged (the fake SMS gateway receives the text),
does not come and is moved down, the second is called and seated through the page; a
must-move game is set up through the page and, when a seat opens at its main table, the
player seated longest at the must-move table moves to it. The public feed shows each new
length of the list within a second; the fairness record shows every step in order.

Every step a person takes is a page (the login form, the lists, the command forms, the
seat pages). What the system does runs as it does in production: a real Celery worker (a
thread, against the test's Redis broker) runs the seat offers, the pages and the call's
timeout at its deadline (its ETA). The set-up goes through the services, as the floor
would have done earlier in the day: the Rules Submission (the list's call_minutes 3),
three open Hold'em tables of six seats, all taken, and the list opened.

A call's minute lasts a second here (FLOOR_CALL_MINUTE_SECONDS) while the first player is
called, so the call times out in three seconds; once the first page is recorded it is a
minute again, so the second player (called by the timeout itself) has the time to walk to
the seat through the pages.

Rules: 637a.8(a) (only players seated at the table play: a called player is seated
through the seat service), 637a.9(c) (the room may announce its games and vacant seats:
the public feed)."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any
from urllib.error import URLError
from urllib.request import urlopen

import pytest
from celery.contrib.testing.worker import start_worker
from playwright.sync_api import expect

from casino.celery import app
from casino.eventstore.store import read_stream
from casino.models import Property
from poker_floor import feed
from poker_floor.models import Call, CallState, Waitlist
from poker_room.models import Seat
from tests.console.conftest import console_page  # noqa: F401  (a Chromium page, logged in)
from tests.e2e._console import VIEWPORT, Visited, messages, submit
from tests.poker_floor._gateway import Gateway
from tests.poker_floor._helpers import make_floor_for

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.celery]

LICENCE = "PA-TEST-1"  # console_page's property
SUPERVISOR = "sam-supervisor"
#: the players the supervisor adds, in order: name, phone as typed, as the gateway gets it
PLAYERS = [("Ann Lee", "201-555-0123", "+12015550123"),
           ("Bob Stone", "(212) 555-0199", "+12125550199"),
           ("Cy Young", "617-555-0142", "+16175550142")]
#: each page's text (poker_floor.paging.call_text): the initials and the table, never a
#: name or a number; the Rules' 3 minutes
TEXT = "{initials}: a seat is ready for you at table {table}. Please come to the poker " \
       "desk within 3 minutes."
#: the longest any one wait of the test may take (a busy machine); the test is ~40 s
PATIENCE = 20.0


def until(what: str, check: Callable[[], Any], seconds: float = PATIENCE) -> Any:
    """Poll ``check`` every 50 ms until it gives something true (returned); fail saying
    ``what`` was not seen within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, f"not within {seconds:.0f} s: {what}"
        time.sleep(0.05)


# --- the public feed, read continuously ---------------------------------------------

class FeedWatch:
    """A thread reading the public ``feed.json`` every 50 ms, as a web site or a TV does:
    each answer's wall-clock time and the Hold'em list's length (None: no list shown)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: list[tuple[float, int | None]] = []
        self.errors: list[str] = []
        self.body = ""  # the last answer, as JSON
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with urlopen(self.url, timeout=5) as answer:
                    data = json.load(answer)
            except (URLError, OSError, ValueError) as exc:
                self.errors.append(repr(exc))
            else:
                games = {g["game"]: g for g in data["games"]}
                waitlist = games["holdem"]["waitlist"] if "holdem" in games else None
                self.seen.append((time.time(), waitlist["length"] if waitlist else None))
                self.body = json.dumps(data)
            self._stop.wait(0.05)

    def start(self) -> FeedWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def length(self) -> int | None:
        return self.seen[-1][1] if self.seen else None

    def delay(self, since: float, length: int) -> float | None:
        """Seconds from ``since`` (a change's recording, wall clock) until the feed first
        answered ``length`` after it (None: not yet)."""
        for at, n in list(self.seen):
            if at >= since and n == length:
                return at - since
        return None


# --- fixtures -----------------------------------------------------------------------

@pytest.fixture
def floor_settings(settings: Any) -> Iterator[Gateway]:
    """The fake SMS gateway as the paging service; a call's minute a second; the feed's
    per-address limit out of the way of a reader polling 20 times a second."""
    gateway = Gateway().start()
    settings.PAGING_SMS_URL = gateway.sms_url
    settings.PAGING_TIMEOUT_SECONDS = 2
    settings.FLOOR_AUTO_CALL = True
    settings.FLOOR_CALL_MINUTE_SECONDS = 1
    settings.FEED_RATE_PER_MINUTE = 100_000
    feed.forget()
    try:
        yield gateway
    finally:
        gateway.stop()
        feed.forget()


@pytest.fixture
def room(console_page: Any, floor_settings: Gateway) -> Any:  # noqa: F811
    """The set-up, through the services: the Hold'em Rules Submission in force (call
    minutes 3, moved down 3 places, off at the second miss), three open Hold'em tables of
    six seats all taken (HE-Feed's seat 1 first: the player seated longest there), and
    the Hold'em list, empty. Nothing left in the broker's queue."""
    console_page.staff("poker_shift_supervisor", username="set-up")
    prop = Property.objects.get(licence_number=LICENCE)
    floor = make_floor_for(prop, lambda *roles, property=None: console_page.staff(*roles))
    floor.rules("holdem", waitlist={"call_minutes": 3, "move_down_places": 3,
                                    "missed_calls_allowed": 2})
    tables = {name: floor.table(positions=6, name=name)
              for name in ("HE-Feed", "HE-1", "HE-Main")}
    for table in tables.values():
        floor.fill(table)
    waitlist = floor.waitlist()
    app.control.purge()
    return SimpleNamespace(floor=floor, waitlist=waitlist, he1=tables["HE-1"],
                           main=tables["HE-Main"], feeder=tables["HE-Feed"])


@pytest.fixture
def worker(room: Any) -> Iterator[Any]:
    """A Celery worker in a thread, after the set-up: the seat offers, pages and
    timeouts run in it as in production."""
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w
    app.control.purge()  # a call left open (the last one) has its timeout queued


# --- reading the list's stream --------------------------------------------------------

def list_events(waitlist: Any) -> list[Any]:
    return list(read_stream(f"waitlist-{waitlist.pk}"))


def recorded(waitlist: Any, type_: str, **data: Any) -> list[Any]:
    """The list's events of ``type_`` whose data holds ``data``."""
    return [e for e in list_events(waitlist) if e.type == type_
            and all(e.data.get(k) == v for k, v in data.items())]


def open_call(entry: str) -> Call | None:
    return Call.objects.filter(entry_id=entry, state=CallState.OPEN).first()


# --- the test -------------------------------------------------------------------------

def test_the_supervisor_lists_three_players_and_the_floor_calls_pages_times_out_seats_and_moves(
        console_page, room, worker, floor_settings, browser, live_server_ctl,  # noqa: F811
        settings) -> None:
    gateway = floor_settings
    waitlist, he1, main, feeder = room.waitlist, room.he1, room.main, room.feeder
    server = live_server_ctl.url
    list_url = f"{server}/console/poker/lists/{waitlist.pk}/"
    visited = Visited()
    watch = FeedWatch(f"{server}/poker/live/{LICENCE}/feed.json").start()
    live = browser.new_page(viewport=VIEWPORT)  # the public page, no login
    try:
        live.goto(f"{server}/poker/live/{LICENCE}/")
        row = live.locator("#games tr[data-game='holdem']")
        expect(row.locator("td.waiting")).to_have_text("0")
        visited.check(live, "live games feed")
        until("the feed read", lambda: watch.length() == 0)

        # --- 1. the supervisor logs in and adds three players to the Hold'em list
        sup = console_page("poker_shift_supervisor", username=SUPERVISOR)
        sup.set_viewport_size(VIEWPORT)
        visited.check(sup, "home (supervisor)")
        sup.get_by_role("link", name="Waitlists").click()
        sup.wait_for_url("**/console/poker/lists/")
        visited.check(sup, "waitlists")
        sup.get_by_role("link", name=waitlist.name, exact=True).click()
        sup.wait_for_url(list_url)
        visited.check(sup, "the Hold'em list")
        for i, (name, typed, _) in enumerate(PLAYERS):
            if i:
                sup.goto(list_url)
            sup.get_by_role("button", name=f"Add a player: {waitlist.name}").click()
            sup.wait_for_selector("form.command-form")
            sup.fill("#f-name", name)
            sup.fill("#f-phone", typed)
            if not i:
                visited.check(sup, "add a player form")
            submit(sup)
            assert "Recorded: Add the player to the list" in messages(sup), messages(sup)
            until(f"{name} on the feed", lambda n=i + 1: watch.length() == n)
        expect(row.locator("td.waiting")).to_have_text("3", timeout=2500)
        sup.goto(list_url)
        body = sup.locator("main").inner_text()
        assert body.index("Ann Lee (A.L.)") < body.index("Bob Stone (B.S.)") \
            < body.index("Cy Young (C.Y.)")
        ann, bob, cy = (str(e.data["entry"]) for e in recorded(waitlist, "PlayerListed"))

        # --- 2. a seat opens: seat 6 at HE-1, its player leaving (the seat's page)
        sup.get_by_role("link", name="Poker floor").click()
        sup.wait_for_url("**/console/poker/")
        visited.check(sup, "poker room floor")
        sup.get_by_role("link", name="Anonymous player: seat 6 at HE-1").click()
        sup.wait_for_url(f"**/console/poker/tables/{he1.pk}/seats/6/")
        visited.check(sup, "seat page")
        sup.get_by_role("button", name="Leave").click()
        sup.wait_for_selector("form.command-form")
        visited.check(sup, "leave form")
        submit(sup)
        assert "Recorded: Record the player leaving" in messages(sup), messages(sup)
        # the worker offers it to the first listed: Ann is called and paged
        first = until("Ann called", lambda: open_call(ann))
        assert (str(first.table), first.seat) == (str(he1.pk), 6)
        until("Ann's text at the gateway", lambda: gateway.messages)
        assert gateway.messages == [{"to": "+12015550123",
                                     "message": TEXT.format(initials="A.L.", table="HE-1")}]
        until("Ann's page recorded", lambda: recorded(waitlist, "PageSent", entry=ann))
        # from here a call's minute is a minute again (Ann's deadline stays 3 s away)
        settings.FLOOR_CALL_MINUTE_SECONDS = 60
        assert Call.objects.get(pk=first.pk).state == CallState.OPEN, \
            "Ann's call ended before the test could lengthen the minute (a slow machine)"
        # the supervisor's list shows the call, paged
        sup.goto(list_url)
        calls = sup.get_by_role("region", name=f"Open calls: {waitlist.name}")
        expect(calls.locator("tbody tr")).to_have_count(1)
        expect(calls.locator("tbody tr")).to_contain_text("Ann Lee (A.L.), position 1")
        expect(calls.locator("tbody tr")).to_contain_text("HE-1, seat 6")
        expect(calls.locator("tbody tr td").nth(3)).to_have_text("sent")
        visited.check(sup, "the Hold'em list with a call open")

        # --- 3. Ann does not come: the worker's timeout at the deadline moves her down,
        # --- 4. and Bob is called (in the same transaction) and paged
        until("Ann's call timed out", lambda: recorded(waitlist, "CallTimedOut", entry=ann))
        second = until("Bob called", lambda: open_call(bob))
        assert (str(second.table), second.seat) == (str(he1.pk), 6)
        until("Bob's page recorded", lambda: recorded(waitlist, "PageSent", entry=bob))
        assert gateway.messages[1:] == [{"to": "+12125550199",
                                         "message": TEXT.format(initials="B.S.", table="HE-1")}]
        assert Call.objects.get(pk=first.pk).state == CallState.TIMED_OUT
        # Bob comes: the supervisor seats him through the page, $100 in cash at the table
        sup.goto(list_url)
        sup.get_by_role("link", name="Seat the player: B.S., HE-1 seat 6").click()
        sup.wait_for_selector("form.command-form")
        sup.fill("#f-buy_in_cents", "100.00")
        sup.select_option("#f-paid_with", "cash")
        visited.check(sup, "seat the called player form")
        submit(sup)
        assert "Recorded: Seat the called player" in messages(sup), messages(sup)
        seat = Seat.objects.get(table_id=he1.pk, seat=6)
        assert (seat.player_name, seat.stack_cents) == ("Bob Stone", 10_000)
        assert Call.objects.get(pk=second.pk).state == CallState.SEATED
        until("the feed's new length after the seat", lambda: watch.length() == 2)
        expect(row.locator("td.waiting")).to_have_text("2", timeout=2500)

        # --- 5. a must-move game: HE-Main fed by HE-Feed, set up through the page
        sup.goto(list_url)
        sup.get_by_role("button", name=f"Set up a must-move game: {waitlist.name}").click()
        sup.wait_for_selector("form.command-form")
        # the tables are chosen by name: a select for the main table, a box per feeder
        sup.select_option("#f-main_table_id", label="HE-Main (Hold'em)")
        sup.get_by_label("HE-Feed (Hold'em)").check()
        visited.check(sup, "must-move form")
        submit(sup)
        assert "Recorded: Set the must-move tables" in messages(sup), messages(sup)
        # a main-table seat opens (seat 3's player leaves): the worker moves HE-Feed's
        # seat 1, seated longest there, to it with the stakes
        moving = Seat.objects.get(table_id=feeder.pk, seat=1)
        sup.goto(f"{server}/console/poker/")
        sup.get_by_role("link", name="Anonymous player: seat 3 at HE-Main").click()
        sup.wait_for_url(f"**/console/poker/tables/{main.pk}/seats/3/")
        sup.get_by_role("button", name="Leave").click()
        sup.wait_for_selector("form.command-form")
        submit(sup)
        assert "Recorded: Record the player leaving" in messages(sup), messages(sup)
        until("the must-move", lambda: recorded(waitlist, "PlayerMoved"))
        # the stakes carried: the $40 bought in at HE-Feed
        assert Seat.objects.get(table_id=main.pk, seat=3).stack_cents == moving.stack_cents
        # the feeder's seat left is the list's: Cy, first now, is called and paged
        third = until("Cy called", lambda: open_call(cy))
        assert (str(third.table), third.seat) == (str(feeder.pk), 1)
        until("Cy's page recorded", lambda: recorded(waitlist, "PageSent", entry=cy))
        assert gateway.messages[2:] == [{"to": "+16175550142",
                                         "message": TEXT.format(initials="C.Y.",
                                                                table="HE-Feed")}]

        # --- 7. the fairness record: every step, in order, initials only
        sup.goto(list_url)
        sup.get_by_role("link", name="Fairness record: every step of the list today").click()
        sup.wait_for_url(f"**/console/poker/lists/{waitlist.pk}/fairness/")
        visited.check(sup, "fairness record")
        rows = sup.locator("table.fairness tbody tr")
        steps = [(rows.nth(i).locator("td").nth(1).inner_text(),
                  rows.nth(i).locator("th").inner_text(),
                  rows.nth(i).locator("td").nth(3).inner_text())
                 for i in range(rows.count())]
        page_text = sup.locator("main").inner_text()
    finally:
        watch.stop()
        live.close()

    # the fairness record, worked by hand: (step, player, what happened)
    assert [(kind, who) for kind, who, _ in steps] == [
        ("List", "—"),
        ("Added", "A.L."), ("Added", "B.S."), ("Added", "C.Y."),
        ("Called", "A.L."), ("Paged", "A.L."), ("Timed out", "A.L."),
        ("Called", "B.S."), ("Paged", "B.S."), ("Seated", "B.S."),
        ("Must-move", "—"), ("Moved", "—"),
        ("Called", "C.Y."), ("Paged", "C.Y.")]
    said = [text for _, _, text in steps]
    assert said[1:4] == ["A.L. added at position 1.", "B.S. added at position 2.",
                         "C.Y. added at position 3."]
    assert said[4] == "A.L. (position 1) called in turn to seat 6 at HE-1."
    assert said[6] == ("A.L. did not come in time (call missed 1 time): moved down to "
                       "position 3.")
    assert said[7] == "B.S. (position 1) called in turn to seat 6 at HE-1."
    assert said[9] == "B.S. seated at seat 6 at HE-1."
    assert said[10] == "HE-Main made a must-move main game, fed by HE-Feed."
    assert said[11] == ("The player at seat 1 at HE-Feed moved to seat 3 at HE-Main from "
                        "the must-move table to the main game.")
    assert said[12] == "C.Y. (position 1) called in turn to seat 1 at HE-Feed."
    for secret in ("Ann", "Lee", "Bob", "Stone", "Young", "555"):
        assert secret not in page_text

    # --- 6. the public feed: each new length of the list within a second of its change
    assert watch.errors == []
    changes = [(e, n) for e, n in zip(recorded(waitlist, "PlayerListed"), (1, 2, 3))]
    changes.append((recorded(waitlist, "PlayerSeatedFromList")[0], 2))
    delays = [watch.delay(e.recorded_at.timestamp(), n) for e, n in changes]
    assert all(d is not None and d < 1.0 for d in delays), delays
    assert watch.length() == 2  # Ann (moved down) and Cy (called)
    body = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "",
                  watch.body)  # the list's id may hold "555"
    for secret in ("Ann", "Lee", "Bob", "Stone", "Young", "A.L.", "555", "@"):
        assert secret not in body

    # the list's events against the list worked by hand: types, order, who, what
    events = list_events(waitlist)
    system, person = "system:floor", (SUPERVISOR, "poker_shift_supervisor")
    c1, c2, c3 = (e.data["call"] for e in events if e.type == "SeatOffered")
    assert [(e.type, e.metadata["actor"]) for e in events] == [
        ("WaitlistOpened", room.floor["floor"].username),
        ("PlayerListed", SUPERVISOR), ("PlayerListed", SUPERVISOR), ("PlayerListed", SUPERVISOR),
        ("SeatOffered", system), ("PageSent", "system:page"),
        ("CallTimedOut", system),
        ("SeatOffered", system), ("PageSent", "system:page"),
        ("PlayerSeatedFromList", SUPERVISOR),
        ("MustMoveSet", SUPERVISOR),
        ("PlayerMoved", "system:must-move"),
        ("SeatOffered", system), ("PageSent", "system:page")]
    assert all((e.metadata["actor"], e.metadata["role"]) == person for e in events
               if e.metadata["actor"] == SUPERVISOR)
    assert [e.data["entry"] for e in events[1:4]] == [ann, bob, cy]
    assert all((e.data["source"], e.data["kind"]) == ("floor", "player") for e in events[1:4])
    call_of = {e.data["call"]: (e.data["entry"], e.data["table"], e.data["seat"],
                                e.data["reason"], e.data["passed"], e.data["by_lot"])
               for e in events if e.type == "SeatOffered"}
    assert call_of == {c1: (ann, str(he1.pk), 6, "", [], False),
                       c2: (bob, str(he1.pk), 6, "", [], False),
                       c3: (cy, str(feeder.pk), 1, "", [], False)}
    assert [(e.data["call"], e.data["entry"], e.data["channel"]) for e in events
            if e.type == "PageSent"] == [(c1, ann, "sms"), (c2, bob, "sms"), (c3, cy, "sms")]
    timed_out = events[6].data
    assert (timed_out["call"], timed_out["entry"], timed_out["missed"],
            timed_out["moved_to"]) == (c1, ann, 1, 3)
    assert events[9].data == {"call": c2, "entry": bob, "table": str(he1.pk), "seat": 6,
                              "stays_listed": False}
    assert events[10].data == {"main_table": str(main.pk), "feeders": [str(feeder.pk)]}
    move = events[11].data
    assert (move["from_table"], move["from_seat"], move["to_table"], move["to_seat"],
            move["why"], move["reason"], move["entry"]) == (
        str(feeder.pk), 1, str(main.pk), 3, "must_move", "", None)
    assert [(o["table"], o["seat"]) for o in move["order"]][0] == (str(feeder.pk), 1)
    assert len(move["order"]) == 6
    assert Waitlist.objects.get(pk=waitlist.pk).order == [cy, ann]
    assert visited.problems == {}, visited.problems
