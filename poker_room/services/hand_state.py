"""A poker hand's state as the round's row keeps it: the snapshot (the hand's engine
events, rebuilt by the engine's replay), the hand this process last decided on, and the
reads the seating commands need (who is in the hand, who has folded)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from casino.eventstore.store import RecordedEvent
from poker_room.domain.hand import Hand
from tables.models import Round

#: the events a hand's stream holds besides the engine's own
ROUND_EVENTS = frozenset({"RoundOpened", "RoundClosed", "JackpotContributed", "FloorRuling",
                          "BadBeatQualified"})


def engine_events(recorded: Sequence[RecordedEvent]) -> list[dict[str, Any]]:
    return [{"type": e.type, "data": e.data} for e in recorded if e.type not in ROUND_EVENTS]


def _rebuild(recorded: list[RecordedEvent]) -> Hand | None:
    events = engine_events(recorded)
    return Hand.from_events(events) if events else None


SNAPSHOT_SCHEMA = "poker-hand-1"


def _to_snapshot(hand: Hand | None) -> dict[str, Any]:
    """A hand's snapshot is its engine events: rebuilding from them is the engine's
    replay, with no read of the stream."""
    return {"schema": SNAPSHOT_SCHEMA, "events": [] if hand is None else hand.events}


#: hands this process last decided on, by hand id: a terminal's next command finds its
#: hand here instead of replaying it, when the snapshot is still the one this process
#: wrote (same events; another writer, or a command that did not commit, means a replay)
_LIVE: dict[str, Hand] = {}
_LIVE_LIMIT = 64


def _from_snapshot(snapshot: dict[str, Any]) -> Hand | None:
    if not isinstance(snapshot, dict) or snapshot.get("schema") != SNAPSHOT_SCHEMA:
        return None
    events = snapshot.get("events")
    if not events:
        return None
    key = events[0]["data"].get("hand_id")
    live = _LIVE.get(key) if key else None
    if live is not None and len(live.events) == len(events) and live.events[-1] == events[-1]:
        return live
    hand = Hand.from_events(events)
    if key:
        if len(_LIVE) >= _LIVE_LIMIT:
            _LIVE.clear()
        _LIVE[key] = hand
    return hand


def seats_in_hand(round_id: Any) -> list[int]:
    """The seats dealt into a hand (the table's seating commands ask)."""
    rnd = Round.objects.only("snapshot").get(pk=round_id)
    events = (rnd.snapshot or {}).get("events") or []
    return [s for s, _ in events[0]["data"]["seats"]] if events else []


def seat_in_play(round_id: Any, seat: int) -> tuple[bool, int | None]:
    """Whether ``seat`` still contends in the hand (has not folded), and its table stakes
    as they stand in the hand (None: not dealt in)."""
    rnd = Round.objects.only("snapshot").get(pk=round_id)
    hand = _from_snapshot(rnd.snapshot or {})
    if hand is None or seat not in hand.seats:
        return False, None
    live = bool(hand.snapshot()["live"][hand.seats.index(seat)]) and not hand.is_complete
    return live, hand.stacks[seat]
