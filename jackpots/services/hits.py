"""Bad Beat hits (637a.15(f)-(g)): verified or rejected by the poker shift supervisor, paid
by finance or the cage against each player's identification."""

from __future__ import annotations

import uuid
from typing import Any

from casino.actors import Actor
from casino.domain.errors import ConflictError, NotFoundError
from casino.domain.money import format_money
from casino.personal_data import key_create, retention_end, seal
from jackpots.domain.fund import HELD, PAID, REJECTED, VERIFIED
from jackpots.domain.hits import payout_shares
from jackpots.models import BAD_BEAT, PAYOUT_PERSONAL_DATA, BadBeatHit
from jackpots.services.common import PAYING, PLACES, VERIFYING, AtFund, FundError, _run


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


def bad_beat_verify(*, actor: Actor, fund: Any, hand_id: Any) -> BadBeatHit:
    """637a.15(f): the poker shift supervisor verifies a hand held as a Bad Beat. The
    payout is fixed now: the fund's current amount, divided by the posted shares; the
    display shows the amount pending adjustment until finance adjusts it ((f)(1))."""
    role = actor.require(*VERIFYING)

    def decide(at: AtFund) -> None:
        at.active()
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
            raise FundError(f"seat {share['seat']} is owed {format_money(share['cents'])}: "
                            "name and identify the player", code="identification_required",
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
            raise ConflictError(f"the payout of {format_money(owed['amount_cents'])} is more "
                                f"than the fund holds ({format_money(held)})",
                                code="payout_exceeds_fund")
        # each payee's name and identification sealed under a key of the payout's own,
        # kept for the payout's retention from now (the record ends with the payment)
        subject = uuid.uuid4()
        key_create(subject=subject, property_id=at.row.property_id, kind=PAYOUT_PERSONAL_DATA,
                   retain_until=retention_end(PAYOUT_PERSONAL_DATA))
        identified = seal(subject, {"payees": [
            {"seat": p["seat"], "name": p["name"], "identification": p["identification"]}
            for p in paid]})
        shares = [{k: v for k, v in p.items() if k not in ("name", "identification")}
                  for p in paid]
        at.record("BadBeatPaid", {"hand_id": key, "amount_cents": owed["amount_cents"],
                                  "payees": shares, "identified": identified,
                                  "where": where, "rule": "637a.15(g)"}, role)

    _run(actor, fund, decide)
    return BadBeatHit.objects.get(hand_id=uuid.UUID(str(hand_id)))
