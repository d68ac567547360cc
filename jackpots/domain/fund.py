"""A fund's state folded from its stream (``jackpot_fund-<property>-<name>``): the Bad
Beat hits decided on it, what was paid, the displayed amount and its adjustment in
progress (637a.15(f)-(h), 637a.16(g))."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

HELD, VERIFIED, REJECTED, PAID = "held", "verified", "rejected", "paid"


@dataclass
class FundState:
    #: hand id -> the hit's state after its verification (a hit held for verification
    #: has no event on the fund yet)
    hits: dict[str, str] = field(default_factory=dict)
    #: hand id -> the payout fixed at verification: amount and shares
    verified: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: hand id -> who verified it
    verified_by: dict[str, str] = field(default_factory=dict)
    paid_cents: int = 0
    displayed_cents: int | None = None
    #: an adjustment begun by finance, waiting for its witness: {"amount_cents", "by"}
    adjusting: dict[str, Any] | None = None
    #: 637a.15(f)(1): a Bad Beat verified and the display not yet adjusted
    display_pending: bool = False

    @property
    def committed_cents(self) -> int:
        """Verified Bad Beat payouts not yet paid: owed out of the fund already."""
        return sum(v["amount_cents"] for h, v in self.verified.items()
                   if self.hits.get(h) == VERIFIED)

    def available_cents(self, contributions_cents: int) -> int:
        """The current payout amount (637a.15(h)(1)): what was paid in, less what was paid
        out and what verified hits are owed."""
        return contributions_cents - self.paid_cents - self.committed_cents


def fold(events: Iterable[tuple[str, Mapping[str, Any], Mapping[str, Any]]]) -> FundState:
    """``(type, data, metadata)`` of the fund's events in order -> its state."""
    state = FundState()
    for type_, d, meta in events:
        if type_ == "BadBeatVerified":
            state.hits[d["hand_id"]] = VERIFIED
            state.verified[d["hand_id"]] = {"amount_cents": d["amount_cents"],
                                            "shares": d["shares"]}
            state.verified_by[d["hand_id"]] = meta.get("actor", "")
            state.display_pending = True
        elif type_ == "BadBeatRejected":
            state.hits[d["hand_id"]] = REJECTED
        elif type_ == "BadBeatPaid":
            state.hits[d["hand_id"]] = PAID
            state.paid_cents += d["amount_cents"]
        elif type_ == "DisplayAdjustmentStarted":
            state.adjusting = {"amount_cents": d["amount_cents"], "by": meta.get("actor", "")}
        elif type_ == "DisplayedAmountAdjusted":
            state.displayed_cents = d["amount_cents"]
            state.adjusting = None
            state.display_pending = False
    return state
