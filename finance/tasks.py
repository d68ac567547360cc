"""Celery tasks of finance: safe to run twice, recovered by the next beat."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.utils import timezone

from finance import services


def closing_moment(as_at: str | None) -> datetime:
    """The moment the close looks from: ``as_at`` (an ISO-8601 instant with its offset,
    e.g. ``2026-11-02T11:00:30Z``) or now, and never later than now — a day is never
    closed before it has ended, whatever a beat entry asks. ``ValueError`` for text that
    is not an instant (a date-time without an offset names no instant)."""
    now = timezone.now()
    if as_at in (None, ""):
        return now
    moment = datetime.fromisoformat(str(as_at))
    if moment.tzinfo is None:
        raise ValueError(f"as_at {as_at!r} has no UTC offset: give an instant, e.g. "
                         "2026-11-02T11:00:30Z")
    return min(moment, now)


@shared_task(name="finance.gaming_days_close", acks_late=True)
def gaming_days_close(as_at: str | None = None) -> dict[str, int]:
    """Beat: each property's gaming day closed once it has ended (at the boundary in the
    property's own time zone, 23 or 25 hours after it began across a daylight-saving
    change) and nothing is open; otherwise held with what is still open. A day missed
    while the worker or broker was down is closed by the next run; a second delivery
    finds it closed.

    ``as_at`` (optional, a beat entry's kwarg): close the days that had ended by then
    rather than by now — capped at the worker's own clock, so a moment still to come is
    taken as now."""
    return services.gaming_days_close_due(now=closing_moment(as_at))
