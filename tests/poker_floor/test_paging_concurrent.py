"""A call's page task delivered twice at the same moment (a message redelivered while its
first delivery is still sending, acks_late) sends one text: the second waits for the
first on the call's page lock, then finds the page recorded. PostgreSQL, committed data,
two threads with their own connections."""

from __future__ import annotations

import threading

import pytest
from celery import current_app
from django.db import connection

from casino.eventstore.store import read_stream
from poker_floor.paging_tasks import page_call
from poker_floor.services import calls, lists
from tests.poker_floor._gateway import Gateway
from tests.poker_room._committed import poker_room


@pytest.mark.postgres
@pytest.mark.usefixtures("committed_db")
def test_two_deliveries_at_once_send_one_page(settings) -> None:  # noqa: ANN001
    gateway = Gateway(delay=0.5).start()  # each text takes half a second to be accepted
    try:
        settings.PAGING_SMS_URL = gateway.sms_url
        people, table = poker_room("PA-PAGE-1", "pg", table_name="T3")
        waitlist = lists.waitlist_open(actor=people["floor"], game="holdem")
        lists.player_list(actor=people["floor"], waitlist_id=waitlist.pk, name="Jane Smith",
                          phone="201-555-0123")
        call = calls.call_next(actor=people["floor"], waitlist_id=waitlist.pk,
                               table_id=table.pk, seat=9)
        outcomes: list[str] = []

        def deliver() -> None:
            try:
                outcomes.append(page_call(str(call.pk)))
            finally:
                connection.close()

        threads = [threading.Thread(target=deliver) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)

        assert sorted(outcomes) == ["already-paged", "sent"]
        assert len(gateway.messages) == 1
        pages = [e.type for e in read_stream(f"waitlist-{waitlist.pk}")
                 if e.type in ("PageSent", "PageFailed")]
        assert pages == ["PageSent"]
    finally:
        gateway.stop()
        # the call's own messages (its page, its timeout) went to the broker: no worker
        # runs here to take them
        current_app.control.purge()
