"""The one command runner (DESIGN §2): every command on an aggregate — a banked round, a
poker hand, a table starting a round — runs here.

One transaction: read the aggregate's row under lock with its **snapshot** (the domain
state at ``snapshot_version``, kept with the read-model row, so the stream is not
replayed on every command), let the domain decide, append the events at that version,
run the inline projections and write the new snapshot, commit.

A command may record in other streams too (:class:`Also`: the hand's settlement in the
table's stream, a new round's stream and its deck's), each at the version its locked read
saw, all in the same transaction (DESIGN §3 "one command, one transaction": no second
transaction a crash could cut off). An aggregate that keeps no snapshot (``update``
empty) decides on its locked read alone.

On PostgreSQL, outside any transaction the caller holds, that is two round trips: BEGIN
and the locked read in one pipeline; the inline projections, the append function (once a
stream), the snapshots and COMMIT in the next (:func:`casino.eventstore.store.
append_in_own_transaction`). Inside a caller's transaction (tests, an API request with an
``Idempotency-Key``, a command within a larger one) and on SQLite it runs the same steps
in that transaction. A task the domain schedules while it decides (a deck's timers) is
written to the outbox in the same transaction (:mod:`casino.outbox`): on the pipelined
path one INSERT in the second round trip, only when there is one.

A snapshot is a projection of its stream: the append is made at the snapshot's version,
so a snapshot left behind by some other writer makes the append conflict, and the runner
then rebuilds the state from the stream and tries again, up to four attempts in all (as
it does when another stream the command appends to moved on since its read). ``rebuild_projections`` rebuilds
every snapshot (:func:`snapshots_rebuild`); tests check snapshot = rebuild for every
aggregate registered here.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from django.db import connection, models, transaction

from casino import outbox
from casino.actors import Actor
from casino.domain.errors import NotFoundError
from casino.eventstore.errors import ConcurrencyError
from casino.eventstore.store import (
    NewEvent,
    RecordedEvent,
    Stream,
    _OrderRetry,
    append,
    append_in_own_transaction,
    prepare,
    read_stream,
    writer_turn,
)
from casino.scoping import parse_key

S = TypeVar("S")
_ATTEMPTS = 4


@dataclass(frozen=True)
class Aggregate(Generic[S]):
    """An aggregate the runner serves: the stream type, the read-model row that keeps its
    snapshot, and how the domain state is rebuilt, saved and loaded.

    ``select`` reads the row: ``%(lock)s`` is replaced by the row lock (nothing on
    SQLite), and it takes two parameters, the row's key and the caller's property id (the
    same rule as :func:`casino.scoping.property_row`: another property's row is not
    found). Its first columns are ``snapshot, snapshot_version``; the rest are what the
    command needs. ``update`` writes ``snapshot, snapshot_version, stream_version`` of the
    row whose key is the fourth parameter.
    """

    name: str
    stream_type: str
    what: str                                   # "round": 404 round_not_found
    select: str
    update: str
    stream_id: Callable[[Any], str]
    rebuild: Callable[[list[RecordedEvent]], S] | None = None
    to_snapshot: Callable[[S], dict[str, Any]] | None = None
    from_snapshot: Callable[[dict[str, Any]], S | None] | None = None
    #: every row with its stream (for :func:`snapshots_rebuild`): SQL giving the key
    all_keys: str = ""

    @property
    def keeps_snapshot(self) -> bool:
        """An aggregate without a snapshot (``update`` empty: a table starting a round)
        decides on its locked read alone: every column of ``select`` is the row, the
        state is None and the version 0; it appends to other streams only
        (:attr:`Decision.others`)."""
        return bool(self.update)


@dataclass(frozen=True)
class Loaded(Generic[S]):
    """What the domain decides on: the row's columns after the snapshot, the state and
    the stream version it stands at."""

    row: tuple[Any, ...]
    state: S
    version: int


@dataclass(frozen=True)
class Also:
    """An append to another stream that the same command decided, in the same transaction
    (DESIGN §3 "one command, one transaction"): the hand's settlement in the table's
    stream, a new round's stream and its deck's. ``expected_version`` is the version the
    command's locked read saw; a stream that moved on since makes the whole command
    conflict (and the runner decide once more on a fresh read)."""

    stream: Stream
    expected_version: int
    events: Sequence[NewEvent]


@dataclass(frozen=True)
class Decision(Generic[S]):
    """What the domain decided: the new state, the events of the aggregate's stream, the
    role the actor acted under, extra metadata (``table``...) and the appends to other
    streams (``others``, after the aggregate's own). No events anywhere: nothing is
    appended."""

    state: S
    events: Sequence[NewEvent]
    role: str | None
    meta: dict[str, Any] = field(default_factory=dict)
    others: Sequence[Also] = ()
    #: snapshots of other aggregates written after the appends, in the same transaction:
    #: (aggregate, key, state, version): a new hand's, in the round row its first event's
    #: projection has just inserted
    snapshots: Sequence[tuple[Aggregate[Any], Any, Any, int]] = ()

    @property
    def appends_nothing(self) -> bool:
        return not self.events and not any(o.events for o in self.others)


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """``events``: the aggregate's own; ``others``: those of the other streams, by stream
    id."""

    loaded: Loaded[S]
    state: S
    version: int
    events: list[RecordedEvent]
    others: dict[str, list[RecordedEvent]] = field(default_factory=dict)


_aggregates: dict[str, Aggregate[Any]] = {}


def register(aggregate: Aggregate[S]) -> Aggregate[S]:
    """Declare an aggregate (an app's ``ready()`` or module import); returns it."""
    _aggregates[aggregate.name] = aggregate
    return aggregate


def aggregates() -> dict[str, Aggregate[Any]]:
    return dict(_aggregates)


_UUID_FIELD = models.UUIDField()


def _db_key(key: Any) -> Any:
    """The key as this database binds it (Django's UUIDField: native on PostgreSQL, 32 hex
    characters on SQLite)."""
    if isinstance(key, uuid.UUID):
        return _UUID_FIELD.get_db_prep_value(key, connection)
    return key


def _snapshot_text(agg: Aggregate[S], state: S) -> str:
    return json.dumps(agg.to_snapshot(state), separators=(",", ":"))


def _decided(agg: Aggregate[S], key: Any, row: tuple[Any, ...] | None, replay: bool,
             decide: Callable[[Loaded[S]], Decision[S]]) -> tuple[Loaded[S], Decision[S]]:
    """The row read under lock (None: not found at the caller's property), its state and
    what the domain decided on it."""
    if row is None:
        raise _not_found(agg, key)
    loaded = _state_of(agg, key, row, replay)
    return loaded, decide(loaded)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _select_sql(agg: Aggregate[Any], *, lock: bool = True) -> str:
    lock_clause = " FOR UPDATE OF r" if lock and connection.vendor == "postgresql" else ""
    return agg.select % {"lock": lock_clause}


def _fresh_read_sql(agg: Aggregate[Any]) -> str | None:
    """PostgreSQL, an aggregate without a snapshot: its read again, unlocked, sent right
    after the locked one in the same pipeline (no round trip more). Under READ COMMITTED
    a statement that waited for a row lock sees the locked row as it is now but the rows
    it joins and sub-selects (the decks, the seats, the poker table's version) as they
    were when it began; the next statement begins after the lock is held, so it sees
    what the command it waited for wrote, and the decision is made on that. (An
    aggregate with a snapshot decides on its locked row itself.)"""
    if agg.keeps_snapshot or connection.vendor != "postgresql":
        return None
    return _select_sql(agg, lock=False)


def _update_sql(agg: Aggregate[Any]) -> str:
    cast = "::jsonb" if connection.vendor == "postgresql" else ""
    return agg.update % {"json": cast}


def _state_of(agg: Aggregate[S], key: Any, row: tuple[Any, ...], replay: bool
              ) -> Loaded[S]:
    if not agg.keeps_snapshot:
        return Loaded(tuple(row), None, 0)  # type: ignore[arg-type]
    snapshot, snapshot_version = _json(row[0]), row[1]
    state = None if replay or snapshot is None else agg.from_snapshot(snapshot)
    if state is None:  # no snapshot yet, another schema, or left behind: replay
        recorded = read_stream(agg.stream_id(key))
        state = agg.rebuild(recorded)
        snapshot_version = recorded[-1].version if recorded else 0
    return Loaded(row[2:], state, snapshot_version)


def command_run(agg: Aggregate[S], *, key: Any, actor: Actor,
                decide: Callable[[Loaded[S]], Decision[S]]) -> Outcome[S]:
    """Run one command on the aggregate ``key`` of the actor's property (404
    ``<what>_not_found`` otherwise). ``decide`` is given the loaded state and returns the
    domain's decision, or raises a DomainError (nothing is appended)."""
    parsed = parse_key(key, what=agg.what)
    replay = False
    for attempt in range(_ATTEMPTS):
        try:
            if connection.vendor == "postgresql" and not connection.in_atomic_block:
                return _run_pipelined(agg, parsed, actor, decide, replay)
            return _run_in_transaction(agg, parsed, actor, decide, replay)
        except _OrderRetry:
            continue  # a new transaction gets a larger id (migration casino/0006)
        except ConcurrencyError:
            # The snapshot was behind its stream (appended to by another writer), or
            # another stream the command appends to moved on since its read: read (and
            # replay) afresh and decide again.
            if attempt == _ATTEMPTS - 1 or connection.in_atomic_block:
                raise
            replay = True
    raise ConcurrencyError(agg.stream_id(parsed), -1, None)


def _not_found(agg: Aggregate[Any], key: Any) -> Exception:
    return NotFoundError(f"no {agg.what} {key}", code=f"{agg.what}_not_found")


def _batches(agg: Aggregate[S], key: Any, loaded: Loaded[S], decision: Decision[S],
             metadata: dict[str, Any]) -> list[Any]:
    """The command's appends made ready (no database work): the aggregate's own first,
    then the other streams', each with the command's metadata."""
    out = []
    if decision.events:
        out.append(prepare(Stream(agg.stream_type, agg.stream_id(key)), loaded.version,
                           decision.events, metadata))
    out += [prepare(o.stream, o.expected_version, o.events, metadata)
            for o in decision.others if o.events]
    return out


def _outcome(agg: Aggregate[S], key: Any, loaded: Loaded[S], decision: Decision[S],
             rows: list[RecordedEvent]) -> Outcome[S]:
    own_id = agg.stream_id(key) if decision.events else None
    own = [r for r in rows if r.stream_id == own_id]
    others: dict[str, list[RecordedEvent]] = {}
    for r in rows:
        if r.stream_id != own_id:
            others.setdefault(r.stream_id, []).append(r)
    version = own[-1].version if own else loaded.version
    return Outcome(loaded, decision.state, version, own, others)


def _snapshot_statements(agg: Aggregate[S], key: Any, decision: Decision[S],
                         version: int) -> list[tuple[str, list[Any]]]:
    """The aggregate's new snapshot (when it keeps one and its stream moved), then the
    other aggregates' the decision names."""
    out = []
    if agg.keeps_snapshot and decision.events:
        out.append((_update_sql(agg), [_snapshot_text(agg, decision.state), version,
                                       version, _db_key(key)]))
    out += [(_update_sql(other), [_snapshot_text(other, state), v, v, _db_key(k)])
            for other, k, state, v in decision.snapshots]
    return out


def _run_pipelined(agg: Aggregate[S], key: Any, actor: Actor,
                   decide: Callable[[Loaded[S]], Decision[S]], replay: bool) -> Outcome[S]:
    import psycopg

    connection.ensure_connection()
    conn = connection.connection
    control, reader = psycopg.Cursor(conn), psycopg.Cursor(conn)
    try:
        fresh = _fresh_read_sql(agg)
        params = [_db_key(key), actor.property.pk]
        with conn.pipeline():
            control.execute("BEGIN")
            reader.execute(_select_sql(agg), params)
            if fresh is not None:
                control.execute(fresh, params)
        row = reader.fetchone()
        if fresh is not None and row is not None:
            # decided on the read after the lock, and only when the locked read found the
            # row: the lock is held on what the decision reads
            row = control.fetchone()
        with outbox.collecting() as tasks:  # the tasks the command schedules, if any
            loaded, decision = _decided(agg, key, row, replay, decide)
        if decision.appends_nothing:
            conn.execute("ROLLBACK")
            return Outcome(loaded, decision.state, loaded.version, [])
        batches = _batches(agg, key, loaded, decision,
                           actor.metadata(role=decision.role, **decision.meta))
        version = loaded.version + len(decision.events)
        # the outbox rows in the command's transaction (none scheduled: no statement)
        also = _snapshot_statements(agg, key, decision, version) + outbox.insert_statements(
            tasks)
    except BaseException:
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            conn.execute("ROLLBACK")
        raise
    rows = append_in_own_transaction(batches[0], also=also, more=batches[1:])
    outbox.committed(tasks)
    return _outcome(agg, key, loaded, decision, rows)


def _run_in_transaction(agg: Aggregate[S], key: Any, actor: Actor,
                        decide: Callable[[Loaded[S]], Decision[S]], replay: bool
                        ) -> Outcome[S]:
    with writer_turn(), transaction.atomic():
        params = [_db_key(key), actor.property.pk]
        with connection.cursor() as cur:
            cur.execute(_select_sql(agg), params)
            row = cur.fetchone()
            fresh = _fresh_read_sql(agg)
            if fresh is not None and row is not None:
                cur.execute(fresh, params)
                row = cur.fetchone()
        loaded, decision = _decided(agg, key, row, replay, decide)
        if decision.appends_nothing:
            return Outcome(loaded, decision.state, loaded.version, [])
        meta = actor.metadata(role=decision.role, **decision.meta)
        rows: list[RecordedEvent] = []
        # The runner's transaction fails as a whole on a refusal: no savepoint of its own.
        if decision.events:
            rows += append(Stream(agg.stream_type, agg.stream_id(key)), loaded.version,
                           list(decision.events), meta, savepoint=False)
        for other in decision.others:
            if other.events:
                rows += append(other.stream, other.expected_version, list(other.events),
                               meta, savepoint=False)
        out = _outcome(agg, key, loaded, decision, rows)
        for sql, params in _snapshot_statements(agg, key, decision, out.version):
            with connection.cursor() as cur:
                cur.execute(sql, params)
    return out


def snapshot_save(agg: Aggregate[S], key: Any, state: S, version: int) -> None:
    """Write the snapshot of ``state`` at ``version`` to the aggregate's row (inside the
    caller's transaction): the runner inside a transaction, and the rebuild. (A row whose
    first event creates it gets its first snapshot from its projection, as a banked
    round's does: ``tables.projections.round_row``.)"""
    with connection.cursor() as cur:
        cur.execute(_update_sql(agg), [_snapshot_text(agg, state), version, version,
                                       _db_key(key)])


def aggregate_keys(agg: Aggregate[Any]) -> list[Any]:
    """The key of every row of the aggregate, as the runner takes it."""
    with connection.cursor() as cur:
        cur.execute(agg.all_keys)
        return [parse_key(row[0], what=agg.what) for row in cur.fetchall()]


def snapshots_rebuild(progress: Callable[[int], None] | None = None) -> int:
    """Every registered aggregate's snapshots rebuilt from their streams (what
    ``rebuild_projections`` runs after the projections); returns how many."""
    done = 0
    for agg in _aggregates.values():
        if not agg.keeps_snapshot:
            continue
        for key in aggregate_keys(agg):
            with transaction.atomic():
                recorded = read_stream(agg.stream_id(key))
                if recorded:
                    snapshot_save(agg, key, agg.rebuild(recorded), recorded[-1].version)
            done += 1
            if progress:
                progress(1)
    return done


__all__ = ["Aggregate", "Also", "Decision", "Loaded", "Outcome", "aggregate_keys", "aggregates",
           "command_run", "register", "snapshot_save", "snapshots_rebuild"]
