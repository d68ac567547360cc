"""A fund's state folded from its stream (``jackpot_fund-<property>-<name>``): the Bad
Beat hits decided on it, what was paid, the displayed amount and its adjustment in
progress (637a.15(b), (f)-(h), 637a.16(b))."""

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
    #: 637a.15(f)(1) (and the room's rule for 637a.16(b)): a payout fixed and the display
    #: not yet adjusted since
    #: (:func:`leaves_display_pending`)
    display_pending: bool = False
    #: High Hand period key -> the slips recorded in it, in order (637a.16(f))
    slips: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: High Hand period key -> its close: the award per winner, or rolled over
    closed: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: (period key, slip number) of High Hand awards paid
    awards_paid: set[tuple[str, int]] = field(default_factory=set)
    #: (period key, slip number) of awards not collected in time (637a.16(i))
    awards_uncollected: set[tuple[str, int]] = field(default_factory=set)
    high_hand_owed_cents: int = 0
    #: count id -> the count's record (637a.15(d)-(e), 637a.16(d)-(e)): where, the boxes
    #: with what each should hold and what was counted, who did each step, its state
    counts: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: 637a.15(i): a discontinuance proposed ({"by", "transfer_to"}), then done
    discontinuing: dict[str, Any] | None = None
    discontinued: bool = False
    #: the gaming days the display was adjusted on, and those checked (637a.15(h))
    adjustments: list[str] = field(default_factory=list)
    display_checks: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def committed_cents(self) -> int:
        """Verified Bad Beat payouts not yet paid: owed out of the fund already."""
        return sum(v["amount_cents"] for h, v in self.verified.items()
                   if self.hits.get(h) == VERIFIED) + self.high_hand_owed_cents

    def best_slip(self, period: str) -> dict[str, Any] | None:
        """The highest hand recorded in the period so far (the first of equals)."""
        slips = self.slips.get(period) or []
        return max(slips, key=lambda s: s["value"], default=None)

    def available_cents(self, contributions_cents: int) -> int:
        """The current payout amount (637a.15(h)(1)): what was paid in, less what was paid
        out and what verified hits are owed."""
        return contributions_cents - self.paid_cents - self.committed_cents


def leaves_display_pending(type_: str, data: Mapping[str, Any]) -> bool:
    """The amount displayed is the fund's current amount (637a.15(b), (h)(2); 637a.16(b)),
    and a verified Bad Beat leaves it pending adjustment (637a.15(f)(1)); the room applies
    the same to a High Hand award, which the chapter does not name. A payout from
    any fund takes its amount out of the record when it is fixed (owed out of the fund):
    a Bad Beat verified, a High Hand period closed with its awards. From then the display
    is pending adjustment until finance adjusts it, whether the payout has been paid yet
    or not. Paying it later changes the record no more (the amount was owed already), so
    a display adjusted in between stays right; a period closed without a winner pays
    nothing (637a.16(h): rolled over). The one rule, for the fold and the follower's
    rows alike."""
    if type_ == "HighHandPeriodClosed":
        return any(a.get("cents", 0) > 0 for a in data.get("awards") or ())
    return type_ == "BadBeatVerified"


def fold(events: Iterable[tuple[str, Mapping[str, Any], Mapping[str, Any]]]) -> FundState:
    """``(type, data, metadata)`` of the fund's events in order -> its state."""
    state = FundState()
    for type_, d, meta in events:
        if leaves_display_pending(type_, d):
            state.display_pending = True
        if type_ == "BadBeatVerified":
            state.hits[d["hand_id"]] = VERIFIED
            state.verified[d["hand_id"]] = {"amount_cents": d["amount_cents"],
                                            "shares": d["shares"]}
            state.verified_by[d["hand_id"]] = meta.get("actor", "")
        elif type_ == "BadBeatRejected":
            state.hits[d["hand_id"]] = REJECTED
        elif type_ == "BadBeatPaid":
            state.hits[d["hand_id"]] = PAID
            state.paid_cents += d["amount_cents"]
        elif type_ == "DisplayAdjustmentStarted":
            state.adjusting = {"amount_cents": d["amount_cents"], "by": meta.get("actor", "")}
        elif type_ == "HighHandRecorded":
            state.slips.setdefault(d["period"], []).append(dict(d))
        elif type_ == "HighHandPeriodClosed":
            state.closed[d["period"]] = dict(d)
            state.high_hand_owed_cents += sum(a["cents"] for a in d["awards"])
        elif type_ == "HighHandAwardUncollected":
            state.awards_uncollected.add((d["period"], d["slip"]))
            state.high_hand_owed_cents -= d["amount_cents"]
        elif type_ == "HighHandPaid":
            state.awards_paid.add((d["period"], d["slip"]))
            state.high_hand_owed_cents -= d["amount_cents"]
            state.paid_cents += d["amount_cents"]
        elif type_ == "FundDiscontinuanceProposed":
            state.discontinuing = {"by": meta.get("actor", ""), "transfer_to": d["transfer_to"]}
        elif type_ == "FundDiscontinued":
            state.discontinued = True
            state.discontinuing = None
        elif type_ in COUNT_EVENTS:
            _count(state, type_, d, meta)
        elif type_ == "DisplayChecked":
            state.display_checks[d["gaming_day"]] = dict(d)
        elif type_ == "DisplayedAmountAdjusted":
            state.adjustments.append(meta.get("gaming_day", ""))
            state.displayed_cents = d["amount_cents"]
            state.adjusting = None
            state.display_pending = False
    return state


#: a count's steps, in the order the chapter gives them (637a.15(d)-(e))
COUNT_EVENTS = frozenset({"CountOpened", "BoxCounted", "CountWitnessed", "BoxesAccountedFor",
                          "CountCarriedToCage", "CountVerified", "CountVarianceExplained",
                          "CountVarianceSignedOff", "CountReminded", "CountEscalated"})
#: the state a count is in after each step
_COUNT_STATE = {"CountOpened": "open", "CountWitnessed": "witnessed",
                "BoxesAccountedFor": "accounted", "CountCarriedToCage": "at_cage",
                "CountVerified": "verified", "CountVarianceExplained": "explained",
                "CountVarianceSignedOff": "closed"}


def _count(state: FundState, type_: str, d: Mapping[str, Any], meta: Mapping[str, Any]) -> None:
    if type_ == "CountOpened":
        state.counts[d["count_id"]] = {
            "place": d["place"], "reason": d["reason"], "key": d.get("key"),
            "boxes": {b["table_id"]: {"expected_cents": b["expected_cents"],
                                      "counted_cents": None} for b in d["boxes"]},
            "state": "open", "signers": {}, "reminded": 0, "escalated": False,
            "opened_at": d.get("opened_at")}
        return
    count = state.counts[d["count_id"]]
    who = meta.get("actor", "")
    if type_ == "BoxCounted":
        count["boxes"][d["table_id"]]["counted_cents"] = d["counted_cents"]
        count["signers"].setdefault(who, "count")
    elif type_ == "CountReminded":
        count["reminded"] += 1
    elif type_ == "CountEscalated":
        count["escalated"] = True
    else:
        kind = "count" if type_ == "CountVerified" and count["place"] == "cage" else type_
        count["signers"].setdefault(who, kind)
        if type_ == "CountVerified":
            count["variance_cents"] = d["variance_cents"]
            count["state"] = "closed" if d["variance_cents"] == 0 else "verified"
            return
        if type_ == "CountVarianceExplained":
            count["explained_by"] = who
        count["state"] = _COUNT_STATE[type_]
