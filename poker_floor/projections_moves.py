"""The inline projection of the moves' events in the list streams (``waitlist-<id>``):
a must-move game's main table and feeders on the list's row, and the row's stream version
for every move event (``PlayerMoved``, ``TableOpenedByLot``, ``TableBrokenByLot``: their
players' seats are the poker tables' own projection, their calls and entries the list
events recorded with them).

A second projection of the list's row beside :mod:`poker_floor.projections` (which makes
the row); its name sorts after that one's, so ``rebuild_projections`` replays it after the
rows exist. The version is only ever raised, so rebuilding this projection alone leaves
the row at the stream's head.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, Value
from django.db.models.functions import Greatest

from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent
from poker_floor.models import Waitlist

MOVE_EVENTS = frozenset({"MustMoveSet", "MustMoveCleared", "PlayerMoved", "TableOpenedByLot",
                         "TableBrokenByLot"})


def _fields(e: RecordedEvent) -> dict[str, Any]:
    if e.type == "MustMoveSet":
        return {"main_table": e.data["main_table"], "feeders": list(e.data["feeders"])}
    if e.type == "MustMoveCleared":
        return {"main_table": None, "feeders": []}
    return {}


@register
class WaitlistMovesProjection(Projection):
    """Must-move tables on the list's row; the row's version for every move event."""

    name = "waitlists_moves"
    event_types = MOVE_EVENTS

    def handles(self, event: RecordedEvent) -> bool:
        return event.stream_type == "waitlist" and event.type in MOVE_EVENTS

    def apply(self, event: RecordedEvent) -> None:
        Waitlist.objects.filter(pk=event.stream_id.split("-", 1)[1]).update(
            stream_version=Greatest(F("stream_version"), Value(event.version)),
            **_fields(event))

    def reset(self) -> None:
        Waitlist.objects.update(main_table=None, feeders=[])
