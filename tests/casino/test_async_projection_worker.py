"""A real Celery worker against the configured broker (Redis in bin/test) catches the
async projections up after an append commits."""

from __future__ import annotations

import time

import pytest
from celery.contrib.testing.worker import start_worker

from casino.celery import app
from casino.eventstore import projections
from casino.eventstore.store import NewEvent, append
from casino.models import DailyEventCount

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]


@pytest.fixture
def celery_worker():  # noqa: ANN201
    app.control.purge()  # nothing left over from an earlier run
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


def _counted(event_type: str, count: int) -> DailyEventCount | None:
    """The daily count of ``event_type`` once the worker has brought it to ``count``, or
    as it stands after 20 seconds of waiting."""
    deadline = time.monotonic() + 20
    row = None
    while time.monotonic() < deadline:
        row = DailyEventCount.objects.filter(stream_type="test", event_type=event_type).first()
        if row and row.count == count:
            break
        time.sleep(0.2)
    return row


def test_append_wakes_the_worker_which_catches_the_projection_up(celery_worker) -> None:  # noqa: ANN001
    projections._last_wake = 0.0  # a fresh process would not be inside the debounce window
    for v in range(3):
        append(("test", "w1"), v, [NewEvent("Counted", {"cards": 52})], {"actor": "floor"})
    row = _counted("Counted", 3)
    assert row is not None and row.count == 3
    assert projections.checkpoint("daily_event_counts") >= 3


def test_events_held_back_by_an_open_transaction_are_caught_up_when_it_ends(
        celery_worker) -> None:  # noqa: ANN001
    """A transaction that began before the appends (here in another connection) keeps
    them above the settled line: the first catch-up finds nothing it may read, and the
    task looks again by itself, so they are caught up once that transaction ends, with
    no further append and no sweep."""
    import psycopg
    from django.db import connection

    s = connection.settings_dict
    other = psycopg.connect(dbname=s["NAME"], host=s["HOST"] or "127.0.0.1",
                            port=s["PORT"] or 5432, user=s["USER"] or "postgres",
                            password=s["PASSWORD"] or None)
    try:
        other.execute("SELECT pg_current_xact_id()")  # holds the oldest transaction id
        projections._last_wake = 0.0
        for v in range(2):
            append(("test", "held"), v, [NewEvent("Held", {"cards": 52})], {"actor": "floor"})
        time.sleep(2.5)  # the woken task has run and found nothing settled
        assert not DailyEventCount.objects.filter(event_type="Held").exists()
    finally:
        other.rollback()
        other.close()
    row = _counted("Held", 2)
    assert row is not None and row.count == 2
