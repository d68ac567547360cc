"""Time charges (§ 637a.17(b)(3)): assessed per period, once; inactive seated players
included; verified by a floorperson before they count in the drop box."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from casino.models import Event
from poker_room.models import RakeDay, Seat, TimeChargePeriod
from poker_room.services import seats
from poker_room.services.time_charges import (
    period_of,
    time_charge_assess,
    time_charges_sweep,
)

pytestmark = pytest.mark.django_db

PER_PLAYER = {"types": ["time-charge"], "time_charge": {
    "basis": "per-player", "hourly_cents": 1_200, "assessed_every_minutes": 20}}
PER_TABLE = {"types": ["time-charge"], "time_charge": {
    "basis": "per-table", "hourly_cents": 1_000, "assessed_every_minutes": 30}}


def _seated(crew, poker_table: Callable, rake: dict, players: int = 3):
    setup = poker_table("holdem", rake=rake)
    table = setup["table"]
    for seat in range(1, players + 1):
        seats.seat_player(actor=crew["dealer"], table_id=table.pk, seat=seat,
                          buy_in_cents=10_000, paid_with="chips")
    return table


def _first_period(table, minutes: int):
    seated = Seat.objects.filter(table=table).order_by("seated_at").first().seated_at
    start = period_of(seated, minutes)
    return start + timedelta(minutes=minutes)


@pytest.mark.regulation("637a.17(b)(3)(i)", "637a.17(b)(3)(ii)", "637a.17(b)(3)(iii)")
def test_per_player_every_20_minutes_inactive_players_included(crew, poker_table) -> None:
    """§ 637a.17(b)(3)(i)-(iii): $12 an hour per player, assessed every 20 minutes: $4 from
    each of three seated players, the one sitting out included. Assessed twice, charged
    once."""
    table = _seated(crew, poker_table, PER_PLAYER)
    seats.sit_out(actor=crew["dealer"], table_id=table.pk, seat=3)
    start = _first_period(table, 20)
    assert time_charge_assess(table_id=table.pk, period_start=start) == "assessed"
    before = Event.objects.count()
    assert time_charge_assess(table_id=table.pk, period_start=start) == "already-assessed"
    assert Event.objects.count() == before
    period = TimeChargePeriod.objects.get(table=table)
    assert period.charges == {"1": 400, "2": 400, "3": 400} and period.total_cents == 1_200
    assert dict(Seat.objects.filter(table=table).values_list("seat", "stack_cents")) == {
        1: 9_600, 2: 9_600, 3: 9_600}
    day = RakeDay.objects.get(table=table)
    assert (day.time_charges_pending_cents, day.rake_and_time_charges_cents) == (1_200, 0)


@pytest.mark.regulation("637a.17(b)(3)(i)", "637a.17(b)(3)(ii)")
def test_per_table_fee_shared_in_whole_chips(crew, poker_table) -> None:
    """§ 637a.17(b)(3)(i)-(ii): $10 an hour for the table every 30 minutes is $5 a period,
    shared by three players in $1 chips: $2, $2 and $1 (the odd chip on the lowest seats)."""
    table = _seated(crew, poker_table, PER_TABLE)
    time_charge_assess(table_id=table.pk, period_start=_first_period(table, 30))
    assert TimeChargePeriod.objects.get(table=table).charges == {"1": 200, "2": 200, "3": 100}


@pytest.mark.regulation("637a.17(b)(3)(iv)", "637a.17(b)(3)(v)")
def test_floorperson_verifies_then_the_drop_box_expects_it(crew, poker_table, as_actor
                                                            ) -> None:
    """§ 637a.17(b)(3)(iv)-(v): placed in the rake area, then, once a floorperson has
    verified them, in the drop box; a dealer may not verify, nobody verifies twice."""
    table = _seated(crew, poker_table, PER_PLAYER)
    start = _first_period(table, 20)
    time_charge_assess(table_id=table.pk, period_start=start)
    url = f"/api/v1/poker-tables/{table.pk}/time-charges/verify/"
    body = {"period_start": start.isoformat()}
    r = as_actor(crew["dealer"]).post(url, body, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "role_required")
    floor = as_actor(crew["floor"])
    assert floor.post(url, body, format="json").status_code == 200
    r = floor.post(url, body, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "already_verified")
    r = floor.post(url, {"period_start": (start + timedelta(minutes=20)).isoformat()},
                   format="json")
    assert (r.status_code, r.json()["code"]) == (404, "time_charge_not_found")
    # the period's own gaming day: the first period may begin after the day's boundary
    day = crew["floor"].gaming_day(start).isoformat()
    ledger = floor.get(f"/api/v1/poker-tables/{table.pk}/rake-ledger/?gaming_day={day}").json()
    assert (ledger["time_charges_cents"], ledger["time_charges_pending_cents"],
            ledger["rake_and_time_charges_cents"]) == (1_200, 0, 1_200)


@pytest.mark.regulation("637a.17(b)(3)(iii)")
def test_the_sweep_assesses_every_period_due_and_catches_a_missed_one(crew, poker_table
                                                                      ) -> None:
    """§ 637a.17(b)(3)(iii): every 20 minutes. An hour after the players sat down three
    periods have begun; a sweep twenty minutes in assessed the first, the next sweep finds
    the two it has not seen (one of them missed), and a third sweep finds nothing."""
    table = _seated(crew, poker_table, PER_PLAYER)
    seated = Seat.objects.filter(table=table).first().seated_at
    assert time_charges_sweep(now=seated + timedelta(minutes=20)) == {"assessed": 1}
    assert time_charges_sweep(now=seated + timedelta(minutes=60)) == {"assessed": 2}
    assert time_charges_sweep(now=seated + timedelta(minutes=60)) == {}
    assert TimeChargePeriod.objects.filter(table=table).count() == 3
    assert Seat.objects.get(table=table, seat=1).stack_cents == 10_000 - 3 * 400
