"""High Hand Jackpot periods (637a.16(f)-(h)): the Tracking Slip, the period's close and
its awards, paid at the cage."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.personal_data import key_create, retain_from, seal, subject_of
from casino.roles import Role
from jackpots.models import SLIP_PERSONAL_DATA, Fund
from jackpots.services.common import (
    PAYING,
    AtFund,
    FundError,
    _caught_up,
    _run,
    _text,
    fund_state,
    system_decision,
)


#: 637a.16(f): a floorperson or above verifies and records each higher hand
RECORDING = (Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR)
#: who closes a period by hand (the beat task closes each one as it ends)
CLOSING = (Role.POKER_SHIFT_SUPERVISOR, Role.FINANCE)


def _high_hand_rules(actor: Actor, table: Any) -> dict[str, Any]:
    from tables.selectors import rules_in_force

    rs = rules_in_force(actor.property, table.game)
    options = (rs.options if rs else {}).get("high_hand")
    if not options:
        raise ConflictError(f"table {table.name} offers no High Hand Jackpot payout",
                            code="no_high_hand")
    return options


def table_boxes(table_id: Any) -> dict[str, Any]:
    """The jackpot boxes registered at a poker table (637a.2(e)), fund -> box: read from
    the poker room's last box event at the table (each names the table's boxes after it),
    as the jackpots follow its events, not its code."""
    from casino.eventstore.models import Event

    last = (Event.objects.filter(stream_id=f"poker_table-{table_id}",
                                 type__in=("JackpotBoxRegistered", "JackpotBoxRemoved"))
            .order_by("-version").values_list("data", flat=True).first())
    return dict((last or {}).get("boxes") or {})


def _high_hand_box_at(table: Any, fund: str, hand_id: Any = None) -> None:
    """637a.2(e): a table offers a High Hand payout only with the fund's transparent
    locked box attached. A named hand is eligible by the box it was dealt with: its
    ``HandDealtAtTable`` names each fund it paid nothing into for want of its box
    (``jackpots_withheld``), so a box taken off or put on after the deal changes nothing
    for it. A slip that names no hand (or a hand dealt before the deal recorded its
    boxes) can only be checked against the table's boxes as they stand."""
    if hand_id is not None:
        dealt = _hand_dealt(table, hand_id)
        if "jackpots_withheld" in dealt:
            if fund in {w.get("fund") for w in dealt["jackpots_withheld"] or []}:
                raise ConflictError(
                    f"that hand was dealt at table {table.name} with no jackpot box for "
                    f"{fund}: it pays no High Hand (637a.2(e))", code="no_jackpot_box")
            return
    if fund not in table_boxes(table.pk):
        raise ConflictError(f"table {table.name} has no jackpot box registered for {fund}: "
                            "it pays no High Hand (637a.2(e))", code="no_jackpot_box")


def _hand_dealt(table: Any, hand_id: Any) -> dict[str, Any]:
    """The poker room's ``HandDealtAtTable`` for ``hand_id`` at ``table`` (read from its
    events, as :func:`table_boxes`); 409 ``unknown_hand`` when the table dealt no such
    hand."""
    from casino.eventstore.models import Event

    data = (Event.objects.filter(stream_id=f"poker_table-{table.pk}", type="HandDealtAtTable",
                                 data__round_id=str(hand_id))
            .order_by("-version").values_list("data", flat=True).first())
    if data is None:
        raise ConflictError(f"table {table.name} has no record of dealing hand {hand_id}",
                            code="unknown_hand")
    return dict(data)


def _period(actor: Actor, minutes: int, at: Any = None) -> Any:
    from django.utils import timezone

    from jackpots.domain.periods import period_at

    prop = actor.property
    return period_at(at or timezone.now(), time_zone=prop.time_zone,
                     day_start_hour=prop.gaming_day_start_hour, minutes=minutes)


def _period_key(actor: Actor, period: Any) -> str:
    """The period as the answers name it (its local start with the offset) or by its key,
    as its key (jackpots.domain.periods.period_key)."""
    from jackpots.domain.periods import period_key

    return period_key(str(period), time_zone=actor.property.time_zone)


