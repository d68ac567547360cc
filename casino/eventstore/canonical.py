"""Canonical JSON and the SHA-256 chain link (DESIGN §3).

The hash of an event covers every stored field except ``hash`` itself, including its
``position`` and the previous event's hash, so that changing, removing or reordering any
row breaks the chain from that row on.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text, non-finite numbers refused."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def timestamp_text(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def link_hash(*, prev_hash: str, position: int, event_id: str, stream_type: str,
              stream_id: str, version: int, type: str, schema_version: int,
              data_json: str, metadata_json: str, recorded_at: datetime) -> str:
    # data and metadata enter as their canonical text, so the body is built by plain
    # concatenation rather than a second canonical_json pass over the whole payload.
    head = canonical_json([position, event_id, stream_type, stream_id, version, type,
                           schema_version, timestamp_text(recorded_at)])
    body = f"{prev_hash}\n{head}\n{data_json}\n{metadata_json}"
    return hashlib.sha256(body.encode("utf-8")).hexdigest()
