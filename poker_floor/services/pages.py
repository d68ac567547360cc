"""A call's page (issue 24, item 5): the called player paged once, the page recorded.

The page is sent (:mod:`poker_floor.paging`), then recorded in the list's stream by the
system: ``PageSent {call, entry, channel, message: <sealed {text}>}`` once a service
accepted it, ``PageFailed {call, entry, channel, error}`` otherwise (the call's ``page``
becomes "sent" or "failed" in :mod:`poker_floor.projections`). A failed page is not
tried again: the floor sees it on the call and calls the player aloud.

Paged once: a call with a page recorded is not paged again, a call no longer open is not
paged at all, and two deliveries of one call's task at the same moment take turns (a
PostgreSQL advisory lock on the call, held while sending; the list itself is locked only
to record, so a slow service never holds up the list's commands).
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from casino.actors import system_actor
from casino.eventstore.store import NewEvent
from casino.personal_data import seal
from poker_floor.models import Call, CallState
from poker_floor.paging import call_text, send
from poker_floor.services.lists import at_list

log = logging.getLogger(__name__)

#: the advisory lock's first key ("PAGE"): its two-key space is apart from the event
#: store's one-key locks
PAGE_LOCK_CLASS = 0x50414745
#: an open call still unpaged this long after it was made lost its task's message
UNPAGED_AFTER = timedelta(seconds=30)

SENT, FAILED = "sent", "failed"


def _one_pager(call_id: uuid.UUID) -> None:
    """Hold the call's page lock for this transaction (PostgreSQL; SQLite's single writer
    and a single worker need none)."""
    if connection.vendor == "postgresql":
        key = int.from_bytes(call_id.bytes[:4], "big", signed=True)
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s, %s)", [PAGE_LOCK_CLASS, key])


def call_page(call_id: Any) -> str:
    """Page the player of call ``call_id`` and record it: "sent" or "failed"; nothing is
    sent for a call already paged ("already-paged"), no longer open ("not-open") or
    unknown ("no-call")."""
    try:
        pk = uuid.UUID(str(call_id))
    except ValueError:
        return "no-call"
    with transaction.atomic():
        _one_pager(pk)
        call = Call.objects.select_related("entry", "property").filter(pk=pk).first()
        if call is None:
            return "no-call"
        if call.page:
            return "already-paged"
        if call.state != CallState.OPEN:
            return "not-open"
        entry = call.entry
        text = call_text(entry, call)
        channel, error = send(entry, text)
        at = at_list(system_actor(call.property, "page"), call.waitlist_id)
        ids = {"call": str(call.pk), "entry": str(entry.pk), "channel": channel}
        if error is None:
            at.record(NewEvent("PageSent", {**ids, "message": _sealed(entry.pk, text)}))
        else:
            at.record(NewEvent("PageFailed", {**ids, "error": error}))
    if error:
        log.warning("the page of call %s failed (%s)", call.pk, error)
    return FAILED if error else SENT


def _sealed(entry_id: Any, text: str) -> dict[str, str] | None:
    try:
        return seal(entry_id, {"text": text})
    except ValueError:  # the entry's details were erased while the page was on its way
        return None


def pages_due(now: datetime | None = None) -> list[str]:
    """The open calls not paged ``UNPAGED_AFTER`` after they were made: their task's
    message was lost (the beat sweep pages them)."""
    before = (now or timezone.now()) - UNPAGED_AFTER
    return [str(pk) for pk in Call.objects.filter(
        state=CallState.OPEN, page="", called_at__lte=before).values_list("pk", flat=True)]


def pages_sweep(now: datetime | None = None) -> dict[str, int]:
    """Page every call :func:`pages_due` finds (called by the floor's beat sweep)."""
    counts: dict[str, int] = {}
    for call_id in pages_due(now):
        outcome = call_page(call_id)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts
