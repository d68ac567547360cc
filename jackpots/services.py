"""The decisions on a jackpot fund (637a.15(f)-(h), 637a.16(g)): Bad Beat hits verified or
rejected by the poker shift supervisor and paid by finance or the cage, and the displayed
amount adjusted by finance in a floorperson's presence.

Every decision is an event in the fund's own stream (``jackpot_fund-<property>-<name>``),
appended at the version the fund's stream was read at, in the transaction that locks the
fund's row, so two decisions on one fund never cross (a stale one is a 409). The fund's
state is folded from its stream (:mod:`jackpots.domain.fund`); what was paid in comes from
the contributions follower, caught up first, so the amounts decided on are current.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore import projections
from casino.eventstore.store import NewEvent, Stream, append, read_stream
from casino.roles import Role
from casino.scoping import property_rows
from jackpots.domain.fund import HELD, PAID, REJECTED, VERIFIED, FundState, fold
from jackpots.domain.hits import payout_shares
from jackpots.models import BAD_BEAT, BadBeatHit, Fund
from jackpots.projections import FundsFollower

#: 637a.15(f): the poker shift supervisor verifies (or rejects) a Bad Beat hand
VERIFYING = (Role.POKER_SHIFT_SUPERVISOR,)
#: 637a.15(g): finance prepares the payout; it is paid at the table or the cage
PAYING = (Role.FINANCE, Role.CASHIER)
#: 637a.15(h)(1): a finance employee adjusts the display ...
ADJUSTING = (Role.FINANCE,)
#: ... in the presence of a floorperson or above, who witnesses it
WITNESSING = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
PLACES = ("table", "cage")


class FundError(DomainError):
    code = "invalid_fund_command"


class AtFund:
    """A fund of the actor's property, its row locked, its stream read and folded."""

    def __init__(self, actor: Actor, name: Any):
        if not isinstance(name, str):
            raise NotFoundError(f"no fund {name!r}", code="fund_not_found")
        self.actor = actor
        self.row = property_rows(Fund.objects.select_for_update(), actor).filter(
            name=name).first()
        if self.row is None:
            raise NotFoundError(f"no fund {name}", code="fund_not_found")
        self.events = read_stream(self.row.stream_id)
        self.state: FundState = fold((e.type, e.data, e.metadata) for e in self.events)

    @property
    def available_cents(self) -> int:
        return self.state.available_cents(self.row.contributions_cents)

    def record(self, type_: str, data: dict[str, Any], role: str) -> None:
        append(Stream("jackpot_fund", self.row.stream_id), len(self.events),
               [NewEvent(type_, data)], self.actor.metadata(role=role), savepoint=False)


def _caught_up() -> None:
    """The follower at the head: what was paid in, and the hits held, are current."""
    projections.catch_up(FundsFollower.name)


def _hit(at: AtFund, hand_id: Any) -> BadBeatHit:
    try:
        key = uuid.UUID(str(hand_id))
    except ValueError:
        raise NotFoundError(f"no Bad Beat hand {hand_id}", code="hit_not_found") from None
    hit = BadBeatHit.objects.filter(property_id=at.row.property_id, fund=at.row.name,
                                    hand_id=key).first()
    if hit is None:
        raise NotFoundError(f"no Bad Beat hand {hand_id} held for the {at.row.name} fund",
                            code="hit_not_found")
    return hit


def _decided(at: AtFund, hit: BadBeatHit) -> str:
    return at.state.hits.get(str(hit.hand_id), HELD)


_REFUSALS = {VERIFIED: ("hit_already_verified", "verified already"),
             REJECTED: ("hit_rejected", "rejected"), PAID: ("hit_already_paid", "paid")}


def _run(actor: Actor, fund: Any, decide: Any) -> Fund:
    _caught_up()
    with transaction.atomic():
        at = AtFund(actor, fund)
        decide(at)
    _caught_up()
    at.row.refresh_from_db()
    return at.row


def bad_beat_verify(*, actor: Actor, fund: Any, hand_id: Any) -> BadBeatHit:
    """637a.15(f): the poker shift supervisor verifies a hand held as a Bad Beat. The
    payout is fixed now: the fund's current amount, divided by the posted shares; the
    display shows the amount pending adjustment until finance adjusts it ((f)(1))."""
    role = actor.require(*VERIFYING)

    def decide(at: AtFund) -> None:
        hit = _hit(at, hand_id)
        state = _decided(at, hit)
        if state != HELD:
            code, word = _REFUSALS[state]
            raise ConflictError(f"that Bad Beat is {word}", code=code)
        if at.row.kind != BAD_BEAT:
            raise ConflictError(f"{at.row.name} is not a Bad Beat fund", code="not_bad_beat")
        amount = at.available_cents
        if amount <= 0:
            raise ConflictError(f"the {at.row.name} fund holds nothing to pay",
                                code="fund_empty")
        shares = payout_shares(amount, hit.payout_shares_bp, hit.losing_seat,
                               hit.winning_seat, hit.players_dealt)
        at.record("BadBeatVerified", {"hand_id": str(hit.hand_id),
                                      "table_id": str(hit.table_id),
                                      "amount_cents": amount, "shares": shares,
                                      "rule": "637a.15(f)"}, role)

    _run(actor, fund, decide)
    return BadBeatHit.objects.get(hand_id=uuid.UUID(str(hand_id)))


