"""The floor's calls with a real Celery worker and beat against Redis and PostgreSQL
(bin/test; issue 24, "Done when"): a timeout whose message is lost is caught by the beat
sweep; a timeout delivered twice moves the player once. The call's minute is shortened
to a second (FLOOR_CALL_MINUTE_SECONDS), as the product allows for demonstrations."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.utils import timezone

from casino.celery import app
from poker_floor.models import Call, CallState, ListEntry
from poker_floor.services import calls
from poker_floor.tasks import call_timeout
from tests._beat import Beat
from tests.poker_floor._helpers import committed_floor, list_events

pytestmark = [pytest.mark.celery, pytest.mark.postgres, pytest.mark.usefixtures("committed_db")]

#: only the floor's sweep, every second
FLOOR_BEAT = {"poker-floor-sweep": {"task": "poker_floor.floor_sweep", "schedule": 1.0}}


@pytest.fixture
def short_minutes(settings: Any) -> None:
    """A call's minute lasts a second: the Rules' call_minutes 1 is one second."""
    settings.FLOOR_CALL_MINUTE_SECONDS = 1


@pytest.fixture
def worker() -> Iterator[Any]:
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


def _room(*names: str) -> Any:
    """An open Hold'em table with seat 9 free (call_minutes 1, moved down 3, off at the
    second miss), its list with ``names``, and nothing in the broker's queue."""
    floor = committed_floor("PA-FLOOR-C", "flc")
    floor.rules("holdem", waitlist={"call_minutes": 1})
    table = floor.table()
    floor.fill(table, leave=(9,))
    wl = floor.waitlist()
    entries = floor.list_players(wl, *names)
    app.control.purge()
    return floor, table, wl, entries


@pytest.fixture
def room(short_minutes: None) -> Any:
    return _room("Ann Lee", "Bob Stone", "Cy Young")


@pytest.fixture
def one_waiting(short_minutes: None) -> Any:
    """Ann alone on the list: her timeout offers the seat to nobody else."""
    return _room("Ann Lee")


def _wait_for(check: Callable[[], bool], seconds: float = 25) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.2)
    return False


def _timed_out(wl: Any, call: Any) -> list[Any]:
    return [e for e in list_events(wl)
            if e.type == "CallTimedOut" and e.data["call"] == str(call.pk)]


def test_a_timeout_whose_message_was_lost_is_caught_by_the_sweep(room) -> None:
    floor, table, wl, (ann, bob, _cy) = room
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=table.pk, seat=9)
    app.control.purge()  # the call's timeout (and page) messages are lost
    time.sleep(1.2)      # its deadline has passed, and no worker ran
    assert Call.objects.get(pk=call.pk).state == CallState.OPEN
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10), \
            Beat(FLOOR_BEAT):
        assert _wait_for(lambda: len(_timed_out(wl, call)) == 1)
    out = _timed_out(wl, call)[0]
    # Ann, first of three, moved down three places: to the end (3rd)
    assert (out.data["entry"], out.data["missed"], out.data["moved_to"]) == (str(ann.pk), 1, 3)
    assert out.metadata["actor"] == "system:floor"
    # the seat was offered to Bob in the same transaction
    offered = [e for e in list_events(wl) if e.type == "SeatOffered"]
    assert [e.data["entry"] for e in offered][:2] == [str(ann.pk), str(bob.pk)]
    assert offered[1].position == out.position + 1


class TimeoutRuns:
    """What the worker's runs of ``poker_floor.call_timeout`` returned, per call id (the
    task_postrun signal: the in-process worker sends it in its own thread, each time the
    task has run)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.results: dict[str, list[Any]] = {}

    def __call__(self, sender: Any = None, args: Any = None, retval: Any = None,
                 state: Any = None, **_: Any) -> None:
        if getattr(sender, "name", None) == "poker_floor.call_timeout" and args \
                and state == "SUCCESS":
            with self.lock:
                self.results.setdefault(str(args[0]), []).append(retval)

    def of(self, call_id: Any) -> list[Any]:
        """The outcomes of the runs for ``call_id`` that were not put back until the
        deadline ("early": that message runs again)."""
        with self.lock:
            return [r for r in self.results.get(str(call_id), []) if r != "early"]


@pytest.fixture
def timeout_runs() -> Iterator[TimeoutRuns]:
    runs = TimeoutRuns()
    task_postrun.connect(runs, weak=False)
    try:
        yield runs
    finally:
        task_postrun.disconnect(runs)


def test_a_timeout_delivered_twice_moves_the_player_once(one_waiting, timeout_runs,
                                                         worker) -> None:
    floor, table, wl, (ann,) = one_waiting
    call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=table.pk, seat=9)
    # the ETA message at the deadline, and the same timeout delivered twice more
    time.sleep(max(0.0, (call.deadline_at - timezone.now()).total_seconds()) + 0.1)
    call_timeout.delay(str(call.pk))
    call_timeout.delay(str(call.pk))
    # the worker has run all three deliveries (each to its end) before anything is checked
    assert _wait_for(lambda: len(timeout_runs.of(call.pk)) >= 3)
    assert sorted(timeout_runs.of(call.pk)) == ["answered", "answered", "timed_out"]
    assert len(_timed_out(wl, call)) == 1
    ann = ListEntry.objects.get(pk=ann.pk)
    assert (ann.missed_calls, ann.status) == (1, "waiting")
    assert call_timeout.apply(args=[str(call.pk)]).get() == "answered"
