"""What the console's list pages, the "waiting for me" lists and the API's GET of the
lists read (issue 24, items 1-2): every list of a property with its waiting players in
calling order, its open calls and the seats a player may be called to, from the read
models only, in a number of queries that does not grow with the players, calls or tables
(the lists; the property's poker tables; the active entries; the open calls; the seats
taken; the Rules in force of each listed game with an open table).

A list is a **waitlist** while a table of its game is open and an **interest list**
otherwise: worked out here, never stored. A player's name, phone and e-mail are given
only to the floor's roles (``personal=True``); everyone else reads initials.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from casino.actors import Actor
from casino.domain.errors import ConflictError
from casino.roles import Role
from casino.scoping import property_rows
from poker_floor.domain.queue import ACTIVE
from poker_floor.models import Call, CallState, EntryStatus, ListEntry, Waitlist
from poker_floor.services.calls import seat_limit
from poker_floor.services.common import FLOOR
from poker_room.models import Seat
from tables.domain.catalogue import POKER_GAMES
from tables.models import GameTable, TableStatus

#: who reads the lists in the console and the API: the floor (names, phones, e-mail), and
#: read-only with initials only: the dealers (who seat a called player), compliance and
#: security (an audit, a complaint)
LIST_READERS = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.DEALER, Role.COMPLIANCE,
                Role.SECURITY)

WAITLIST, INTEREST_LIST = "waitlist", "interest list"


@dataclass
class Waiting:
    """A waiting (or called) player as a list page shows them."""

    entry: ListEntry
    position: int
    initials: str
    #: the floor's roles only; "" for everyone else
    name: str = ""
    phone: str = ""
    email: str = ""
    called: bool = False


@dataclass
class OpenCall:
    call: Call
    initials: str
    name: str
    position: int | None
    table_name: str
    overdue: bool


@dataclass
class ListView:
    """One list as the pages and the API show it."""

    waitlist: Waitlist
    kind: str
    #: the open tables of its game (a waitlist has at least one)
    tables_open: int
    waiting: list[Waiting] = field(default_factory=list)
    calls: list[OpenCall] = field(default_factory=list)
    #: the seats a player may be called to: (table id, table name, seat) at the open
    #: tables of the game, nobody seated there and nobody called to it
    vacant: list[tuple[str, str, int]] = field(default_factory=list)
    #: a must-move game: the main table's name and its feeders' ("" and [] otherwise)
    main_table: str = ""
    feeders: list[str] = field(default_factory=list)

    @property
    def waiting_count(self) -> int:
        """Players waiting for a call (the called ones are in :attr:`calls`)."""
        return sum(1 for w in self.waiting if not w.called)

    @property
    def suggest_open(self) -> bool:
        at = self.waitlist.open_table_at
        return bool(at) and self.waiting_count >= at


def initials_of(entry: ListEntry) -> str:
    return "erased" if entry.erased else (entry.initials or "?")


def table_names(actor: Actor) -> dict[str, tuple[str, str, str, int]]:
    """Every poker table of the property: id -> (name, game, status, positions), one
    query."""
    return {str(pk): (name, game, status, positions) for pk, name, game, status, positions in
            property_rows(GameTable.objects.filter(game__in=POKER_GAMES), actor)
            .values_list("id", "name", "game", "status", "positions")}


def _name(tables: dict[str, tuple[str, str, str, int]], table_id: Any) -> str:
    return tables.get(str(table_id), (f"table {str(table_id)[:8]}",))[0]


def waitlists(actor: Actor, *, waitlist_id: Any = None) -> QuerySet:
    rows = property_rows(Waitlist.objects.all(), actor)
    return rows.filter(pk=waitlist_id) if waitlist_id is not None else rows.order_by("name")


def _vacant(actor: Actor, tables: dict[str, tuple[str, str, str, int]], games: set[str],
            called: set[tuple[str, int]]) -> dict[str, list[tuple[str, str, int]]]:
    """Per game, the seats a player may be called to at its open tables (by table name,
    then seat): one query for the seats taken, one for each game's Rules in force. The
    seats of a table are the calls' own :func:`~poker_floor.services.calls.seat_limit`
    (as the seat service counts them), worked out once per game on a table of the game
    as wide as its widest open one; a game without Rules in effect has none (every call
    to it is refused)."""
    open_ = {pk: (name, game, positions) for pk, (name, game, status, positions)
             in tables.items() if status == TableStatus.OPEN and game in games}
    if not open_:
        return {}
    taken = {(str(t), n) for t, n in Seat.objects.filter(table_id__in=list(open_))
             .values_list("table_id", "seat")}
    limit: dict[str, int] = {}
    for game in {g for _, g, _ in open_.values()}:
        widest = max(p for _, g, p in open_.values() if g == game)
        try:
            # min(positions, Rules' seats) at the widest table is the Rules' own limit for
            # every narrower one: min(positions, it) below is seat_limit at each table
            limit[game] = seat_limit(GameTable(property=actor.property, game=game,
                                               positions=widest))
        except ConflictError:  # no_rules_in_effect
            limit[game] = 0
    out: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for pk, (name, game, positions) in sorted(open_.items(), key=lambda kv: kv[1][0]):
        count = min(positions, limit[game])
        out[game] += [(pk, name, n) for n in range(1, count + 1)
                      if (pk, n) not in taken and (pk, n) not in called]
    return out


def lists(actor: Actor, *, waitlist_id: Any = None, now: datetime | None = None
          ) -> list[ListView]:
    """Every list of the actor's property (or the one ``waitlist_id``), each with its
    active entries in calling order, its open calls and the seats a player may be called
    to. Five queries, and one more for each listed game with an open table."""
    now = now or timezone.now()
    personal = actor.has(*FLOOR)
    rows = list(waitlists(actor, waitlist_id=waitlist_id))
    if not rows:
        return []
    tables = table_names(actor)
    open_by_game: dict[str, int] = defaultdict(int)
    for _table, game, status, _seats in tables.values():
        if status == TableStatus.OPEN:
            open_by_game[game] += 1
    ids = [w.pk for w in rows]
    entries: dict[Any, dict[str, ListEntry]] = defaultdict(dict)
    for e in ListEntry.objects.filter(waitlist_id__in=ids, status__in=ACTIVE):
        entries[e.waitlist_id][str(e.pk)] = e
    calls: dict[Any, list[Call]] = defaultdict(list)
    for c in Call.objects.filter(waitlist_id__in=ids, state=CallState.OPEN).order_by("deadline_at"):
        calls[c.waitlist_id].append(c)
    called = {(str(c.table), c.seat) for cs in calls.values() for c in cs}
    vacant = _vacant(actor, tables, {w.game for w in rows}, called)
    out = []
    for w in rows:
        mine = entries[w.pk]
        ordered = [mine[x] for x in w.order if x in mine]
        # an active entry the order does not hold (never expected): shown last, not lost
        in_order = set(w.order)
        ordered += sorted((e for x, e in mine.items() if x not in in_order),
                          key=lambda e: e.listed_at)
        position = {str(e.pk): i for i, e in enumerate(ordered, 1)}
        view = ListView(waitlist=w, kind=WAITLIST if open_by_game[w.game] else INTEREST_LIST,
                        tables_open=open_by_game[w.game], vacant=vacant.get(w.game, []))
        if w.main_table:
            view.main_table = _name(tables, w.main_table)
            view.feeders = [_name(tables, t) for t in w.feeders or []]
        for e in ordered:
            view.waiting.append(Waiting(
                entry=e, position=position[str(e.pk)], initials=initials_of(e),
                name=e.name if personal else "", phone=e.phone if personal else "",
                email=e.email if personal else "", called=e.status == EntryStatus.CALLED))
        for c in calls[w.pk]:
            e = mine.get(str(c.entry_id))
            view.calls.append(OpenCall(
                call=c, initials=initials_of(e) if e else "?",
                name=(e.name if e and personal else ""),
                position=position.get(str(c.entry_id)),
                table_name=_name(tables, c.table),
                overdue=c.deadline_at < now))
        out.append(view)
    return out


def lists_to_open_a_table(actor: Actor) -> QuerySet:
    """The lists whose waiting players have reached the number the property set for
    suggesting a new table (``open_table_at``; 0 never), longest first. One query."""
    return (property_rows(Waitlist.objects.all(), actor)
            .filter(open_table_at__gt=0)
            .annotate(waiting=Count("entries", filter=Q(entries__status=EntryStatus.WAITING)))
            .filter(waiting__gte=F("open_table_at"))
            .order_by("-waiting", "name"))


def calls_past_deadline(actor: Actor, now: datetime | None = None) -> QuerySet:
    """The open calls whose time to come has passed, oldest deadline first (the timeout
    task or the sweep will time them out; the floor may do it at once). One query with
    the list and the entry."""
    return (property_rows(Call.objects.filter(state=CallState.OPEN,
                                               deadline_at__lt=now or timezone.now()), actor)
            .select_related("waitlist", "entry").order_by("deadline_at"))
