"""Projections: read models built from events, droppable and rebuildable (DESIGN §3).

A projection records the last global position it applied in ``ProjectionCheckpoint``, in
the same transaction as its rows. *Inline* projections run inside the append's
transaction, so their rows are never behind the events; *async* ones are caught up by a
Celery task queued when an append commits, and by a periodic sweep in case that message
is lost.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import ClassVar, Literal

from django.db import connection, transaction

from casino.eventstore.store import RecordedEvent, _lock_appends, hot_cursor, read_all

log = logging.getLogger(__name__)

_registry: dict[str, Projection] = {}


class Projection:
    """Subclass, set ``name``, ``mode`` and optionally ``event_types``; implement
    ``apply`` (one event, idempotent per position is not required: the checkpoint
    guarantees each event is applied once) and ``reset`` (delete every row)."""

    name: ClassVar[str]
    mode: ClassVar[Literal["inline", "async"]] = "inline"
    event_types: ClassVar[frozenset[str] | None] = None  # None: every event

    def handles(self, event: RecordedEvent) -> bool:
        return self.event_types is None or event.type in self.event_types

    def apply(self, event: RecordedEvent) -> None:
        raise NotImplementedError

    def apply_batch(self, events: Sequence[RecordedEvent]) -> None:
        """Apply the events of one append (already filtered by ``handles``). Override
        when one write can stand for several events."""
        for event in events:
            self.apply(event)

    def reset(self) -> None:
        raise NotImplementedError


def register(projection_class: type[Projection]) -> type[Projection]:
    """Class decorator adding a projection to the registry under its ``name``."""
    _registry[projection_class.name] = projection_class()
    return projection_class


def registered() -> dict[str, Projection]:
    return dict(_registry)


def get(name: str) -> Projection:
    try:
        return _registry[name]
    except KeyError:
        raise KeyError(f"no projection named {name!r}; known: "
                       f"{', '.join(sorted(_registry))}") from None


def _save_checkpoint(name: str, position: int) -> None:
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO casino_projection_checkpoint (name, position, updated_at) "
            "VALUES (%s, %s, CURRENT_TIMESTAMP) ON CONFLICT (name) DO UPDATE "
            "SET position = excluded.position, updated_at = excluded.updated_at",
            [name, position])


def checkpoint(name: str) -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT position FROM casino_projection_checkpoint WHERE name = %s", [name])
        row = cur.fetchone()
    return row[0] if row else 0


# --- inline ---------------------------------------------------------------------------

def apply_inline(events: Sequence[RecordedEvent]) -> None:
    """Called by ``append`` inside its transaction, just before the events are inserted.

    Inline projections see each event's stream, version, type, data, metadata and time,
    but not its global ``position`` or hash links (0 and ""): those are assigned under
    the append lock, which is held only for the insert itself so that concurrent
    appenders do not queue behind projection work. If the append is then refused
    (stale version), the projection's writes roll back with it.

    An inline projection commits with the events it applies, so it is at the head by
    construction; writing its checkpoint on every append would only add a row update to
    each append. Its checkpoint is written by ``rebuild``.
    """
    for projection in _registry.values():
        if projection.mode == "inline":
            relevant = [e for e in events if projection.handles(e)]
            if relevant:
                projection.apply_batch(relevant)


def inline_wanted(events: Sequence[RecordedEvent]) -> bool:
    """Whether an inline projection has work for ``events`` (the store sends an append
    with none as one statement)."""
    return any(p.mode == "inline" and any(p.handles(e) for e in events)
               for p in _registry.values())


# --- async ----------------------------------------------------------------------------

_WAKE_DEBOUNCE_SECONDS = 1.0
_last_wake = 0.0
#: queues one catch-up task with a countdown in seconds; set by CasinoConfig.ready() to
#: casino.tasks.queue_catch_up, so this module does not import the Celery tasks.
_queue_catch_up: Callable[[float], None] | None = None


def set_catch_up_queue(queue: Callable[[float], None]) -> None:
    """Tell :func:`wake_async` how to queue the catch-up task (the Celery task lives in
    ``casino.tasks``, which imports this module)."""
    global _queue_catch_up
    _queue_catch_up = queue


@contextmanager
def no_wake() -> Iterator[None]:
    """Appends inside queue no catch-up task (a benchmark that catches up itself); the
    process's waker is put back after."""
    global _queue_catch_up
    saved = _queue_catch_up
    _queue_catch_up = None
    try:
        yield
    finally:
        _queue_catch_up = saved


def wake_async(events: Sequence[RecordedEvent]) -> None:
    """After an append commits: queue one catch-up task, at most once a second per process.

    The task is queued with a countdown of that same second, so it runs after every append
    the debounce skipped; the beat sweep covers a message the broker lost. The waker hands
    the message to the outbox's relay thread (:func:`casino.outbox.send_soon`), so the
    appending request never waits on the broker (issue 26 item 4); a broker that is down
    costs a log line there, never the append (the events are already committed).
    """
    global _last_wake
    if not any(p.mode == "async" and any(p.handles(e) for e in events)
               for p in _registry.values()):
        return
    now = time.monotonic()
    if now - _last_wake < _WAKE_DEBOUNCE_SECONDS:
        return
    _last_wake = now
    if _queue_catch_up is None:  # no task queue wired (CasinoConfig.ready() wires it)
        return
    try:
        _queue_catch_up(_WAKE_DEBOUNCE_SECONDS)
    except Exception:  # noqa: BLE001  the sweep will catch up
        log.warning("could not queue the async projections task; the sweep will catch up",
                    exc_info=True)


