"""The page of a call as a Celery task (:mod:`poker_floor.services.pages`): the call's id
in, safe to deliver twice (a call paged already is not paged again), never retried (a
failed page is recorded as PageFailed; the floor calls the player aloud). Queued when the
call's SeatOffered commits (:mod:`poker_floor.services.calls`); a call whose message was
lost is paged by the floor's beat sweep (``pages.pages_sweep``)."""

from __future__ import annotations

from celery import shared_task

from poker_floor.services import pages

__all__ = ["page_call"]


@shared_task(name="poker_floor.page_call", acks_late=True)
def page_call(call_id: str) -> str:
    """Page the player of one call; "sent", "failed", or why nothing was sent."""
    return pages.call_page(call_id)
