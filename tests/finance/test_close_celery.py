"""The gaming-day close's beat task (``finance.gaming_days_close``) with a real Celery
worker process and beat against Redis and PostgreSQL (bin/test), across the
daylight-saving changes; and its ``as_at`` argument, which is capped at the worker's own
clock.

The property is set explicitly in America/New_York with its gaming day from 06:00 local
(``property_register(time_zone=…, gaming_day_start_hour=6)``, not left to the
PROPERTY_TIME_ZONE / GAMING_DAY_START_HOUR defaults). Its days, worked by hand:

* 2026-10-31, the gaming day the clocks fall back in (02:00 EDT → 01:00 EST early on
  Nov 1): from 06:00 EDT (UTC−4) = 10:00 UTC on Oct 31 to 06:00 EST (UTC−5) = 11:00 UTC
  on Nov 1 — 25 hours. At 2026-11-01T10:59:00Z (05:59 EST) the day is still being
  played, though 24 h 59 min have passed since it began; at 11:00:30Z it has been over
  for 30 seconds.
* 2026-03-07, the gaming day the clocks spring forward in (02:00 EST → 03:00 EDT early
  on Mar 8): from 06:00 EST = 11:00 UTC on Mar 7 to 06:00 EDT = 10:00 UTC on Mar 8 — 23
  hours. At 09:59:00Z (05:59 EDT) it is still being played; at 10:00:30Z it is over, an
  hour before 24 hours have passed.

The worker's clock is the real one (these days are weeks past), so the beat entries
name the moment to close from (``as_at``): the days that had ended by then.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.signals import after_task_publish
from django.conf import settings
from django.db import connection, transaction

from casino.actors import Actor, actor_of
from casino.domain.gaming_day import gaming_day_bounds
from casino.eventstore.store import NewEvent, Stream, append, read_stream, stream_version
from casino.services import property_register, staff_bootstrap
from finance import services
from finance.models import GamingDay, gaming_day_stream, table_day_stream
from finance.tasks import gaming_days_close
from tables.services import tables
from tests._beat import Beat

#: (the gaming day, a minute before its end, 30 seconds after it)
DAYS = {
    # the clocks change at 2 AM, inside the gaming day that began at 6 AM the day before:
    # Oct 31 runs 06:00 EDT (10:00 UTC) to 06:00 EST on Nov 1 (11:00 UTC), 25 hours;
    # Mar 7 runs 06:00 EST (11:00 UTC) to 06:00 EDT on Mar 8 (10:00 UTC), 23 hours
    "fall back, 25 hours": (date(2026, 10, 31), "2026-11-01T10:59:00Z",
                            "2026-11-01T11:00:30Z"),
    "spring forward, 23 hours": (date(2026, 3, 7), "2026-03-08T09:59:00Z",
                                 "2026-03-08T10:00:30Z"),
}
OPENER = {"2500": 40, "500": 100}  # 40 × 2500 + 100 × 500 = 150000
SOLD = 30_000                      # chips sold for cash
CLOSER = {"2500": 40, "500": 40}   # 100000 + 20000 = 120000 = 150000 − 30000, as expected
DROP = {"10000": 3}                # 30000 = the chips sold, as expected
ROLES = {"admin": "admin", "dealer": "dealer", "floor": "floorperson",
         "security": "security", "counter": "count_team", "counter2": "count_team",
         "cashier": "cashier"}


def _new_york_crew(licence: str) -> dict[str, Any]:
    """A property in America/New_York whose gaming day starts at 06:00, its people (one
    per role in ROLES) and a Lunar Poker table — committed, for the worker to see."""
    prop = property_register(licence_number=licence, name="DST Casino", system="test",
                             time_zone="America/New_York", gaming_day_start_hour=6)
    crew: dict[str, Any] = {}
    for n, (who, role) in enumerate(ROLES.items()):
        profile = staff_bootstrap(property=prop, username=f"{licence}-{who}",
                                  password="x" * 12, credential_number=f"{licence}-{n}",
                                  roles=[role], system="test")
        crew[who] = actor_of(profile.user)
    crew["table"] = tables.table_configure(actor=crew["admin"], name="LP-1",
                                           game="lunar-poker-589", positions=5,
                                           dealing_method="automated-shoe",
                                           shuffler="automated")
    return crew


def _play_the_day(crew: dict[str, Any], day: date) -> None:
    """The table's day: opener 150000, 30000 of chips sold, closer 120000, the box removed
    and its 30000 counted, signed and accepted — nothing left open.

    The tray's services and the box's removal record only the day being played or the
    one just ended (finance.services.tray, drop_remove: ``latest_back=1``), and this day
    is weeks past: its tray and the removal are appended to the table day's stream as
    the services append them (same events, the metadata of the person with the day's
    ``gaming_day``). The count's steps take any ended day and run as services."""
    table = crew["table"]
    stream_id = table_day_stream(table.pk, day)

    def record(who: str, role: str, type_: str, data: dict[str, Any]) -> None:
        # in a transaction, as the services append: outside one, PostgreSQL runs the
        # inline projections in pipeline mode, where finance's row.save() cannot tell an
        # update from an insert (reported; tables.projections writes with update/create)
        with transaction.atomic():
            append(Stream("finance_table_day", stream_id), stream_version(stream_id),
                   [NewEvent(type_, data)],
                   crew[who].metadata(role=role, table=table.pk,
                                      gaming_day=day.isoformat()))

    record("dealer", "dealer", "InventorySlipRecorded",
           {"slip": "opener", "pieces": OPENER, "total_cents": 150_000})
    record("floor", "floorperson", "InventorySlipSigned", {"slip": "opener"})
    record("dealer", "dealer", "ChipsSold", {"amount_cents": SOLD})
    record("dealer", "dealer", "InventorySlipRecorded",
           {"slip": "closer", "pieces": CLOSER, "total_cents": 120_000})
    record("floor", "floorperson", "InventorySlipSigned", {"slip": "closer"})
    record("security", "security", "DropBoxRemoved", {})
    services.drop_count(actor=crew["counter"], table_id=table.pk, cash=DROP, gaming_day=day)
    services.drop_count_sign(actor=crew["counter2"], table_id=table.pk, gaming_day=day)
    services.drop_accept(actor=crew["cashier"], table_id=table.pk, gaming_day=day)
    assert services.open_items(table.property, day) == []


