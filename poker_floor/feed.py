"""The public live games feed (issue 24, item 6; 637a.9(c): the room may announce its games,
their limits and its vacant seats) and the lists as the room board shows them.

Nothing here names a player: the feed gives the games running, their stakes, the open
tables with their vacant seats and each list's length; the board adds the waiting
players' initials. A list is a waitlist while a table of its game is open and an interest
list otherwise (read, never stored).

The feed's JSON is built at most every ``FEED_CACHE_SECONDS`` per process
(:func:`feed_body`); an event of a list, a poker table, a table or a Rules Submission of
the property drops it at once when it commits (:func:`forget_on_commit`), so a process
that made the change serves it on its next read and every other within
``FEED_CACHE_SECONDS``.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.conf import settings

from casino.eventstore.records import RecordedEvent
from casino.models import Property
from poker_floor import wait
from poker_floor.domain.queue import ACTIVE
from poker_floor.models import EntryStatus, ListEntry, Waitlist
from poker_room.board.selectors import board_tables
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, TableStatus

#: the streams whose events change what the feed shows (the lists; the seats; the tables
#: opened and closed; the stakes of the Rules Submission in force)
FEED_STREAMS = frozenset({"waitlist", "poker_table", "table", "rules_submission"})


def _lists(prop: Property) -> list[tuple[Waitlist, list[ListEntry]]]:
    """Each list of ``prop`` with its entries still on it in calling order (called ones
    first, then ``Waitlist.order``), in two queries."""
    lists = list(Waitlist.objects.filter(property=prop).order_by("name"))
    on: dict[Any, dict[str, ListEntry]] = defaultdict(dict)
    for e in ListEntry.objects.filter(property=prop, status__in=ACTIVE).only(
            "id", "waitlist_id", "status", "initials", "listed_at").order_by("listed_at"):
        on[e.waitlist_id][str(e.pk)] = e
    out = []
    for w in lists:
        entries = on[w.pk]
        ordered = [entries[i] for i in (str(x) for x in w.order) if i in entries]
        seen = {str(e.pk) for e in ordered}
        # a called player not (or no longer) in the order is at the top: being called
        called = [e for k, e in entries.items() if k not in seen]
        out.append((w, called + ordered))
    return out


def list_kind(waitlist: Waitlist, running: set[str]) -> str:
    """The room board's ``kind`` of a list (poker_room.board.registry's key, also the
    board row's class): "waitlist" while a table of the list's game is open, "interest"
    otherwise; the board's page says "interest list", as the console's pages and the API
    do (:data:`poker_floor.selectors.INTEREST_LIST`)."""
    return "waitlist" if waitlist.game in running else "interest"


def running_games(prop: Property) -> set[str]:
    """The poker games with a table open at ``prop`` (their lists are waitlists)."""
    return set(GameTable.objects.filter(property=prop, game__in=POKER_GAMES,
                                        status=TableStatus.OPEN)
               .values_list("game", flat=True).distinct())


def board_lists(prop: Property) -> list[dict[str, Any]]:
    """The lists as the room board shows them (:mod:`poker_room.board.registry`): name,
    kind, length and the players on it by their initials only, in calling order
    ("erased" details show as "—")."""
    running = running_games(prop)
    return [{"id": str(w.pk), "name": w.name, "game": w.game,
             "kind": list_kind(w, running), "length": len(entries),
             "initials": [e.initials or "—" for e in entries]}
            for w, entries in _lists(prop)]


def estimated_waits(waitlist: Waitlist, waiting: int) -> dict[str, Any]:
    """The estimated waits of ``waitlist`` (issue 24, item 7; :mod:`poker_floor.wait`):
    ``estimated_waits``, a range in minutes for each position on the list (None where it is
    unknown: too few seats opened lately, or the player is called), and ``next_wait``, what
    a player joining now would be told (the position after the ``waiting`` players)."""
    return {"estimated_waits": wait.estimated_waits(waitlist),
            "next_wait": wait.estimated_waits(waitlist, places=waiting + 1)[-1]}


def wait_words(waitlist: dict[str, Any] | None) -> str:
    """The estimated wait of a player joining a feed's waitlist now, as the page says it
    ("10–25 min", "unknown"). poker_floor/live.js says it the same way."""
    wait = (waitlist or {}).get("next_wait")
    return "unknown" if wait is None else f"{wait['low_minutes']}–{wait['high_minutes']} min"


def live_feed(prop: Property) -> dict[str, Any]:
    """What the public feed says about ``prop``'s poker room: each game running (a table
    of it open) with its stakes, its open tables and their vacant seats (the room board's
    ``vacant``) and its waitlist's length and estimated waits (None: no list); then the
    interest lists of the games not running. No clock in it: its ETag changes only when
    the room or the estimates do."""
    games: dict[str, dict[str, Any]] = {}
    for t in board_tables(prop):
        if t["status"] != TableStatus.OPEN:
            continue
        g = games.setdefault(t["game_id"], {
            "game": t["game_id"], "name": t["game"], "stakes": t["stakes"], "tables": 0,
            "vacant_seats": 0, "open_tables": [], "waitlist": None})
        g["tables"] += 1
        g["vacant_seats"] += len(t["vacant"])
        g["open_tables"].append({"table": t["name"], "seats": t["seats"],
                                 "vacant": t["vacant"]})
    interest = []
    for w, entries in _lists(prop):
        about = {"id": str(w.pk), "name": w.name, "length": len(entries)}
        if w.game in games:
            waiting = sum(e.status == EntryStatus.WAITING for e in entries)
            games[w.game]["waitlist"] = {**about, **estimated_waits(w, waiting)}
        else:
            interest.append({**about, "game": w.game})
    return {"property": prop.name, "licence": prop.licence_number,
            "games": sorted(games.values(), key=lambda g: (g["name"], g["stakes"])),
            "interest_lists": interest}


# --- the feed's body, cached per process --------------------------------------------

class Body:
    """One built feed: its data, its JSON and its strong ETag (a hash of the JSON)."""

    __slots__ = ("built", "data", "json", "etag")

    def __init__(self, built: float, data: dict[str, Any]):
        self.built = built
        self.data = data
        self.json = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
        self.etag = '"' + hashlib.sha256(self.json).hexdigest()[:40] + '"'


_bodies: dict[str, Body] = {}
#: bumped by every forgetting: a body built across one is served but not kept
_generation = 0
_building = threading.Lock()


def feed_body(licence: str) -> Body | None:
    """The feed of the property with ``licence`` (None: no such property), built at most
    every ``FEED_CACHE_SECONDS`` in this process unless a change forgot it sooner."""
    if "\x00" in licence:  # no licence holds a NUL (PostgreSQL's text cannot): not found
        return None
    ttl = settings.FEED_CACHE_SECONDS
    asked = time.monotonic()
    hit = _bodies.get(licence)
    if hit is not None and asked - hit.built < ttl:
        return hit
    with _building:  # one build at a time: the others wait for it, then read it
        hit = _bodies.get(licence)
        # fresh as of when this request came (not when it got the lock): a build that
        # outlasts the TTL still serves every request that waited for it, instead of each
        # waiter building again in turn (bench_floor saw the feed fall to 1 request/s so)
        if hit is not None and asked - hit.built < ttl:
            return hit
        generation, started = _generation, time.monotonic()
        prop = Property.objects.filter(licence_number=licence).first()
        if prop is None:
            return None
        body = Body(started, live_feed(prop))
        if generation == _generation:  # no change committed while it was read
            _bodies[licence] = body
        return body


def forget(licence: str | None = None) -> None:
    """Drop the feed of ``licence`` (every property's with None)."""
    global _generation
    _generation += 1
    if licence is None:
        _bodies.clear()
    else:
        _bodies.pop(licence, None)


def forget_on_commit(events: Sequence[RecordedEvent]) -> None:
    """The store's after-commit hook: an event of a list, a poker table, a table or a
    Rules Submission drops its property's feed (every feed if it names none)."""
    for licence in {e.metadata.get("property") for e in events
                    if e.stream_type in FEED_STREAMS}:
        forget(licence if isinstance(licence, str) else None)


def _install() -> None:
    from casino.eventstore.store import register_append_hooks
    from poker_room.board.registry import register_lists

    register_append_hooks(after_commit=forget_on_commit)
    register_lists(board_lists)


# Imported once by PokerFloorConfig.ready(): the hook and the board's lists (the feed's and
# the kiosk's refusal sentences are in casino/refusals.py).
_install()
