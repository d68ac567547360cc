"""The event store: the one way to record a fact (DESIGN §3).

``append`` serializes writers (a transaction-scoped advisory lock on PostgreSQL; SQLite's
IMMEDIATE transactions on the embedded default), so positions are assigned gapless in
commit order and a reader that has seen position N has seen every position below it.
Within the same transaction it checks the stream's expected version, links each event
into the SHA-256 chain, and runs the inline projections; async projections are woken
once the transaction commits.
"""

from __future__ import annotations

import math
import re
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from casino.domain.gaming_day import gaming_day_of
from casino.eventstore.canonical import GENESIS_HASH, canonical_json, link_hash
from casino.eventstore.errors import (
    ConcurrencyError,
    IdempotencyKeyReused,
    InvalidEvent,
    InvalidExpectedVersion,
    MetadataActorMissing,
    PayloadNotJSON,
    PayloadTooLarge,
    UnknownStreamType,
)

MAX_PAYLOAD_BYTES = 64 * 1024
#: Key of the PostgreSQL advisory lock that serializes appends ("CASINOEV" in ASCII).
APPEND_LOCK_KEY = 0x434153494E4F4556
_IDEMPOTENCY_NAMESPACE = uuid.UUID("6f1d4c2e-8a37-4d0b-9a51-3c1f0e2b7d64")
_NAME = re.compile(r"^[a-z][a-z0-9_.-]{0,63}$")
_TYPE = re.compile(r"^[A-Za-z][A-Za-z0-9_.]{0,99}$")

_stream_types: set[str] = set()
_upcasters: dict[tuple[str, int], Callable[[dict], dict]] = {}


class Stream(NamedTuple):
    type: str
    id: str


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    schema_version: int = 1


@dataclass(frozen=True)
class RecordedEvent:
    position: int
    event_id: uuid.UUID
    stream_type: str
    stream_id: str
    version: int
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: datetime
    prev_hash: str
    hash: str


# --- registries ---------------------------------------------------------------------

def register_stream_type(name: str) -> str:
    """Declare a stream type (``deck``, ``round`` …); appends to any other are refused."""
    if not _NAME.match(name):
        raise ValueError(f"stream type {name!r} must be lower-case letters, digits, _ . -")
    _stream_types.add(name)
    return name


def stream_types() -> frozenset[str]:
    return frozenset(_stream_types)


def upcaster(event_type: str, from_version: int) -> Callable:
    """Register a function turning ``event_type`` data of ``from_version`` into the next.

    Stored payloads are never rewritten; readers see the newest shape.
    """

    def register(fn: Callable[[dict], dict]) -> Callable[[dict], dict]:
        _upcasters[(event_type, from_version)] = fn
        return fn

    return register


def upcast(event_type: str, schema_version: int, data: dict) -> tuple[int, dict]:
    while (fn := _upcasters.get((event_type, schema_version))) is not None:
        data = fn(dict(data))
        schema_version += 1
    return schema_version, data


# --- validation ---------------------------------------------------------------------

