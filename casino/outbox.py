"""The outbox: a command never waits on the broker (issue 26 item 4).

A task a command schedules (a deck's timers, rules taking effect, a call's timeout and
its page) is written as a row of ``casino_outbox`` **in the command's transaction**
(:func:`schedule`): it exists exactly when the command's events do, a refused or
rolled-back command leaves none, and the broker is not touched on the request's thread.
On the command runner's pipelined path the rows ride in the command's one pipeline
(:func:`collecting`, :func:`insert_statements`).

The relay sends the rows to Celery and deletes each once sent:

* a daemon thread per process (:class:`_Relay`), woken when a command that wrote rows
  commits, retrying with back-off (1, 2, 4 … 60 s) while the broker is away;
* the beat task ``casino.outbox_relay`` (every 10 s, and once when a worker starts), which
  sends the rows a process left behind (killed, or stopped before its thread ran).

Several processes may relay at once. On PostgreSQL a relay claims rows with ``SELECT … FOR
UPDATE SKIP LOCKED`` and holds the lock while it publishes, so two relays never send the
same row; a relay killed after claiming releases its lock with its connection, and the row
is sent by the next relay. SQLite (the embedded default, one writer at a time) leases rows
instead: ``next_attempt_at`` moved 30 s ahead in a short transaction, the sends outside it
(so the write lock is never held across the broker), then the sent rows deleted.

At most once per row, except in one window: a relay that published a row and died (or
lost the database) before its delete committed leaves the row, and the next relay sends it
again. Every task sent from here is safe to run twice (each checks its state under lock:
a deck already change-due, rules already in effect, a call no longer open, a seat already
offered), so a duplicate changes nothing.

Messages with no row: the async projections' wake and the floor's seat offer after a
seat opens are sent by the relay thread too (coalesced, never inline) but not written:
the sweeps find that work (``casino.run_async_projections`` every minute,
``poker_floor.floor_sweep``), so a lost one only delays it.

With ``CELERY_TASK_ALWAYS_EAGER`` (a task runs in the sending process) there is no
broker to wait on: the tasks run when the command commits, as before, and no row is
written.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from django.db import connection, transaction
from django.utils import timezone

log = logging.getLogger(__name__)

#: back-off of a row (and of the relay thread) after a failed send: 1, 2, 4 … this many s
BACKOFF_MAX_SECONDS = 60.0
#: rows claimed at a time
BATCH = 100
#: SQLite: how long a claimed row is left to its relay before another may send it
_LEASE_SECONDS = 30.0


@dataclass(frozen=True)
class Scheduled:
    """A task a command scheduled: its name, positional arguments and when it is due."""

    task: str
    args: list[Any]
    eta: datetime | None = None


# --- writing, in the command's transaction ---------------------------------------------

_local = threading.local()


@contextmanager
def collecting() -> Iterator[list[Scheduled]]:
    """The command runner's pipelined path: tasks scheduled while the domain decides are
    collected here (Django's connection sees no transaction: the runner's BEGIN is its
    own) and written in the command's pipeline by :func:`insert_statements`."""
    saved = getattr(_local, "collected", None)
    _local.collected = out = []
    try:
        yield out
    finally:
        _local.collected = saved


def in_command() -> bool:
    """Whether a task scheduled now belongs to a command: the runner's pipeline is
    collecting, or a transaction is open (then :func:`schedule` writes its row there)."""
    return (getattr(_local, "collected", None) is not None
            or transaction.get_connection().in_atomic_block)


def _eager() -> bool:
    from celery import current_app

    return bool(current_app.conf.task_always_eager)


def schedule(task: str, args: Sequence[Any], eta: datetime | None = None) -> None:
    """Schedule ``task(*args)`` at ``eta`` with the current command: collected for the
    runner's pipeline, or written in the caller's transaction (sent once it commits);
    outside any transaction, written at once (its own transaction). With eager tasks,
    run when the transaction commits (no row)."""
    schedule_many([Scheduled(task, list(args), eta)])


def schedule_many(items: Sequence[Scheduled]) -> None:
    """:func:`schedule` for several tasks at once: one INSERT for them all."""
    items = list(items)
    collected = getattr(_local, "collected", None)
    if collected is not None:
        collected.extend(items)
        return
    if _eager():
        for item in items:
            transaction.on_commit(lambda item=item: _publish_now(item), robust=True)
        return
    from casino.models import OutboxTask

    now = timezone.now()
    OutboxTask.objects.bulk_create([OutboxTask(task=i.task, args=i.args, eta=i.eta, created=now,
                                               next_attempt_at=now) for i in items])
    transaction.on_commit(wake, robust=True)


