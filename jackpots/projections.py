"""The jackpots' follower: the poker room's ``JackpotContributed`` events (one per fund
per pot, 637a.15(c), 637a.16(c)) into the funds' ledgers, boxes and totals, its
``BadBeatQualified`` events (637a.15(f)) into the hits held for verification, and the
decisions on each fund (its own stream: hits verified, rejected and paid, the displayed
amount adjusted) into the same rows.

An async projection (:mod:`casino.eventstore.projections`): a Celery task queued when an
append commits catches it up, and the beat sweep covers a lost message; its checkpoint is
written in the same transaction as its rows, so a task delivered twice, or a worker that
dies mid-batch, applies each event exactly once. It reads only the public events (the
property from each event's metadata): nothing of the poker engine. The fund commands
(:mod:`jackpots.services`) catch it up before they decide and after they commit.

Contributions are added up in memory per batch and written as one upsert per row they
touch (PostgreSQL and SQLite), which is what lets the follower keep up with a whole room.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.db.models import F

from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent
from casino.models import Property
from casino.personal_data import ERASED, ERASED_EVENT, subject_of, unseal
from jackpots.domain.fund import COUNT_EVENTS, leaves_display_pending
from jackpots.models import (
    PAYOUT_PERSONAL_DATA,
    SLIP_PERSONAL_DATA,
    BadBeatHit,
    DisplayCheck,
    Fund,
    FundCount,
    FundDay,
    HighHandSlip,
    PayoutBox,
)

log = logging.getLogger(__name__)

CONTRIBUTED = "JackpotContributed"
QUALIFIED = "BadBeatQualified"
#: the events of a fund's own stream (jackpots.services)
FUND_EVENTS = frozenset({"BadBeatVerified", "BadBeatRejected", "BadBeatPaid",
                         "DisplayAdjustmentStarted", "DisplayedAmountAdjusted",
                         "HighHandRecorded", "HighHandPeriodClosed", "HighHandPaid",
                         "HighHandAwardUncollected", "FundDiscontinuanceProposed",
                         "FundDiscontinued", "DisplayChecked"}) \
    | COUNT_EVENTS

def _property_ids(events: Sequence[RecordedEvent]) -> dict[str, int]:
    """Licence number (the events' metadata) -> property id, one query for a batch."""
    licences = {e.metadata.get("property") for e in events} - {None}
    return dict(Property.objects.filter(licence_number__in=licences)
                .values_list("licence_number", "pk"))


@register
class FundsFollower(Projection):
    """The funds' ledgers, boxes, hits and displays (637a.15, 637a.16)."""

    name = "jackpot_funds"
    mode = "async"
    event_types = frozenset({CONTRIBUTED, QUALIFIED}) | FUND_EVENTS

    def apply(self, event: RecordedEvent) -> None:
        self.apply_batch([event])

    def apply_batch(self, events: Sequence[RecordedEvent]) -> None:
        """In order: each run of contributions added up at once, the rest one by one. An
        event of a property this database does not hold (a bench's, or a test's whose
        rows were removed: properties are never deleted in use) is passed over, so it
        can never stop the funds of the others."""
        known = _property_ids(events)
        run: list[RecordedEvent] = []
        for e in events:
            if e.metadata.get("property") not in known:
                log.warning("jackpots: event %s of unknown property %r passed over",
                            e.position, e.metadata.get("property"))
                continue
            if e.type == CONTRIBUTED:
                run.append(e)
                continue
            if run:
                self._contributions(run)
                run = []
            if e.type == QUALIFIED:
                _qualified(e)
            else:
                _FUND_STEPS[e.type](e)
                if leaves_display_pending(e.type, e.data):
                    _fund(e).update(display_pending=True)
        if run:
            self._contributions(run)

    def _contributions(self, events: Sequence[RecordedEvent]) -> None:
        days: dict[tuple, list[Any]] = {}
        boxes: dict[tuple, list[Any]] = {}
        funds: dict[tuple, list[Any]] = {}
        properties = _property_ids(events)
        for e in events:
            d = e.data
            prop = properties[e.metadata["property"]]
            cents, at = int(d["amount_cents"]), e.recorded_at
            table = uuid.UUID(str(d["table_id"]))
            for rows, key in ((days, (prop, d["fund"], d["kind"], table,
                                      date.fromisoformat(d["gaming_day"]))),
                              (boxes, (prop, d["fund"], d["kind"], table)),
                              (funds, (prop, d["fund"], d["kind"]))):
                row = rows.setdefault(key, [0, 0, at, at])
                row[0] += cents
                row[1] += 1
                row[2], row[3] = min(row[2], at), max(row[3], at)
        _upsert_days(days)
        _upsert_boxes(boxes)
        _upsert_funds(funds)

    def reset(self) -> None:
        DisplayCheck.objects.all().delete()
        FundCount.objects.all().delete()
        HighHandSlip.objects.all().delete()
        BadBeatHit.objects.all().delete()
        FundDay.objects.all().delete()
        PayoutBox.objects.all().delete()
        Fund.objects.all().delete()


def _uuid(value: uuid.UUID) -> Any:
    return FundDay._meta.get_field("table_id").get_db_prep_value(value, connection)


def _when(value: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def _execute(sql: str, rows: list[list[Any]]) -> None:
    if rows:
        with connection.cursor() as cur:
            cur.executemany(sql, rows)


def _upsert_days(days: dict[tuple, list[Any]]) -> None:
    _execute(
        "INSERT INTO jackpots_fundday (property_id, fund, kind, table_id, gaming_day, "
        "contributions_cents, contributions) VALUES (%s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (property_id, fund, table_id, gaming_day) DO UPDATE SET "
        "contributions_cents = jackpots_fundday.contributions_cents "
        "+ excluded.contributions_cents, "
        "contributions = jackpots_fundday.contributions + excluded.contributions",
        [[p, f, k, _uuid(t), connection.ops.adapt_datefield_value(day), c, n]
         for (p, f, k, t, day), (c, n, _, _) in days.items()])


def _upsert_boxes(boxes: dict[tuple, list[Any]]) -> None:
    _execute(
        "INSERT INTO jackpots_payoutbox (property_id, fund, kind, table_id, expected_cents, "
        "contributed_cents, last_contribution_at) VALUES (%s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (property_id, fund, table_id) DO UPDATE SET "
        "expected_cents = jackpots_payoutbox.expected_cents + excluded.expected_cents, "
        "contributed_cents = jackpots_payoutbox.contributed_cents "
        "+ excluded.contributed_cents, last_contribution_at = excluded.last_contribution_at",
        [[p, f, k, _uuid(t), c, c, _when(last)]
         for (p, f, k, t), (c, _, _, last) in boxes.items()])


def _upsert_funds(funds: dict[tuple, list[Any]]) -> None:
    _execute(
        "INSERT INTO jackpots_fund (property_id, name, kind, contributions_cents, "
        "contributions, first_contribution_at, last_contribution_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (property_id, name) DO UPDATE SET "
        "contributions_cents = jackpots_fund.contributions_cents "
        "+ excluded.contributions_cents, "
        "contributions = jackpots_fund.contributions + excluded.contributions, "
        "last_contribution_at = excluded.last_contribution_at",
        [[p, f, k, c, n, _when(first), _when(last)]
         for (p, f, k), (c, n, first, last) in funds.items()])


# --- Bad Beat hits and the decisions on a fund ---------------------------------------------

def _qualified(e: RecordedEvent) -> None:
    d = e.data
    prop = _property_ids([e])[e.metadata["property"]]
    BadBeatHit.objects.get_or_create(hand_id=uuid.UUID(str(d["hand_id"])), defaults=dict(
        property_id=prop, fund=d["fund"], table_id=uuid.UUID(str(d["table_id"])),
        gaming_day=date.fromisoformat(d["gaming_day"]), losing_seat=d["losing_seat"],
        losing_hand=d["losing_hand"], winning_seat=d["winning_seat"],
        winning_hand=d["winning_hand"], players_dealt=d["players_dealt"],
        payout_shares_bp=d.get("payout_shares_bp") or {}, pot_cents=d.get("pot_cents", 0),
        qualified_at=e.recorded_at))


def _fund_key(e: RecordedEvent) -> tuple[int, str]:
    """(property id, fund name) of a fund's stream, ``jackpot_fund-<property id>-<name>``."""
    _, prop, name = e.stream_id.split("-", 2)
    return int(prop), name


def _fund(e: RecordedEvent) -> Any:
    prop, name = _fund_key(e)
    return Fund.objects.filter(property_id=prop, name=name)


def _hit(e: RecordedEvent) -> Any:
    return BadBeatHit.objects.filter(hand_id=uuid.UUID(str(e.data["hand_id"])))


def _verified(e: RecordedEvent) -> None:
    d = e.data
    _hit(e).update(state="verified", amount_cents=d["amount_cents"], shares=d["shares"],
                   verified_by=e.metadata.get("actor", ""), decided_at=e.recorded_at)
    _fund(e).update(committed_cents=F("committed_cents") + d["amount_cents"])


def _rejected(e: RecordedEvent) -> None:
    _hit(e).update(state="rejected", reason=e.data["reason"],
                   verified_by=e.metadata.get("actor", ""), decided_at=e.recorded_at)


def _paid(e: RecordedEvent) -> None:
    d = e.data
    identified = d.get("identified")  # None: paid before the payees' details were sealed
    found = unseal(identified, lock=True) if identified is not None else None
    named = {p["seat"]: p for p in (found or {}).get("payees", [])}
    payees = d["payees"] if identified is None else [
        {**p, "name": named.get(p["seat"], {}).get("name", ERASED),
         "identification": named.get(p["seat"], {}).get("identification", ERASED)}
        for p in d["payees"]]
    _hit(e).update(state="paid", paid_by=e.metadata.get("actor", ""), paid_at=e.recorded_at,
                   paid_where=d["where"], payees=payees,
                   payees_subject=subject_of(identified),
                   personal_erased=identified is not None and found is None)
    _fund(e).update(committed_cents=F("committed_cents") - d["amount_cents"],
                    paid_cents=F("paid_cents") + d["amount_cents"])


def _adjusting(e: RecordedEvent) -> None:
    _fund(e).update(adjustment_waiting_cents=e.data["amount_cents"],
                    adjustment_started_by=e.metadata.get("actor", ""),
                    adjustment_started_at=e.recorded_at)


def _adjusted(e: RecordedEvent) -> None:
    _fund(e).update(displayed_cents=e.data["amount_cents"], displayed_at=e.recorded_at,
                    adjustment_waiting_cents=None, adjustment_started_by="",
                    adjustment_started_at=None, display_pending=False)


def _slip_recorded(e: RecordedEvent) -> None:
    d = e.data
    prop, name = _fund_key(e)
    player = unseal(d["player"], lock=True)  # None once the slip's key is erased
    HighHandSlip.objects.get_or_create(
        property_id=prop, fund=name, period=d["period"], slip=d["slip"], defaults=dict(
            period_start=datetime.fromisoformat(d["period_start"]),
            period_end=datetime.fromisoformat(d["period_end"]),
            table_id=uuid.UUID(d["table_id"]), table_name=d["table"], seat=d["seat"],
            hand=d["hand"], value=d["value"], cards=d["cards"],
            player_name=player["name"] if player else ERASED,
            player_phone=player["phone"] if player else ERASED,
            personal_subject=subject_of(d["player"]), personal_erased=player is None,
            dealer=d["dealer"]["username"], dealer_credential=d["dealer"]["credential_number"],
            verified_by=d["verified_by"]["username"],
            verified_credential=d["verified_by"].get("credential_number") or "",
            recorded_at=e.recorded_at))


def _slips(e: RecordedEvent) -> Any:
    prop, name = _fund_key(e)
    return HighHandSlip.objects.filter(property_id=prop, fund=name,
                                       period=e.data["period"])


def _period_closed(e: RecordedEvent) -> None:
    awards = e.data["awards"]
    for a in awards:
        collect_by = a.get("collect_by")
        _slips(e).filter(slip=a["slip"]).update(
            award_cents=a["cents"],
            collect_by=datetime.fromisoformat(collect_by) if collect_by else None)
    _fund(e).update(committed_cents=F("committed_cents") + sum(a["cents"] for a in awards))


def _award_paid(e: RecordedEvent) -> None:
    d = e.data
    if "payee" in d:  # sealed under the slip's key (before issue 24: in clear)
        payee = unseal(d["payee"], lock=True)
        identification = payee["identification"] if payee else ERASED
    else:
        identification = d["identification"]
    _slips(e).filter(slip=d["slip"]).update(paid_at=e.recorded_at,
                                            paid_identification=identification)
    _fund(e).update(committed_cents=F("committed_cents") - d["amount_cents"],
                    paid_cents=F("paid_cents") + d["amount_cents"])


def _count(e: RecordedEvent) -> Any:
    return FundCount.objects.filter(count_id=uuid.UUID(e.data["count_id"]))


def _step(e: RecordedEvent, **changes: Any) -> None:
    """A step of a count's chain of custody: who, under which role and credential."""
    row = _count(e).first()
    if row is None:
        return
    step = {"step": e.type, "by": e.metadata.get("actor", ""),
            "role": e.metadata.get("role", ""),
            "credential_number": e.data.get("credential_number") or "",
            "at": e.recorded_at.isoformat()}
    if "table_id" in e.data:
        step.update(table_id=e.data["table_id"], counted_cents=e.data["counted_cents"])
    for k, v in changes.items():
        setattr(row, k, v)
    row.steps = [*row.steps, step]
    row.save()


def _count_opened(e: RecordedEvent) -> None:
    d = e.data
    prop, name = _fund_key(e)
    notice = d.get("compliance_notice")
    FundCount.objects.get_or_create(count_id=uuid.UUID(d["count_id"]), defaults=dict(
        property_id=prop, fund=name, place=d["place"], reason=d["reason"],
        key=d.get("key") or "", opened_at=datetime.fromisoformat(d["opened_at"]),
        compliance_notified_at=e.recorded_at if notice else None, boxes=d["boxes"],
        expected_cents=sum(b["expected_cents"] for b in d["boxes"]),
        steps=[{"step": e.type, "by": e.metadata.get("actor", ""),
                "role": e.metadata.get("role", ""), "at": e.recorded_at.isoformat()}]))


def _count_verified(e: RecordedEvent) -> None:
    d = e.data
    _step(e, counted_cents=d["counted_cents"], variance_cents=d["variance_cents"],
          state="closed" if d["variance_cents"] == 0 else "verified")
    # the money left the boxes for the cage: what they should hold now is what came in
    # after the count opened
    prop, name = _fund_key(e)
    for b in d["boxes"]:
        PayoutBox.objects.filter(property_id=prop, fund=name,
                                 table_id=uuid.UUID(b["table_id"])).update(
            expected_cents=F("expected_cents") - b["expected_cents"])


def _award_uncollected(e: RecordedEvent) -> None:
    _slips(e).filter(slip=e.data["slip"]).update(uncollected=True)
    _fund(e).update(committed_cents=F("committed_cents") - e.data["amount_cents"])


def _discontinued(e: RecordedEvent) -> None:
    d = e.data
    _fund(e).update(discontinued=True, discontinued_to=d["transfer_to"],
                    transferred_out_cents=F("transferred_out_cents") + d["amount_cents"])
    prop, _name = _fund_key(e)
    Fund.objects.filter(property_id=prop, name=d["transfer_to"]).update(
        transferred_in_cents=F("transferred_in_cents") + d["amount_cents"])


def _display_checked(e: RecordedEvent) -> None:
    d = e.data
    prop, name = _fund_key(e)
    DisplayCheck.objects.get_or_create(
        property_id=prop, fund=name, gaming_day=date.fromisoformat(d["gaming_day"]),
        defaults=dict(passed=d["passed"], reason=d["reason"], detail=d["detail"],
                      displayed_cents=d["displayed_cents"], record_cents=d["record_cents"],
                      checked_at=e.recorded_at))


_COUNT_STEPS = {
    "CountOpened": _count_opened,
    "BoxCounted": lambda e: _step(e),
    "CountWitnessed": lambda e: _step(e, state="witnessed"),
    "BoxesAccountedFor": lambda e: _step(e, state="accounted"),
    "CountCarriedToCage": lambda e: _step(e, state="at_cage"),
    "CountVerified": _count_verified,
    "CountVarianceExplained": lambda e: _step(e, state="explained",
                                              explanation=e.data["explanation"]),
    "CountVarianceSignedOff": lambda e: _step(e, state="closed"),
    "CountReminded": lambda e: _count(e).update(reminders=F("reminders") + 1),
    "CountEscalated": lambda e: _count(e).update(escalated_at=e.recorded_at),
}


_FUND_STEPS = {**_COUNT_STEPS, "BadBeatVerified": _verified, "BadBeatRejected": _rejected,
               "BadBeatPaid": _paid, "DisplayAdjustmentStarted": _adjusting,
               "DisplayedAmountAdjusted": _adjusted, "HighHandRecorded": _slip_recorded,
               "HighHandPeriodClosed": _period_closed, "HighHandPaid": _award_paid,
               "HighHandAwardUncollected": _award_uncollected,
               "FundDiscontinuanceProposed": lambda e: None, "FundDiscontinued": _discontinued,
               "DisplayChecked": _display_checked}


# --- personal data erased (casino.personal_data) ----------------------------------------

@register
class PersonalDataErasure(Projection):
    """A High Hand slip's player and payee, a Bad Beat payout's payees: "erased" in the
    rows once their key is (``PersonalDataErased``), in the erasure's own transaction, so
    no read shows them after it commits. Inline, beside the funds' async follower whose
    rows it blanks: the follower unseals under a share lock on the key
    (:func:`casino.personal_data.unseal`), so it either wrote its rows before the erasure
    (blanked here) or finds the key gone (and writes "erased" itself, as a rebuild
    does). It owns no rows: a rebuild of it only blanks them again."""

    name = "jackpot_personal_data"
    mode = "inline"
    event_types = frozenset({ERASED_EVENT})

    def apply(self, event: RecordedEvent) -> None:
        kind, subject = event.data.get("kind"), uuid.UUID(str(event.data["subject"]))
        if kind == SLIP_PERSONAL_DATA:
            slips = HighHandSlip.objects.filter(personal_subject=subject)
            slips.update(player_name=ERASED, player_phone=ERASED, personal_erased=True)
            slips.exclude(paid_identification="").update(paid_identification=ERASED)
        elif kind == PAYOUT_PERSONAL_DATA:
            for hit in BadBeatHit.objects.filter(payees_subject=subject):
                BadBeatHit.objects.filter(pk=hit.pk).update(
                    payees=[{**p, "name": ERASED, "identification": ERASED}
                            for p in hit.payees], personal_erased=True)

    def reset(self) -> None:
        """Nothing of its own to drop (the rows are the follower's)."""
