"""Finance's "waiting for me" lists (finance.console_tasks): each built from real state made
through the real services, each read from the read models in a fixed number of queries.

For each list: the item is offered to the role whose step it is and not to another; a
two-person step names who took the first and is never offered to that person (nobody
signs two steps of one slip or count, § 579.2(c)/§ 589.2(c) drop box handling as the
finance tests cite them; the explainer does not sign off); it disappears for everyone once
done; another property's items are never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.actors import Actor, actor_of
from casino.domain.wall_clock import format_date
from casino.services import property_register
from console.registry import REGISTRY, WaitingItem, providers_for
from finance.services import close, drop, exceptions, tray
from tables.services import tables as table_services
from tests.finance.test_tray import FILL, OPENER, Team, request

pytestmark = pytest.mark.django_db

# 3 × $100 + 4 × $20 = $380.00 in the box; nothing was sold for cash, so the expected drop
# is $0.00 and the count is $380.00 over: beyond the tolerance, an exception at acceptance
CASH = {"10000": 3, "2000": 4}


@pytest.fixture
def table(open_table: Callable) -> Any:
    return open_table("five-card-hi-lo")


def items(key: str, actor: Actor) -> list[WaitingItem]:
    return list(REGISTRY.tasks[key].items(actor))


def shown(key: str, actor: Actor) -> bool:
    """Whether the viewer's home would list the provider at all (its roles)."""
    return key in {p.key for p in providers_for(actor.roles)}


def test_a_fill_goes_from_the_cage_to_the_runner_to_the_table(team: Team, table: Any) -> None:
    """Requested by the floorperson, prepared by the cashier, carried by the runner, signed
    at the table: each step waits for its role only, names who took the step before, and is
    gone for everyone once taken. 20 × $25 = $500.00."""
    slip = request(team, table)
    number = slip[:8].upper()
    # the cage prepares it; security and the dealer are not offered the list
    (item,) = items("finance_slips_to_prepare", team["cashier"])
    assert item.title == f"Fill slip {number}: $500.00 to {table.name}"
    assert item.first_by == team["floor"].username and item.actionable
    assert item.detail.startswith(f"Requested by {team['floor'].username} at ")
    assert item.detail.endswith(("AM EST", "PM EST", "AM EDT", "PM EDT"))
    assert item.url == (f"/console/do/slip_prepare/{table.pk}/?slip_id={slip}"
                        f"&gaming_day={team['cashier'].gaming_day().isoformat()}")
    assert shown("finance_slips_to_prepare", team["cashier"])
    assert not shown("finance_slips_to_prepare", team["runner"])
    assert not shown("finance_slips_to_prepare", team["dealer"])
    assert items("finance_slips_to_carry", team["runner"]) == []

    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    assert items("finance_slips_to_prepare", team["cashier"]) == []
    (item,) = items("finance_slips_to_carry", team["runner"])
    assert (item.first_by, item.action) == (team["cashier"].username, "Sign for carrying it")
    assert item.url.startswith(f"/console/do/slip_carry/{table.pk}/?slip_id={slip}")

    tray.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=slip)
    assert items("finance_slips_to_carry", team["runner"]) == []
    (item,) = items("finance_slips_to_complete", team["dealer"])
    assert item.first_by == team["runner"].username and item.actionable
    # the floorperson who requested it is at the table too, but signed its first step:
    # shown, not offered (the service would answer 409 signed_already)
    (theirs,) = items("finance_slips_to_complete", team["floor"])
    assert not theirs.actionable

    tray.slip_complete(actor=team["dealer"], table_id=table.pk, slip_id=slip)
    for key, who in (("finance_slips_to_prepare", "cashier"), ("finance_slips_to_carry",
                     "runner"), ("finance_slips_to_complete", "dealer"),
                     ("finance_slips_to_complete", "floor")):
        assert items(key, team[who]) == [], key


def test_a_credit_slip_names_the_chips_going_back_to_the_cage(team: Team, table: Any) -> None:
    """A credit of 10 × $5 = $50.00 from the table."""
    slip = request(team, table, "credit")
    (item,) = items("finance_slips_to_prepare", team["cashier"])
    assert item.title == f"Credit slip {slip[:8].upper()}: $50.00 from {table.name}"


