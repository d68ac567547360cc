"""``bench_floor``: a tiny run (a 4-table room, a few seconds) gives its JSON with every
figure, its target and ``ok``, after really running the list commands through the
services and serving the feed from a real server; bad options are refused with a reason."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from casino.eventstore.models import Event

pytestmark = pytest.mark.postgres

TINY = ["--seconds", "9", "--calls-per-minute", "60", "--tables", "4", "--poker-tables",
        "2", "--lists", "2", "--waiting", "6", "--clients", "1", "--throughput-seconds",
        "0.3", "--readers", "1", "--feed-interval", "0.05"]


@pytest.mark.slow  # a gunicorn server and 9 s of commands: make test-fast leaves it out
@pytest.mark.usefixtures("committed_db")  # the bench's server reads what it commits
def test_a_tiny_run_reports_every_figure_with_its_target_after_running_the_commands(
        ) -> None:
    call_command("seed_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("bench_floor", *TINY, stdout=out, stderr=io.StringIO())
    report = json.loads(out.getvalue())

    # the room as the run started: 4 tables, 2 of them poker (one per list's game), 2
    # lists, 6 waiting
    room = {k: v for k, v in report["room"].items() if k != "waiting_at_end"}
    assert room == {"tables": 4, "poker_tables": 2, "lists": 2, "waiting": 6}
    lists = report["list_commands"]
    # every list command was timed beside one bare append
    assert lists["bare_append"]["n"] == lists["commands"]
    for name in ("call_next", "call_seat", "player_list", "call_timeout"):
        assert lists["by_command"][name]["n"] >= 1, name
    assert set(lists["by_command"]) == {"player_list", "call_next", "call_player",
                                        "call_seat", "call_timeout", "player_delist"}
    assert lists["target_ratio"] == 2.0
    assert report["feed_requests"]["feed"]["requests"] > 0
    assert report["feed_requests"]["health"]["requests"] > 0
    assert report["feed_requests"]["target"] == 0.5
    assert report["feed_staleness"]["changes_shown"] >= 1
    assert report["feed_staleness"]["target_seconds"] == 1.0
    assert set(report["checks"]) == {"list_commands_p99", "feed_requests_per_second",
                                     "feed_staleness"}
    assert report["meets_targets"] == all(report["checks"].values())
    # the commands went through the services: their events are in the log
    assert Event.objects.filter(type="PlayerSeatedFromList").count() \
        == lists["by_command"]["call_seat"]["n"]
    assert Event.objects.filter(type="CallTimedOut").count() \
        == lists["by_command"]["call_timeout"]["n"]


@pytest.mark.django_db
def test_bad_options_are_refused_before_anything_is_made() -> None:
    before = Event.objects.count()
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_floor", "--seconds", "0")
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_floor", "--poker-tables", "300", "--tables", "240")
    with pytest.raises(CommandError, match="invalid_option"):
        call_command("bench_floor", "--lists", "8", "--poker-tables", "4")
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_without_a_property_the_bench_says_to_seed_the_demo() -> None:
    with pytest.raises(CommandError, match="no_property"):
        call_command("bench_floor", *TINY, stderr=io.StringIO())


def test_the_bench_removes_its_own_floor_messages_and_no_other(settings) -> None:
    """Only a poker_floor.* message queued since the run started and about one of its
    calls or tables goes: one queued before it, another call's, another app's stay."""
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("the bench cleans a Redis broker's queue only")
    import redis
    from celery import current_app

    from poker_floor.management.commands import bench_floor

    ours, theirs = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    kept = [current_app.send_task("poker_floor.call_timeout", [ours]).id]
    before = bench_floor._queued()
    mine = current_app.send_task("poker_floor.page_call", [ours]).id
    kept += [current_app.send_task("poker_floor.page_call", [theirs]).id,
             current_app.send_task("casino.run_async_projections", [ours]).id]
    try:
        assert bench_floor._purge_floor_tasks(before, {ours}) == 1
        left = {bench_floor._task(raw)[1] for raw in client.lrange("celery", 0, -1)}
        assert mine not in left and set(kept) <= left
    finally:
        for raw in client.lrange("celery", 0, -1):
            if bench_floor._task(raw)[1] in kept + [mine]:
                client.lrem("celery", 1, raw)
        client.close()