# --- a worker of its own, and what it ran -----------------------------------------------

SUCCEEDED = re.compile(r"Task finance\.gaming_days_close\[(?P<id>[0-9a-f-]+)\] "
                       r"succeeded in [0-9.]+s: (?P<result>\{.*\})")


@pytest.fixture
def worker_log(tmp_path: Path) -> Iterator[Path]:
    """``celery -A casino worker`` in a process of its own (its own clock, its own
    connections) on the test database and the test broker; its log, where each task it
    ran says what it returned."""
    from casino.celery import app

    app.control.purge()
    s = connection.settings_dict
    env = {**os.environ,
           "DATABASE_URL": f"postgres://{s['USER'] or 'postgres'}@{s['HOST'] or '127.0.0.1'}"
                           f":{s['PORT'] or 5432}/{s['NAME']}",
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "SECRET_KEY": settings.SECRET_KEY,
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    log = tmp_path / "worker.log"
    celery = Path(sys.executable).with_name("celery")
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(celery), "-A", "casino", "worker", "--pool=solo", "--loglevel=INFO",
             "--without-heartbeat", "--without-gossip", "--without-mingle",
             "-n", f"finance-close-{uuid.uuid4().hex[:8]}@%h"],
            env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        assert _wait(lambda: " ready." in log.read_text(), 60), log.read_text()[-3000:]
        yield log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture
def sent() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """(task id, kwargs) of each ``finance.gaming_days_close`` published from this
    process (the beat's thread, or the test)."""
    out: list[tuple[str, dict[str, Any]]] = []

    def note(sender: Any = None, headers: Any = None, body: Any = None, **_: Any) -> None:
        if (headers or {}).get("task") == "finance.gaming_days_close":
            out.append((headers["id"], body[1]))
    after_task_publish.connect(note, weak=False)
    yield out
    after_task_publish.disconnect(note)


def _ran(log: Path) -> list[tuple[str, str]]:
    """(task id, result) of each close the worker ran, in order."""
    return [(m["id"], m["result"]) for m in SUCCEEDED.finditer(log.read_text())]