def high_hand_record(*, actor: Actor, fund: Any, table_id: Any, seat: Any, cards: Any,
                     player: Any, dealer: Any, hand_id: Any = None,
                     made_at: datetime | None = None) -> dict[str, Any]:
    """637a.16(f): the floorperson verifies a full house or better called by the dealer
    and records it on the period's High Hand Tracking Slip, and each higher hand after it:
    the player's name, phone and seat; the table; the hand; the dealer's name and
    credential; the floorperson's own signature (login) and credential. ``made_at``:
    when the hand was made, if the slip is written up after the fact (it belongs to the
    period the hand was made in; the API always records now)."""
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
    _high_hand_box_at(table, rules["fund"], hand_id)
    if not isinstance(dealer, str) or not dealer:
        raise FundError("dealer is the login of the dealer who called the hand",
                        code="invalid_dealer", field="dealer")
    profile = StaffProfile.objects.filter(property=actor.property,
                                          user__username=dealer).first()
    if profile is None or not profile.user.groups.filter(name=Role.DEALER.value).exists():
        raise FundError(f"{dealer} is not a dealer of this property", code="invalid_dealer",
                        field="dealer")
    slip: dict[str, Any] = {}
    subject = uuid.uuid4()

    def decide(at: AtFund) -> None:
        at.active()
        if rules["fund"] != at.row.name:
            raise ConflictError(f"table {table.name} pays into {rules['fund']}, not "
                                f"{at.row.name}", code="table_not_in_fund")
        period = _period(actor, rules["qualifying_period_minutes"], made_at)
        if period.key in at.state.closed:
            raise ConflictError("that period is closed", code="period_closed")
        best = at.state.best_slip(period.key)
        if best is not None and (value < best["value"] or (
                value == best["value"] and rules["tie_division"] == "first-made")):
            raise ConflictError(f"{describe_high(value)} is not higher than the period's "
                                f"{best['hand']} (637a.16(f))", code="not_higher")
        # the player's details sealed under the slip's own key, kept until the slip's
        # retention after its record ends (paid, not collected in time, not awarded)
        key_create(subject=subject, property_id=at.row.property_id, kind=SLIP_PERSONAL_DATA)
        sealed_player = seal(subject, {"name": name, "phone": phone})
        slip.update({
            "period": period.key, "period_start": period.start.isoformat(),
            "period_end": period.end.isoformat(),
            "slip": len(at.state.slips.get(period.key, [])) + 1,
            "table_id": str(table.pk), "table": table.name, "seat": seat,
            "hand_id": None if hand_id is None else str(hand_id),
            "player": sealed_player,
            "cards": [format_card(c) for c in held], "value": value,
            "hand": describe_high(value), "tie_division": rules["tie_division"],
            # 637a.16(b)(6), (i): the posted time limit and what happens after it
            "collection_time_limit_hours": rules["collection_time_limit_hours"],
            "uncollected_procedure": rules["uncollected_procedure"],
            "dealer": {"username": dealer, "credential_number": profile.credential_number},
            "verified_by": {"username": actor.username,
                            "credential_number": actor.credential_number},
            "rule": "637a.16(f)"})
        at.record("HighHandRecorded", slip, role)

    _run(actor, fund, decide)
    return {**slip, "player": {"name": name, "phone": phone}}


def _slip_subjects(slips: list[dict[str, Any]], numbers: Any = None) -> list[Any]:
    """The personal-data subjects of a period's slips (those numbered ``numbers``, or
    all); a slip recorded before its details were sealed has none."""
    return [subject_of(s.get("player")) for s in slips
            if (numbers is None or s["slip"] in numbers)
            and subject_of(s.get("player")) is not None]


def _close(at: AtFund, period: str, role: str | None, now: Any = None) -> dict[str, Any]:
    from django.utils import timezone

    from jackpots.domain.hits import high_hand_awards

    slips = at.state.slips.get(period)
    if not slips:
        raise ConflictError("no High Hand was recorded in that period: its contributions "
                            "go on to the next (637a.16(h))", code="no_high_hand_recorded")
    if period in at.state.closed:
        raise ConflictError("that period is closed already", code="period_closed")
    if (now or timezone.now()) < datetime.fromisoformat(slips[0]["period_end"]):
        raise ConflictError("the period has not ended", code="period_not_over")
    top = max(s["value"] for s in slips)
    best = [s for s in slips if s["value"] == top]
    amount = at.available_cents
    limit = timedelta(hours=slips[0].get("collection_time_limit_hours") or 24 * 366)
    collect_by = (datetime.fromisoformat(slips[0]["period_end"]) + limit).isoformat()
    closed = {"period": period, "amount_cents": amount,
              "awards": [{**a, "collect_by": collect_by}
                         for a in high_hand_awards(amount, best, slips[0]["tie_division"])],
              "hand": best[0]["hand"], "rule": "637a.16(g)-(h)"}
    at.record("HighHandPeriodClosed", closed, role or "system")
    # a slip not awarded ends its record here: its player's details are kept for the
    # slip's retention from now (an awarded one's, once it is paid or not collected)
    awarded = {a["slip"] for a in closed["awards"]}
    retain_from(_slip_subjects(slips, {s["slip"] for s in slips} - awarded), now)
    return closed


