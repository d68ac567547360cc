"""The printables of a table's gaming day in the console (issue 23, item 5;
``finance.console_pages``): the fill and credit slip, the table inventory slip and the drop
box's count sheet, each with its figures worked by hand and a signature line for every step
the table day records, filled with the person and credential the event names.

No chapter held here prescribes the fill, credit or inventory forms; the drop box is the
box every table carries (§ 579.2(c), § 589.2(c), § 671a.2(c), § 637a.2(d)); the signature
lines are the steps and the separation of duties of ``finance.domain.table_day``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from casino.actors import Actor, actor_of
from casino.eventstore.models import Event
from casino.services import property_register
from finance.models import TableDay
from finance.services import drop, tray
from tests.console.conftest import client_of, text_of  # the second factor given

pytestmark = pytest.mark.django_db

# a fill of 2 × $100 + 4 × $25 = $200 + $100 = $300.00
FILL = {"10000": 2, "2500": 4}
# a credit of 3 × $5 = $15.00
CREDIT = {"500": 3}
# an opener of 40 × $25 + 100 × $5 = $1,000 + $500 = $1,500.00
OPENER = {"2500": 40, "500": 100}
# a drop of 3 × $100 + 4 × $20 = $300 + $80 = $380.00 in notes, and 2 × $5 chips = $10.00:
# $390.00 counted in all
CASH = {"10000": 3, "2000": 4}
CHIPS = {"500": 2}


@pytest.fixture
def table(open_table: Callable) -> Any:
    return open_table("five-card-hi-lo")


def _slip(team: dict[str, Actor], table: Any, kind: str, pieces: dict[str, int]) -> str:
    known = {k for s in TableDay.objects.filter(table=table).values_list("state", flat=True)
             for k in s.get("slips", {})}
    row = tray.slip_request(actor=team["floor"], table_id=table.pk, kind=kind, pieces=pieces)
    (new,) = set(row.state["slips"]) - known
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=new)
    tray.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=new)
    tray.slip_complete(actor=team["dealer"], table_id=table.pk, slip_id=new)
    return new


def _url(table: Any, actor: Actor, rest: str) -> str:
    return f"/console/print/tables/{table.pk}/{actor.gaming_day().isoformat()}/{rest}"


def test_a_fill_slip_prints_its_chips_its_total_and_four_signatures(
        team: dict[str, Actor], table: Any) -> None:
    """2 × $100 + 4 × $25 = $300.00; requested by the floorperson, prepared by the cashier,
    carried by the runner, received by the dealer: each line names its person and
    credential."""
    slip = _slip(team, table, "fill", FILL)
    r = client_of(team["cashier"]).get(_url(table, team["cashier"], f"slips/{slip}/"))
    assert r.status_code == 200
    text = text_of(r.content.decode())
    assert "Fill slip" in text
    assert "$100.00 2 $200.00" in text and "$25.00 4 $100.00" in text
    assert "Total $300.00" in text
    for role, step, who in (("Floorperson or above", "requested the fill", "floor"),
                            ("Cashier", "prepared the slip", "cashier"),
                            ("Security (runner)", "carried the slip", "runner"),
                            ("Dealer or floorperson", "received the chips", "dealer")):
        person = team[who]
        line = re.search(rf"{re.escape(role)}: {step}.*?Name: (\S+) · Credential no.: (\S+)",
                         text)
        assert line, (role, text)
        assert line.groups() == (person.username, person.credential_number)
    assert text.count("Signature") >= 4 and 'data-print' in r.content.decode()


def test_a_credit_slip_says_credit_and_the_chips_leave_the_table(
        team: dict[str, Actor], table: Any) -> None:
    slip = _slip(team, table, "credit", CREDIT)
    text = text_of(client_of(team["finance"]).get(
        _url(table, team["finance"], f"slips/{slip}/")).content.decode())
    assert "Credit slip" in text and "$5.00 3 $15.00" in text and "Total $15.00" in text
    assert "released the chips at the table" in text


def test_the_table_inventory_slip_prints_the_tray_and_the_two_signatures(
        team: dict[str, Actor], table: Any) -> None:
    """40 × $25 + 100 × $5 = $1,500.00, counted by the dealer, verified by the
    floorperson."""
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces=OPENER)
    tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip="opener")
    text = text_of(client_of(team["floor"]).get(
        _url(table, team["floor"], "inventory/opener/")).content.decode())
    assert "Table inventory slip" in text and "opening" in text
    assert "$25.00 40 $1,000.00" in text and "$5.00 100 $500.00" in text
    assert "Total $1,500.00" in text
    assert f"Dealer: counted the chip tray (each step a different person (finance.domain." \
           f"table_day)) Signature Name: {team['dealer'].username}" in text
    assert "verified the count" in text and team["floor"].username in text


def test_the_drop_count_sheet_prints_notes_chips_the_total_and_four_signatures(
        team: dict[str, Actor], table: Any) -> None:
    """3 × $100 + 4 × $20 = $380.00 in notes, 2 × $5 in chips = $10.00: $390.00; the box
    of a Five Card Hi-Lo table is § 579.2(c)'s."""
    drop.drop_remove(actor=team["runner"], table_id=table.pk)
    drop.drop_count(actor=team["counter"], table_id=table.pk, cash=CASH, chips=CHIPS)
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    drop.drop_accept(actor=team["cashier"], table_id=table.pk)
    text = text_of(client_of(team["counter"]).get(
        _url(table, team["counter"], "drop/")).content.decode())
    assert "Drop box count sheet" in text and "§ 579.2(c)" in text
    assert "$100.00 3 $300.00" in text and "$20.00 4 $80.00" in text
    assert "$5.00 2 $10.00" in text and "Counted in all: $390.00" in text
    for role, who in (("Security", "runner"), ("Count team", "counter"),
                      ("Count team (a second member)", "counter2"), ("Cashier", "cashier")):
        assert re.search(rf"{re.escape(role)}: [^:]*?Name: {team[who].username} ", text), role


