"""Counting the payout boxes (637a.15(d)-(e), 637a.16(d)-(e), (g)): the count opened (by the
beat task when it falls due, with the compliance notice for a Bad Beat count, or by
hand), the chain of custody step by step, each by its own role and person, the cashier's
count or verification at the cage, and a variance from what the boxes should hold
recorded, explained by finance and signed off by a second person.

At a closed table ((d)(1)): the dealer counts each box, a floorperson who watched signs,
security carries the locked container to the cage, a cashier verifies the aggregate. In
the cage ((d)(2)): a floorperson accounts for every locked box, security carries them, a
cashier counts each box. Nobody signs two steps of one count.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from casino.actors import Actor
from casino.domain.errors import ConflictError, NotFoundError
from casino.domain.money import format_money, said_amount
from casino.roles import Role
from jackpots.models import BAD_BEAT, HIGH_HAND, Fund, PayoutBox
from jackpots.services.common import (
    AtFund,
    FundError,
    _caught_up,
    _run,
    _text,
    fund_state,
    system_decision,
)

TABLE, CAGE = "table", "cage"
#: why a count was opened: a Bad Beat fund's gaming day (its key a date, 637a.15(d)), a
#: High Hand period's end (its key the period, 637a.16(d)) or by hand (no key)
DAILY, PERIOD_END, MANUAL = "daily", "period_end", "manual"
OPENING = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.FINANCE)
#: (d)(1): a dealer counts at a closed table, a floorperson or above witnesses
DEALER_COUNTS = (Role.DEALER,)
WITNESSES = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: (d)(1)-(2): a security employee carries the boxes or the container to the cage
CARRIERS = (Role.SECURITY,)
#: (e): a cashier counts each box at the cage, or verifies the aggregate
CASHIERS = (Role.CASHIER,)
EXPLAINING = (Role.FINANCE,)
SIGNING_OFF = (Role.FINANCE, Role.COMPLIANCE)


def _count(at: AtFund, count_id: Any) -> dict[str, Any]:
    count = at.state.counts.get(str(count_id))
    if count is None:
        raise NotFoundError(f"no count {count_id} of the {at.row.name} fund",
                            code="count_not_found")
    return count


def _sign(count: dict[str, Any], actor: Actor, step: str) -> None:
    """Nobody signs two steps of one count (the dealer who counted does not witness,
    the witness does not carry, ...)."""
    done = count["signers"].get(actor.username)
    if done is not None and done != step:
        raise ConflictError(f"{actor.username} signed this count already ({done})",
                            code="signed_already")


def _in_state(count: dict[str, Any], *states: str, doing: str) -> None:
    if count["state"] not in states:
        raise ConflictError(f"the count is {count['state']}: it cannot be {doing} now",
                            code="count_out_of_order")


def _opened(at: AtFund, place: str, reason: str, key: str | None, role: str,
            now: datetime | None = None) -> str:
    if key is not None and any(c["key"] == key for c in at.state.counts.values()):
        raise ConflictError(f"the count for {key} is open already", code="count_open_already")
    boxes = list(PayoutBox.objects.filter(property_id=at.row.property_id, fund=at.row.name))
    if not boxes:
        raise ConflictError(f"the {at.row.name} fund has no payout box", code="no_boxes")
    count_id = str(uuid.uuid4())
    data: dict[str, Any] = {
        "count_id": count_id, "place": place, "reason": reason, "key": key,
        "opened_at": (now or timezone.now()).isoformat(),
        "boxes": [{"table_id": str(b.table_id), "expected_cents": b.expected_cents}
                  for b in boxes],
        "rule": "637a.15(d)" if at.row.kind == BAD_BEAT else "637a.16(d)"}
    if at.row.kind == BAD_BEAT:
        # 637a.15(d): counted upon notice to a casino compliance representative
        data["compliance_notice"] = {"notified_at": data["opened_at"]}
    at.record("CountOpened", data, role)
    return count_id


def count_open(*, actor: Actor, fund: Any, place: Any = CAGE) -> dict[str, Any]:
    """Open a count of the fund's payout boxes by hand (the beat task opens the counts
    that fall due)."""
    role = actor.require(*OPENING)
    if place not in (TABLE, CAGE):
        raise FundError("place is table or cage", code="invalid_place", field="place")
    out: dict[str, Any] = {}
    _run(actor, fund, lambda at: out.update(count_id=_opened(at, place, MANUAL, None, role)))
    return out


def count_box(*, actor: Actor, fund: Any, count_id: Any, table_id: Any, counted_cents: Any
              ) -> dict[str, Any]:
    """What one box held: counted by the dealer at a closed table ((d)(1)) or by a
    cashier at the cage ((e))."""
    if not isinstance(counted_cents, int) or isinstance(counted_cents, bool) \
            or counted_cents < 0:
        raise FundError("counted_cents is a whole, non-negative number of cents",
                        code="invalid_count", field="counted_cents")
    out: dict[str, Any] = {}

    def decide(at: AtFund) -> None:
        count = _count(at, count_id)
        if count["place"] == TABLE:
            role = actor.require(*DEALER_COUNTS)
            _in_state(count, "open", doing="counted")
        else:
            role = actor.require(*CASHIERS)
            _in_state(count, "at_cage", doing="counted")
        box = count["boxes"].get(str(table_id))
        if box is None:
            raise NotFoundError(f"no box of table {table_id} in this count",
                                code="box_not_in_count", field="table_id")
        if box["counted_cents"] is not None:
            raise ConflictError("that box is counted already", code="box_counted")
        _sign(count, actor, "count")
        at.record("BoxCounted", {"count_id": str(count_id), "table_id": str(table_id),
                                 "counted_cents": counted_cents,
                                 "credential_number": actor.credential_number}, role)
        out.update(count_id=str(count_id), table_id=str(table_id), counted_cents=counted_cents)

    _run(actor, fund, decide)
    return out


def _step(actor: Actor, fund: Any, count_id: Any, roles: tuple[Role, ...], event: str,
          check: Any, data: dict[str, Any] | None = None) -> dict[str, Any]:
    role = actor.require(*roles)
    out: dict[str, Any] = {}

    def decide(at: AtFund) -> None:
        count = _count(at, count_id)
        extra = check(at, count) or {}
        # the cashier who counted each box at the cage signs its total as the same step
        _sign(count, actor, "count" if event == "CountVerified" and count["place"] == CAGE
              else event)
        payload = {"count_id": str(count_id), **(data or {}), **extra,
                   "credential_number": actor.credential_number}
        at.record(event, payload, role)
        out.update(payload)

    _run(actor, fund, decide)
    return out


def _all_counted(count: dict[str, Any]) -> None:
    missing = [t for t, b in count["boxes"].items() if b["counted_cents"] is None]
    if missing:
        raise ConflictError(f"{len(missing)} box(es) not counted yet", code="boxes_not_counted")


def count_witness(*, actor: Actor, fund: Any, count_id: Any) -> dict[str, Any]:
    """637a.15(d)(1), 637a.16(d)(1): the floorperson who watched the dealer count at the
    closed table signs the count's documentation."""
    def check(at: AtFund, count: dict[str, Any]) -> None:
        if count["place"] != TABLE:
            raise ConflictError("a cage count is accounted for, not witnessed",
                                code="count_out_of_order")
        _in_state(count, "open", doing="witnessed")
        _all_counted(count)
    return _step(actor, fund, count_id, WITNESSES, "CountWitnessed", check)