def insert_statements(items: Sequence[Scheduled]) -> list[tuple[str, list[Any]]]:
    """PostgreSQL, the runner's pipeline: one INSERT of every collected task (none when
    the command scheduled nothing, so it gains no statement). Eager: none either, the
    tasks run at commit (:func:`committed`)."""
    if not items or _eager():
        return []
    now = timezone.now()
    values, params = [], []
    for item in items:
        values.append("(%s, %s::jsonb, %s, %s, 0, '', %s)")
        params += [item.task, json.dumps(item.args), item.eta, now, now]
    return [("INSERT INTO casino_outbox (task, args, eta, created, attempts, last_error, "
             "next_attempt_at) VALUES " + ", ".join(values), params)]


def committed(items: Sequence[Scheduled]) -> None:
    """After the runner's pipeline committed: wake the relay for the rows it wrote (eager:
    run the tasks now)."""
    if not items:
        return
    if _eager():
        for item in items:
            _publish_now(item)
    else:
        wake()


# --- sending ------------------------------------------------------------------------

def _publish(task: str, args: list[Any], eta: datetime | None = None,
             countdown: float | None = None) -> None:
    """Publish once, no retry (the relay retries): a task this process registers by its
    object (eager runs it here), any other by name."""
    from celery import current_app

    known = current_app.tasks.get(task)
    options: dict[str, Any] = {"args": args, "retry": False}
    if eta is not None:
        options["eta"] = eta
    if countdown is not None:
        options["countdown"] = countdown
    if known is not None:
        known.apply_async(**options)
    else:
        current_app.send_task(task, **options)


def _publish_now(item: Scheduled) -> None:
    try:
        _publish(item.task, item.args, item.eta)
    except Exception:  # noqa: BLE001  the sweeps find the work
        log.warning("could not run %s%s", item.task, item.args, exc_info=True)


def _backoff(attempts: int) -> float:
    return min(BACKOFF_MAX_SECONDS, 2.0 ** max(0, attempts - 1))


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:1000]


def relay_once(*, limit: int = BATCH,
               after_claim: Callable[[list[Any]], None] | None = None) -> dict[str, int]:
    """Send the rows that are due (at most ``limit``), delete those sent, and give the
    others their back-off; the first failed send stops the pass (the broker is away: the
    rest would fail too). ``after_claim``: called with the claimed rows before any is
    sent (a test's hook). Returns ``{"claimed", "sent", "failed"}``."""
    from casino.models import OutboxTask

    if connection.vendor == "postgresql":
        with transaction.atomic():
            rows = list(OutboxTask.objects.select_for_update(skip_locked=True)
                        .filter(next_attempt_at__lte=timezone.now()).order_by("id")[:limit])
            if after_claim is not None:
                after_claim(rows)
            return _send_rows(rows)
    with transaction.atomic():  # SQLite: lease the rows, then send outside the lock
        rows = list(OutboxTask.objects.filter(next_attempt_at__lte=timezone.now())
                    .order_by("id")[:limit])
        OutboxTask.objects.filter(pk__in=[r.pk for r in rows]).update(
            next_attempt_at=timezone.now() + timedelta(seconds=_LEASE_SECONDS))
    if after_claim is not None:
        after_claim(rows)
    return _send_rows(rows)


def _send_rows(rows: list[Any]) -> dict[str, int]:
    from casino.models import OutboxTask

    sent: list[int] = []
    failed: list[Any] = []
    error = ""
    for i, row in enumerate(rows):
        try:
            _publish(row.task, list(row.args), row.eta)
        except Exception as exc:  # noqa: BLE001  kept, tried again after its back-off
            error = _error_text(exc)
            failed = rows[i:]
            break
        sent.append(row.pk)
    if sent:
        OutboxTask.objects.filter(pk__in=sent).delete()
    now = timezone.now()
    for row in failed:
        row.attempts += 1
        OutboxTask.objects.filter(pk=row.pk).update(
            attempts=row.attempts, last_error=error,
            next_attempt_at=now + timedelta(seconds=_backoff(row.attempts)))
    if failed:
        log.warning("outbox: %d task(s) not sent, tried again later: %s", len(failed), error)
    return {"claimed": len(rows), "sent": len(sent), "failed": len(failed)}


def relay_all(*, seconds: float = 20.0) -> dict[str, int]:
    """Relay passes until nothing is due, a send fails, or ``seconds`` have passed (the
    beat task's sweep). Returns the totals."""
    total = {"claimed": 0, "sent": 0, "failed": 0}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        done = relay_once()
        for k in total:
            total[k] += done[k]
        if done["failed"] or done["claimed"] < BATCH:
            break
    return total


