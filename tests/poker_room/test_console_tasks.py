"""The poker room's list on the console's "waiting for me" (poker_room.console_tasks):
time charges assessed and placed in the rake area, waiting for a floorperson or above to
verify them (§ 637a.17(b)(3)(iv)-(v)); shown to the roles the command admits, gone for
everyone once verified, never another property's, in one query however many tables.

State is built through the real services; the list is read through the registry."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.actors import Actor, actor_of
from casino.declared import declared
from console.registry import REGISTRY, WaitingItem, providers_for
from poker_room.services import seats
from poker_room.services.time_charges import time_charge_assess, time_charge_verify
from tables.domain.rules_options import example_options
from tables.services import rules, tables

pytestmark = pytest.mark.django_db

KEY = "time_charges_to_verify"
#: $12 an hour per player, assessed every 20 minutes: $4 a player a period
PER_PLAYER = {"types": ["time-charge"], "time_charge": {
    "basis": "per-player", "hourly_cents": 1_200, "assessed_every_minutes": 20}}
#: 6:10 AM EST on the demo property's clock (America/New_York, UTC-5 in November)
SEATED = datetime(2026, 11, 25, 11, 10, tzinfo=UTC)
#: a period start (20-minute periods from the hour): 6:20 AM EST
PERIOD = datetime(2026, 11, 25, 11, 20, tzinfo=UTC)


def waiting(actor: Actor) -> list[WaitingItem]:
    if KEY not in {p.key for p in providers_for(actor.roles)}:
        return []
    return list(REGISTRY.tasks[KEY].items(actor))


@pytest.fixture
def person(make_staff: Callable) -> Callable[..., Actor]:
    def make(*roles: str, **kw: Any) -> Actor:
        return actor_of(make_staff(*roles, **kw))
    return make


def _rules_with_time_charge(officer: Actor, approver: Actor) -> None:
    rs = rules.rules_draft(actor=officer, game="holdem",
                           options={**example_options("holdem"), "rake": PER_PLAYER})
    rules.rules_submit(actor=officer, rules_id=rs.pk)
    rules.rules_approve(actor=approver, rules_id=rs.pk)


def _charged_table(name: str, admin: Actor, floor: Actor, dealer: Actor,
                   players: int = 1) -> Any:
    """An open Hold'em table with ``players`` seated at 6:10 AM EST and the 6:20 AM EST
    period assessed."""
    t = tables.table_configure(actor=admin, name=name, game="holdem", positions=9,
                               dealing_method="hand", shuffler="automated")
    tables.table_assign_dealer(actor=floor, table_id=t.pk, dealer=dealer.username)
    tables.table_open(actor=floor, table_id=t.pk)
    with time_machine.travel(SEATED, tick=False):
        for seat in range(1, players + 1):
            seats.seat_player(actor=dealer, table_id=t.pk, seat=seat, buy_in_cents=10_000,
                              paid_with="chips")
    assert time_charge_assess(table_id=t.pk, period_start=PERIOD) == "assessed"
    return t


def test_shown_to_exactly_the_roles_the_command_admits() -> None:
    importlib.import_module("poker_room.commands")
    assert set(REGISTRY.tasks[KEY].roles) == set(declared("time_charge_verify").roles)


def test_a_period_waits_for_the_floor_until_verified(crew, person) -> None:
    """§ 637a.17(b)(3)(iv)-(v): three players at $12 an hour every 20 minutes: $4.00 each,
    $12.00 for the 6:20 AM EST period, waiting for a floorperson or a poker shift
    supervisor (not the dealer); once one verifies it, it is gone for both."""
    _rules_with_time_charge(crew["compliance"], crew["approver"])
    table = _charged_table("Holdem 1", crew["admin"], crew["floor"], crew["dealer"],
                           players=3)
    supervisor = person("poker_shift_supervisor")
    with time_machine.travel(PERIOD + timedelta(minutes=5), tick=False):
        [item] = waiting(crew["floor"])
        assert waiting(supervisor) == [item]
    assert item.title == "Holdem 1: time charge to verify"
    assert item.detail == "$12.00 from 3 seats for the period from 6:20 AM EST"
    assert item.actionable and not item.first_by  # assessed by the room's timer
    assert item.url == (f"/console/do/time_charge_verify/{table.pk}/"
                        "?period_start=2026-11-25T11%3A20%3A00%2B00%3A00")
    assert KEY not in {p.key for p in providers_for(crew["dealer"].roles)}

    time_charge_verify(actor=supervisor, table_id=table.pk, period_start=PERIOD.isoformat())
    assert waiting(crew["floor"]) == []
    assert waiting(supervisor) == []


def test_another_propertys_time_charges_are_never_shown(crew, person) -> None:
    """Read at the viewer's property only (issue 11)."""
    from casino.services import property_register

    other = property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")
    them = {r: person(r, property=other) for r in ("admin", "floorperson", "dealer")}
    _rules_with_time_charge(person("compliance", property=other),
                            person("compliance", property=other))
    _charged_table("Far 1", them["admin"], them["floorperson"], them["dealer"])
    assert len(waiting(them["floorperson"])) == 1  # theirs wait for them
    assert waiting(crew["floor"]) == []


def test_one_query_at_3_tables_or_30(crew) -> None:
    """Three tables or thirty, each with a period to verify: the same single query (the
    table's name joined, not read per item)."""
    _rules_with_time_charge(crew["compliance"], crew["approver"])
    staff = (crew["admin"], crew["floor"], crew["dealer"])

    def read() -> tuple[int, int]:
        with time_machine.travel(PERIOD + timedelta(minutes=5), tick=False), \
                CaptureQueriesContext(connection) as ctx:
            n = len(REGISTRY.tasks[KEY].items(crew["floor"]))
        return n, len(ctx.captured_queries)

    for i in range(3):
        _charged_table(f"Holdem {i}", *staff)
    few = read()
    for i in range(3, 30):
        _charged_table(f"Holdem {i}", *staff)
    assert (few, read()) == ((3, 1), (30, 1))
