"""The event store: the one way to record a fact (DESIGN §3).

``append`` checks the stream's expected version, links each event to the stream's
previous event in a SHA-256 chain, and runs the inline projections, all in one
transaction; async projections are woken once it commits.

Ordering. On PostgreSQL appends to different streams do not wait for each other: a
position is the appending transaction's id shifted left 16 bits plus the event's place
in that transaction (migration casino/0006), so concurrent appends share commits.
Positions are unique and increase along every stream, but have gaps and are not in
commit order; what a reader may rely on is :data:`SETTLED`: every position below the
oldest transaction still in flight is final, so a reader that reads only there (as
:func:`read_all` does) never skips an event. SQLite admits one writer at a time, so its
positions stay gapless in commit order. The log as a whole is sealed in blocks
(:mod:`casino.eventstore.seals`).

Import everything of the store from here: what it holds (:mod:`casino.eventstore.
records`) and how it is read (:mod:`casino.eventstore.reading`) are its parts.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from casino.domain.gaming_day import gaming_day_of
from casino.eventstore.canonical import GENESIS_HASH, canonical_json, link_hash, timestamp_text
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
# The store is the one way in: what is held (records) and how it is read (reading) are
# its parts, re-exported here.
from casino.eventstore.reading import (  # noqa: F401
    SETTLED,
    _from_model,
    _stored_by_ids,
    committed_unsettled,
    head,
    read_all,
    read_stream,
    settled,
    stream_version,
    to_json,
)
from casino.eventstore.records import (  # noqa: F401
    NewEvent,
    RecordedEvent,
    Stream,
    _stream_types,
    _upcasters,
    register_stream_type,
    stream_types,
    upcast,
    upcaster,
)

MAX_PAYLOAD_BYTES = 64 * 1024
#: Key of the PostgreSQL advisory lock every append holds *shared* (so appends never wait
#: for each other) and a projection rebuild takes exclusively ("CASINOEV" in ASCII).
APPEND_LOCK_KEY = 0x434153494E4F4556
#: How many times an append in its own transaction is retried when a later transaction
#: recorded the stream's previous event (SQLSTATE CE408, see migration casino/0006).
_ORDER_RETRIES = 5
_IDEMPOTENCY_NAMESPACE = uuid.UUID("6f1d4c2e-8a37-4d0b-9a51-3c1f0e2b7d64")
_TYPE = re.compile(r"^[A-Za-z][A-Za-z0-9_.]{0,99}$")
# Restricted so the hash head (canonical JSON) needs no escaping: see migration 0003.
_STREAM_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@+-]{0,199}$")



# --- validation ---------------------------------------------------------------------

def _reject_unstorable(obj: Any, where: str) -> None:
    """Floats are refused: they do not survive PostgreSQL's jsonb unchanged (1e16 comes
    back as an integer, -0.0 as 0), which would break the hash chain on verification.
    Amounts are integer cents; rates go in basis points or as decimal strings. NUL
    characters are refused because jsonb cannot store them."""
    if isinstance(obj, str):
        if "\x00" in obj:
            raise PayloadNotJSON(f"{where} contains a NUL character")
    elif isinstance(obj, float):
        raise PayloadNotJSON(f"{where} contains the number {obj!r}: events hold no floats "
                             "(use integer cents or basis points, or a decimal string)")
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            _reject_unstorable(k, where)
            _reject_unstorable(v, where)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _reject_unstorable(v, where)


def _check_json(value: Any, where: str) -> str:
    if not isinstance(value, Mapping):
        raise PayloadNotJSON(f"{where} must be a JSON object")
    try:
        text = canonical_json(value)
    except (TypeError, ValueError) as exc:
        raise PayloadNotJSON(f"{where} is not JSON-serialisable: {exc}") from None
    if len(text.encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise PayloadTooLarge(f"{where} is over {MAX_PAYLOAD_BYTES // 1024} KB")
    _reject_unstorable(value, where)
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
    if not isinstance(stream[1], str) or not _STREAM_ID.match(stream[1]):
        raise InvalidEvent(f"stream id {stream[1]!r} must be 1-200 letters, digits or "
                           "_ . : @ + - (starting with a letter or digit)")
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

def prepare(stream: Stream | tuple[str, str], expected_version: int,
            events: Sequence[NewEvent], metadata: Mapping[str, Any],
            idempotency_key: str | None = None) -> _Batch:
    """Check an append and make it ready to send (no database work): the part of
    :func:`append` the command runner shares (:mod:`casino.command_runner`)."""
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
    ids = (idempotent_event_ids(idempotency_key, len(events)) if idempotency_key is not None
           else [uuid.uuid4() for _ in events])
    return _Batch(stream, expected_version, events, data_texts, meta, meta_text,
                  recorded_at, ids, idempotency_key)


def append(stream: Stream | tuple[str, str], expected_version: int,
           events: Sequence[NewEvent], metadata: Mapping[str, Any],
           idempotency_key: str | None = None, *, savepoint: bool = True
           ) -> list[RecordedEvent]:
    """Append ``events`` to ``stream`` if it is at ``expected_version``; return them stored.

    A retry with the same ``idempotency_key`` returns the events stored the first time and
    appends nothing. Raises :class:`ConcurrencyError` when the stream has moved on. Inside
    a caller's transaction the append joins it as a savepoint, so the caller may catch a
    refusal and go on; ``savepoint=False`` leaves the savepoint out (two statements fewer)
    for a caller whose transaction fails as a whole on any refusal (a service command). An
    idempotent append always has its savepoint: a replay is read after it rolls back.
    Outside a transaction it commits.
    """
    batch = prepare(stream, expected_version, events, metadata, idempotency_key)
    stream = batch.stream
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        for _ in range(_ORDER_RETRIES):
            try:
                rows, fresh = _append_pg_own_transaction(batch)
                break
            except _OrderRetry:
                continue  # a new transaction gets a larger id (migration casino/0006)
        else:
            raise ConcurrencyError(batch.stream.id, expected_version, None)
        if fresh:
            _after_commit(rows)
        return rows
    if not savepoint and idempotency_key is None and connection.in_atomic_block:
        rows = (_append_pg_in_transaction(batch) if connection.vendor == "postgresql"
                else _append_sqlite(batch))
        transaction.on_commit(lambda: _after_commit(rows), robust=True)
        return rows
    try:
        with _sqlite_queue(), transaction.atomic():
            rows = (_append_pg_in_transaction(batch) if connection.vendor == "postgresql"
                    else _append_sqlite(batch))
            transaction.on_commit(lambda: _after_commit(rows), robust=True)
    except _Replayed:
        return batch.replayed()  # read after the savepoint rolled back
    return rows


# --- what runs with each append: hooks the app fills in (CasinoConfig.ready()) ------
#
# The store does not know the projections: the core app hands it two hooks at start-up
# (the inline projections, inside the append's transaction; the wake-up of the async
# ones, after it commits), so the store sits below the projections and imports nothing
# of them.

AppendHook = Callable[[Sequence["RecordedEvent"]], None]
WantedHook = Callable[[Sequence["RecordedEvent"]], bool]
_in_transaction_hooks: list[AppendHook] = []
_in_transaction_wanted: list[WantedHook] = []
_after_commit_hooks: list[AppendHook] = []


def register_append_hooks(*, in_transaction: AppendHook | None = None,
                          in_transaction_wanted: WantedHook | None = None,
                          after_commit: AppendHook | None = None) -> None:
    """Run ``in_transaction`` with each append's events just before they are inserted (in
    the append's transaction), and ``after_commit`` once they are committed.
    ``in_transaction_wanted`` says whether ``in_transaction`` has work for the events:
    without any, an append outside a transaction is sent as one statement, its own
    transaction. Registering the same hook twice is a no-op, so ``ready()`` may run more
    than once."""
    for hook, hooks in ((in_transaction, _in_transaction_hooks),
                        (in_transaction_wanted, _in_transaction_wanted),
                        (after_commit, _after_commit_hooks)):
        if hook is not None and hook not in hooks:
            hooks.append(hook)  # type: ignore[arg-type]


def _in_transaction_work(events: Sequence[RecordedEvent]) -> bool:
    if len(_in_transaction_wanted) < len(_in_transaction_hooks):
        return True  # a hook that cannot say: assume it has work
    return any(wanted(events) for wanted in _in_transaction_wanted)


def _in_transaction(events: Sequence[RecordedEvent]) -> None:
    for hook in _in_transaction_hooks:
        hook(events)


def _after_commit(events: Sequence[RecordedEvent]) -> None:
    for hook in _after_commit_hooks:
        hook(events)


class _Replayed(Exception):
    """The idempotency key's events are already stored: roll back, then read them."""