def count_account(*, actor: Actor, fund: Any, count_id: Any) -> dict[str, Any]:
    """637a.15(d)(2), 637a.16(d)(2): a floorperson accounts for every locked box going
    to the cage."""
    def check(at: AtFund, count: dict[str, Any]) -> None:
        if count["place"] != CAGE:
            raise ConflictError("a table count is witnessed, not accounted for",
                                code="count_out_of_order")
        _in_state(count, "open", doing="accounted for")
    return _step(actor, fund, count_id, WITNESSES, "BoxesAccountedFor", check)


def count_carry(*, actor: Actor, fund: Any, count_id: Any) -> dict[str, Any]:
    """637a.15(d)(1)-(2): a security employee carries the locked container (or boxes)
    to the cage."""
    def check(at: AtFund, count: dict[str, Any]) -> None:
        _in_state(count, "witnessed" if count["place"] == TABLE else "accounted",
                  doing="carried")
    return _step(actor, fund, count_id, CARRIERS, "CountCarriedToCage", check)


def count_verify(*, actor: Actor, fund: Any, count_id: Any, counted_cents: Any
                 ) -> dict[str, Any]:
    """637a.15(e), 637a.16(e): at the cage a cashier verifies the aggregate of a table
    count, or closes the cage count of each box; either way ``counted_cents`` is the
    total in hand. A total that differs from what the boxes should hold is a variance:
    recorded, to be explained and signed off, never absorbed."""
    if not isinstance(counted_cents, int) or isinstance(counted_cents, bool) \
            or counted_cents < 0:
        raise FundError("counted_cents is a whole, non-negative number of cents",
                        code="invalid_count", field="counted_cents")

    def check(at: AtFund, count: dict[str, Any]) -> dict[str, Any]:
        _in_state(count, "at_cage", doing="verified")
        _all_counted(count)
        boxes_total = sum(b["counted_cents"] for b in count["boxes"].values())
        if counted_cents != boxes_total:
            raise ConflictError(f"the total in hand, {said_amount(counted_cents)}, is not the "
                                f"boxes' count of {format_money(boxes_total)}",
                                code="aggregate_differs")
        expected = sum(b["expected_cents"] for b in count["boxes"].values())
        return {"counted_cents": counted_cents, "expected_cents": expected,
                "variance_cents": counted_cents - expected,
                "boxes": [{"table_id": t, **b} for t, b in count["boxes"].items()]}

    return _step(actor, fund, count_id, CASHIERS, "CountVerified", check)


