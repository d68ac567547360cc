"""Reading the log: one stream, the settled log in position order, its head.

On PostgreSQL positions are not in commit order (migration casino/0006); a reader that
pages through the log reads only the *settled* part (:data:`SETTLED`), below the oldest
transaction still in flight, and so never skips an event.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

from casino.eventstore.canonical import GENESIS_HASH
from casino.eventstore.records import RecordedEvent, upcast

#: On PostgreSQL, the events every reader may rely on: below the oldest transaction still
#: in flight (nothing can ever be inserted there), or recorded by the reader's own
#: transaction. A WHERE clause over ``casino_event.position``.
_BELOW_IN_FLIGHT = "position < (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16)"
SETTLED = (f"({_BELOW_IN_FLIGHT} "
           "OR position >> 16 = pg_current_xact_id_if_assigned()::text::bigint)")


def _from_model(e: Any, *, raw: bool = False) -> RecordedEvent:
    schema_version, data = (e.schema_version, e.data) if raw else upcast(
        e.type, e.schema_version, e.data)
    return RecordedEvent(e.position, e.event_id, e.stream_type, e.stream_id, e.version,
                         e.type, schema_version, data, e.metadata, e.recorded_at,
                         e.prev_hash, e.hash)


def _stored_by_ids(ids: Sequence[uuid.UUID]) -> list[RecordedEvent]:
    from casino.eventstore.models import Event

    return [_from_model(e) for e in Event.objects.filter(event_id__in=ids).order_by("position")]


def read_stream(stream_id: str, from_version: int = 1) -> list[RecordedEvent]:
    """Every event of one stream from ``from_version`` on, upcast to the newest schema."""
    from casino.eventstore.models import Event

    qs = Event.objects.filter(stream_id=stream_id, version__gte=from_version).order_by("version")
    return [_from_model(e) for e in qs]


def stream_version(stream_id: str) -> int:
    from django.db.models import Max

    from casino.eventstore.models import Event

    return Event.objects.filter(stream_id=stream_id).aggregate(v=Max("version"))["v"] or 0


def read_all(from_position: int = 1, limit: int = 1000, *, raw: bool = False,
             types: Iterable[str] | None = None, locked: bool = False
             ) -> list[RecordedEvent]:
    """Settled events (:func:`settled`) in position order from ``from_position`` on, at
    most ``limit`` of them: a reader that goes on from the last position it saw never
    skips an event.

    ``raw`` skips upcasting (chain verification hashes what was stored). ``locked``: the
    caller holds the append lock exclusively (a rebuild), so every committed event is
    final and the in-flight line is not needed.
    """
    from casino.eventstore.models import Event

    qs = Event.objects.filter(position__gte=from_position)
    if not locked:  # under the exclusive append lock every committed event is final
        qs = settled(qs)
    if types is not None:
        qs = qs.filter(type__in=list(types))
    return [_from_model(e, raw=raw) for e in qs.order_by("position")[:limit]]


def settled(events: Any, *, strict: bool = False) -> Any:
    """``events`` (a queryset of :class:`~casino.eventstore.models.Event`) cut to what a
    reader may rely on (:data:`SETTLED`): on PostgreSQL, nothing at or above the oldest
    transaction still in flight, whose events could still appear below positions already
    seen. Every reader that pages through the log by position reads through this.
    ``strict`` leaves out the reader's own uncommitted events too (what a seal covers)."""
    if connection.vendor == "postgresql":
        return events.extra(where=[_BELOW_IN_FLIGHT if strict else SETTLED])
    return events


def committed_unsettled() -> bool:
    """Whether committed events wait above the settled line (a transaction that began
    before them, anywhere on the server, is still open): a reader that found nothing
    new should look again shortly. Always False on SQLite."""
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cur:
        cur.execute(f"SELECT EXISTS (SELECT 1 FROM casino_event WHERE NOT {_BELOW_IN_FLIGHT}"
                    " AND position >> 16 <> coalesce(pg_current_xact_id_if_assigned()"
                    "::text::bigint, -1))")
        return bool(cur.fetchone()[0])


def head() -> tuple[int, str]:
    """The settled log's last position and that event's hash."""
    where = f"WHERE {SETTLED} " if connection.vendor == "postgresql" else ""
    with connection.cursor() as cur:
        cur.execute(f"SELECT position, hash FROM casino_event {where}"
                    "ORDER BY position DESC LIMIT 1")
        row = cur.fetchone()
    return (row[0], row[1]) if row else (0, GENESIS_HASH)


def to_json(event: RecordedEvent) -> dict:
    """A JSON-ready dict of an event, for the API and the commands."""
    return {
        "position": event.position, "event_id": str(event.event_id),
        "stream_type": event.stream_type, "stream_id": event.stream_id,
        "version": event.version, "type": event.type, "schema_version": event.schema_version,
        "data": event.data, "metadata": event.metadata,
        "recorded_at": event.recorded_at.isoformat(), "prev_hash": event.prev_hash,
        "hash": event.hash,
    }