class _OrderRetry(ConcurrencyError):
    """The stream's previous event was recorded by a transaction that began after this
    one; its position would come first. Retried in a new transaction, or answered as a
    conflict (409) inside a caller's."""

    def __init__(self, stream_id: str, expected: int) -> None:
        super().__init__(stream_id, expected, None)


@dataclass(frozen=True)
class _Batch:
    stream: Stream
    expected_version: int
    events: list[NewEvent]
    data_texts: list[str]
    meta: dict
    meta_text: str
    recorded_at: datetime
    ids: list[uuid.UUID]
    idempotency_key: str | None

    def pending(self) -> list[RecordedEvent]:
        """The events as inline projections see them: everything but the global
        position and the hash links, which are assigned under the append lock."""
        return [RecordedEvent(0, self.ids[i], self.stream.type, self.stream.id,
                              self.expected_version + 1 + i, ev.type, ev.schema_version,
                              dict(ev.data), self.meta, self.recorded_at, "", "")
                for i, ev in enumerate(self.events)]

    def replayed(self) -> list[RecordedEvent]:
        """The events a retried idempotency key stored the first time."""
        stored = _stored_by_ids(self.ids)
        if len(stored) != len(self.events) or stored[0].stream_id != self.stream.id:
            raise IdempotencyKeyReused(
                f"idempotency key {self.idempotency_key!r} was used for other events")
        return stored


