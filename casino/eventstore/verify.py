"""Re-computation of the log's tamper evidence: the check behind ``manage.py verify_events``.

One walk over the events in position order checks three things (DESIGN §3):

* **each stream's chain**: versions 1, 2, 3 … with no gap, each event's ``prev_hash`` the
  hash of the stream's previous event (the genesis hash for version 1), and each hash
  re-computed from the event's contents;
* **the seals**: every seal chained to the one before, its own hash re-computed, and its
  Merkle root re-computed from the events between the previous seal and its last
  position (so an event removed from, or slipped into, a sealed block is caught even when
  it was a stream's newest);
* events of the ``legacy-chain`` seal (recorded before migration casino/0006) by the
  single global chain they were recorded under.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from casino.eventstore.canonical import GENESIS_HASH, canonical_json, link_hash
from casino.eventstore.seals import LEGACY_KIND, merkle_root, seal_hash


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    count: int
    #: the newest seal's hash (the genesis hash when nothing is sealed)
    head_hash: str
    first_bad_position: int | None = None
    reason: str = ""
    #: the licence number whose events ``count`` counts, or "all"
    scope: str = "all"
    streams: int = 0
    seals: int = 0
    unsealed: int = 0
    first_bad_seal: int | None = None


_FIELDS = ("position", "event_id", "stream_type", "stream_id", "version", "type",
           "schema_version", "data", "metadata", "recorded_at", "prev_hash", "hash")


def _events(batch: int) -> Iterator[tuple]:
    from casino.eventstore.models import Event

    after = 0
    while True:
        rows = list(Event.objects.filter(position__gt=after).order_by("position")
                    .values_list(*_FIELDS)[:batch])
        yield from rows
        if len(rows) < batch:
            return
        after = rows[-1][0]


class _Walk:
    """The state of the one pass: each stream's last version and hash, the seal being
    re-computed, and the first problems found."""

    def __init__(self, seals: list) -> None:
        self.streams: dict[str, tuple[int, str]] = {}
        self.seals = seals
        self.seal_index = 0
        self.leaves: list[str] = []
        self.prev_seal_hash = GENESIS_HASH
        self.legacy_prev = GENESIS_HASH
        self.bad_position: tuple[int, str] | None = None
        self.bad_seal: tuple[int, str] | None = None

    @property
    def seal(self):  # noqa: ANN201
        return self.seals[self.seal_index] if self.seal_index < len(self.seals) else None

    def position_problem(self, position: int, reason: str) -> None:
        if self.bad_position is None or position < self.bad_position[0]:
            self.bad_position = (position, reason)

    def seal_problem(self, seq: int, reason: str) -> None:
        if self.bad_seal is None:
            self.bad_seal = (seq, reason)

    def close_seals_before(self, position: int) -> None:
        """Finish every seal whose last position is below ``position``."""
        while self.seal is not None and self.seal.last_position < position:
            self.close_seal()

    def close_seal(self) -> None:
        s = self.seal
        if s.prev_seal_hash != self.prev_seal_hash:
            self.seal_problem(s.seq, "it does not link to the previous seal's hash")
        elif seal_hash(seq=s.seq, kind=s.kind, first_position=s.first_position,
                       last_position=s.last_position, event_count=s.event_count,
                       merkle_root=s.merkle_root, prev_seal_hash=s.prev_seal_hash,
                       sealed_at=s.sealed_at) != s.seal_hash:
            self.seal_problem(s.seq, "its hash does not match its contents")
        elif len(self.leaves) != s.event_count or merkle_root(self.leaves) != s.merkle_root:
            self.seal_problem(s.seq, f"the events up to position {s.last_position} are not "
                              f"the ones it sealed ({len(self.leaves)} events now, "
                              f"{s.event_count} sealed): one was removed, added or changed")
        self.prev_seal_hash = s.seal_hash
        self.leaves = []
        self.seal_index += 1


def _check_event(w: _Walk, row: tuple) -> None:
    (position, event_id, stream_type, stream_id, version, type_, schema_version, data,
     metadata, recorded_at, prev_hash, stored_hash) = row
    last_version, last_hash = w.streams.get(stream_id, (0, GENESIS_HASH))
    legacy = w.seal is not None and w.seal.kind == LEGACY_KIND
    if version != last_version + 1:
        w.position_problem(position, f"stream {stream_id} jumps from version {last_version} "
                           f"to {version}: an event is missing")
    expected_prev = w.legacy_prev if legacy else last_hash
    if prev_hash != expected_prev:
        w.position_problem(position, "prev_hash does not match the hash of the event before "
                           "it" + (" in the log" if legacy else f" in stream {stream_id}"))
    recomputed = link_hash(
        prev_hash=prev_hash, position=position, event_id=str(event_id),
        stream_type=stream_type, stream_id=stream_id, version=version, type=type_,
        schema_version=schema_version, data_json=canonical_json(data),
        metadata_json=canonical_json(metadata), recorded_at=recorded_at)
    if recomputed != stored_hash:
        w.position_problem(position, "hash does not match the event's contents")
    w.streams[stream_id] = (version, stored_hash)
    w.legacy_prev = stored_hash


def verify_chain(*, batch: int = 5000, property: str | None = None,
                 progress: Callable[[int], None] | None = None) -> ChainReport:
    """Walk every event and every seal; report the first bad position (the lowest) and
    the first bad seal.

    With ``property`` (a licence number) the walk is the same — the seals cover the
    whole log, so a removed or altered event of any property fails them for all — but
    ``count`` counts only that property's events, and a problem is reported by position
    and reason alone, never with another property's contents.
    """
    from casino.eventstore.models import EventSeal

    seals = list(EventSeal.objects.order_by("seq"))
    w = _Walk(seals)
    count, done = 0, 0
    for row in _events(batch):
        w.close_seals_before(row[0])
        _check_event(w, row)
        if w.seal is not None:
            w.leaves.append(row[11])
        if property is None or (isinstance(row[8], dict) and row[8].get("property") == property):
            count += 1
        done += 1
        if progress and done % batch == 0:
            progress(batch)
    sealed_to = seals[-1].last_position if seals else 0
    while w.seal is not None:
        w.close_seal()
    if progress and done % batch:
        progress(done % batch)
    unsealed = _unsealed_count(sealed_to)
    scope = property or "all"
    head = seals[-1].seal_hash if seals else GENESIS_HASH
    common = dict(scope=scope, streams=len(w.streams), seals=len(seals), unsealed=unsealed)
    if w.bad_position is not None or w.bad_seal is not None:
        pos, reason = w.bad_position or (None, "")
        seq, seal_reason = w.bad_seal or (None, "")
        if pos is not None and seq is not None:
            reason = f"{reason}; seal {seq}: {seal_reason}"
        return ChainReport(False, count, head, pos, reason or seal_reason,
                           first_bad_seal=seq, **common)
    return ChainReport(True, count, head, **common)


def _unsealed_count(sealed_to: int) -> int:
    from casino.eventstore.models import Event

    return Event.objects.filter(position__gt=sealed_to).count()
