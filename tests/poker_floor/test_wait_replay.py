"""The estimated wait against replayed history (issue 24, item 7): a day of a Hold'em game
built through the real services with the clock moved (time_machine), then replayed — at
each moment a player was listed, the range the list would have stated then, from the
events before that moment, against the wait that actually followed (listed to seated).

The day (a seeded generator; the model's assumptions are not built in, they are what is
tested): three 9-seat tables open at 10:00, full; each player stays an exponential time
(mean 90 minutes) and leaves: 27/90 = 0.3 seats a minute open while the tables are full.
Players come to the list at random (Poisson): 0.32 a minute for five hours, a little more
than the seats that open, so the list grows toward the evening, then 0.22 a minute for
three hours, so it drains. A seat that opens is offered to the first waiting player
(``call_next``), who walks to it in 0.5-2.5 minutes (``call_seat``); a player listed while a
seat is vacant is called at once. Seats stand vacant while nobody waits, so the seats that
open are not quite a Poisson process, and the walk adds minutes the model ignores.

What is asserted:

* "unknown" exactly while the window (three hours) held fewer than FLOOR_WAIT_MIN_OPENINGS
  seat openings, counted here from the day's own record, and some players were told so;
* the share of actual waits inside the stated 60% range (20th-80th percentile) is within
  40%-80%. Why that band: the listings are not independent (players listed close together
  wait for the same openings): some 120 of them behave like a few dozen independent ones,
  so a true 60% has a sampling spread of several points either way; the rate is estimated
  from some fifty openings (±14%). A share below 40% or above 80% means the model is wrong,
  not unlucky. Over seeds 1-10 of this day the share was 0.49-0.78 (mean 0.66), and of a
  day of steady arrivals (0.27 a minute for eight hours) 0.51-0.78 (mean 0.67). Actual
  waits shorter than the range outnumber longer ones about two to one, most likely
  because the measured rate also counts minutes in which seats stood vacant (nobody
  waiting), when fewer players were there to leave, so it runs a little low.
"""

from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from poker_floor.models import EntryStatus, ListEntry, Waitlist
from poker_floor.services.calls import call_next, call_seat
from poker_floor.wait import estimated_waits
from tests.poker_floor._helpers import BUY_IN, Floor

pytestmark = pytest.mark.slow

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
TABLES, SEATS = 3, 9
STAY_MINUTES = 90.0
#: players coming to the list: (hours, a minute) in turn
ARRIVALS = [(5, 0.32), (3, 0.22)]
WALK_MINUTES = (0.5, 2.5)
SEED = 24
WINDOW = timedelta(hours=3)
MIN_OPENINGS = 10


@dataclass
class Listing:
    at: datetime
    entry: str
    places: int
    #: listed while a seat stood vacant (called at once)
    at_vacant_seat: bool
    seated: datetime | None = None


@dataclass
class Day:
    """What happened, as the generator decided it (not read back from the code under
    test): every seat opening and every listing with its place in line and its seating."""

    openings: list[datetime] = field(default_factory=list)
    listings: dict[str, Listing] = field(default_factory=dict)


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


