"""Time charges with a real Celery worker and beat against Redis and PostgreSQL
(bin/test). § 637a.17(b)(3)(iii): assessed every 20 minutes here; the tests shorten the
schedule's minute to a tenth of a second, as the product allows (a period is 2 s)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from casino.celery import app
from casino.eventstore.store import read_stream
from poker_room.models import Seat, TimeChargePeriod
from poker_room.services import seats
from poker_room.services.time_charges import period_of
from poker_room.tasks import time_charges_assess
from tests._beat import Beat
from tests.poker_room._committed import poker_room

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

PERIOD = 2.0  # seconds: 20 minutes of 0.1 s
#: only the time-charge sweep, every second
TIME_CHARGE_BEAT = {"poker-time-charges": {"task": "poker_room.time_charges_sweep",
                                           "schedule": 1.0}}


@pytest.fixture
def short_minutes(settings: Any) -> None:
    settings.TIME_CHARGE_MINUTE_SECONDS = PERIOD / 20


@pytest.fixture
def worker() -> Iterator[Any]:
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


@pytest.fixture
def seated_table(short_minutes: None) -> Any:
    """An open Hold'em table charging $12 an hour per player every 20 minutes, with two
    players seated."""
    app.control.purge()
    people, table = poker_room("PA-TIME", "tc", rake={
        "types": ["time-charge"], "time_charge": {
            "basis": "per-player", "hourly_cents": 1_200, "assessed_every_minutes": 20}})
    for seat in (1, 2):
        seats.seat_player(actor=people["dealer"], table_id=table.pk, seat=seat,
                          buy_in_cents=10_000, paid_with="chips")
    return table


def _wait_for(check: Callable[[], bool], seconds: float = 25) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.2)
    return False


def _periods(table: Any) -> list[Any]:
    return list(TimeChargePeriod.objects.filter(table=table).order_by("period_start"))


def _first_period(table: Any) -> Any:
    seated = Seat.objects.filter(table=table).order_by("seated_at").first().seated_at
    return period_of(seated, 20) + timedelta(seconds=PERIOD)


def test_beat_assesses_each_period_once(seated_table, worker) -> None:
    """§ 637a.17(b)(3)(i)-(iii): $4 from each seated player every period, by the system,
    each period once, one after another."""
    with Beat(TIME_CHARGE_BEAT):
        assert _wait_for(lambda: len(_periods(seated_table)) >= 2)
    periods = _periods(seated_table)
    starts = [p.period_start for p in periods]
    assert starts[0] == _first_period(seated_table)
    assert all(b - a == timedelta(seconds=PERIOD) for a, b in zip(starts, starts[1:]))
    assert all(p.charges == {"1": 400, "2": 400} for p in periods)
    assessed = [e for e in read_stream(f"poker_table-{seated_table.pk}")
                if e.type == "TimeChargeAssessed"]
    assert len(assessed) == len({e.data["period_start"] for e in assessed})
    assert {e.metadata["actor"] for e in assessed} == {"system:time-charge"}


def test_periods_missed_while_the_worker_was_down_are_caught_by_the_sweep(seated_table
                                                                          ) -> None:
    """§ 637a.17(b)(3)(iii): no worker for two and a half periods; once it and beat run,
    the sweep assesses every period missed, the first one included."""
    time.sleep(PERIOD * 2.5)
    assert _periods(seated_table) == []
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10), \
            Beat(TIME_CHARGE_BEAT):
        assert _wait_for(lambda: len(_periods(seated_table)) >= 2)
    assert _periods(seated_table)[0].period_start == _first_period(seated_table)


def test_a_task_delivered_twice_assesses_once(seated_table, worker) -> None:
    """§ 637a.17(b)(3): the period's start is the key: two deliveries, one charge."""
    start = _first_period(seated_table)
    time.sleep(max(0.0, (start - timezone.now()).total_seconds()) + 0.1)  # it has begun
    time_charges_assess.delay(str(seated_table.pk), start.isoformat())
    time_charges_assess.delay(str(seated_table.pk), start.isoformat())
    assert _wait_for(lambda: len(_periods(seated_table)) == 1)
    time.sleep(1.5)  # the solo worker has run the second delivery by now
    assert len(_periods(seated_table)) == 1
    assert Seat.objects.get(table=seated_table, seat=1).stack_cents == 9_600
    assert time_charges_assess.apply(args=[str(seated_table.pk), start.isoformat()]
                                     ).get() == "already-assessed"
