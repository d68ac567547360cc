"""Celery tasks of the poker floor: ids in, safe to run twice, recovered by a sweep
(DESIGN §5)."""

from __future__ import annotations

import uuid
from datetime import datetime

from celery import current_app, shared_task
from django.utils import timezone

from casino.actors import system_actor
from casino.domain.errors import ConflictError, NotFoundError
from poker_floor.models import Call
from poker_floor.services import calls


@shared_task(name="poker_floor.seats_offer", acks_late=True, autoretry_for=(Exception,),
             retry_backoff=True, max_retries=5)
def seats_offer(table_id: str) -> list[str]:
    """Offer a table's vacant seats to its game's list (a seat opened, the table opened);
    the calls made. A second delivery finds the seats offered and does nothing."""
    return [str(c.pk) for c in calls.seats_offer(table_id)]


@shared_task(name="poker_floor.call_timeout", acks_late=True, autoretry_for=(Exception,),
             retry_backoff=True, max_retries=5)
def call_timeout(call_id: str) -> str:
    """Time out a call at its deadline (queued with the deadline as ETA). A call answered
    meanwhile (seated, timed out by another delivery or the sweep, cancelled) is a quiet
    no-op; a message delivered early (clock skew between hosts) is put back until its
    time (the sweep catches it where tasks run eagerly)."""
    call = Call.objects.select_related("property").filter(pk=_uuid(call_id)).first()
    if call is None:
        return "no-call"
    try:
        calls.call_timeout(actor=system_actor(call.property, "floor"), call_id=call.pk)
    except NotFoundError:
        return "no-call"
    except ConflictError as refused:
        if refused.code == "call_already_answered":
            return "answered"
        if refused.code != "call_not_due":
            raise
        if not current_app.conf.task_always_eager:
            call_timeout.apply_async(args=[call_id], eta=max(call.deadline_at, timezone.now()))
        return "early"
    return "timed_out"


@shared_task(name="poker_floor.floor_sweep", acks_late=True)
def floor_sweep(now: str | None = None) -> dict[str, int]:
    """Beat, every TIMER_SWEEP_SECONDS: calls past their deadline timed out, vacant seats
    offered to the lists, calls whose page was lost paged."""
    return calls.floor_sweep(datetime.fromisoformat(now) if now else None)


def _uuid(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        return None
from poker_floor.paging_tasks import *  # noqa: F401,F403  (Celery finds tasks.py only)
