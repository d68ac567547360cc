"""The jackpots' beat tasks with a real Celery worker and beat against Redis and PostgreSQL
(bin/test), and the faults they must survive (§ 637a.16(d), (g)-(h): each High Hand
period closed once and its boxes counted once; § 637a.15(d): each Bad Beat count opened
once a gaming day): a worker killed in the middle of a period's close, nothing to run
a task (the broker or the workers down) when the count falls due, a task delivered twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connection
from django.utils import timezone

from casino.celery import app
from casino.eventstore import projections
from casino.eventstore.store import NewEvent, append, read_stream
from jackpots.models import Fund, FundCount
from jackpots.services import high_hand_record
from jackpots.tasks import counts_due, high_hand_periods_close
from poker_room.demo import jackpot_boxes_ready
from tests._beat import Beat
from tests.poker_room._committed import poker_room

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

JACKPOT_BEAT = {
    "high-hand-periods": {"task": "jackpots.high_hand_periods_close", "schedule": 1.0},
    "jackpot-counts": {"task": "jackpots.counts_due", "schedule": 1.0},
}


@pytest.fixture
def worker() -> Iterator[Any]:
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


def _wait(done: Any, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def ended_period() -> dict[str, Any]:
    """A property whose Hold'em table paid $3 into its high-hand and bad-beat funds, and
    whose floorperson wrote up a full house made two hours ago: that period is over."""
    licence = f"PA-JF-{uuid.uuid4().hex[:6]}"
    people, table = poker_room(licence, licence.lower())
    jackpot_boxes_ready(table, people["floor"])  # § 637a.2(e): the table's boxes
    prop = people["floor"].property
    meta = people["dealer"].metadata(role="dealer", table=str(table.pk))
    hand = str(uuid.uuid4())
    append(("round", f"round-{hand}"), 0, [NewEvent("JackpotContributed", {
        "fund": fund, "kind": fund.replace("-", "_"), "pot": 0, "amount_cents": 100,
        "table_id": str(table.pk), "gaming_day": meta["gaming_day"], "hand_id": hand})
        for fund in ("high-hand", "bad-beat") for _ in range(3)], meta)
    assert _wait(lambda: (projections.catch_up("jackpot_funds"),
                          Fund.objects.filter(property=prop).count() == 2)[1])
    slip = high_hand_record(actor=people["floor"], fund="high-hand", table_id=table.pk,
                            seat=4, cards=["Qs", "Qd", "Qh", "9c", "9d"],
                            dealer=people["dealer"].username,
                            player={"name": "Faye Test", "phone": "555-0144"},
                            made_at=timezone.now() - timedelta(hours=2))
    return {"prop": prop, "slip": slip, "people": people,
            "fund": Fund.objects.get(property=prop, name="high-hand")}


def _closes(p: dict[str, Any]) -> list[Any]:
    return [e for e in read_stream(p["fund"].stream_id) if e.type == "HighHandPeriodClosed"]


def _counts(p: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for fund in ("high-hand", "bad-beat"):
        stream = Fund.objects.get(property=p["prop"], name=fund).stream_id
        out[fund] = sum(1 for e in read_stream(stream) if e.type == "CountOpened")
    return out


def test_the_beat_closes_the_period_and_opens_the_counts_once(ended_period, worker) -> None:
    """§ 637a.16(g)-(h): the period closed and its $3 awarded once; § 637a.16(d) and
    § 637a.15(d): the High Hand count of the period and the Bad Beat count of the day
    opened once each, however many times the beat fires."""
    with Beat(JACKPOT_BEAT):
        assert _wait(lambda: len(_closes(ended_period)) == 1 and
                     _counts(ended_period) == {"high-hand": 1, "bad-beat": 1})
        time.sleep(3)  # three more rounds of the beat
    assert len(_closes(ended_period)) == 1
    assert _closes(ended_period)[0].data["awards"][0]["cents"] == 300
    assert _counts(ended_period) == {"high-hand": 1, "bad-beat": 1}


def test_a_task_delivered_twice_closes_and_counts_once(ended_period, worker) -> None:
    """Each task run twice by the worker: the period closes once, each count opens once."""
    for task in (high_hand_periods_close, high_hand_periods_close, counts_due, counts_due):
        task.delay()
    assert _wait(lambda: len(_closes(ended_period)) == 1 and
                 _counts(ended_period) == {"high-hand": 1, "bad-beat": 1})
    time.sleep(2)  # the second deliveries have run too (the worker takes them in turn)
    assert len(_closes(ended_period)) == 1
    assert _counts(ended_period) == {"high-hand": 1, "bad-beat": 1}


def test_a_count_due_while_the_broker_is_down_is_opened_by_the_next_sweep(
        ended_period) -> None:
    """§ 637a.15(d), § 637a.16(d): the period ended and the day's count fell due while
    nothing could deliver a task (the broker, or every worker, down): nothing happened
    and nothing is lost; once they are back, the next beat closes the period and opens
    both counts, once."""
    time.sleep(1.5)  # due, and no worker or beat is running
    assert _closes(ended_period) == [] and _counts(ended_period) == {"high-hand": 0,
                                                                     "bad-beat": 0}
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10), \
            Beat(JACKPOT_BEAT):
        assert _wait(lambda: len(_closes(ended_period)) == 1 and
                     _counts(ended_period) == {"high-hand": 1, "bad-beat": 1})
        time.sleep(2)
    assert len(_closes(ended_period)) == 1
    assert _counts(ended_period) == {"high-hand": 1, "bad-beat": 1}


def _worker_process() -> subprocess.Popen:
    """A worker of its own (a process we can kill), on the test database."""
    s = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{s['USER'] or 'postgres'}@"
                                         f"{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/"
                                         f"{s['NAME']}",
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "SECRET_KEY": settings.SECRET_KEY,
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    celery = Path(sys.executable).with_name("celery")
    return subprocess.Popen([str(celery), "-A", "casino", "worker", "--pool=solo",
                             "--loglevel=WARNING", "--without-heartbeat", "--without-gossip",
                             "--without-mingle"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def test_a_worker_killed_in_the_middle_of_a_close_leaves_it_to_the_next(ended_period
                                                                       ) -> None:
    """§ 637a.16(g)-(h): the worker closing the period is killed while the close is under
    way (holding its transaction, waiting on the fund's row another session holds): the
    close is rolled back, nothing half-recorded; the next worker and beat close it once."""
    s = connection.settings_dict
    holder = psycopg.connect(dbname=s["NAME"], host=s["HOST"] or "127.0.0.1",
                             port=s["PORT"] or 5432, user=s["USER"] or "postgres")
    holder.execute("SELECT 1 FROM jackpots_fund WHERE id = %s FOR UPDATE",
                   [ended_period["fund"].pk])
    app.control.purge()
    proc = _worker_process()
    try:
        high_hand_periods_close.delay()

        def waiting_on_the_fund() -> bool:
            with connection.cursor() as cur:
                cur.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                            "current_database() AND wait_event_type = 'Lock'")
                return cur.fetchone()[0] > 0
        assert _wait(waiting_on_the_fund, 30), "the worker never reached the close"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        holder.rollback()
        holder.close()
    assert _closes(ended_period) == []
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10), \
            Beat(JACKPOT_BEAT):
        assert _wait(lambda: len(_closes(ended_period)) == 1)
        time.sleep(2)
    assert len(_closes(ended_period)) == 1
    assert FundCount.objects.filter(fund="high-hand",
                                    key=ended_period["slip"]["period"]).count() == 1

