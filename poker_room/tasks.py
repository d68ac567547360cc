"""Celery tasks of the poker room: ids in, safe to run twice, recovered by a sweep."""

from __future__ import annotations

from celery import shared_task

from poker_room.services import time_charges


@shared_task(name="poker_room.time_charges_assess", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def time_charges_assess(table_id: str, period_start: str) -> str:
    """Assess one table's time charges for one period (637a.17(b)(3)); a second delivery
    finds it assessed and does nothing."""
    return time_charges.time_charge_assess(table_id=table_id, period_start=period_start)


@shared_task(name="poker_room.time_charges_sweep", acks_late=True)
def time_charges_sweep() -> dict[str, int]:
    """Beat, every minute: every period due at every table, the missed ones included."""
    return time_charges.time_charges_sweep()
