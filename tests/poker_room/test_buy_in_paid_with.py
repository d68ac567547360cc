"""A poker buy-in or add-on records how it was paid (§ 637a.8(b)(2)-(3)): cash at the table
is a chip sale of the table's day, recorded by the seating command in its transaction
(the cash goes in the drop box); chips brought from the cage or another table are no
sale. The rake ledger's figure (§ 637a.17(b)) and finance's expected drop of the same box
are two named figures, the second computed by finance alone. Against the real database,
event store and API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from casino.eventstore.models import Event
from finance.figures import table_day_figures
from finance.services import drop_remove
from tests.jackpots._hands import play_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(crew, poker_table: Callable, as_actor: Callable, staff: Callable) -> dict[str, Any]:
    table = poker_table("holdem")["table"]
    return {"table": table, "dealer": as_actor(crew["dealer"]), "crew": crew,
            "floor": as_actor(crew["floor"]), "day": crew["dealer"].gaming_day(),
            "security": staff("security")}


def _take(room: dict[str, Any], seat: int, cents: int, **more: Any) -> Any:
    return room["dealer"].post(f"/api/v1/poker-tables/{room['table'].pk}/seats/take/",
                               {"seat": seat, "buy_in_cents": cents, **more}, format="json")


def _add(room: dict[str, Any], seat: int, cents: int, **more: Any) -> Any:
    return room["dealer"].post(f"/api/v1/poker-tables/{room['table'].pk}/seats/chips/",
                               {"seat": seat, "amount_cents": cents, **more}, format="json")


def _chip_sales(room: dict[str, Any]) -> int:
    r = room["floor"].get(f"/api/v1/finance/tables/{room['table'].pk}/days/{room['day']}/")
    return r.json()["chip_sales_cents"] if r.status_code == 200 else 0


@pytest.mark.regulation("637a.8(b)(2)", "637a.8(b)(3)")
def test_a_cash_buy_in_is_the_days_chip_sale_chips_brought_are_none(room) -> None:
    """§ 637a.8(b)(2)-(3): seat 1 buys in with $100 cash and adds $50 cash: $150 of chip
    sales, each a ChipsSold in the table day's stream naming the seat, appended by the
    seating command itself; seat 2 brings $100 of chips from the cage and adds $20 of
    chips: no sale."""
    assert _take(room, 1, 10_000, paid_with="cash").status_code == 201
    assert _chip_sales(room) == 10_000
    assert _add(room, 1, 5_000, paid_with="cash").status_code == 200
    assert _take(room, 2, 10_000, paid_with="chips").status_code == 201
    assert _add(room, 2, 2_000, paid_with="chips").status_code == 200
    assert _chip_sales(room) == 15_000
    sales = Event.objects.filter(type="ChipsSold").order_by("position")
    assert [(e.data["amount_cents"], e.data["seat"], e.data["paid_for"]) for e in sales] == [
        (10_000, 1, "buy_in"), (5_000, 1, "add_on")]
    seated = {e.data["seat"]: e.data["paid_with"]
              for e in Event.objects.filter(type="PlayerSeated")}
    assert seated == {1: "cash", 2: "chips"}


def test_leaving_paid_with_out_is_a_400_nothing_appended(room) -> None:
    """§ 637a.8(b)(2)-(3): a buy-in or add-on that does not say how it was paid is
    refused, not taken as chips brought to the table (a client that left it out recorded
    a cash buy-in as no chip sale): 400 ``invalid_paid_with`` naming the field, for a
    buy-in and an add-on, left out or null; nothing is appended."""
    assert _take(room, 1, 10_000, paid_with="cash").status_code == 201
    before = Event.objects.count()
    for r in (_take(room, 2, 10_000), _take(room, 2, 10_000, paid_with=None),
              _add(room, 1, 1_000), _add(room, 1, 1_000, paid_with=None)):
        assert (r.status_code, r.json()["code"], r.json()["field"]) == (
            400, "invalid_paid_with", "paid_with"), r.json()
    assert Event.objects.count() == before
    assert _chip_sales(room) == 10_000


def test_an_unknown_paid_with_is_a_400_nothing_appended(room) -> None:
    """Bad input: paid_with other than cash or chips is 400 ``invalid_paid_with`` naming
    the field, for a buy-in and an add-on; nothing is appended."""
    assert _take(room, 1, 10_000, paid_with="cash").status_code == 201
    before = Event.objects.count()
    for r in (_take(room, 2, 10_000, paid_with="credit"), _take(room, 2, 10_000, paid_with=7),
              _add(room, 1, 1_000, paid_with="marker")):
        assert (r.status_code, r.json()["code"], r.json()["field"]) == (
            400, "invalid_paid_with", "paid_with"), r.json()
    assert Event.objects.count() == before
    assert _chip_sales(room) == 10_000


def test_a_cash_buy_in_after_the_box_is_removed_is_refused_whole(room) -> None:
    """§ 637a.8(b)(1): the cash of a buy-in goes into the drop box; once security has
    removed the box there is none: 409 ``drop_removed``, and the seat is not taken either
    (nothing appended). Chips brought from the cage are still welcome."""
    drop_remove(actor=room["security"], table_id=room["table"].pk)
    before = Event.objects.count()
    r = _take(room, 1, 10_000, paid_with="cash")
    assert (r.status_code, r.json()["code"]) == (409, "drop_removed")
    assert Event.objects.count() == before
    assert _take(room, 1, 10_000, paid_with="chips").status_code == 201


def test_the_rake_ledger_and_finance_name_their_figures_of_one_box(room) -> None:
    """§ 637a.17(b)(1)(ii): three players buy in for $100 cash; one hand of a $24 pot
    raked 10 %: $2.40, $2 in whole chips. The rake ledger's rake and time charges: $2.00,
    under that name (no "drop_box_expected_cents" beside it); finance's expected drop of
    the same box: the $300.00 of chip sales and the $2.00 of rake, $302.00."""
    for seat in (1, 2, 3):
        assert _take(room, seat, 10_000, paid_with="cash").status_code == 201
    play_hand(room["dealer"], room["table"])
    ledger = room["floor"].get(
        f"/api/v1/poker-tables/{room['table'].pk}/rake-ledger/").json()
    assert ledger["rake_and_time_charges_cents"] == 200
    assert "drop_box_expected_cents" not in ledger
    figures = table_day_figures(room["table"].property, room["day"],
                                table_ids=[room["table"].pk])[room["table"].pk][1]
    assert (figures.chip_sales_cents, figures.expected_drop_cents) == (30_000, 30_200)


def test_the_demo_players_buy_in_with_cash(crew, put_rules_in_effect, make_staff) -> None:
    """§ 637a.8(b)(1): the demo's four players at an open demo Hold'em table buy in for
    $100 each, in cash: the table's day shows $400.00 of chip sales."""
    from finance.models import TableDay
    from poker_room.demo import seed_players
    from tables.services import tables

    put_rules_in_effect("holdem")
    make_staff("dealer", username="demo_dealer")
    make_staff("floorperson", username="demo_floorperson")  # registers the jackpot boxes
    table = tables.table_configure(actor=crew["admin"], name="P-HOLDEM", game="holdem",
                                   positions=10, dealing_method="hand", shuffler="automated")
    tables.table_assign_dealer(actor=crew["floor"], table_id=table.pk, dealer="demo_dealer")
    tables.table_open(actor=crew["floor"], table_id=table.pk)
    assert seed_players(table.property) == ["P-HOLDEM: 4 players seated with $100.00 each"]
    day = TableDay.objects.get(table_id=table.pk)
    assert (day.gaming_day, day.chip_sales_cents) == (crew["dealer"].gaming_day(), 40_000)
