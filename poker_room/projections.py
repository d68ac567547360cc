"""The inline projections of the poker room: seats and the table between hands (from
``poker_table-<table id>``), and the rake ledger (from the hands' ``round-<id>`` streams
and the time charges).

Rows are written with ``QuerySet.update`` and ``create`` (see tables.projections: in
pipeline mode row counts are not known). What a hand's start and its end write (the
table's row, the stacks, the day ledgers) goes as plain SQL on the append's own cursor
(``tables.projections.write_unread``): no ORM query built per event, nothing read back,
so it rides in the command runner's pipeline. A rebuild from the events gives the same rows.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.db.models import F

from casino.eventstore.projections import Projection, register
from casino.eventstore.store import RecordedEvent
from casino.personal_data import ERASED_EVENT, subject_of, unseal
from poker_room.models import (
    FundContributionDay,
    PokerTable,
    RakeDay,
    Seat,
    SeatStatus,
    TimeChargePeriod,
)
from tables.models import GameTable
from tables.projections import db_value, write_unread

#: the events of a poker table's stream (poker_room.services.seats, .hands, .time_charges)
TABLE_EVENTS = frozenset({
    "PlayerSeated", "ChipsAdded", "PlayerSatOut", "PlayerSatIn", "PlayerSteppedAway",
    "PlayerReturned", "PlayerLeft", "PlayerRemoved", "MinimumBetRaised", "HandDealtAtTable",
    "HandSettled", "TimeChargeAssessed", "TimeChargeVerified", "JackpotBoxRegistered",
    "JackpotBoxRemoved"})
#: the hand events the rake ledger follows (in a round stream): a misdeal or a void
#: gives back the rake taken so far (637a.18(g), (i)), a refund of a fouled hand the
#: rake the smaller pot no longer bears (637a.18(k)(3), 637a.17(b)(1))
HAND_LEDGER_EVENTS = frozenset({"RakeTaken", "JackpotContributed", "HandCompleted",
                                "MisdealDeclared", "HandVoided", "HandFouled"})
#: and the time charges (in a poker table's stream)
TIME_LEDGER_EVENTS = frozenset({"TimeChargeAssessed", "TimeChargeVerified"})


def _table_id(e: RecordedEvent) -> str:
    return e.stream_id.split("-", 1)[1]


def _seat(e: RecordedEvent) -> Any:
    return Seat.objects.filter(table_id=_table_id(e), seat=e.data["seat"])


def _ensure_table(e: RecordedEvent) -> None:
    """The table's row appears with its first event."""
    if e.version == 1:
        table = GameTable.objects.only("property_id").get(pk=_table_id(e))
        PokerTable.objects.create(table_id=table.pk, property_id=table.property_id,
                                  stream_version=0)


#: table id -> property id (a table never changes property): asked at every hand's end
_PROPERTY: dict[str, Any] = {}


def _property_of(table_id: str) -> Any:
    key = str(table_id)
    if key not in _PROPERTY:
        _PROPERTY[key] = GameTable.objects.only("property_id").get(pk=table_id).property_id
    return _PROPERTY[key]