def variance_explain(*, actor: Actor, fund: Any, count_id: Any, explanation: Any
                     ) -> dict[str, Any]:
    """A count's variance explained by finance (the finance department keeps the
    official record, 637a.15(e), 637a.16(e))."""
    text = _text(explanation, "explanation", 2000, code="invalid_explanation")

    def check(at: AtFund, count: dict[str, Any]) -> None:
        _in_state(count, "verified", doing="explained")
    return _step(actor, fund, count_id, EXPLAINING, "CountVarianceExplained", check,
                 {"explanation": text})


def variance_sign_off(*, actor: Actor, fund: Any, count_id: Any) -> dict[str, Any]:
    """A second person (finance or compliance) signs off the explained variance."""
    def check(at: AtFund, count: dict[str, Any]) -> None:
        _in_state(count, "explained", doing="signed off")
        if count.get("explained_by") == actor.username:
            raise ConflictError("the person who explained a variance does not sign it off",
                                code="same_person")
    return _step(actor, fund, count_id, SIGNING_OFF, "CountVarianceSignedOff", check)


# --- the beat task ---------------------------------------------------------------------------

def counts_due(now: datetime | None = None) -> dict[str, int]:
    """Every count that falls due, opened once: each Bad Beat fund's count of the gaming
    day (637a.15(d)) and each High Hand fund's count at the end of each period closed
    (637a.16(d), (g)); and every open count reminded, then escalated after the posted
    limits. Safe to run twice (a count's key opens it once; a reminder is due by its
    number)."""
    from casino.actors import system_actor

    now = now or timezone.now()
    remind = timedelta(minutes=settings.JACKPOT_COUNT_REMIND_MINUTES)
    escalate = timedelta(minutes=settings.JACKPOT_COUNT_ESCALATE_MINUTES)
    done = {"opened": 0, "reminded": 0, "escalated": 0}
    _caught_up()
    for row in Fund.objects.select_related("property"):
        state = fund_state(row)
        actor = system_actor(row.property, "jackpot-counts")
        keys = {c["key"] for c in state.counts.values()}
        if row.kind == BAD_BEAT:
            due = [actor.gaming_day(now).isoformat()]
        elif row.kind == HIGH_HAND:
            due = sorted(p for p in state.closed if p not in keys)
        else:
            due = []
        for key in due:
            if key in keys:
                continue
            done["opened"] += system_decision(actor, row.name, lambda at, k=key: _opened(
                at, CAGE, DAILY if row.kind == BAD_BEAT else PERIOD_END, k, "system",
                now))
        for count_id, c in state.counts.items():
            if c["state"] == "closed" or not c.get("opened_at"):
                continue
            age = now - datetime.fromisoformat(c["opened_at"])
            if age >= escalate and not c["escalated"]:
                done["escalated"] += system_decision(actor, row.name, lambda at, i=count_id: at.record(
                    "CountEscalated", {"count_id": i, "open_minutes": int(age / timedelta(
                        minutes=1))}, "system"))
            elif age >= remind * (c["reminded"] + 1):
                done["reminded"] += system_decision(actor, row.name, lambda at, i=count_id, n=c[
                    "reminded"]: _remind(at, i, n))
    if any(done.values()):
        _caught_up()
    return done


def _remind(at: AtFund, count_id: str, seen: int) -> None:
    if at.state.counts[count_id]["reminded"] != seen:
        raise ConflictError("reminded meanwhile", code="reminded")
    at.record("CountReminded", {"count_id": count_id, "reminder": seen + 1}, "system")