_sqlite_writers = threading.Lock()


@contextmanager
def writer_turn() -> Iterator[None]:
    """What a writer that opens its own transaction waits for first (the command runner):
    on SQLite, its turn in this process's queue of writers (:func:`_sqlite_queue`)."""
    with _sqlite_queue():
        yield


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


# --- PostgreSQL: the server-side function of migration casino/0003 ------------------

# The arrays go in binary (%b): psycopg's text form escapes every quote of every event's
# JSON in Python, the binary form copies the bytes.
_APPEND_FUNCTION_SQL = (
    "SELECT out_position, out_prev_hash, out_hash FROM casino_event_append("
    "%s, %s, %s, %b, %b, %b, %b, %s, %s, %s, %s)")


def _function_params(b: _Batch) -> list[Any]:
    return [b.stream.type, b.stream.id, b.expected_version, b.ids,
            [ev.type for ev in b.events], [ev.schema_version for ev in b.events],
            b.data_texts, b.meta_text, b.recorded_at, timestamp_text(b.recorded_at),
            b.idempotency_key is not None]


def append_in_own_transaction(b: _Batch, *, also: Sequence[tuple[str, Sequence[Any]]] = (),
                              more: Sequence[_Batch] = ()) -> list[RecordedEvent]:
    """PostgreSQL, for the command runner: ``b`` appended in the transaction the runner
    began on the raw connection (BEGIN and its locked read already sent), with ``more``
    (appends to other streams decided by the same command: a hand's settlement at the
    table, a round's deck), ``also`` (the snapshot) and COMMIT in the same round trip;
    the async projections woken after. Returns every batch's events, ``b``'s first.
    Raises the store's errors like :func:`append`; on any error the transaction is
    rolled back and nothing of the command is recorded."""
    rows, fresh = _append_pg_own_transaction(b, begun=True, also=also, more=more)
    if fresh:
        _after_commit(rows)
    return rows


def _finish(b: _Batch, pending: list[RecordedEvent],
            links: list[tuple[int, str, str]]) -> list[RecordedEvent]:
    return [replace(ev, position=pos, prev_hash=prev, hash=h)
            for ev, (pos, prev, h) in zip(pending, links)]


def _database_error(exc: BaseException) -> Any:
    """The psycopg error behind ``exc`` (Django wraps psycopg's), or None."""
    for candidate in (exc, exc.__cause__):
        if candidate is not None and getattr(candidate, "sqlstate", None):
            return candidate
    return None


