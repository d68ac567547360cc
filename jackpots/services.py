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


# --- High Hand periods (637a.16(f)-(h)) ------------------------------------------------------

#: 637a.16(f): a floorperson or above verifies and records each higher hand
RECORDING = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: who closes a period by hand (the beat task closes each one as it ends)
CLOSING = (Role.POKER_SHIFT_SUPERVISOR, Role.FINANCE)


def _text(value: Any, field: str, most: int, *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > most:
        raise FundError(f"{field} is text of {'1' if required else '0'} to {most} characters",
                        code="invalid_slip", field=field)
    return value.strip()


def _high_hand_rules(actor: Actor, table: Any) -> dict[str, Any]:
    from tables.selectors import rules_in_force

    rs = rules_in_force(actor.property, table.game)
    options = (rs.options if rs else {}).get("high_hand")
    if not options:
        raise ConflictError(f"table {table.name} offers no High Hand Jackpot payout",
                            code="no_high_hand")
    return options


def _period(actor: Actor, minutes: int, at: Any = None) -> Any:
    from django.utils import timezone

    from jackpots.domain.periods import period_at

    prop = actor.property
    return period_at(at or timezone.now(), time_zone=prop.time_zone,
                     day_start_hour=prop.gaming_day_start_hour, minutes=minutes)


def high_hand_record(*, actor: Actor, fund: Any, table_id: Any, seat: Any, cards: Any,
                     player: Any, dealer: Any, hand_id: Any = None) -> dict[str, Any]:
    """637a.16(f): the floorperson verifies a full house or better called by the dealer
    and records it on the period's High Hand Tracking Slip, and each higher hand after it:
    the player's name, phone and seat; the table; the hand; the dealer's name and
    credential; the floorperson's own signature (login) and credential."""
    from casino.domain.cards import CardError, format_card, parse_cards
    from casino.domain.hands.high import Category, best_high, category_of, describe_high
    from casino.models import StaffProfile
    from casino.scoping import property_row
    from tables.models import GameTable

    role = actor.require(*RECORDING)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 10:
        raise FundError("seat is the player's seat number, 1 to 10", code="invalid_slip",
                        field="seat")
    if not isinstance(player, dict):
        raise FundError("player is {name, phone} (637a.16(f)(1))", code="invalid_slip",
                        field="player")
    name = _text(player.get("name"), "player.name", 120)
    phone = _text(player.get("phone"), "player.phone", 40)
    try:
        held = parse_cards(cards, count=(5, 6, 7)) if isinstance(cards, (list, str)) else None
    except (CardError, DomainError) as exc:
        raise FundError(f"cards: {exc}", code="invalid_cards", field="cards") from None
    if held is None:
        raise FundError("cards are the 5 to 7 cards of the hand, as codes",
                        code="invalid_cards", field="cards")
    value = best_high(held)
    if category_of(value) < Category.FULL_HOUSE:
        raise ConflictError(f"{describe_high(value)} is not a full house or better "
                            "(637a.16(f))", code="not_a_full_house")
    table = property_row(GameTable.objects.all(), actor, table_id, what="table")
    rules = _high_hand_rules(actor, table)
    if not isinstance(dealer, str) or not dealer:
        raise FundError("dealer is the login of the dealer who called the hand",
                        code="invalid_dealer", field="dealer")
    profile = StaffProfile.objects.filter(property=actor.property,
                                          user__username=dealer).first()
    if profile is None or not profile.user.groups.filter(name=Role.DEALER.value).exists():
        raise FundError(f"{dealer} is not a dealer of this property", code="invalid_dealer",
                        field="dealer")
    slip: dict[str, Any] = {}

    def decide(at: AtFund) -> None:
        if rules["fund"] != at.row.name:
            raise ConflictError(f"table {table.name} pays into {rules['fund']}, not "
                                f"{at.row.name}", code="table_not_in_fund")
        period = _period(actor, rules["qualifying_period_minutes"])
        if period.key in at.state.closed:
            raise ConflictError("that period is closed", code="period_closed")
        best = at.state.best_slip(period.key)
        if best is not None and (value < best["value"] or (
                value == best["value"] and rules["tie_division"] == "first-made")):
            raise ConflictError(f"{describe_high(value)} is not higher than the period's "
                                f"{best['hand']} (637a.16(f))", code="not_higher")
        slip.update({
            "period": period.key, "period_start": period.start.isoformat(),
            "period_end": period.end.isoformat(),
            "slip": len(at.state.slips.get(period.key, [])) + 1,
            "table_id": str(table.pk), "table": table.name, "seat": seat,
            "hand_id": None if hand_id is None else str(hand_id),
            "player": {"name": name, "phone": phone},
            "cards": [format_card(c) for c in held], "value": value,
            "hand": describe_high(value), "tie_division": rules["tie_division"],
            "dealer": {"username": dealer, "credential_number": profile.credential_number},
            "verified_by": {"username": actor.username,
                            "credential_number": actor.credential_number},
            "rule": "637a.16(f)"})
        at.record("HighHandRecorded", slip, role)

    _run(actor, fund, decide)
    return slip


def _close(at: AtFund, period: str, role: str | None, now: Any = None) -> dict[str, Any]:
    from django.utils import timezone

    from jackpots.domain.hits import high_hand_awards

    slips = at.state.slips.get(period)
    if not slips:
        raise ConflictError("no High Hand was recorded in that period: its contributions "
                            "go on to the next (637a.16(h))", code="no_high_hand_recorded")
    if period in at.state.closed:
        raise ConflictError("that period is closed already", code="period_closed")
    from datetime import datetime

    if (now or timezone.now()) < datetime.fromisoformat(slips[0]["period_end"]):
        raise ConflictError("the period has not ended", code="period_not_over")
    top = max(s["value"] for s in slips)
    best = [s for s in slips if s["value"] == top]
    amount = at.available_cents
    closed = {"period": period, "amount_cents": amount,
              "awards": high_hand_awards(amount, best, slips[0]["tie_division"]),
              "hand": best[0]["hand"], "rule": "637a.16(g)-(h)"}
    at.record("HighHandPeriodClosed", closed, role or "system")
    return closed


def high_hand_period_close(*, actor: Actor, fund: Any, period: Any) -> dict[str, Any]:
    """637a.16(g)-(h): the period is over: its pooled amount (the fund's current amount,
    with what earlier periods without a full house left in it) goes to the highest hand,
    equal hands sharing it as posted; the awards are owed until paid at the cage."""
    role = actor.require(*CLOSING)
    out: dict[str, Any] = {}
    _run(actor, fund, lambda at: out.update(_close(at, str(period), role)))
    return out


def high_hand_pay(*, actor: Actor, fund: Any, period: Any, slip: Any, name: Any,
                  identification: Any) -> dict[str, Any]:
    """637a.16(h): the award paid at the cage, against the player's valid identification
    ((b)(7)); the player need not have been present at the period's end ((b)(6))."""
    role = actor.require(*PAYING)
    who = _text(name, "name", 120)
    ident = _text(identification, "identification", 120, required=False)
    if not ident:
        raise FundError("valid identification is required (637a.16(b)(7))",
                        code="identification_required", field="identification")
    out: dict[str, Any] = {}

    def decide(at: AtFund) -> None:
        closed = at.state.closed.get(str(period))
        award = next((a for a in (closed or {}).get("awards", []) if a["slip"] == slip), None)
        if award is None:
            raise NotFoundError("no High Hand award for that period and slip",
                                code="award_not_found")
        if (str(period), slip) in at.state.awards_paid:
            raise ConflictError("that award is paid already", code="award_already_paid")
        out.update({"period": str(period), "slip": slip, "amount_cents": award["cents"],
                    "name": who, "identification": ident, "rule": "637a.16(h)"})
        at.record("HighHandPaid", out, role)

    _run(actor, fund, decide)
    return out


def high_hand_periods_close_due(now: Any = None) -> int:
    """The beat task's work: every High Hand period that has ended with a hand recorded
    and is not closed yet, closed by the system (each once: a second run finds it
    closed). Returns how many it closed."""
    from datetime import datetime

    from django.utils import timezone

    from casino.actors import system_actor
    from jackpots.models import HIGH_HAND

    now = now or timezone.now()
    closed = 0
    _caught_up()
    for row in Fund.objects.filter(kind=HIGH_HAND).select_related("property"):
        events = read_stream(row.stream_id)
        state = fold((e.type, e.data, e.metadata) for e in events)
        due = [p for p, slips in state.slips.items() if p not in state.closed
               and datetime.fromisoformat(slips[0]["period_end"]) <= now]
        for period in sorted(due):
            actor = system_actor(row.property, "high-hand-periods")
            try:
                with transaction.atomic():
                    _close(AtFund(actor, row.name), period, None, now)
                closed += 1
            except ConflictError:
                continue  # closed meanwhile by another run or a person
    if closed:
        _caught_up()
    return closed
