"""Who moves from a must-move game (issue 24, item 3): when a seat opens at the main game,
the player who has been seated longest at its must-move (feeder) tables moves to it; the
floor may move another only with a reason, recorded with the order it passed over.

The chapter says nothing of must-move games: this is the room's posted procedure, and the
order is kept so that who moved, and who was passed over, can be shown afterwards.

Plain Python: the caller reads the feeder tables' seats and hands them in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from casino.domain.errors import ConflictError, DomainError


@dataclass(frozen=True)
class FeederSeat:
    """A player seated at a feeder table: the table's id (text), the seat, and when the
    player sat down there."""

    table: str
    seat: int
    seated_at: datetime

    def recorded(self) -> dict[str, Any]:
        """As PlayerMoved.order records it."""
        return {"table": self.table, "seat": self.seat,
                "seated_at": self.seated_at.isoformat()}


def moving_order(seats: Iterable[FeederSeat]) -> list[FeederSeat]:
    """The feeder tables' players in the order they move: seated longest first. Two
    players seated at the very same instant go by table id, then seat number (a fixed
    order, so the same seats always give the same order)."""
    return sorted(seats, key=lambda s: (s.seated_at, s.table, s.seat))


@dataclass(frozen=True)
class Choice:
    """The player who moves, the order they were chosen from, and the floor's reason
    ("" when the first in order moves)."""

    moving: FeederSeat
    order: tuple[FeederSeat, ...]
    reason: str


def choose(order: Sequence[FeederSeat], *, table: str | None = None, seat: int | None = None,
           reason: str | None = None) -> Choice:
    """The player who moves: the first in ``order`` unless the floor names another
    (``table`` and ``seat``), which needs a reason (``reason_required``). Nobody at the
    feeders: ``must_move_nobody``; a named seat not among them: ``not_at_feeder``."""
    if not order:
        raise ConflictError("nobody is seated at the must-move tables",
                            code="must_move_nobody")
    words = (reason or "").strip() if isinstance(reason, str) or reason is None else None
    if words is None or len(words) > 2000:
        raise DomainError("the reason is text of at most 2000 characters",
                          code="invalid_reason", field="reason")
    if table is None and seat is None:
        return Choice(order[0], tuple(order), words)
    if table is None or seat is None:
        raise DomainError("name both the table and the seat of the player who moves",
                          code="not_at_feeder", field="from_seat" if seat is None
                          else "from_table_id")
    named = next((s for s in order if s.table == str(table) and s.seat == seat), None)
    if named is None:
        raise DomainError(f"nobody is seated at seat {seat} of a must-move table of this game",
                          code="not_at_feeder", field="from_seat")
    if named != order[0] and not words:
        raise DomainError("another player has been seated longer at the must-move tables: "
                          "say why this one moves first", code="reason_required",
                          field="reason")
    return Choice(named, tuple(order), words)