def _refusal(b: _Batch, exc: BaseException) -> Exception | None:
    """Map the function's SQLSTATEs to the store's errors; None for anything else."""
    db_error = _database_error(exc)
    state = db_error.sqlstate if db_error is not None else None
    if state == "CE200":
        return _Replayed()
    if state == "CE409":
        return ConcurrencyError(b.stream.id, b.expected_version,
                                int(db_error.diag.message_detail))
    if state == "CE408":
        return _OrderRetry(b.stream.id, b.expected_version)
    if state == "CE413":
        return InvalidEvent("more than 65,536 events in one transaction: append them in "
                            "several")
    if state == "23505":  # two appends raced for the same key past the function's checks
        constraint = getattr(db_error.diag, "constraint_name", "") or ""
        if "event_id" in constraint:
            return _Replayed()
        return ConcurrencyError(b.stream.id, b.expected_version, None)
    if state == "40P01":  # deadlock between projections' row locks: retry like a conflict
        return ConcurrencyError(b.stream.id, b.expected_version, None)
    if state is not None and state.startswith("22"):
        # A value the database refuses (out of range, too long) in an inline projection
        # run in the pipeline arrives as psycopg's own error, not Django's: answered as
        # Django's DataError, as the ORM path answers it (400 invalid_data, not a 500).
        from django.db import DataError

        refused = DataError(str(db_error))
        refused.__cause__ = db_error
        return refused
    return None


def _refused(b: _Batch, exc: BaseException) -> list[RecordedEvent]:
    """An append of its own transaction was refused and rolled back: the events an
    idempotent replay stored the first time, or the store's error for the refusal, or
    ``exc`` itself when it is no refusal."""
    refusal = _refusal(b, exc)
    if isinstance(refusal, _Replayed):
        return b.replayed()
    if refusal is not None:
        raise refusal from refusal.__cause__  # a refused value keeps its psycopg error
    raise exc


def _append_pg_own_transaction(b: _Batch, *, begun: bool = False,
                                also: Sequence[tuple[str, Sequence[Any]]] = (),
                                more: Sequence[_Batch] = ()
                                ) -> tuple[list[RecordedEvent], bool]:
    """No transaction open: BEGIN, the inline projections, the function and COMMIT go to
    the server in one pipelined round trip (psycopg pipeline mode). The server runs them
    in order. Django's connection stays in autocommit mode; the explicit transaction is
    ours. ``begun``: the command runner already sent BEGIN (and read its row under lock)
    on this connection; ``more``: further batches (other streams) appended in the same
    transaction, each after its own inline projections; ``also``: the runner's statements
    (the snapshot) to run before COMMIT."""
    import psycopg

    connection.ensure_connection()
    conn = connection.connection
    batches = [b, *more]
    pendings = [x.pending() for x in batches]
    control = psycopg.Cursor(conn)
    if not begun and not also and not more and not _in_transaction_work(pendings[0]):
        return _append_pg_one_statement(b, pendings[0], psycopg.Cursor(conn))
    cursors = [psycopg.Cursor(conn) for _ in batches]
    try:
        with conn.pipeline():
            if not begun:
                control.execute("BEGIN")
            for x, pending, cur in zip(batches, pendings, cursors):
                _in_transaction(pending)
                cur.execute(_APPEND_FUNCTION_SQL, _function_params(x))
            for sql, params in also:
                control.execute(sql, params)
            control.execute("COMMIT")
        links = [cur.fetchall() for cur in cursors]
    except BaseException as exc:
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            conn.execute("ROLLBACK")
        failed = _failed_batch(batches, cursors) if len(batches) > 1 else b
        return _refused(failed, exc), False
    return [ev for x, pending, link in zip(batches, pendings, links)
            for ev in _finish(x, pending, link)], True


def _failed_batch(batches: list[_Batch], cursors: list[Any]) -> _Batch:
    """Which stream's append the server refused: the first whose cursor holds no rows (a
    pipeline's statements after the failed one are not run), so the conflict answered
    names the right stream and version."""
    import psycopg

    for x, cur in zip(batches, cursors):
        result = getattr(cur, "pgresult", None)
        if result is None or result.status != psycopg.pq.ExecStatus.TUPLES_OK:
            return x
    return batches[0]


def _append_pg_one_statement(b: _Batch, pending: list[RecordedEvent], cur: Any
                             ) -> tuple[list[RecordedEvent], bool]:
    """No transaction open and nothing to run beside the function: the function call
    alone, in autocommit, is its own transaction (committed durably when it returns; a
    refusal rolls it back)."""
    try:
        cur.execute(_APPEND_FUNCTION_SQL, _function_params(b))
        links = cur.fetchall()
    except Exception as exc:
        return _refused(b, exc), False
    return _finish(b, pending, links), True


