"""The inline projections of the poker room: seats and the table between hands (from
``poker_table-<table id>``), and the rake ledger (from the hands' ``round-<id>`` streams
and the time charges).

Rows are written with ``QuerySet.update`` and ``create`` (see tables.projections: in
pipeline mode row counts are not known). A rebuild from the events gives the same rows.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db.models import F

from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent
from poker_room.models import PokerTable, RakeDay, Seat, SeatStatus, TimeChargePeriod
from tables.models import GameTable

#: the events of a poker table's stream (poker_room.services.seats, .hands, .time_charges)
TABLE_EVENTS = frozenset({
    "PlayerSeated", "ChipsAdded", "PlayerSatOut", "PlayerSatIn", "PlayerSteppedAway",
    "PlayerReturned", "PlayerLeft", "PlayerRemoved", "MinimumBetRaised", "HandDealtAtTable",
    "HandSettled", "TimeChargeAssessed", "TimeChargeVerified"})
#: the hand events the rake ledger follows (in a round stream)
HAND_LEDGER_EVENTS = frozenset({"RakeTaken", "JackpotContributed", "HandCompleted"})
#: and the time charges (in a poker table's stream)
TIME_LEDGER_EVENTS = frozenset({"TimeChargeAssessed", "TimeChargeVerified"})


def _table_id(e: RecordedEvent) -> str:
    return e.stream_id.split("-", 1)[1]


def _poker_table(e: RecordedEvent) -> Any:
    return PokerTable.objects.filter(table_id=_table_id(e))


def _seat(e: RecordedEvent) -> Any:
    return Seat.objects.filter(table_id=_table_id(e), seat=e.data["seat"])


def _ensure_table(e: RecordedEvent) -> None:
    """The table's row appears with its first event."""
    if e.version == 1:
        table = GameTable.objects.only("property_id").get(pk=_table_id(e))
        PokerTable.objects.create(table_id=table.pk, property_id=table.property_id,
                                  stream_version=0)


def _day(e: RecordedEvent) -> date:
    return date.fromisoformat(e.metadata["gaming_day"])


def _rake_day(table_id: str, property_id: Any, day: date) -> Any:
    rows = RakeDay.objects.filter(table_id=table_id, gaming_day=day)
    if not rows.exists():
        RakeDay.objects.create(table_id=table_id, property_id=property_id, gaming_day=day)
    return rows


def _property_of(table_id: str) -> Any:
    return GameTable.objects.only("property_id").get(pk=table_id).property_id


def player_seated(e: RecordedEvent) -> None:
    d = e.data
    player = d.get("player") or {}
    table = GameTable.objects.only("property_id").get(pk=_table_id(e))
    Seat.objects.create(property_id=table.property_id, table_id=table.pk, seat=d["seat"],
                        player_name=player.get("name", ""),
                        player_phone=player.get("phone", ""),
                        stack_cents=d["buy_in_cents"], bought_in_cents=d["buy_in_cents"],
                        status=SeatStatus.PLAYING, seated_at=e.recorded_at)


def chips_added(e: RecordedEvent) -> None:
    a = e.data["amount_cents"]
    _seat(e).update(stack_cents=F("stack_cents") + a, bought_in_cents=F("bought_in_cents") + a)


def seat_status(status: str) -> Any:
    def apply(e: RecordedEvent) -> None:
        _seat(e).update(status=status,
                        covered_cents=e.data.get("covered_cents", 0) if status == SeatStatus.AWAY
                        else 0)
    return apply


def player_left(e: RecordedEvent) -> None:
    _seat(e).delete()


def minimum_bet_raised(e: RecordedEvent) -> None:
    _poker_table(e).update(agreed_minimum_bet_cents=e.data["amount_cents"])


def hand_dealt(e: RecordedEvent) -> None:
    _poker_table(e).update(current_hand_id=e.data["round_id"], button_seat=e.data["button_seat"])


def hand_settled(e: RecordedEvent) -> None:
    d = e.data
    for seat, stack in d["stacks"].items():
        Seat.objects.filter(table_id=_table_id(e), seat=int(seat)).update(stack_cents=stack)
    _poker_table(e).update(current_hand=None, kill_active=d["kill_next"],
                           hands_dealt=F("hands_dealt") + 1)