def high_hand_period_close(*, actor: Actor, fund: Any, period: Any) -> dict[str, Any]:
    """637a.16(g)-(h): the period is over: its pooled amount (the fund's current amount,
    with what earlier periods without a full house left in it) goes to the highest hand,
    equal hands sharing it as posted; the awards are owed until paid at the cage."""
    role = actor.require(*CLOSING)
    out: dict[str, Any] = {}
    key = _period_key(actor, period)
    _run(actor, fund, lambda at: out.update(_close(at, key, role)))
    return out


def high_hand_pay(*, actor: Actor, fund: Any, period: Any, slip: Any, name: Any,
                  identification: Any) -> dict[str, Any]:
    """637a.16(h): the award paid at the cage, against the player's valid identification
    ((b)(7)); the player need not have been present at the period's end ((b)(6))."""
    role = actor.require(*PAYING)
    who = _text(name, "name", 120, code="invalid_payee")
    ident = _text(identification, "identification", 120, required=False,
                  code="identification_required")
    if not ident:
        raise FundError("valid identification is required (637a.16(b)(7))",
                        code="identification_required", field="identification")
    out: dict[str, Any] = {}
    period = _period_key(actor, period)

    def decide(at: AtFund) -> None:
        closed = at.state.closed.get(str(period))
        award = next((a for a in (closed or {}).get("awards", []) if a["slip"] == slip), None)
        if award is None:
            raise NotFoundError("no High Hand award for that period and slip",
                                code="award_not_found", field="slip")
        if (str(period), slip) in at.state.awards_paid:
            raise ConflictError("that award is paid already", code="award_already_paid")
        if (str(period), slip) in at.state.awards_uncollected:
            raise ConflictError("that award was not collected within the posted time and "
                                "went by the posted procedure (637a.16(i))",
                                code="award_uncollected")
        out.update({"period": str(period), "slip": slip, "amount_cents": award["cents"],
                    "name": who, "identification": ident, "rule": "637a.16(h)"})
        # the payee's name and identification sealed under the slip's key (a slip
        # recorded before sealing keeps them in clear, as it was); the slip's record
        # ends with the payment, its retention runs from now
        subjects = _slip_subjects(at.state.slips.get(str(period), []), {slip})
        data = dict(out)
        if subjects:
            del data["name"], data["identification"]
            data["payee"] = seal(subjects[0], {"name": who, "identification": ident})
        at.record("HighHandPaid", data, role)
        retain_from(subjects)

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
        state = fund_state(row)
        due = [p for p, slips in state.slips.items() if p not in state.closed
               and datetime.fromisoformat(slips[0]["period_end"]) <= now]
        actor = system_actor(row.property, "high-hand-periods")
        for period in sorted(due):
            closed += system_decision(actor, row.name,
                                      lambda at, p=period: _close(at, p, None, now))
    uncollected = _uncollected(now)
    if closed or uncollected:
        _caught_up()
    return closed


def _uncollected(now: datetime) -> int:
    """637a.16(i): each award not collected by its time limit goes by the Rules
    Submission's procedure, once: recorded with the procedure's words, and its amount
    back in the fund for the periods to come (what the procedures here say: the example
    submission's "added to the next qualifying period's payout")."""
    from casino.actors import system_actor
    from jackpots.models import HIGH_HAND

    done = 0
    for row in Fund.objects.filter(kind=HIGH_HAND).select_related("property"):
        state = fund_state(row)
        for period, closed in state.closed.items():
            for a in closed["awards"]:
                key = (period, a["slip"])
                if (key in state.awards_paid or key in state.awards_uncollected
                        or not a.get("collect_by")
                        or datetime.fromisoformat(a["collect_by"]) > now):
                    continue
                slip = state.slips[period][a["slip"] - 1]
                actor = system_actor(row.property, "high-hand-uncollected")

                def decide(at: AtFund, p: str = period, award: dict = a,
                           procedure: str = slip.get("uncollected_procedure", "")) -> None:
                    k = (p, award["slip"])
                    if k in at.state.awards_paid or k in at.state.awards_uncollected:
                        raise ConflictError("decided meanwhile", code="award_decided")
                    at.record("HighHandAwardUncollected", {
                        "period": p, "slip": award["slip"], "amount_cents": award["cents"],
                        "procedure": procedure, "rule": "637a.16(i)"}, "system")
                    # the slip's record ends here: its retention runs from now
                    retain_from(_slip_subjects(at.state.slips.get(p, []), {award["slip"]}),
                                now)
                done += system_decision(actor, row.name, decide)
    return done