def live_day(floor: Floor, traveller: Any, rng: random.Random) -> tuple[Any, Day]:
    """The day, event by event in time order, each through the services at its moment."""
    tables = floor.tables(TABLES, positions=SEATS)
    wl = floor.waitlist()
    day = Day()
    queue: list[tuple[datetime, int, str, Any]] = []
    order = itertools.count()

    def at(moment: datetime, kind: str, what: Any) -> None:
        heapq.heappush(queue, (moment, next(order), kind, what))

    def stay(table: Any, seat: int, since: datetime) -> None:
        at(since + minutes(rng.expovariate(1 / STAY_MINUTES)), "leave", (table, seat))

    def call(table: Any, seat: int, now: datetime) -> None:
        c = call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=table.pk, seat=seat)
        at(now + minutes(rng.uniform(*WALK_MINUTES)), "sit", c)

    for table in tables:
        for seat in range(1, SEATS + 1):
            floor.seat(table, seat)
            stay(table, seat, T0)
    start = T0
    for hours, rate in ARRIVALS:
        arrival, end = start, start + timedelta(hours=hours)
        while (arrival := arrival + minutes(rng.expovariate(rate))) < end:
            at(arrival, "arrive", None)
        start = end

    vacant: list[tuple[Any, int]] = []
    names = itertools.count(1)
    while queue:
        now, _n, kind, what = heapq.heappop(queue)
        traveller.move_to(now)
        if kind == "leave":
            table, seat = what
            floor.leave(table, seat)
            day.openings.append(now)
            if waiting(wl):
                call(table, seat, now)
            else:
                vacant.append((table, seat))
        elif kind == "arrive":
            entry = floor.list_player(wl, f"Guest {next(names)}")
            day.listings[str(entry.pk)] = Listing(now, str(entry.pk), waiting(wl),
                                                  bool(vacant))
            if vacant:
                call(*vacant.pop(0), now)
        else:  # a called player sits down
            c = call_seat(actor=floor["floor"], call_id=what.pk, buy_in_cents=BUY_IN,
                          paid_with="chips")
            day.listings[str(c.entry_id)].seated = now
            stay(next(t for t in tables if t.pk == c.table), c.seat, now)
        if kind == "leave" and not queue_has_arrivals(queue) and not active(wl):
            break  # the list is done and the day's listings are over
    return Waitlist.objects.get(pk=wl.pk), day


def queue_has_arrivals(queue: list[tuple[datetime, int, str, Any]]) -> bool:
    return any(kind == "arrive" for _t, _n, kind, _w in queue)


def waiting(wl: Any) -> int:
    """Players waiting for a call (a called one already has a seat)."""
    return ListEntry.objects.filter(waitlist_id=wl.pk, status=EntryStatus.WAITING).count()


def active(wl: Any) -> int:
    return ListEntry.objects.filter(waitlist_id=wl.pk, status__in=(
        EntryStatus.WAITING, EntryStatus.CALLED)).count()


@dataclass
class Told:
    """One listing replayed: the openings the window held then (the day's own count), the
    range stated then, the minutes actually waited."""

    listing: Listing
    seen: int
    said: dict[str, int] | None
    waited: float

    @property
    def inside(self) -> bool:
        return self.said is not None and \
            self.said["low_minutes"] <= self.waited <= self.said["high_minutes"]


def replayed(floor: Floor, seed: int) -> list[Told]:
    """The day built, then each listing's moment replayed (the estimate as of then)."""
    with time_machine.travel(T0, tick=False) as traveller:
        wl, day = live_day(floor, traveller, random.Random(seed))
        traveller.move_to(T0 + timedelta(days=1))
        out = []
        for listing in day.listings.values():
            assert listing.seated is not None  # everyone listed was seated by the end
            said = estimated_waits(wl, listing.at, places=listing.places)[-1]
            seen = sum(1 for t in day.openings if listing.at - WINDOW <= t < listing.at)
            waited = (listing.seated - listing.at).total_seconds() / 60
            out.append(Told(listing, seen, said, waited))
    return out


@pytest.fixture
def day_settings(settings: Any) -> Any:
    settings.FLOOR_AUTO_CALL = False   # the day calls each seat itself, at its moment
    settings.FLOOR_WAIT_WINDOW_HOURS = 3
    settings.FLOOR_WAIT_MIN_OPENINGS = MIN_OPENINGS
    return settings


def test_the_stated_range_holds_the_actual_wait_about_sixty_times_in_a_hundred(
        floor, day_settings):
    told = replayed(floor, SEED)
    for t in told:
        assert (t.said is None) == (t.seen < MIN_OPENINGS), t
        assert t.said is None or t.said["position"] == t.listing.places
    known = [t for t in told if t.said is not None]
    assert len(known) < len(told)      # the first listed of the day were told "unknown"
    share = sum(t.inside for t in known) / len(known)
    assert 0.40 <= share <= 0.80, (share, len(known))