def _append_pg_in_transaction(b: _Batch) -> list[RecordedEvent]:
    """Inside the caller's transaction (in a savepoint unless the caller leaves it out,
    see ``append``)."""
    pending = b.pending()
    _in_transaction(pending)
    try:
        with hot_cursor() as cur:
            cur.execute(_APPEND_FUNCTION_SQL, _function_params(b))
            links = cur.fetchall()
    except Exception as exc:
        refusal = _refusal(b, exc)
        if refusal is not None:
            raise refusal from refusal.__cause__  # a refused value keeps its psycopg error
        raise
    return _finish(b, pending, links)


# --- SQLite: the same append in Python, under SQLite's single write lock ------------

def _append_sqlite(b: _Batch) -> list[RecordedEvent]:
    head_position, head_hash, stream_version = _lock_and_read_heads(b.stream.id)
    # head_hash is the stream's last event's hash: each stream is chained by version.
    if b.idempotency_key is not None and _stored_by_ids(b.ids[:1]):
        raise _Replayed
    if stream_version != b.expected_version:
        raise ConcurrencyError(b.stream.id, b.expected_version, stream_version)
    pending = b.pending()
    _in_transaction(pending)
    links, prev = [], head_hash
    for i, ev in enumerate(pending):
        position = head_position + 1 + i
        h = link_hash(prev_hash=prev, position=position, event_id=str(ev.event_id),
                      stream_type=ev.stream_type, stream_id=ev.stream_id,
                      version=ev.version, type=ev.type, schema_version=ev.schema_version,
                      data_json=b.data_texts[i], metadata_json=b.meta_text,
                      recorded_at=b.recorded_at)
        links.append((position, prev, h))
        prev = h
    rows = _finish(b, pending, links)
    _insert(rows, b.data_texts, b.meta_text)
    return rows


def _lock_appends() -> None:
    """Stop every append until this transaction ends (a projection rebuild): the append
    lock taken exclusively on PostgreSQL, where each append holds it shared; SQLite's
    transactions begin IMMEDIATE (see settings), which already holds its one write lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK_KEY])


_HEADS_SQL = (
    "SELECT (SELECT MAX(position) FROM casino_event), s.hash, s.version "
    "FROM (SELECT 1) AS one LEFT JOIN "
    "(SELECT hash, version FROM casino_event WHERE stream_id = %s "
    "ORDER BY version DESC LIMIT 1) AS s ON 1 = 1"
)


def hot_cursor() -> Any:
    """A cursor for the append's own statements.

    On PostgreSQL a plain psycopg cursor with server-side binding (arrays go to the
    append function as real arrays, and it works in pipeline mode); it runs in Django's
    transaction like any other cursor. Statements are not prepared: psycopg loses track
    of a statement prepared inside a pipeline that then aborts (a refused append).
    """
    if connection.vendor == "postgresql":
        import psycopg

        connection.ensure_connection()
        return psycopg.Cursor(connection.connection)
    return connection.cursor()


def _lock_and_read_heads(stream_id: str) -> tuple[int, str, int]:
    """SQLite: the transaction already holds the write lock; read the last position, and
    the stream's last hash and version."""
    with connection.cursor() as cur:
        cur.execute(_HEADS_SQL, [stream_id])
        position, head_hash, version = cur.fetchone()
    return position or 0, head_hash or GENESIS_HASH, version or 0


_COLUMNS = ("position, event_id, stream_type, stream_id, version, type, schema_version, "
            "data, metadata, recorded_at, prev_hash, hash")


def _insert(rows: list[RecordedEvent], data_texts: list[str], meta_text: str) -> None:
    """SQLite's insert (PostgreSQL inserts inside ``casino_event_append``)."""
    ops = connection.ops
    one = "(" + ", ".join(["%s"] * 12) + ")"
    params: list[Any] = []
    for row, data_text in zip(rows, data_texts):
        params += [row.position, row.event_id.hex,  # Django stores UUIDs as 32 hex chars
                   row.stream_type, row.stream_id, row.version, row.type, row.schema_version,
                   data_text, meta_text, ops.adapt_datetimefield_value(row.recorded_at),
                   row.prev_hash, row.hash]
    with connection.cursor() as cur:
        cur.execute(f"INSERT INTO casino_event ({_COLUMNS}) VALUES "
                    + ", ".join([one] * len(rows)), params)


__all__ = ["Stream", "NewEvent", "RecordedEvent", "append", "read_stream", "read_all",
           "stream_version", "head", "settled", "SETTLED", "committed_unsettled",
           "register_stream_type", "stream_types", "upcaster", "upcast", "to_json"]