def player_seated(e: RecordedEvent) -> None:
    d = e.data
    # sealed (casino.personal_data): nothing once its key is erased, an anonymous seat
    player = unseal(d.get("player")) or {}
    # the property from this process's cache: a read here would stop the seating
    # command's pipeline for its answer (poker_room.services.seats)
    table_id = _table_id(e)
    Seat.objects.create(property_id=_property_of(table_id), table_id=table_id, seat=d["seat"],
                        player_name=player.get("name", ""),
                        player_phone=player.get("phone", ""),
                        personal_subject=subject_of(d.get("player")),
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
    # One DELETE without Django's collector: QuerySet.delete() opens an atomic block of
    # its own, which cannot begin inside the transaction a command runner's pipeline has
    # begun on the raw connection (poker_room.services.seats); a seat has no dependants.
    _seat(e)._raw_delete(connection.alias)


def minimum_bet_raised(e: RecordedEvent) -> dict[str, Any]:
    return {"agreed_minimum_bet_cents": e.data["amount_cents"]}


def hand_dealt(e: RecordedEvent) -> dict[str, Any]:
    return {"current_hand_id": e.data["round_id"], "button_seat": e.data["button_seat"]}


class Added(int):
    """A column's value is added to, not set (``hands_dealt`` one more a hand)."""


def hand_settled(e: RecordedEvent) -> dict[str, Any]:
    d = e.data
    stacks = {int(seat): stack for seat, stack in d["stacks"].items()}
    if stacks:  # every seat of the hand in one UPDATE
        whens = " ".join(["WHEN %s THEN %s"] * len(stacks))
        write_unread(f"UPDATE poker_room_seat SET stack_cents = CASE seat {whens} "
                     f"ELSE stack_cents END WHERE table_id = %s AND seat IN "
                     f"({', '.join(['%s'] * len(stacks))})",
                     [x for pair in stacks.items() for x in pair]
                     + [db_value(Seat, "table", uuid.UUID(_table_id(e))), *stacks])
    return {"current_hand": None, "kill_active": d["kill_next"], "hands_dealt": Added(1)}


def jackpot_boxes(e: RecordedEvent) -> dict[str, Any]:
    """637a.2(e): the event carries the table's boxes as they are after it."""
    return {"jackpot_boxes": e.data["boxes"]}


def time_charge_assessed(e: RecordedEvent) -> dict[str, Any]:
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
    return {"time_charged_until": datetime.fromisoformat(d["period_start"])}


def time_charge_verified(e: RecordedEvent) -> None:
    TimeChargePeriod.objects.filter(
        table_id=_table_id(e), period_start=datetime.fromisoformat(e.data["period_start"])
    ).update(verified_by=e.metadata["actor"], verified_at=e.recorded_at)


#: each event's change to the seats; what it changes on the table's own row is returned,
#: written with the stream's version in one UPDATE
_TABLE_STEPS: dict[str, Any] = {
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
    "JackpotBoxRegistered": jackpot_boxes,
    "JackpotBoxRemoved": jackpot_boxes,
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
        fields = _TABLE_STEPS[event.type](event) or {}
        _update_table(event, {"stream_version": event.version, **fields})

    def reset(self) -> None:
        TimeChargePeriod.objects.all().delete()
        Seat.objects.all().delete()
        PokerTable.objects.all().delete()


def _update_table(e: RecordedEvent, fields: dict[str, Any]) -> None:
    """The poker table's row, ``fields`` set (or :class:`Added` to) in one UPDATE."""
    sets, params = [], []
    for name, value in fields.items():
        column = PokerTable._meta.get_field(name).column
        if isinstance(value, Added):
            sets.append(f"{column} = {column} + %s")
            params.append(int(value))
        else:
            sets.append(f"{column} = %s")
            params.append(db_value(PokerTable, name, value))
    write_unread(f"UPDATE poker_room_pokertable SET {', '.join(sets)} WHERE table_id = %s",
                 [*params, db_value(PokerTable, "table", uuid.UUID(_table_id(e)))])


@register
class RakeLedgerProjection(Projection):
    """The rake ledger per table and gaming day: the pot rake and the contributions from
    the hands (637a.17(b)(1)-(2), 637a.15(c), 637a.16(c)) less the rake a misdealt or
    voided hand gives back (637a.18(g), (i)), the time charges as they are assessed and
    verified (637a.17(b)(3)(iv)-(v)). The events of one append are added up
    and written as one upsert per row (a hand's end is one append)."""

    name = "poker_rake_ledger"
    event_types = HAND_LEDGER_EVENTS | TIME_LEDGER_EVENTS

    def handles(self, event: RecordedEvent) -> bool:
        if event.stream_type == "round":
            return event.type in HAND_LEDGER_EVENTS
        return event.stream_type == "poker_table" and event.type in TIME_LEDGER_EVENTS

    def apply(self, event: RecordedEvent) -> None:
        self.apply_batch([event])

    def apply_batch(self, events: Any) -> None:
        days: dict[tuple[str, str], dict[str, int]] = {}
        funds: dict[tuple[str, str, str], int] = {}
        for e in events:
            d = e.data
            if e.stream_type == "poker_table":
                key = (_table_id(e), d["gaming_day"])
            elif e.metadata.get("table"):
                key = (e.metadata["table"], e.metadata["gaming_day"])
            else:
                continue
            row = days.setdefault(key, dict.fromkeys(_LEDGER_COLUMNS, 0))
            if e.type == "RakeTaken":
                row[_rake_column(d.get("kind"))] += d["amount"]
            elif e.type in ("MisdealDeclared", "HandVoided", "HandFouled"):
                # 637a.18(g), (i): every chip goes back to the players, the rake taken
                # as play progressed too; it never reaches the drop box (a refund,
                # 637a.18(k)(3): the part of it the smaller pot does not bear)
                row[_rake_column(d.get("rake_kind"))] -= d.get("rake_returned", 0)
            elif e.type == "JackpotContributed":
                fund = (*key, d["fund"])
                funds[fund] = funds.get(fund, 0) + d["amount_cents"]
            elif e.type == "HandCompleted":
                row["hands"] += 0 if d.get("voided") else 1
            elif e.type == "TimeChargeAssessed":
                row["time_charges_pending_cents"] += d["total_cents"]
            elif e.type == "TimeChargeVerified":
                row["time_charges_pending_cents"] -= d["total_cents"]
                row["time_charges_cents"] += d["total_cents"]
        for (table_id, day), row in days.items():
            _upsert_day(table_id, day, row)
        for (table_id, day, fund), cents in funds.items():
            _upsert_fund(table_id, day, fund, cents)

    def reset(self) -> None:
        FundContributionDay.objects.all().delete()
        RakeDay.objects.all().delete()


def _rake_column(kind: str | None) -> str:
    """The column of a pot rake of ``kind`` (``RakeTaken.kind``; a misdeal's or a void's
    ``rake_kind``). A void recorded before ``rake_kind`` existed counts as percentage,
    as a ``RakeTaken`` without a kind does: the drop box total stays right."""
    return "incremental_rake_cents" if kind == "incremental" else "percentage_rake_cents"


_LEDGER_COLUMNS = ("hands", "percentage_rake_cents", "incremental_rake_cents",
                   "time_charges_pending_cents", "time_charges_cents")


def _keys(table_id: str, day: str) -> list[Any]:
    table = GameTable._meta.pk.get_db_prep_value(uuid.UUID(str(table_id)), connection)
    return [_property_of(table_id), table,
            connection.ops.adapt_datefield_value(date.fromisoformat(day))]


def _upsert_day(table_id: str, day: str, row: dict[str, int]) -> None:
    """One INSERT … ON CONFLICT adding ``row`` to the table's day (PostgreSQL and SQLite;
    no read, so it works in the append's pipeline)."""
    cols = ", ".join(_LEDGER_COLUMNS)
    adds = ", ".join(f"{c} = poker_room_rakeday.{c} + excluded.{c}" for c in _LEDGER_COLUMNS)
    write_unread(f"INSERT INTO poker_room_rakeday (property_id, table_id, gaming_day, "
                 f"{cols}) VALUES (%s, %s, %s, {', '.join(['%s'] * len(_LEDGER_COLUMNS))}) "
                 f"ON CONFLICT (table_id, gaming_day) DO UPDATE SET {adds}",
                 _keys(table_id, day) + [row[c] for c in _LEDGER_COLUMNS])


def _upsert_fund(table_id: str, day: str, fund: str, cents: int) -> None:
    write_unread("INSERT INTO poker_room_fundcontributionday (property_id, table_id, "
                 "gaming_day, fund, cents) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (table_id, "
                 "gaming_day, fund) DO UPDATE SET "
                 "cents = poker_room_fundcontributionday.cents + excluded.cents",
                 _keys(table_id, day) + [fund, cents])


@register
class SeatedPlayerErasure(Projection):
    """A seated player's name and phone blanked (an anonymous seat) once their key is
    erased (``PersonalDataErased``: the list entry's they were called from, or the
    seating's own), in the erasure's transaction. A seat is live state that the services
    read (who is seated in the room, who moves with the stakes), so an erased player is
    a seat with no name rather than one named "erased". It owns no rows: a rebuild of it
    only blanks them again, and a rebuild of the seats finds nothing to unseal."""

    name = "poker_seat_personal_data"
    mode = "inline"
    event_types = frozenset({ERASED_EVENT})

    def apply(self, event: RecordedEvent) -> None:
        Seat.objects.filter(personal_subject=event.data["subject"]).update(
            player_name="", player_phone="")

    def reset(self) -> None:
        """Nothing of its own to drop (the rows are the seats projection's)."""