def _wait(done: Callable[[], bool], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(0.2)
    return False


def _beat(as_at: str) -> dict[str, Any]:
    """Only the close, every second, closing from ``as_at``."""
    return {"finance-gaming-day-close": {"task": "finance.gaming_days_close",
                                         "schedule": 1.0, "kwargs": {"as_at": as_at}}}


def _runs_of(log: Path, sent: list[tuple[str, dict[str, Any]]], as_at: str) -> list[str]:
    """The results of the closes sent with ``as_at`` that the worker has run."""
    ids = {i for i, kwargs in sent if kwargs.get("as_at") == as_at}
    return [result for i, result in _ran(log) if i in ids]


@pytest.mark.parametrize("change", list(DAYS))
@pytest.mark.celery
@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_the_beat_closes_the_daylight_saving_day_once_at_its_end(change, worker_log,
                                                                 sent) -> None:
    """Issue 15: the gaming-day close "at the property's gaming-day boundary (a Celery
    beat task in the property's time zone, correct across daylight-saving changes)";
    "Closing twice, or a task delivered twice, changes nothing". § 589.2(c): the table's
    drop box is counted, signed and accepted, so nothing is open.

    The worker runs the beat's close from a minute before the day's end (module
    docstring): the day is not over, nothing is appended, however often it runs. From
    30 seconds after the end: the day is closed — one ``GamingDayClosed`` in
    ``finance_gaming_day-<property>-<day>``, by ``system:gaming-day-close``, its figures
    frozen (win = 120000 − 150000 + 0 − 0 + 30000 = 0). The beat ticking on, and one
    message delivered twice (the same task id, as a redelivery has), append nothing."""
    day, early, late = DAYS[change]
    crew = _new_york_crew(f"PA-DST-{uuid.uuid4().hex[:6]}")
    prop = crew["table"].property
    _play_the_day(crew, day)
    stream_id = gaming_day_stream(prop.pk, day)

    with Beat(_beat(early)):
        assert _wait(lambda: len(_runs_of(worker_log, sent, early)) >= 3)
    assert set(_runs_of(worker_log, sent, early)) == {"{'closed': 0, 'held': 0}"}
    assert read_stream(stream_id) == []

    with Beat(_beat(late)):
        assert _wait(lambda: len(read_stream(stream_id)) == 1)
        twice = str(uuid.uuid4())
        for _ in range(2):
            gaming_days_close.apply_async(kwargs={"as_at": late}, task_id=twice)
        assert _wait(lambda: [i for i, _r in _ran(worker_log)].count(twice) == 2
                     and len(_runs_of(worker_log, sent, late)) >= 5)
    results = _runs_of(worker_log, sent, late)
    assert results.count("{'closed': 1, 'held': 0}") == 1
    assert results.count("{'closed': 0, 'held': 0}") == len(results) - 1
    (closed,) = read_stream(stream_id)
    assert closed.type == "GamingDayClosed"
    assert closed.metadata["actor"] == "system:gaming-day-close"
    assert closed.metadata["gaming_day"] == day.isoformat()
    table_closed = read_stream(table_day_stream(crew["table"].pk, day))[-1]
    assert table_closed.type == "TableDayClosed"
    frozen = table_closed.data["figures"]
    assert (frozen["opener_cents"], frozen["closer_cents"], frozen["chip_sales_cents"],
            frozen["drop_counted_cents"], frozen["win_cents"]) == (150_000, 120_000, 30_000,
                                                                   30_000, 0)
    row = GamingDay.objects.get(property=prop, gaming_day=day)
    assert (row.state, row.closed_by, row.with_open_items) == (
        "closed", "system:gaming-day-close", False)


# --- as_at, capped at the worker's clock (no worker needed: the task run in-process) ------

def _today_played(team: dict[str, Actor], table: Any) -> None:
    """Today's day at ``table`` with nothing open: opener {"2500": 40} = 100000, 10000
    sold, closer {"2500": 36} = 90000 (= 100000 − 10000), one $100 note in the box."""
    d, f = team["dealer"], team["floor"]
    services.inventory_record(actor=d, table_id=table.pk, slip="opener", pieces={"2500": 40})
    services.inventory_sign(actor=f, table_id=table.pk, slip="opener")
    services.chips_sell(actor=d, table_id=table.pk, amount_cents=10_000)
    services.inventory_record(actor=d, table_id=table.pk, slip="closer", pieces={"2500": 36})
    services.inventory_sign(actor=f, table_id=table.pk, slip="closer")
    services.drop_remove(actor=team["security"], table_id=table.pk)
    services.drop_count(actor=team["counter"], table_id=table.pk, cash={"10000": 1})
    services.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    services.drop_accept(actor=team["cashier"], table_id=table.pk)


@pytest.mark.django_db
def test_an_as_at_still_to_come_is_taken_as_now_so_no_day_closes_early(team, open_table
                                                                       ) -> None:
    """A beat entry asking to close from a moment still to come — a minute after the end
    of the gaming day being played — closes nothing: the moment is capped at the
    worker's clock, and today has not ended. The close given that moment directly would
    close the day (the control: the cap, not the day, held it)."""
    table = open_table("lunar-poker-589")
    _today_played(team, table)
    prop, today = table.property, team["finance"].gaming_day()
    _, ends = gaming_day_bounds(today, time_zone=prop.time_zone,
                                start_hour=prop.gaming_day_start_hour)
    after_the_end = ends + timedelta(minutes=1)
    result = gaming_days_close.apply(kwargs={"as_at": after_the_end.isoformat()}).get()
    assert result == {"closed": 0, "held": 0}
    assert not GamingDay.objects.filter(gaming_day=today).exists()
    assert services.gaming_days_close_due(now=after_the_end) == {"closed": 1, "held": 0}


def test_an_as_at_without_its_offset_is_refused() -> None:
    """``as_at`` is an instant: a local date-time without its UTC offset names none (in
    New York 2026-11-01T01:30 happens twice), so the task fails before it reads or
    closes anything."""
    run = gaming_days_close.apply(kwargs={"as_at": "2026-11-01T01:30:00"})
    assert isinstance(run.result, ValueError)


def test_as_at_is_read_as_the_instant_it_names() -> None:
    """``Z`` and an offset name the same instant: 06:00 EST on Nov 2 is 11:00 UTC."""
    from finance.tasks import closing_moment

    assert closing_moment("2026-11-02T11:00:30Z") == closing_moment(
        "2026-11-02T06:00:30-05:00") == datetime.fromisoformat("2026-11-02T11:00:30+00:00")
