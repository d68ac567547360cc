"""The displayed amount (637a.15(b), (h); 637a.16(b), (g)): finance adjusts it to the
official record in a floorperson's presence, the floorperson witnessing it."""

from __future__ import annotations

from typing import Any

from casino.actors import Actor
from casino.domain.errors import ConflictError
from jackpots.models import Fund
from jackpots.services.common import ADJUSTING, WITNESSING, AtFund, _run

def display_adjust(*, actor: Actor, fund: Any) -> Fund:
    """637a.15(h)(1), 637a.16(b): finance begins adjusting the displayed amount to the
    fund's current amount (the official record); it shows once a floorperson witnesses
    it (:func:`display_witness`)."""
    role = actor.require(*ADJUSTING)

    def decide(at: AtFund) -> None:
        at.active()
        if at.state.adjusting is not None:
            raise ConflictError("an adjustment already waits for its witness",
                                code="adjustment_waiting")
        at.record("DisplayAdjustmentStarted", {"amount_cents": at.available_cents,
                                               "rule": "637a.15(h)(1)"}, role)

    return _run(actor, fund, decide)


def display_witness(*, actor: Actor, fund: Any) -> Fund:
    """637a.15(h)(1)-(2): the floorperson in whose presence the display was adjusted
    signs for it, and the amount shown is the one finance began with. The official
    record at this moment is recorded beside it ((h)(2)): contributions go on coming in
    while the sign is changed, so the two may differ by what came in meanwhile."""
    role = actor.require(*WITNESSING)

    def decide(at: AtFund) -> None:
        waiting = at.state.adjusting
        if waiting is None:
            raise ConflictError("no adjustment of the display waits for a witness",
                                code="no_adjustment_waiting")
        if waiting["by"] == actor.username:
            raise ConflictError("the witness is another person than the finance employee",
                                code="same_person")
        at.record("DisplayedAmountAdjusted", {
            "amount_cents": waiting["amount_cents"], "record_cents": at.available_cents,
            "adjusted_by": waiting["by"], "witnessed_by": actor.username,
            "rule": "637a.15(h)"}, role)

    return _run(actor, fund, decide)