def time_charge_assessed(e: RecordedEvent) -> None:
    d = e.data
    table_id = _table_id(e)
    for seat, cents in d["charges"].items():
        Seat.objects.filter(table_id=table_id, seat=int(seat)).update(
            stack_cents=F("stack_cents") - cents)
    TimeChargePeriod.objects.create(
        property_id=_property_of(table_id), table_id=table_id,
        period_start=datetime.fromisoformat(d["period_start"]),
        gaming_day=date.fromisoformat(d["gaming_day"]),
        charges=d["charges"], total_cents=d["total_cents"], assessed_at=e.recorded_at)
    _poker_table(e).update(time_charged_until=datetime.fromisoformat(d["period_start"]))


def time_charge_verified(e: RecordedEvent) -> None:
    TimeChargePeriod.objects.filter(
        table_id=_table_id(e), period_start=datetime.fromisoformat(e.data["period_start"])
    ).update(verified_by=e.metadata["actor"], verified_at=e.recorded_at)


_TABLE_STEPS = {
    "PlayerSeated": player_seated,
    "ChipsAdded": chips_added,
    "PlayerSatOut": seat_status(SeatStatus.SITTING_OUT),
    "PlayerSatIn": seat_status(SeatStatus.PLAYING),
    "PlayerSteppedAway": seat_status(SeatStatus.AWAY),
    "PlayerReturned": seat_status(SeatStatus.PLAYING),
    "PlayerLeft": player_left,
    "PlayerRemoved": player_left,
    "MinimumBetRaised": minimum_bet_raised,
    "HandDealtAtTable": hand_dealt,
    "HandSettled": hand_settled,
    "TimeChargeAssessed": time_charge_assessed,
    "TimeChargeVerified": time_charge_verified,
}


@register
class PokerTableProjection(Projection):
    """Seats and the poker table's row (637a.8(a)-(b), (k))."""

    name = "poker_tables"
    event_types = TABLE_EVENTS

    def handles(self, event: RecordedEvent) -> bool:
        return event.stream_type == "poker_table" and event.type in TABLE_EVENTS

    def apply(self, event: RecordedEvent) -> None:
        _ensure_table(event)
        _TABLE_STEPS[event.type](event)
        _poker_table(event).update(stream_version=event.version)

    def reset(self) -> None:
        TimeChargePeriod.objects.all().delete()
        Seat.objects.all().delete()
        PokerTable.objects.all().delete()


@register
class RakeLedgerProjection(Projection):
    """The rake ledger per table and gaming day: the pot rake and the contributions from
    the hands (637a.17(b)(1)-(2), 637a.15(c), 637a.16(c)), the time charges as they are
    assessed and verified (637a.17(b)(3)(iv)-(v))."""

    name = "poker_rake_ledger"
    event_types = HAND_LEDGER_EVENTS | TIME_LEDGER_EVENTS

    def handles(self, event: RecordedEvent) -> bool:
        if event.stream_type == "round":
            return event.type in HAND_LEDGER_EVENTS
        return event.stream_type == "poker_table" and event.type in TIME_LEDGER_EVENTS

    def apply(self, event: RecordedEvent) -> None:
        d = event.data
        if event.stream_type == "poker_table":
            table_id = _table_id(event)
            rows = _rake_day(table_id, _property_of(table_id),
                             date.fromisoformat(d["gaming_day"]))
            if event.type == "TimeChargeAssessed":
                rows.update(time_charges_pending_cents=F("time_charges_pending_cents")
                            + d["total_cents"])
            else:
                rows.update(time_charges_pending_cents=F("time_charges_pending_cents")
                            - d["total_cents"],
                            time_charges_cents=F("time_charges_cents") + d["total_cents"])
            return
        table_id = event.metadata.get("table")
        if not table_id:
            return
        rows = _rake_day(table_id, _property_of(table_id), _day(event))
        if event.type == "RakeTaken":
            field = ("incremental_rake_cents" if d.get("kind") == "incremental"
                     else "percentage_rake_cents")
            rows.update(**{field: F(field) + d["amount"]})
        elif event.type == "JackpotContributed":
            row = rows.get()
            funds = dict(row.contributions)
            funds[d["fund"]] = funds.get(d["fund"], 0) + d["amount_cents"]
            rows.update(contributions=funds)
        elif event.type == "HandCompleted" and not d.get("voided"):
            rows.update(hands=F("hands") + 1)

    def reset(self) -> None:
        RakeDay.objects.all().delete()
