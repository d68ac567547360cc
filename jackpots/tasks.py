"""Celery tasks of the jackpots: safe to run twice, recovered by the next beat."""

from __future__ import annotations

from celery import shared_task

from jackpots import services


@shared_task(name="jackpots.high_hand_periods_close", acks_late=True)
def high_hand_periods_close() -> int:
    """Beat: every High Hand period that has ended with a hand recorded, closed once
    (637a.16(g)-(h)); a period missed while the worker or broker was down is closed by
    the next run, and a second delivery finds it closed."""
    return services.high_hand_periods_close_due()


@shared_task(name="jackpots.counts_due", acks_late=True)
def counts_due() -> dict[str, int]:
    """Beat: each count that falls due opened once (with the compliance notice of a Bad
    Beat count), each open count reminded and escalated (637a.15(d), 637a.16(d))."""
    from jackpots.services.counts import counts_due as due

    return due()


@shared_task(name="jackpots.display_checks", acks_late=True)
def display_checks() -> int:
    """Beat: each fund's display checked once for the gaming day that ended
    (637a.15(h))."""
    from jackpots.services.display_check import display_checks_due

    return display_checks_due()