def outbox_backlog() -> dict[str, Any]:
    """What waits to be sent (for readiness): ``count`` rows and the age in seconds of the
    oldest (``oldest_age_seconds``, None when there is none)."""
    from django.db.models import Count, Min

    from casino.models import OutboxTask

    got = OutboxTask.objects.aggregate(count=Count("id"), oldest=Min("created"))
    oldest = got["oldest"]
    age = None if oldest is None else max(0.0, (timezone.now() - oldest).total_seconds())
    return {"count": got["count"], "oldest_age_seconds": age}


# --- the relay thread -------------------------------------------------------------------

class _Relay(threading.Thread):
    """One per process: sends the outbox rows when woken, and the messages with no row
    (coalesced: one wake of the projections, one offer per table, however many commands
    asked), retrying with back-off while the broker is away. Never on a request's thread,
    so a broker's timeouts are never a command's."""

    def __init__(self) -> None:
        super().__init__(name="casino-outbox-relay", daemon=True)
        self.woken = threading.Event()
        self.lock = threading.Lock()
        #: messages with no row, by (task, args): the countdown they are sent with
        self.messages: dict[tuple[str, str], tuple[list[Any], float | None]] = {}
        self.rows_due = False
        self.failures = 0
        #: time.monotonic() of the next try after a failure
        self.retry_at = 0.0
        #: time.monotonic() when rows left waiting on their back-off are due (None: none)
        self.next_due: float | None = None

    def _delay(self) -> float | None:
        if self.failures:
            return max(0.0, self.retry_at - time.monotonic())
        if self.next_due is not None:
            return max(1.0, self.next_due - time.monotonic())
        return None

    def run(self) -> None:
        while True:
            self.woken.wait(timeout=self._delay())
            self.woken.clear()
            if self.failures and time.monotonic() < self.retry_at:
                # woken by a commit during a back-off: the broker is away, and trying it
                # on every commit would cost the commands CPU; the work waits its turn
                continue
            try:
                ok = self._messages() and self._rows()
            except Exception:  # noqa: BLE001  a database away: tried again later
                log.warning("outbox relay pass failed", exc_info=True)
                ok = False
            finally:
                # its own connection, closed after each pass: never an idle session left
                # open (a test database's DROP, a server's connection limit)
                connection.close()
            self.failures = 0 if ok else self.failures + 1
            self.retry_at = time.monotonic() + _backoff(self.failures)

    def _messages(self) -> bool:
        with self.lock:
            todo, self.messages = self.messages, {}
        for n, ((task, _), (args, countdown)) in enumerate(todo.items()):
            try:
                _publish(task, args, countdown=countdown)
            except Exception as exc:  # noqa: BLE001  kept for the next pass
                log.warning("outbox relay: could not send %s: %s", task, _error_text(exc))
                with self.lock:
                    for key, value in list(todo.items())[n:]:
                        self.messages.setdefault(key, value)
                return False
        return True

    def _rows(self) -> bool:
        with self.lock:
            due, self.rows_due = self.rows_due, False
        if not due and not self.failures and self.next_due is None:
            return True
        self.next_due = None
        while True:
            done = relay_once()
            if done["failed"]:
                with self.lock:
                    self.rows_due = True
                return False
            if done["claimed"] < BATCH:
                break
        # rows still waiting on their back-off (another relay's failures): wake for them
        from django.db.models import Min

        from casino.models import OutboxTask

        first = OutboxTask.objects.aggregate(first=Min("next_attempt_at"))["first"]
        if first is not None:
            self.next_due = time.monotonic() + (first - timezone.now()).total_seconds()
        return True


_relay: _Relay | None = None
_relay_start = threading.Lock()


def _the_relay() -> _Relay:
    global _relay
    with _relay_start:
        if _relay is None or not _relay.is_alive():
            _relay = _Relay()
            _relay.start()
        return _relay


def wake() -> None:
    """Rows were committed: have this process's relay thread send them."""
    relay = _the_relay()
    with relay.lock:
        relay.rows_due = True
    relay.woken.set()


def send_soon(task: str, args: Sequence[Any] = (), *, countdown: float | None = None) -> None:
    """Send ``task(*args)`` from the relay thread, with no row (a sweep finds the work if
    it is lost); the same task and arguments asked again before it is sent go once.
    Eager: run now, as before."""
    if _eager():
        _publish_now(Scheduled(task, list(args)))
        return
    relay = _the_relay()
    with relay.lock:
        relay.messages.setdefault((task, json.dumps(list(args))), (list(args), countdown))
    relay.woken.set()


__all__ = ["Scheduled", "collecting", "committed", "insert_statements", "outbox_backlog",
           "relay_all", "relay_once", "schedule", "schedule_many", "send_soon", "wake"]
