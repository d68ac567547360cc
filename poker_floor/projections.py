"""The inline projections of the list streams (``waitlist-<id>``) into
:mod:`poker_floor.models`. Rows are written with ``QuerySet.update`` and ``create`` (as the
other apps' projections); a rebuild from the events gives the same rows.

A list's calling order (``Waitlist.order``) is worked out by :mod:`poker_floor.domain.queue`
from the events, as the services decide it. A player's details are unsealed here
(:func:`casino.personal_data.unseal`): once the entry's key is erased
(``PersonalDataErased``, kind ``list_entry``) they are blank, and a rebuild finds nothing
to unseal.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import connection, models
from django.db.models.expressions import RawSQL

from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent
from casino.models import Property
from casino.personal_data import unseal
from poker_floor.domain import queue
from poker_floor.models import (
    Call,
    CallState,
    EntryKind,
    EntryStatus,
    ListEntry,
    Waitlist,
)

#: the erasure of a subject's key (casino.personal_data), which blanks a list entry
ERASED = "PersonalDataErased"
ENTRY_KIND = "list_entry"


#: initials given as such: one to four capitals, each with or without its period
#: ("JS", "J.S.", "J.S"); without periods at most three letters, so a short name typed in
#: capitals ("JOHN") is not taken for initials
_GIVEN_INITIALS = re.compile(r"(?:[A-Z]\.?){1,4}")


def initials(name: str) -> str:
    """What everyone but the floor sees of a player: the first letter of each word with
    a period ("John Smith" and "JOHN SMITH" -> "J.S.", "Mary-Jane O'Neil" -> "M.J.O.");
    initials given as such ("JS", "J. S.", "J.S.") are kept as given (without spaces)."""
    name = (name or "").strip()
    if not name:
        return ""
    compact = re.sub(r"\s+", "", name)
    if _GIVEN_INITIALS.fullmatch(compact) and ("." in compact or len(compact) <= 3):
        return compact
    words = [w for w in re.split(r"[\s\-]+", name) if w and w[0].isalpha()] or [name]
    return "".join(f"{w[0].upper()}." for w in words[:6])


def _list_id(e: RecordedEvent) -> str:
    return e.stream_id.split("-", 1)[1]


def _order(e: RecordedEvent) -> list[str]:
    return list(Waitlist.objects.values_list("order", flat=True).get(pk=_list_id(e)))


_UUID = models.UUIDField()


def _uuid(value: Any) -> Any:
    """A key as this database binds it in raw SQL (native on PostgreSQL, hex on SQLite)."""
    return _UUID.get_db_prep_value(uuid.UUID(str(value)), connection)


def _order_without(e: RecordedEvent, entry: str) -> Any:
    """The list's order with ``entry`` taken out: on PostgreSQL in the UPDATE itself
    (jsonb ``-`` removes the string from the array), elsewhere read and written back."""
    if connection.vendor == "postgresql":
        return RawSQL('"order" - %s::text', (entry,))
    return [x for x in _order(e) if x != entry]


def _when(value: str) -> datetime:
    return datetime.fromisoformat(value)


def waitlist_opened(e: RecordedEvent) -> dict[str, Any] | None:
    d = e.data
    Waitlist.objects.create(
        id=_list_id(e), property=Property.objects.get(licence_number=e.metadata["property"]),
        game=d["game"], name=d["name"], open_table_at=d.get("open_table_at", 0), order=[],
        opened_at=e.recorded_at, stream_version=e.version)
    return None


def waitlist_configured(e: RecordedEvent) -> dict[str, Any]:
    return {"open_table_at": e.data["open_table_at"]}


def player_listed(e: RecordedEvent) -> dict[str, Any]:
    d = e.data
    details = unseal(d["details"])
    wl = Waitlist.objects.only("property_id", "order").get(pk=_list_id(e))
    kind = d.get("kind") or "player"
    kinds: dict[str, str] = {}
    if kind in queue.PRIORITY_KINDS:  # a player goes at the end: no kinds to read
        kinds = {str(k): v for k, v in ListEntry.objects.filter(pk__in=wl.order)
                 .values_list("id", "kind")}
    ListEntry.objects.create(
        id=d["entry"], waitlist_id=wl.pk, property_id=wl.property_id,
        kind=kind, status=EntryStatus.WAITING,
        name=(details or {}).get("name", ""), phone=(details or {}).get("phone", ""),
        email=(details or {}).get("email", ""),
        initials=initials((details or {}).get("name", "")), erased=details is None,
        source=d.get("source") or "floor", from_table=d.get("from_table"),
        from_seat=d.get("from_seat"), listed_at=e.recorded_at)
    return {"order": queue.listed(wl.order, kinds, d["entry"], kind)}


def player_called(e: RecordedEvent) -> None:
    d = e.data
    # the entry marked called and its property read back in one statement
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {ListEntry._meta.db_table} SET status = %s WHERE id = %s "
                    "RETURNING property_id", [EntryStatus.CALLED.value, _uuid(d["entry"])])
        (property_id,) = cur.fetchone()
    Call.objects.create(
        id=d["call"], waitlist_id=_list_id(e), entry_id=d["entry"],
        property_id=property_id, table=d["table"], seat=d["seat"],
        state=CallState.OPEN, called_at=e.recorded_at, deadline_at=_when(d["deadline"]),
        reason=d.get("reason") or "", by_lot=bool(d.get("by_lot")))


def _answered(e: RecordedEvent, state: str) -> None:
    Call.objects.filter(pk=e.data["call"]).update(state=state, answered_at=e.recorded_at)


def call_timed_out(e: RecordedEvent) -> dict[str, Any]:
    d = e.data
    _answered(e, CallState.TIMED_OUT)
    gone = d["moved_to"] is None
    ListEntry.objects.filter(pk=d["entry"]).update(
        missed_calls=d["missed"],
        status=EntryStatus.REMOVED if gone else EntryStatus.WAITING,
        done_at=e.recorded_at if gone else None)
    return {"order": queue.moved_to(_order(e), d["entry"], d["moved_to"])}


def call_cancelled(e: RecordedEvent) -> None:
    _answered(e, CallState.CANCELLED)
    ListEntry.objects.filter(pk=e.data["entry"], status=EntryStatus.CALLED).update(
        status=EntryStatus.WAITING)


def stays_listed(order: list[str], kinds: dict[str, str], entry: str) -> list[str]:
    """The order once a player seated from the list stays on it: the entry is a table
    change from the seat just taken now, placed as one listed at the seating (after the
    table changes and broken tables' players already listed, before the players) — the
    fairness record (:mod:`poker_floor.fairness`) moves it the same way."""
    return queue.listed(queue.moved_to(order, entry, None), {**kinds, entry: "change"},
                        entry, "change")


def player_seated_from_list(e: RecordedEvent) -> dict[str, Any] | None:
    d = e.data
    _answered(e, CallState.SEATED)
    entries = ListEntry.objects.filter(pk=d["entry"])
    if d.get("stays_listed"):
        # seated at a table of the game: a table change from that seat, listed when
        # seated (so a seat taken there after it is another player's), never offered a
        # seat at that table (review #3)
        entries.update(status=EntryStatus.WAITING, stays_listed=True,
                       kind=EntryKind.CHANGE, from_table=d["table"], from_seat=d["seat"],
                       listed_at=e.recorded_at)
        order = _order(e)
        kinds = {str(k): v for k, v in ListEntry.objects.filter(pk__in=order)
                 .values_list("id", "kind")}
        return {"order": stays_listed(order, kinds, d["entry"])}
    entries.update(status=EntryStatus.SEATED, done_at=e.recorded_at)
    return {"order": _order_without(e, d["entry"])}


def player_delisted(e: RecordedEvent) -> dict[str, Any]:
    entry = e.data["entry"]
    ListEntry.objects.filter(pk=entry).update(status=EntryStatus.REMOVED,
                                              done_at=e.recorded_at)
    return {"order": _order_without(e, entry)}


def must_move_set(e: RecordedEvent) -> dict[str, Any]:
    return {"main_table": e.data["main_table"], "feeders": list(e.data["feeders"])}


def must_move_cleared(e: RecordedEvent) -> dict[str, Any]:
    return {"main_table": None, "feeders": []}


def moved(e: RecordedEvent) -> None:
    """A move, or a table opened or broken by lot: its players' seats are the poker
    tables' own projection, its calls and entries the list events recorded with it; the
    list's row takes only the stream's version."""
    return None


def page(outcome: str) -> Callable[[RecordedEvent], None]:
    def apply(e: RecordedEvent) -> None:
        if e.data.get("call"):
            Call.objects.filter(pk=e.data["call"]).update(page=outcome)
    return apply


#: each event's change to the rows; what it changes on the list's own row is returned and
#: written with the stream's version in one UPDATE. Every event of the list's stream is
#: here, the moves' too (must-move tables, moves, tables opened and broken by lot): one
#: projection owns the list's row, so rebuilding it alone gives the same rows (review #8).
STEPS: dict[str, Callable[[RecordedEvent], Any]] = {
    "WaitlistOpened": waitlist_opened,
    "WaitlistConfigured": waitlist_configured,
    "PlayerListed": player_listed,
    "SeatOffered": player_called,
    "CallTimedOut": call_timed_out,
    "CallCancelled": call_cancelled,
    "PlayerSeatedFromList": player_seated_from_list,
    "PlayerDelisted": player_delisted,
    "MustMoveSet": must_move_set,
    "MustMoveCleared": must_move_cleared,
    "PlayerMoved": moved,
    "TableOpenedByLot": moved,
    "TableBrokenByLot": moved,
    "PageSent": page("sent"),
    "PageFailed": page("failed"),
}

#: the events of a list's stream this projection follows
LIST_EVENTS = frozenset(STEPS)


def entry_erased(e: RecordedEvent) -> None:
    """The entry's key erased: its details are gone from the read model too."""
    subjects = [e.data.get("subject"), *(e.data.get("subjects") or [])]
    ids = []
    for s in subjects:
        try:
            ids.append(uuid.UUID(str(s)))
        except (TypeError, ValueError):
            continue
    ListEntry.objects.filter(pk__in=ids).update(name="", phone="", email="", initials="",
                                                erased=True)


@register
class WaitlistProjection(Projection):
    """The lists (with their must-move tables), their entries in calling order and the
    calls (issue 24): every event of a list's stream, so the row's version is the
    stream's."""

    name = "poker_floor_lists"
    event_types = LIST_EVENTS | {ERASED}

    def handles(self, event: RecordedEvent) -> bool:
        if event.stream_type == "waitlist":
            return event.type in LIST_EVENTS
        return event.type == ERASED and (event.data or {}).get("kind") == ENTRY_KIND

    def apply(self, event: RecordedEvent) -> None:
        if event.stream_type != "waitlist":
            entry_erased(event)
            return
        fields = STEPS[event.type](event) or {}
        Waitlist.objects.filter(pk=_list_id(event)).update(stream_version=event.version,
                                                           **fields)

    def reset(self) -> None:
        Call.objects.all().delete()
        ListEntry.objects.all().delete()
        Waitlist.objects.all().delete()