def test_an_inventory_waits_for_a_floorperson_who_is_not_the_dealer_who_recorded_it(
        team: Team, table: Any, staff: Callable) -> None:
    """40 × $25 + 100 × $5 = $1,500.00 recorded by a person holding both roles: they are
    shown as its first signer and not offered the signature; another floorperson is."""
    both = staff("dealer", "floorperson")
    tray.inventory_record(actor=both, table_id=table.pk, slip="opener", pieces=OPENER)
    (mine,) = items("finance_inventories_to_sign", both)
    assert mine.title == f"Opening inventory of {table.name}: $1,500.00"
    assert (mine.first_by, mine.actionable) == (both.username, False)
    (item,) = items("finance_inventories_to_sign", team["floor"])
    assert item.actionable and item.url.startswith(
        f"/console/do/inventory_sign/{table.pk}/?slip=opener&gaming_day=")
    assert not shown("finance_inventories_to_sign", team["dealer"])
    tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip="opener")
    assert items("finance_inventories_to_sign", team["floor"]) == []
    assert items("finance_inventories_to_sign", both) == []


def test_a_drop_box_from_its_removal_to_the_cashiers_acceptance_and_its_exception(
        team: Team, table: Any) -> None:
    """The box waits for security once the closer is recorded, then for the count team,
    then for a second member of it (not the counter), then for the cashier. Nothing was
    sold for cash: the expected drop is $0.00, the count $380.00, over by $380.00, an
    exception from the acceptance; finance explains it and a second person signs it off,
    never the one who explained it."""
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces=OPENER)
    assert items("finance_drop_boxes_to_remove", team["runner"]) == []  # still in play
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="closer",
                          pieces=OPENER)
    (item,) = items("finance_drop_boxes_to_remove", team["runner"])
    assert item.title == f"Drop box of {table.name}" and item.action == "Remove the box"
    assert not shown("finance_drop_boxes_to_remove", team["counter"])

    drop.drop_remove(actor=team["runner"], table_id=table.pk)
    assert items("finance_drop_boxes_to_remove", team["runner"]) == []
    (item,) = items("finance_drop_boxes_to_count", team["counter"])
    assert item.first_by == team["runner"].username
    assert not shown("finance_drop_boxes_to_count", team["cashier"])

    drop.drop_count(actor=team["counter"], table_id=table.pk, cash=CASH)
    assert items("finance_drop_boxes_to_count", team["counter"]) == []
    (theirs,) = items("finance_drop_counts_to_sign", team["counter"])
    assert theirs.title == f"Drop box of {table.name}: counted $380.00"
    assert (theirs.first_by, theirs.actionable) == (team["counter"].username, False)
    (item,) = items("finance_drop_counts_to_sign", team["counter2"])
    assert item.actionable

    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    assert items("finance_drop_counts_to_sign", team["counter2"]) == []
    (item,) = items("finance_drop_counts_to_accept", team["cashier"])
    assert item.first_by == team["counter2"].username and item.actionable

    drop.drop_accept(actor=team["cashier"], table_id=table.pk)
    assert items("finance_drop_counts_to_accept", team["cashier"]) == []

    (item,) = items("finance_exceptions_to_explain", team["finance"])
    day = team["finance"].gaming_day()
    assert item.title == f"Drop over $380.00 at {table.name}, {format_date(day)}"
    assert item.detail.startswith("Expected $0.00, counted $380.00; found ")
    assert not shown("finance_exceptions_to_explain", team["auditor"])
    exception_id = item.url.split("/")[4]
    assert item.url == f"/console/do/variance_explain/{exception_id}/"

    exceptions.variance_explain(actor=team["finance"], exception_id=exception_id,
                                explanation="A $380 envelope dropped in the box by mistake")
    assert items("finance_exceptions_to_explain", team["finance"]) == []
    (mine,) = items("finance_exceptions_to_sign_off", team["finance"])
    assert (mine.first_by, mine.actionable) == (team["finance"].username, False)
    assert mine.detail.endswith(": A $380 envelope dropped in the box by mistake")
    for other in ("finance2", "auditor"):
        (item,) = items("finance_exceptions_to_sign_off", team[other])
        assert item.actionable, other
    exceptions.variance_sign_off(actor=team["auditor"], exception_id=exception_id)
    for who in ("finance", "finance2", "auditor"):
        assert items("finance_exceptions_to_sign_off", team[who]) == []