def catch_up(name: str, *, batch: int = 1000, locked: bool = False) -> int:
    """Apply the events an async projection has not seen; return how many it applied.

    It reads the settled log: on PostgreSQL a transaction open anywhere on the server,
    in another database too, holds back what it may read (the sweep and the worker look
    again later). ``locked`` takes the append lock exclusively for each batch, as a
    rebuild does, so every committed event is final and the projection reaches the head
    now; appends wait meanwhile. For a one-off caller that must decide on the head (the
    simulated day's jackpot count), not for the worker."""
    from casino.eventstore.models import ProjectionCheckpoint

    projection = get(name)
    applied = 0
    while True:
        with transaction.atomic():
            if locked:
                _lock_appends()
            ProjectionCheckpoint.objects.get_or_create(name=name)
            cp = ProjectionCheckpoint.objects.select_for_update().get(name=name)
            events = read_all(cp.position + 1, batch, types=projection.event_types,
                              locked=locked)
            if events:  # one call for the batch: a projection may write it at once
                projection.apply_batch(events)
                _save_checkpoint(name, events[-1].position)
            applied += len(events)
        if len(events) < batch:
            return applied


def catch_up_all() -> dict[str, int]:
    """Catch every async projection up. One that fails does not hold the others back:
    it is logged, the others catch up, and then its error is raised (the task retries)."""
    done: dict[str, int] = {}
    failed: Exception | None = None
    for name, p in _registry.items():
        if p.mode != "async":
            continue
        try:
            done[name] = catch_up(name)
        except Exception as exc:  # noqa: BLE001  raised again below
            log.exception("async projection %s could not catch up", name)
            failed = failed or exc
    if failed is not None:
        raise failed
    return done


# --- rebuild --------------------------------------------------------------------------

def rebuild(name: str, *, batch: int = 2000,
            progress: Callable[[int], None] | None = None) -> int:
    """Drop a projection's rows and replay every event from position 1.

    Runs in one transaction holding the append lock, so no event is applied twice or
    missed by appends racing the rebuild; readers keep seeing the old rows until commit.
    """

    projection = get(name)
    applied = 0
    with transaction.atomic():
        _lock_appends()
        projection.reset()
        _save_checkpoint(name, 0)
        position, last = 1, 0
        while True:
            events = read_all(position, batch, locked=True)
            if not events:
                break
            for event in events:
                if projection.handles(event):
                    projection.apply(event)
                    last = event.position
            applied += len(events)
            position = events[-1].position + 1
            if progress:
                progress(len(events))
        _save_checkpoint(name, last)
    return applied


def names(selected: Iterable[str] | None = None) -> list[str]:
    return list(selected) if selected else sorted(_registry)


# --- built-in projections of the core app -------------------------------------------

@register
class StreamsProjection(Projection):
    """One row per stream with its head: what exists and where it stands (the admin's
    list of streams). Caught up after the append commits, not inside it: no command
    reads it, and an append with no inline work is one statement (casino.eventstore.
    store)."""

    name = "streams"
    mode = "async"

    def apply(self, event: RecordedEvent) -> None:
        # One upsert statement per event, in order: the first event inserts the row.

        recorded = connection.ops.adapt_datetimefield_value(event.recorded_at)
        with hot_cursor() as cur:
            cur.execute(
                "INSERT INTO casino_stream_summary (stream_id, stream_type, version, "
                "last_type, first_recorded_at, last_recorded_at) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (stream_id) DO UPDATE SET "
                "version = excluded.version, last_type = excluded.last_type, "
                "last_recorded_at = excluded.last_recorded_at",
                [event.stream_id, event.stream_type, event.version, event.type, recorded,
                 recorded])

    def reset(self) -> None:
        from casino.eventstore.models import StreamSummary

        StreamSummary.objects.all().delete()


@register
class DailyEventCountsProjection(Projection):
    """Events per gaming day, stream type and event type: the activity a compliance
    officer scans first."""

    name = "daily_event_counts"
    mode = "async"

    def apply(self, event: RecordedEvent) -> None:
        from django.db.models import F

        from casino.eventstore.models import DailyEventCount

        day = event.metadata.get("gaming_day")
        key = dict(gaming_day=day, stream_type=event.stream_type, event_type=event.type)
        if not DailyEventCount.objects.filter(**key).update(count=F("count") + 1):
            DailyEventCount.objects.create(count=1, **key)

    def reset(self) -> None:
        from casino.eventstore.models import DailyEventCount

        DailyEventCount.objects.all().delete()
