"""Projections: inline rows match a rebuild from position 1; async catch-up likewise."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from casino.eventstore import projections
from casino.eventstore.store import NewEvent, append
from casino.models import DailyEventCount, StreamSummary

pytestmark = pytest.mark.usefixtures("committed_db")


def _activity() -> None:
    for s in range(4):
        for v in range(3):
            append(("test", f"p{s}"), v * 2, [NewEvent("Dealt", {"v": v}),
                                              NewEvent("Settled", {"v": v})], {"actor": "d"})


def _summaries() -> list[tuple]:
    return list(StreamSummary.objects.order_by("stream_id").values_list(
        "stream_id", "stream_type", "version", "last_type",
        "first_recorded_at", "last_recorded_at"))


def test_rebuilt_streams_projection_equals_the_caught_up_one() -> None:
    _activity()
    assert projections.catch_up("streams") > 0
    caught_up = _summaries()
    assert [row[2] for row in caught_up if row[0].startswith("p")] == [6, 6, 6, 6]
    assert [row[3] for row in caught_up if row[0].startswith("p")] == ["Settled"] * 4
    call_command("rebuild_projections", "--name", "streams", "--no-progress")
    assert _summaries() == caught_up
    from casino.models import Event

    assert projections.checkpoint("streams") == Event.objects.order_by("-position")[0].position


def test_async_projection_catches_up_and_a_rebuild_gives_the_same_rows() -> None:
    _activity()
    assert projections.catch_up("daily_event_counts") > 0
    caught_up = sorted(DailyEventCount.objects.values_list("stream_type", "event_type", "count"))
    assert ("test", "Dealt", 12) in caught_up and ("test", "Settled", 12) in caught_up
    assert projections.catch_up("daily_event_counts") == 0  # nothing left: idempotent
    call_command("rebuild_projections", "--name", "daily_event_counts", "--no-progress")
    assert sorted(DailyEventCount.objects.values_list(
        "stream_type", "event_type", "count")) == caught_up


def test_rebuild_of_an_unknown_projection_is_refused() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="unknown_projection"):
        call_command("rebuild_projections", "--name", "nope", "--no-progress")


@pytest.mark.postgres
def test_a_locked_catch_up_reads_past_a_transaction_open_in_another_database() -> None:
    """A transaction open in another database of the same PostgreSQL server (another
    application's, another test run's) holds back the settled log the worker reads:
    the committed events wait above it. A catch-up under the append lock reads every
    committed event of this database, for a caller that must decide on the head now
    (the simulated day's jackpot count)."""
    import psycopg
    from django.db import connection

    s = connection.settings_dict
    other = psycopg.connect(dbname="postgres", host=s["HOST"] or "127.0.0.1",
                            port=s["PORT"] or 5432, user=s["USER"] or "postgres",
                            password=s["PASSWORD"] or None)
    try:
        other.execute("SELECT pg_current_xact_id()")  # the server's oldest transaction
        _activity()  # 4 streams of 3 × (Dealt, Settled): 24 events, committed
        assert projections.catch_up("daily_event_counts") == 0
        assert not DailyEventCount.objects.filter(stream_type="test").exists()
        assert projections.catch_up("daily_event_counts", locked=True) == 24
        assert sorted(DailyEventCount.objects.filter(stream_type="test").values_list(
            "event_type", "count")) == [("Dealt", 12), ("Settled", 12)]
    finally:
        other.rollback()
        other.close()
