"""Reads of the event log for the API and reports."""

from __future__ import annotations

from casino.eventstore.models import Event
from casino.eventstore.store import _from_model, to_json


def events_page(*, from_position: int, limit: int, stream_id: str | None = None,
                stream_type: str | None = None, event_type: str | None = None) -> list[dict]:
    qs = Event.objects.filter(position__gte=from_position)
    if stream_id:
        qs = qs.filter(stream_id=stream_id)
    if stream_type:
        qs = qs.filter(stream_type=stream_type)
    if event_type:
        qs = qs.filter(type=event_type)
    return [to_json(_from_model(e)) for e in qs.order_by("position")[:limit]]