def bad_beat_reject(*, actor: Actor, fund: Any, hand_id: Any, reason: Any) -> BadBeatHit:
    """637a.15(f): the poker shift supervisor finds the hand does not qualify; why."""
    role = actor.require(*VERIFYING)
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 2000:
        raise FundError("the reason is text of 1 to 2000 characters", code="invalid_reason",
                        field="reason")

    def decide(at: AtFund) -> None:
        hit = _hit(at, hand_id)
        state = _decided(at, hit)
        if state != HELD:
            code, word = _REFUSALS[state]
            raise ConflictError(f"that Bad Beat is {word}", code=code)
        at.record("BadBeatRejected", {"hand_id": str(hit.hand_id), "reason": reason.strip()},
                  role)

    _run(actor, fund, decide)
    return BadBeatHit.objects.get(hand_id=uuid.UUID(str(hand_id)))


def _payees(value: Any, shares: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each player with a share, named and identified (637a.15(g): the payout recorded
    against the player's identification)."""
    if not isinstance(value, list):
        raise FundError("payees is a list of {seat, name, identification}",
                        code="invalid_payees", field="payees")
    by_seat: dict[int, dict[str, str]] = {}
    for i, p in enumerate(value):
        ok = (isinstance(p, dict) and isinstance(p.get("seat"), int)
              and not isinstance(p.get("seat"), bool)
              and all(isinstance(p.get(k), str) and 0 < len(p[k].strip()) <= 120
                      for k in ("name", "identification")))
        if not ok:
            raise FundError("each payee is {seat, name, identification} (text of 1 to 120 "
                            "characters)", code="identification_required",
                            field=f"payees[{i}]")
        by_seat[p["seat"]] = {"name": p["name"].strip(),
                              "identification": p["identification"].strip()}
    out = []
    for share in shares:
        if share["cents"] <= 0:
            continue
        who = by_seat.get(share["seat"])
        if who is None:
            raise FundError(f"seat {share['seat']} is owed {share['cents']} cents: name and "
                            "identify the player", code="identification_required",
                            field="payees")
        out.append({**share, **who})
    extra = set(by_seat) - {s["seat"] for s in shares}
    if extra:
        raise FundError(f"seat(s) {sorted(extra)} have no share of this payout",
                        code="invalid_payees", field="payees")
    return out


def bad_beat_pay(*, actor: Actor, fund: Any, hand_id: Any, payees: Any,
                 where: Any = "table") -> BadBeatHit:
    """637a.15(f)(2), (g): the verified payout paid (brought to the table, or at the
    cage), each share recorded against the player's identification; the fund goes down
    by what was paid. Not by the person who verified it."""
    role = actor.require(*PAYING)
    if where not in PLACES:
        raise FundError("where is table or cage", code="invalid_place", field="where")

    def decide(at: AtFund) -> None:
        hit = _hit(at, hand_id)
        state = _decided(at, hit)
        key = str(hit.hand_id)
        if state == HELD:
            raise ConflictError("the poker shift supervisor has not verified that Bad Beat",
                                code="hit_not_verified")
        if state != VERIFIED:
            code, word = _REFUSALS[state]
            raise ConflictError(f"that Bad Beat is {word}", code=code)
        if at.state.verified_by.get(key) == actor.username:
            raise ConflictError("the person who verified a Bad Beat does not pay it",
                                code="same_person")
        owed = at.state.verified[key]
        paid = _payees(payees, owed["shares"])
        held = at.row.contributions_cents - at.state.paid_cents
        if owed["amount_cents"] > held:
            raise ConflictError(f"the payout of {owed['amount_cents']} cents is more than the "
                                f"fund holds ({held})", code="payout_exceeds_fund")
        at.record("BadBeatPaid", {"hand_id": key, "amount_cents": owed["amount_cents"],
                                  "payees": paid, "where": where, "rule": "637a.15(g)"},
                  role)

    _run(actor, fund, decide)
    return BadBeatHit.objects.get(hand_id=uuid.UUID(str(hand_id)))


def display_adjust(*, actor: Actor, fund: Any) -> Fund:
    """637a.15(h)(1), 637a.16(g): finance begins adjusting the displayed amount to the
    fund's current amount (the official record); it shows once a floorperson witnesses
    it (:func:`display_witness`)."""
    role = actor.require(*ADJUSTING)

    def decide(at: AtFund) -> None:
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