def _check_json(value: Any, where: str) -> str:
    def reject_nul(obj: Any) -> None:
        if isinstance(obj, str) and "\x00" in obj:
            raise PayloadNotJSON(f"{where} contains a NUL character")
        if isinstance(obj, float) and not math.isfinite(obj):
            raise PayloadNotJSON(f"{where} contains a non-finite number")
        if isinstance(obj, dict):
            for k, v in obj.items():
                reject_nul(k)
                reject_nul(v)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                reject_nul(v)

    if not isinstance(value, Mapping):
        raise PayloadNotJSON(f"{where} must be a JSON object")
    try:
        text = canonical_json(value)
    except (TypeError, ValueError) as exc:
        raise PayloadNotJSON(f"{where} is not JSON-serialisable: {exc}") from None
    if len(text.encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise PayloadTooLarge(f"{where} is over {MAX_PAYLOAD_BYTES // 1024} KB")
    if "\\u0000" in text:
        reject_nul(value)
    return text


def _prepare_metadata(metadata: Mapping[str, Any], recorded_at: datetime) -> dict:
    if not isinstance(metadata, Mapping):
        raise MetadataActorMissing("metadata must be an object naming the actor")
    actor = metadata.get("actor")
    if not isinstance(actor, str) or not actor.strip():
        raise MetadataActorMissing("metadata must name the actor (who caused these events)")
    meta = dict(metadata)
    if "gaming_day" not in meta:
        meta["gaming_day"] = gaming_day_of(
            recorded_at, time_zone=settings.PROPERTY_TIME_ZONE,
            start_hour=settings.GAMING_DAY_START_HOUR).isoformat()
    elif isinstance(meta["gaming_day"], date):
        meta["gaming_day"] = meta["gaming_day"].isoformat()
    return meta


def _validate(stream: Stream, expected_version: Any, events: Sequence[NewEvent]) -> None:
    if not isinstance(stream, tuple) or len(stream) != 2:
        raise InvalidEvent("stream must be a (stream_type, stream_id) pair")
    if stream[0] not in _stream_types:
        raise UnknownStreamType(f"unknown stream type {stream[0]!r}; "
                                f"known: {', '.join(sorted(_stream_types))}")
    if not isinstance(stream[1], str) or not 0 < len(stream[1]) <= 200:
        raise InvalidEvent("stream id must be a non-empty string of at most 200 characters")
    if type(expected_version) is not int or expected_version < 0:
        raise InvalidExpectedVersion(
            f"expected version must be a whole number >= 0, not {expected_version!r}")
    if not events:
        raise InvalidEvent("nothing to append: no events given")
    for ev in events:
        if not isinstance(ev, NewEvent):
            raise InvalidEvent(f"{ev!r} is not a NewEvent")
        if not _TYPE.match(ev.type):
            raise InvalidEvent(f"event type {ev.type!r} is not a valid name")
        if type(ev.schema_version) is not int or ev.schema_version < 1:
            raise InvalidEvent(f"schema version of {ev.type} must be a whole number >= 1")


def idempotent_event_ids(key: str, count: int) -> list[uuid.UUID]:
    return [uuid.uuid5(_IDEMPOTENCY_NAMESPACE, f"{key}#{i}") for i in range(count)]


# --- append -------------------------------------------------------------------------

def append(stream: Stream | tuple[str, str], expected_version: int,
           events: Sequence[NewEvent], metadata: Mapping[str, Any],
           idempotency_key: str | None = None) -> list[RecordedEvent]:
    """Append ``events`` to ``stream`` if it is at ``expected_version``; return them stored.

    A retry with the same ``idempotency_key`` returns the events stored the first time and
    appends nothing. Raises :class:`ConcurrencyError` when the stream has moved on.
    """
    stream = Stream(*stream) if isinstance(stream, tuple) else stream
    events = list(events)
    _validate(stream, expected_version, events)
    data_texts = [_check_json(ev.data, f"data of {ev.type}") for ev in events]
    if idempotency_key is not None and (not isinstance(idempotency_key, str)
                                        or not 0 < len(idempotency_key) <= 200):
        raise InvalidEvent("idempotency key must be a non-empty string of at most 200 characters")

    recorded_at = timezone.now()
    meta = _prepare_metadata(metadata, recorded_at)
    if idempotency_key is not None:
        meta["idempotency_key"] = idempotency_key
    meta_text = _check_json(meta, "metadata")
    batch = _Batch(stream, expected_version, events, data_texts, meta, meta_text,
                   recorded_at, idempotency_key)

    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        rows, fresh = _append_own_transaction(batch)
        if fresh:
            from casino.eventstore import projections

            projections.wake_async(rows)
        return rows
    with _sqlite_queue(), transaction.atomic():
        rows, fresh = _append_in_transaction(batch)
        if fresh:
            from casino.eventstore import projections

            transaction.on_commit(lambda: projections.wake_async(rows), robust=True)
    return rows


@dataclass(frozen=True)
class _Batch:
    stream: Stream
    expected_version: int
    events: list[NewEvent]
    data_texts: list[str]
    meta: dict
    meta_text: str
    recorded_at: datetime
    idempotency_key: str | None


_sqlite_writers = threading.Lock()


@contextmanager
def _sqlite_queue() -> Iterator[None]:
    """SQLite: top-level appends of one process wait their turn on a lock.

    SQLite admits one writer at a time and makes the others poll with back-off, which
    under load can starve a writer past the busy timeout; a queue is fair. Inside a
    caller's transaction (which already holds SQLite's write lock) the queue is skipped,
    so the two locks are never taken in opposite orders.
    """
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    with _sqlite_writers:
        yield


def _append_in_transaction(b: _Batch) -> tuple[list[RecordedEvent], bool]:
    """The append proper, inside a transaction; returns the rows and whether they are new."""
    head_position, head_hash, stream_version = _lock_and_read_heads(b.stream.id)
    if b.idempotency_key is not None:
        ids = idempotent_event_ids(b.idempotency_key, len(b.events))
        stored = _stored_by_ids(ids)
        if stored:
            if len(stored) != len(b.events) or stored[0].stream_id != b.stream.id:
                raise IdempotencyKeyReused(
                    f"idempotency key {b.idempotency_key!r} was used for other events")
            return stored, False
    else:
        ids = [uuid.uuid4() for _ in b.events]
    if stream_version != b.expected_version:
        raise ConcurrencyError(b.stream.id, b.expected_version, stream_version)

    rows = []
    prev = head_hash
    for i, (ev, data_text) in enumerate(zip(b.events, b.data_texts)):
        position = head_position + 1 + i
        version = b.expected_version + 1 + i
        h = link_hash(prev_hash=prev, position=position, event_id=str(ids[i]),
                      stream_type=b.stream.type, stream_id=b.stream.id, version=version,
                      type=ev.type, schema_version=ev.schema_version,
                      data_json=data_text, metadata_json=b.meta_text,
                      recorded_at=b.recorded_at)
        rows.append(RecordedEvent(position, ids[i], b.stream.type, b.stream.id, version,
                                  ev.type, ev.schema_version, dict(ev.data), b.meta,
                                  b.recorded_at, prev, h))
        prev = h
    _insert(rows, b.data_texts, b.meta_text)

    from casino.eventstore import projections

    projections.apply_inline(rows)
    return rows, True


def _append_own_transaction(b: _Batch) -> tuple[list[RecordedEvent], bool]:
    """PostgreSQL, no transaction open: one explicit BEGIN ... COMMIT in pipeline mode.

    psycopg's pipeline sends statements without waiting for each reply, so the append
    costs two round trips: BEGIN, the lock and the head read; then the insert, the inline
    projections and COMMIT. The server still runs them in order, each statement with its
    own snapshot, so the head is read only after the lock is held. Django's connection
    stays in autocommit mode throughout; the explicit transaction is ours alone.
    """
    import psycopg

    connection.ensure_connection()
    conn = connection.connection
    outcome: tuple[list[RecordedEvent], bool] | None = None
    cur = psycopg.Cursor(conn)
    try:
        with conn.pipeline():
            cur.execute("BEGIN")
            outcome = _append_in_transaction(b)
            cur.execute("COMMIT" if outcome[1] else "ROLLBACK")
    except BaseException:
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            conn.execute("ROLLBACK")
        raise
    return outcome


def _lock_appends() -> None:
    """Serialize appenders until commit (PostgreSQL advisory lock; SQLite's transactions
    begin IMMEDIATE, see settings, which already holds its single write lock)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK_KEY])


_HEADS_SQL = (
    "SELECT h.position, h.hash, (SELECT MAX(version) FROM casino_event WHERE stream_id = %s) "
    "FROM (SELECT 1) AS one LEFT JOIN "
    "(SELECT position, hash FROM casino_event ORDER BY position DESC LIMIT 1) AS h ON 1 = 1"
)


def hot_cursor() -> Any:
    """A cursor for the append's own statements.

    On PostgreSQL a plain psycopg cursor with server-side binding, so the four statements
    every append sends are prepared once per connection; Django's default client-side
    cursor would re-parse them each time. Both run in Django's transaction.
    """
    if connection.vendor == "postgresql":
        import psycopg

        connection.ensure_connection()
        return psycopg.Cursor(connection.connection)
    return connection.cursor()


def _lock_and_read_heads(stream_id: str) -> tuple[int, str, int]:
    """Take the append lock, then read the global head and the stream's version."""
    with hot_cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK_KEY], prepare=True)
            cur.execute(_HEADS_SQL, [stream_id], prepare=True)
        else:
            cur.execute(_HEADS_SQL, [stream_id])
        position, head_hash, version = cur.fetchone()
    return position or 0, head_hash or GENESIS_HASH, version or 0


