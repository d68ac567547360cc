"""A call's timeout run twice at the same moment (its message redelivered while the first
delivery is still running, acks_late; or the beat sweep and the task together) times the
call out once: the second waits for the first on the list's lock, then finds the call
answered (409 ``call_already_answered``, which the task takes quietly), not a stale
stream version. PostgreSQL, committed data, two threads with their own connections."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from celery import current_app
from django.db import connection
from django.utils import timezone

from casino.actors import system_actor
from casino.domain.errors import ConflictError
from poker_floor.models import ListEntry
from poker_floor.services import calls
from tests.poker_floor._helpers import committed_floor, list_events


@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_two_timeouts_at_once_time_the_call_out_once(settings: Any) -> None:
    settings.FLOOR_CALL_MINUTE_SECONDS = 1  # the Rules' call_minutes 1 is one second
    try:
        floor = committed_floor("PA-FLOOR-TT", "fltt")
        floor.rules("holdem", waitlist={"call_minutes": 1})
        table = floor.table()
        floor.fill(table, leave=(9,))
        wl = floor.waitlist()
        [ann] = floor.list_players(wl, "Ann Lee")
        call = calls.call_next(actor=floor["floor"], waitlist_id=wl.pk, table_id=table.pk,
                               seat=9)
        time.sleep(max(0.0, (call.deadline_at - timezone.now()).total_seconds()) + 0.1)
        system = system_actor(floor.property, "floor")
        start = threading.Barrier(2)
        outcomes: list[str] = []

        def deliver() -> None:
            try:
                start.wait(timeout=10)
                calls.call_timeout(actor=system, call_id=call.pk)
                outcomes.append("timed_out")
            except ConflictError as refused:
                outcomes.append(refused.code)
            finally:
                connection.close()

        threads = [threading.Thread(target=deliver) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)

        assert sorted(outcomes) == ["call_already_answered", "timed_out"]
        timed_out = [e for e in list_events(wl) if e.type == "CallTimedOut"]
        assert [e.data["call"] for e in timed_out] == [str(call.pk)]
        # Ann, alone on the list, missed one call and waits on (off at the second miss)
        ann = ListEntry.objects.get(pk=ann.pk)
        assert (ann.missed_calls, ann.status) == (1, "waiting")
    finally:
        # the call's own messages (its page, its timeout) went to the broker: no worker
        # runs here to take them
        current_app.control.purge()
