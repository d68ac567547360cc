"""The estimated wait of each place on a list (issue 24, item 7), read from the events: the
seat openings of the list's game in the last ``FLOOR_WAIT_WINDOW_HOURS`` measure the rate,
:mod:`poker_floor.domain.wait` turns it into a range per place.

One query reads the window's facts (the seat-leavings of the game's tables, their openings
and closings, the list's moves and draws), through the partial index on those event types
by time (migration poker_floor/0002), so its cost is the window's few rows whatever the
age of the streams; with the game's tables and the called entries, three queries. The
measure of the present moment is kept ``CACHE_SECONDS`` per list (the rate changes with
each opening, a few a minute at most; a page or the feed may ask every second).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import QuerySet
from django.utils import timezone

from casino.eventstore.models import Event
from poker_floor.domain.wait import EVENT_TYPES, Fact, Turnover, estimated_waits as ranges
from poker_floor.domain.wait import turnover
from poker_floor.models import EntryStatus, ListEntry, Waitlist
from tables.models import GameTable, TableStatus

#: how long the present moment's measure of a list is reused
CACHE_SECONDS = 30


def measure(waitlist: Waitlist, now: datetime | None = None) -> Turnover:
    """The openings, open table-minutes and open tables of the list's game in the window
    ending at ``now`` (the present by default), from the events recorded before it."""
    present = timezone.now()
    until = present if now is None else min(now, present)
    since = until - timedelta(hours=settings.FLOOR_WAIT_WINDOW_HOURS)
    tables = {f"table-{pk}": (f"poker_table-{pk}", status == TableStatus.OPEN)
              for pk, status in GameTable.objects.filter(
                  property_id=waitlist.property_id, game=waitlist.game
              ).values_list("pk", "status")}
    streams = [*tables, *(poker for poker, _open in tables.values()), waitlist.stream_id]
    facts = [Fact(kind, stream, at, data)
             for kind, stream, at, data in window_events(streams, since)]
    return turnover(facts, tables=tables, since=since, until=until, present=present)


def window_events(streams: list[str], since: datetime) -> QuerySet:
    """The one query: the facts of EVENT_TYPES in ``streams`` recorded since ``since``, up
    to the present (a past window's table status is walked back from the present's), as
    (type, stream_id, recorded_at, data); its ``type IN`` is the partial index's."""
    return Event.objects.filter(type__in=EVENT_TYPES, recorded_at__gte=since,
                                stream_id__in=streams
                                ).values_list("type", "stream_id", "recorded_at", "data")


def _cached_measure(waitlist: Waitlist) -> Turnover:
    key = f"poker_floor.wait:{waitlist.pk}"
    found = cache.get(key)
    if found is None:
        found = measure(waitlist)
        cache.set(key, found, timeout=CACHE_SECONDS)
    return found


def estimated_waits(waitlist: Waitlist, now: datetime | None = None, *,
                    places: int | None = None) -> list[dict[str, Any] | None]:
    """For each place on the list in calling order, ``{position, low_minutes,
    high_minutes}``, or None when it is unknown (too few openings in the window, no table
    of the game open) or the entry is called (a seat is waiting for them). A waiting player
    is as far from a seat as the waiting players ahead of them and themselves: the called
    ones ahead already have theirs.

    ``now``: the estimate as it was at that moment, from the events before it (the present's
    is cached per list); ``places``: the first that many places as if every one were
    waiting, instead of the list's own (what a player listed at ``now`` would be told)."""
    measured = _cached_measure(waitlist) if now is None else measure(waitlist, now)
    min_openings = settings.FLOOR_WAIT_MIN_OPENINGS
    if places is not None:
        return [r.as_dict() if r else None for r in ranges(measured, places, min_openings)]
    order = [str(e) for e in waitlist.order]
    called = {str(pk) for pk in ListEntry.objects.filter(
        waitlist_id=waitlist.pk, pk__in=order, status=EntryStatus.CALLED
    ).values_list("pk", flat=True)} if order else set()
    waiting = len(order) - len(called)
    per_place = ranges(measured, waiting, min_openings)
    out: list[dict[str, Any] | None] = []
    ahead = 0
    for position, entry in enumerate(order, start=1):
        if entry in called:
            out.append(None)
            continue
        found = per_place[ahead]
        ahead += 1
        out.append(None if found is None else {**found.as_dict(), "position": position})
    return out
