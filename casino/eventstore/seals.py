"""Seals over the whole log (DESIGN §3): what ties every stream's chain into one record.

Each stream is chained by version inside the append. What no single append can show is
the log as a whole: that no stream's newest events were removed and no event was slipped
in. A seal does, as certificate transparency's signed tree heads do: the settled events
after the last seal, up to :data:`BLOCK` of them, in position order, get one Merkle root
over their hashes, and the seal's own hash covers that root and the previous seal's hash.
Seals are written by the beat task ``casino.events_seal``, before every digest (so a
digest vouches for a seal) and on demand (``manage.py seal_events``); their table is
append-only like the events'.

Merkle tree: leaves ``sha256(0x00 || hash)``, nodes ``sha256(0x01 || left || right)``, an
odd node carried up unchanged (RFC 6962's domain separation, so a leaf cannot pose as a
node).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from casino.eventstore.canonical import GENESIS_HASH, timestamp_text
from casino.eventstore.store import settled

#: Events in one seal at most; a backlog is sealed in several blocks.
BLOCK = 10_000
BLOCK_KIND, LEGACY_KIND = "block", "legacy-chain"
#: Advisory lock that keeps two sealers from sealing the same block ("CASSEALS").
SEAL_LOCK_KEY = 0x4341535345414C53


def merkle_root(hashes: Iterable[str]) -> str:
    """The Merkle root over event hashes (hex) in the order given; the genesis hash for
    none."""
    level = [hashlib.sha256(b"\x00" + bytes.fromhex(h)).digest() for h in hashes]
    if not level:
        return GENESIS_HASH
    while len(level) > 1:
        nxt = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest()
               for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0].hex()


def seal_hash(*, seq: int, kind: str, first_position: int, last_position: int,
              event_count: int, merkle_root: str, prev_seal_hash: str,
              sealed_at: datetime) -> str:
    """The hash a seal carries: over every other field of it, the previous seal's hash
    included (as migration casino/0006 computes the legacy seal's)."""
    text = (f"{seq}\n{kind}\n{first_position}\n{last_position}\n{event_count}\n"
            f"{merkle_root}\n{prev_seal_hash}\n{timestamp_text(sealed_at)}")
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class SealHead:
    """The newest seal: the last position it covers, its hash and when that event was
    recorded (what a digest signs). ``seq`` 0 when nothing is sealed."""

    seq: int
    last_position: int
    seal_hash: str
    last_recorded_at: datetime | None


def seal_head() -> SealHead:
    from casino.eventstore.models import Event, EventSeal

    seal = EventSeal.objects.order_by("-seq").first()
    if seal is None:
        return SealHead(0, 0, GENESIS_HASH, None)
    recorded = (Event.objects.filter(position=seal.last_position)
                .values_list("recorded_at", flat=True).first())
    return SealHead(seal.seq, seal.last_position, seal.seal_hash, recorded)


def seal_now(*, block: int = BLOCK) -> list[int]:
    """Seal every settled event after the newest seal, ``block`` at a time; return the
    new seals' numbers (none when nothing is waiting). Safe to run twice or at once in
    two places: sealers take turns and each seals only what the last one left."""
    from casino.eventstore.models import Event, EventSeal

    made: list[int] = []
    while True:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cur:
                    cur.execute("SELECT pg_advisory_xact_lock(%s)", [SEAL_LOCK_KEY])
            last = EventSeal.objects.order_by("-seq").first()
            after = last.last_position if last else 0
            rows = list(settled(Event.objects.filter(position__gt=after), strict=True)
                        .order_by("position").values_list("position", "hash")[:block])
            if not rows:
                return made
            seq = (last.seq + 1) if last else 1
            prev = last.seal_hash if last else GENESIS_HASH
            root = merkle_root(h for _, h in rows)
            now = timezone.now()
            fields = dict(seq=seq, kind=BLOCK_KIND, first_position=rows[0][0],
                          last_position=rows[-1][0], event_count=len(rows),
                          merkle_root=root, prev_seal_hash=prev, sealed_at=now)
            EventSeal.objects.create(**fields, seal_hash=seal_hash(**fields))
            made.append(seq)
        if len(rows) < block:
            return made
