"""Celery tasks of the tables app: ids in, safe to run twice, recovered by a sweep."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.utils import timezone

from tables.services import timers as timer_services


@shared_task(name="tables.deck_timer", acks_late=True, autoretry_for=(Exception,),
             retry_backoff=True, max_retries=5)
def deck_timer(deck_id: str, kind: str, deadline: str) -> str:
    """Fire a deck's warning or change-due mark for ``deadline``. Does nothing if that was
    already done, the deck has left play, or its deadline has since changed. A message
    delivered early (clock skew between hosts) is put back until its time."""
    fire_at = timer_services.fire_time(kind, datetime.fromisoformat(deadline))
    if timezone.now() < fire_at:
        deck_timer.apply_async(args=[deck_id, kind, deadline], eta=fire_at)
        return "early"
    return timer_services.deck_timer_fire(deck_id=deck_id, kind=kind, deadline=deadline)


@shared_task(name="tables.rules_take_effect", acks_late=True, autoretry_for=(Exception,),
             retry_backoff=True, max_retries=5)
def rules_take_effect(rules_id: str) -> list[str]:
    return timer_services.rules_effect_fire(rules_id=rules_id)


@shared_task(name="tables.timer_sweep", acks_late=True)
def timer_sweep() -> dict[str, int]:
    """Beat, every TIMER_SWEEP_SECONDS: every deadline whose message was lost."""
    return timer_services.timers_sweep()