def test_a_gaming_day_held_with_open_items_waits_for_finance(team: Team, table: Any) -> None:
    """Yesterday's closer recorded and not signed, nothing else: the beat holds the day
    with its items open (the closer unsigned, no opener, the box not counted); finance sees
    it, and once it closes the day with them listed the day is gone from the list."""
    yesterday = team["dealer"].gaming_day() - timedelta(days=1)
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="closer",
                          pieces=OPENER, gaming_day=yesterday.isoformat())
    # the box of the day just ended waits for security, named with its gaming day
    (box,) = items("finance_drop_boxes_to_remove", team["runner"])
    assert box.title == f"Drop box of {table.name} (gaming day {format_date(yesterday)})"
    assert close.gaming_days_close_due()["held"] == 1
    (item,) = items("finance_gaming_days_held", team["finance"])
    assert item.title == f"Gaming day {format_date(yesterday)} held: 3 items open"
    assert item.detail == "1 box not counted; 1 closer not signed; 1 no opener"
    assert item.url == f"/console/do/gaming_day_close/?gaming_day={yesterday.isoformat()}"
    assert not shown("finance_gaming_days_held", team["cashier"])
    close.gaming_day_close(actor=team["finance"], gaming_day=yesterday.isoformat(),
                           with_open_items=True)
    assert items("finance_gaming_days_held", team["finance"]) == []


def test_another_propertys_items_are_never_shown(team: Team, table: Any,
                                                  make_staff: Callable) -> None:
    request(team, table)
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces=OPENER)
    other = property_register(licence_number="PA-OTHER-TB", name="Other Casino",
                              system="test")
    cashier = actor_of(make_staff("cashier", property=other))
    floor = actor_of(make_staff("floorperson", property=other))
    assert items("finance_slips_to_prepare", team["cashier"]) != []
    assert items("finance_slips_to_prepare", cashier) == []
    assert items("finance_inventories_to_sign", floor) == []


def _tables(crew: dict[str, Actor], n: int, start: int = 0) -> list[Any]:
    """``n`` more tables of the game whose rules are in effect (configured, not opened:
    a fill or an inventory needs only the property's table)."""
    return [table_services.table_configure(
        actor=crew["admin"], name=f"Hi-Lo {start + i}", game="five-card-hi-lo", positions=6,
        dealing_method="automated-shoe", shuffler="automated") for i in range(n)]


def _queries(team: Team) -> dict[str, int]:
    viewers = {"finance_slips_to_prepare": "cashier", "finance_slips_to_carry": "runner",
               "finance_slips_to_complete": "dealer", "finance_inventories_to_sign": "floor",
               "finance_drop_boxes_to_remove": "runner", "finance_drop_boxes_to_count":
               "counter", "finance_drop_counts_to_sign": "counter",
               "finance_drop_counts_to_accept": "cashier", "finance_exceptions_to_explain":
               "finance", "finance_exceptions_to_sign_off": "finance",
               "finance_gaming_days_held": "finance"}
    out = {}
    for key, who in viewers.items():
        with CaptureQueriesContext(connection) as q:
            items(key, team[who])
        out[key] = len(q)
    return out


def _fill(team: Team, tables: list[Any]) -> None:
    for t in tables:
        tray.slip_request(actor=team["floor"], table_id=t.pk, kind="fill", pieces=FILL)
        tray.inventory_record(actor=team["dealer"], table_id=t.pk, slip="opener",
                              pieces=OPENER)
        drop.drop_remove(actor=team["runner"], table_id=t.pk)


def test_each_list_reads_in_the_same_number_of_queries_at_3_and_30_tables(
        team: Team, crew: dict[str, Actor]) -> None:
    """Every table has a fill requested, its opener recorded and not signed and its box
    removed: each list finds 3 items, then 30, in the same number of queries (no N+1)."""
    first = _tables(crew, 3)
    _fill(team, first)
    at_3 = _queries(team)
    _fill(team, _tables(crew, 27, start=3))
    assert len(items("finance_slips_to_prepare", team["cashier"])) == 30
    assert len(items("finance_inventories_to_sign", team["floor"])) == 30
    assert len(items("finance_drop_boxes_to_count", team["counter"])) == 30
    assert _queries(team) == at_3
    assert max(at_3.values()) <= 2


def test_the_navigation_counts_the_cage_count_room_and_finance_lists() -> None:
    """Each nav item names lists that exist, and is shown to the roles whose lists it
    counts: the cashier sees the Cage and not the Count room or Finance."""
    from console.registry import nav_for

    ours = {n.label: n for n in REGISTRY.nav if n.label in ("Cage", "Count room", "Finance")}
    assert set(ours) == {"Cage", "Count room", "Finance"}
    for item in ours.values():
        assert set(item.counts) <= set(REGISTRY.tasks), item.label
    seen = {i.label for _, group in nav_for(frozenset({"cashier"})) for i in group}
    assert "Cage" in seen and not {"Count room", "Finance"} & seen
    seen = {i.label for _, group in nav_for(frozenset({"count_team"})) for i in group}
    assert "Count room" in seen and "Cage" not in seen