_COLUMNS = ("position, event_id, stream_type, stream_id, version, type, schema_version, "
            "data, metadata, recorded_at, prev_hash, hash")


def _insert(rows: list[RecordedEvent], data_texts: list[str], meta_text: str) -> None:
    ops = connection.ops
    pg = connection.vendor == "postgresql"
    if pg:
        one = "(%s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s)"
    else:
        one = "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
    params: list[Any] = []
    for row, data_text in zip(rows, data_texts):
        params += [row.position,
                   # psycopg adapts UUIDs; Django stores them as 32 hex chars on SQLite
                   row.event_id if pg else row.event_id.hex,
                   row.stream_type, row.stream_id, row.version, row.type, row.schema_version,
                   data_text, meta_text,
                   row.recorded_at if pg else ops.adapt_datetimefield_value(row.recorded_at),
                   row.prev_hash, row.hash]
    sql = f"INSERT INTO casino_event ({_COLUMNS}) VALUES " + ", ".join([one] * len(rows))
    with hot_cursor() as cur:
        if pg:
            cur.execute(sql, params, prepare=True)
        else:
            cur.execute(sql, params)


# --- reading ------------------------------------------------------------------------

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
             types: Iterable[str] | None = None) -> list[RecordedEvent]:
    """Events in global order from ``from_position`` on, at most ``limit`` of them.

    ``raw`` skips upcasting (chain verification hashes what was stored).
    """
    from casino.eventstore.models import Event

    qs = Event.objects.filter(position__gte=from_position)
    if types is not None:
        qs = qs.filter(type__in=list(types))
    return [_from_model(e, raw=raw) for e in qs.order_by("position")[:limit]]


def head() -> tuple[int, str]:
    with connection.cursor() as cur:
        cur.execute("SELECT position, hash FROM casino_event ORDER BY position DESC LIMIT 1")
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


__all__ = ["Stream", "NewEvent", "RecordedEvent", "append", "read_stream", "read_all",
           "stream_version", "head", "register_stream_type", "stream_types", "upcaster",
           "upcast", "to_json"]
