"""Reads of the event log for the API and reports, always scoped to the caller
(:func:`casino.scoping.event_rows`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from casino.eventstore.models import Event
from casino.eventstore.store import RecordedEvent, _from_model, read_stream, settled, to_json

#: stream type → what the event log's readers (audit roles) may see of a stream's events:
#: ``view(stream_id, whole_stream) -> [data shown, one per event]``. Filled by the app that
#: owns the stream type in its ``AppConfig.ready()`` (DESIGN §2: what a person may see is a
#: domain rule); e.g. tables hides a house-banked round's face-down dealer cards until
#: they are turned up or the round is over.
EventView = Callable[[str, list[RecordedEvent]], list[dict]]
_VIEWS: dict[str, EventView] = {}


def register_event_view(stream_type: str, view: EventView) -> None:
    _VIEWS[stream_type] = view


def _shown(events: list[RecordedEvent]) -> list[RecordedEvent]:
    """``events`` with the data of each stream that has a view replaced by what it shows
    (the stream is read whole once: the view may depend on how the stream stands). The
    hash is the recorded one; ``verify_events`` checks the chain on the server."""
    shown: dict[str, dict[int, dict]] = {}
    for e in events:
        view = _VIEWS.get(e.stream_type)
        if view is not None and e.stream_id not in shown:
            whole = read_stream(e.stream_id)
            shown[e.stream_id] = {w.version: d for w, d in zip(whole, view(e.stream_id, whole),
                                                                strict=True)}
    if not shown:
        return events
    out = []
    for e in events:
        data = shown.get(e.stream_id, {}).get(e.version, e.data)
        out.append(e if data is e.data else replace(e, data=data))
    return out


def shown_events(rows: Iterable[Event]) -> list[RecordedEvent]:
    """Stored events as the event log's readers may see them (:data:`_VIEWS`): THE way a
    page that reads ``Event`` rows itself (a person's history, a stale form's "what
    changed") hides a live banked round's face-down dealer cards and a poker hand's hole
    cards before the hand is over. Each stream with a view is read whole once."""
    return _shown([_from_model(e) for e in rows])


def shown_data(event: Event) -> dict:
    """One stored event's data as the event log's readers may see it (:data:`_VIEWS`)."""
    return shown_events([event])[0].data


def events_page(*, actor: Any, from_position: int, limit: int, stream_id: str | None = None,
                stream_type: str | None = None, event_type: str | None = None,
                person: str | None = None, table: str | None = None,
                gaming_day: str | None = None) -> list[dict]:
    """At most ``limit`` settled events the actor may read, from ``from_position`` on
    (a client paging on from the last position it saw never skips one); ``person``,
    ``table`` and ``gaming_day`` narrow by what the metadata records (the console's event
    log browser)."""
    from casino.scoping import event_rows

    qs = event_rows(settled(Event.objects.filter(position__gte=from_position)), actor)
    if stream_id:
        qs = qs.filter(stream_id=stream_id)
    if stream_type:
        qs = qs.filter(stream_type=stream_type)
    if event_type:
        qs = qs.filter(type=event_type)
    if person:
        qs = qs.filter(metadata__actor=person)
    if table:
        qs = qs.filter(metadata__table=table)
    if gaming_day:
        qs = qs.filter(metadata__gaming_day=gaming_day)
    return [to_json(e) for e in _shown([_from_model(e)
                                        for e in qs.order_by("position")[:limit]])]


def stream_visible(*, actor: Any, stream_id: str) -> bool:
    """Whether the stream exists and its first event is one the actor may read: a stream
    of another property is answered as if it did not exist."""
    from casino.scoping import event_rows

    first = Event.objects.filter(stream_id=stream_id, version=1)
    return event_rows(first, actor).exists()
