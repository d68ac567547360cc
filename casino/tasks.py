"""Core Celery tasks."""

from celery import shared_task

from casino.eventstore import projections


@shared_task(name="casino.run_async_projections", acks_late=True,
             autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def run_async_projections() -> dict[str, int]:
    """Catch every async projection up to the head. Safe to run twice: each projection's
    checkpoint is locked and advanced in the transaction that writes its rows."""
    return projections.catch_up_all()
