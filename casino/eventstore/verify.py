"""Re-computation of the hash chain: the check behind ``manage.py verify_events``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from casino.eventstore.canonical import GENESIS_HASH, canonical_json, link_hash


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    count: int
    head_hash: str
    first_bad_position: int | None = None
    reason: str = ""
    #: the licence number whose events ``count`` counts, or "all"
    scope: str = "all"


def verify_chain(*, batch: int = 5000, property: str | None = None,
                 progress: Callable[[int], None] | None = None) -> ChainReport:
    """Walk every event in position order; stop at the first row that does not link.

    A row is bad when its position is not the next one, its ``prev_hash`` is not the
    previous row's hash, or its own hash does not match its contents.

    With ``property`` (a licence number) the walk is the same — the chain is one for the
    whole log, so a removed or altered event of any property breaks it for all — but
    ``count`` counts only that property's events, and a break is reported by position
    and reason alone, never with another property's contents.
    """
    from casino.eventstore.models import Event

    expected_position, prev, count = 1, GENESIS_HASH, 0
    scope = property or "all"
    fields = ("position", "event_id", "stream_type", "stream_id", "version", "type",
              "schema_version", "data", "metadata", "recorded_at", "prev_hash", "hash")
    while True:
        rows = list(Event.objects.filter(position__gte=expected_position)
                    .order_by("position").values_list(*fields)[:batch])
        if not rows:
            break
        for (position, event_id, stream_type, stream_id, version, type_, schema_version,
             data, metadata, recorded_at, prev_hash, stored_hash) in rows:
            if position != expected_position:
                return ChainReport(False, count, prev, expected_position,
                                   f"position {expected_position} is missing "
                                   f"(next stored is {position})", scope)
            if prev_hash != prev:
                return ChainReport(False, count, prev, position,
                                   "prev_hash does not match the previous event's hash", scope)
            recomputed = link_hash(
                prev_hash=prev_hash, position=position, event_id=str(event_id),
                stream_type=stream_type, stream_id=stream_id, version=version, type=type_,
                schema_version=schema_version, data_json=canonical_json(data),
                metadata_json=canonical_json(metadata), recorded_at=recorded_at)
            if recomputed != stored_hash:
                return ChainReport(False, count, prev, position,
                                   "hash does not match the event's contents", scope)
            prev, expected_position = stored_hash, position + 1
            if property is None or (isinstance(metadata, dict)
                                    and metadata.get("property") == property):
                count += 1
        if progress:
            progress(len(rows))
    return ChainReport(True, count, prev, scope=scope)
