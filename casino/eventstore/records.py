"""What the event store holds and knows: streams, events as given and as recorded, the
registered stream types and the upcasters of old payloads (DESIGN §3). No database work:
the store (:mod:`casino.eventstore.store`) appends, :mod:`casino.eventstore.reading`
reads."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

_NAME = re.compile(r"^[a-z][a-z0-9_.-]{0,63}$")

_stream_types: set[str] = set()
_upcasters: dict[tuple[str, int], Callable[[dict], dict]] = {}


class Stream(NamedTuple):
    type: str
    id: str


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    schema_version: int = 1


@dataclass(frozen=True)
class RecordedEvent:
    position: int
    event_id: uuid.UUID
    stream_type: str
    stream_id: str
    version: int
    type: str
    schema_version: int
    data: dict
    metadata: dict
    recorded_at: datetime
    prev_hash: str
    hash: str


# --- registries ---------------------------------------------------------------------

def register_stream_type(name: str) -> str:
    """Declare a stream type (``deck``, ``round`` …); appends to any other are refused."""
    if not _NAME.match(name):
        raise ValueError(f"stream type {name!r} must be lower-case letters, digits, _ . -")
    _stream_types.add(name)
    return name


def stream_types() -> frozenset[str]:
    return frozenset(_stream_types)


def upcaster(event_type: str, from_version: int) -> Callable:
    """Register a function turning ``event_type`` data of ``from_version`` into the next.

    Stored payloads are never rewritten; readers see the newest shape.
    """

    def register(fn: Callable[[dict], dict]) -> Callable[[dict], dict]:
        _upcasters[(event_type, from_version)] = fn
        return fn

    return register


def upcast(event_type: str, schema_version: int, data: dict) -> tuple[int, dict]:
    while (fn := _upcasters.get((event_type, schema_version))) is not None:
        data = fn(dict(data))
        schema_version += 1
    return schema_version, data
