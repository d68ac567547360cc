"""``bench_gaming_day_close`` at a tiny size: it refuses what it cannot measure, prints its
figures as JSON, the day it makes has the events it says, and the close finds exactly the
one shortage it planted (the issue's "done when": one exception, on that table, naming the
amount)."""

from __future__ import annotations

import io
import json
from datetime import date
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from casino.domain.gaming_day import gaming_day_bounds
from casino.eventstore.models import Event
from casino.models import Property
from finance.models import FinanceException, GamingDay

pytestmark = pytest.mark.django_db

DAY = date(2025, 6, 11)
TINY = ["--tables", "4", "--events", "2000", "--templates", "1", "--day", DAY.isoformat(),
        "--allow-sqlite", "--no-progress"]


def _bench(*more: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("bench_gaming_day_close", *TINY, *more, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


@pytest.fixture
def tiny_day() -> dict[str, Any]:
    """A day of 4 tables (Hi-Lo, Lunar 589, Lunar 671a, Hold'em), about 2,000 events."""
    return _bench()


def test_bad_options_are_refused_with_a_one_line_reason() -> None:
    for bad in (["--tables", "3"], ["--events", "10"], ["--repeat", "4"],
                ["--templates", "0"], ["--day", "2025-13-01"], ["--day", "2999-01-01"]):
        with pytest.raises(CommandError, match="invalid_option"):
            call_command("bench_gaming_day_close", *bad, "--allow-sqlite")
    if connection.vendor != "postgresql":
        with pytest.raises(CommandError, match="not_postgresql"):
            call_command("bench_gaming_day_close")


def test_a_tiny_day_prints_every_figure_as_json(tiny_day: dict[str, Any]) -> None:
    from finance import reports

    assert {"tables", "events", "generate_seconds", "close_seconds", "reports",
            "reports_missing", "floor_seconds", "ratios", "checks", "verdict"} <= set(tiny_day)
    assert tiny_day["tables"] == 4
    assert tiny_day["tables_by_kind"] == {"banked": 3, "poker": 1}
    assert set(tiny_day["reports"]) | set(tiny_day["reports_failed"]) == set(reports.names())
    assert tiny_day["close_seconds"] > 0 and tiny_day["floor_seconds"] > 0
    assert all(isinstance(ok, bool) for ok in tiny_day["checks"].values())


def test_the_day_has_the_events_it_says(tiny_day: dict[str, Any]) -> None:
    """Every event of the day is recorded within the day's bounds (the generation runs
    with the clock on that day); the count is the one printed, near the target."""
    prop = Property.objects.get(licence_number=tiny_day["property"])
    start, end = gaming_day_bounds(DAY, time_zone=prop.time_zone,
                                   start_hour=prop.gaming_day_start_hour)
    recorded = Event.objects.filter(recorded_at__gte=start, recorded_at__lt=end).count()
    assert recorded == tiny_day["events"]
    assert 1_500 <= tiny_day["events"] <= 2_500


def test_the_close_finds_exactly_the_short_drop_box() -> None:
    """Tables in order: banked BF-HL-001, BF-LP589-001, BF-LP671A-001, then poker
    BF-HOLDEM-001; the last banked table's box is a $100 bill short. Its expected drop is
    its chip sales (a banked table: no rake), its count is that less 10,000 cents, so the
    one exception is the drop's, -10,000 cents; every tray closes as expected."""
    report = _bench("--keep")
    prop = Property.objects.get(licence_number=report["property"])
    assert GamingDay.objects.get(property=prop, gaming_day=DAY).state == "closed"
    found = [(e.table.name, e.figure, e.variance_cents, e.counted_cents - e.expected_cents)
             for e in FinanceException.objects.filter(property=prop, gaming_day=DAY)]
    assert found == [("BF-LP671A-001", "drop", -10_000, -10_000)]
    assert report["checks"]["one_exception_on_the_short_table"] is True


def test_a_second_run_times_the_same_day_again_without_making_it(
        tiny_day: dict[str, Any]) -> None:
    again = _bench()
    assert tiny_day["generated"] is True and again["generated"] is False
    assert again["property"] == tiny_day["property"]
    assert again["events"] == tiny_day["events"]
    assert again["exceptions"] == tiny_day["exceptions"]
