"""Reads of the event log for the API and reports, always scoped to the caller
(:func:`casino.scoping.event_rows`)."""

from __future__ import annotations

from typing import Any

from casino.eventstore.models import Event
from casino.eventstore.store import _from_model, to_json


def events_page(*, actor: Any, from_position: int, limit: int, stream_id: str | None = None,
                stream_type: str | None = None, event_type: str | None = None) -> list[dict]:
    """At most ``limit`` events the actor may read, from ``from_position`` on."""
    from casino.scoping import event_rows

    qs = event_rows(Event.objects.filter(position__gte=from_position), actor)
    if stream_id:
        qs = qs.filter(stream_id=stream_id)
    if stream_type:
        qs = qs.filter(stream_type=stream_type)
    if event_type:
        qs = qs.filter(type=event_type)
    return [to_json(_from_model(e)) for e in qs.order_by("position")[:limit]]


def stream_visible(*, actor: Any, stream_id: str) -> bool:
    """Whether the stream exists and its first event is one the actor may read: a stream
    of another property is answered as if it did not exist."""
    from casino.scoping import event_rows

    first = Event.objects.filter(stream_id=stream_id, version=1)
    return event_rows(first, actor).exists()