def test_a_step_not_yet_taken_leaves_its_line_blank_for_the_pen(
        team: dict[str, Actor], table: Any) -> None:
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces=OPENER)
    text = text_of(client_of(team["floor"]).get(
        _url(table, team["floor"], "inventory/opener/")).content.decode())
    assert re.search(r"verified the count .*?Name: _+ · Credential no.: _+", text)


def test_reading_a_printable_appends_nothing(team: dict[str, Actor], table: Any) -> None:
    slip = _slip(team, table, "fill", FILL)
    before = Event.objects.count()
    client_of(team["cashier"]).get(_url(table, team["cashier"], f"slips/{slip}/"))
    assert Event.objects.count() == before


def test_a_role_that_does_not_read_the_table_day_is_403(
        team: dict[str, Actor], table: Any) -> None:
    # the dealer records slips but does not read table days (finance.services.READERS)
    slip = _slip(team, table, "fill", FILL)
    r = client_of(team["dealer"]).get(_url(table, team["dealer"], f"slips/{slip}/"))
    assert r.status_code == 403


def test_another_propertys_table_is_404(team: dict[str, Actor], table: Any,
                                        make_staff: Callable) -> None:
    slip = _slip(team, table, "fill", FILL)
    other = property_register(licence_number="PA-OTHER-PR", name="Other Casino",
                              system="test")
    cashier = actor_of(make_staff("cashier", property=other))
    r = client_of(cashier).get(_url(table, team["cashier"], f"slips/{slip}/"))
    assert r.status_code == 404


def test_an_unknown_slip_and_a_box_not_counted_are_404(
        team: dict[str, Actor], table: Any) -> None:
    c = client_of(team["cashier"])
    assert c.get(_url(table, team["cashier"], "slips/nope/")).status_code == 404
    assert c.get(_url(table, team["cashier"], "drop/")).status_code == 404
    assert c.get(_url(table, team["cashier"], "inventory/closer/")).status_code == 404


def test_without_a_login_the_printable_asks_for_one(team: dict[str, Actor], table: Any
                                                    ) -> None:
    r = Client().get(_url(table, team["cashier"], "drop/"))
    assert r.status_code == 302 and "/console/login/" in r["Location"]
