"""Celery tasks of finance: safe to run twice, recovered by the next beat."""

from __future__ import annotations

from celery import shared_task

from finance import services


@shared_task(name="finance.gaming_days_close", acks_late=True)
def gaming_days_close() -> dict[str, int]:
    """Beat: each property's gaming day closed once it has ended (at the boundary in the
    property's own time zone, 23 or 25 hours after it began across a daylight-saving
    change) and nothing is open; otherwise held with what is still open. A day missed
    while the worker or broker was down is closed by the next run; a second delivery
    finds it closed."""
    return services.gaming_days_close_due()
