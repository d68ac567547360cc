"""A table's drop box from its removal to the cashier's acceptance, through the services
(:mod:`finance.services.drop`): removed by security, counted by one of a count team who
took no part at that table that day, signed by a second, accepted by a cashier. Each bad
input a specific refusal with nothing appended; figures worked by hand.

The count team may not also deal (casino.domain.segregation), so "a count entered by
someone who worked that table" is a count-team member who also holds another role — a
floorperson who signed the table's inventory or verified its deck, security who carried
its fill — and used it at that table that day.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from casino.actors import Actor
from casino.domain.errors import ConflictError, DomainError
from casino.roles import RoleRequired
from finance.figures import table_day_figures
from finance.models import TableDay
from finance.services import drop, tray
from tables.services import decks
from tests.finance.test_tray import (
    FILL,
    Team,
    nothing_appended,
    open_tray,
    refused,
    request,
    table_events,
    today,
)

pytestmark = pytest.mark.django_db

# 3 × $100 + 4 × $20 = $300 + $80 = $380.00
CASH = {"10000": 3, "2000": 4}


@pytest.fixture
def table(open_table: Callable) -> Any:
    return open_table("five-card-hi-lo")


def removed(team: dict[str, Actor], table: Any, **day: Any) -> TableDay:
    return drop.drop_remove(actor=team["runner"], table_id=table.pk, **day)


def counted(team: dict[str, Actor], table: Any, cash: Any = None, **day: Any) -> TableDay:
    removed(team, table, **day)
    return drop.drop_count(actor=team["counter"], table_id=table.pk,
                           cash=CASH if cash is None else cash, **day)


def accepted(team: dict[str, Actor], table: Any, **day: Any) -> TableDay:
    counted(team, table, **day)
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk, **day)
    return drop.drop_accept(actor=team["cashier"], table_id=table.pk, **day)


# --- the way of a drop box --------------------------------------------------------------

def test_the_count_of_three_hundreds_and_four_twenties_is_380_dollars(
        team: Team, table: Any) -> None:
    """3 × 10000 + 4 × 2000 = 30000 + 8000 = 38000 cents."""
    row = counted(team, table)
    assert (row.drop_state, row.drop_counted_cents) == ("counted", 38_000)


def test_the_drop_is_final_once_signed_and_accepted(team: Team, table: Any) -> None:
    row = accepted(team, table)
    assert (row.drop_state, row.drop_counted_cents) == ("accepted", 38_000)
    signers = row.state["drop"]["signers"]
    assert signers == {team["runner"].username: "removed", team["counter"].username: "counted",
                       team["counter2"].username: "signed",
                       team["cashier"].username: "accepted"}


def test_only_an_accepted_count_is_the_drop_of_the_figures(team: Team, table: Any) -> None:
    """Counted and signed, not accepted: no counted drop yet; accepted: 38000."""
    counted(team, table)
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    day = today(team["cashier"])
    assert table_day_figures(table.property, day)[table.pk][1].drop_counted_cents is None
    drop.drop_accept(actor=team["cashier"], table_id=table.pk)
    assert table_day_figures(table.property, day)[table.pk][1].drop_counted_cents == 38_000


def test_chip_sales_of_380_dollars_and_a_count_of_380_dollars_leave_no_drop_variance(
        team: Team, table: Any) -> None:
    """Sales 30000 + 8000 = 38000 expected; counted 3 × 10000 + 4 × 2000 = 38000."""
    open_tray(team, table)
    for amount in (30_000, 8_000):
        tray.chips_sell(actor=team["dealer"], table_id=table.pk, amount_cents=amount)
    accepted(team, table)
    figures = table_day_figures(table.property, today(team["cashier"]))[table.pk][1]
    assert (figures.expected_drop_cents, figures.drop_counted_cents,
            figures.drop_variance_cents) == (38_000, 38_000, 0)


def test_a_drop_twenty_dollars_short_shows_its_variance(team: Team, table: Any) -> None:
    """Sales 38000; counted 3 × 10000 + 3 × 2000 = 36000: −2000 (short $20.00)."""
    for amount in (30_000, 8_000):
        tray.chips_sell(actor=team["dealer"], table_id=table.pk, amount_cents=amount)
    counted(team, table, cash={"10000": 3, "2000": 3})
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    drop.drop_accept(actor=team["cashier"], table_id=table.pk)
    figures = table_day_figures(table.property, today(team["cashier"]))[table.pk][1]
    assert figures.drop_variance_cents == -2_000


def test_every_step_of_the_count_is_an_event_naming_the_person_the_role_and_the_credential(
        team: Team, table: Any) -> None:
    accepted(team, table)
    events = table_events(table, today(team["cashier"]))
    assert [(e.type, e.metadata["actor"], e.metadata["role"],
             e.metadata["credential_number"]) for e in events] == [
        ("DropBoxRemoved", team["runner"].username, "security",
         team["runner"].credential_number),
        ("DropCounted", team["counter"].username, "count_team",
         team["counter"].credential_number),
        ("DropCountSigned", team["counter2"].username, "count_team",
         team["counter2"].credential_number),
        ("DropCountAccepted", team["cashier"].username, "cashier",
         team["cashier"].credential_number),
        # no chip sale recorded: the $380.00 counted is 38000 − 0 = 38000 over, an
        # exception from the acceptance on (finance.services.drop)
        ("VarianceRecorded", team["cashier"].username, "cashier",
         team["cashier"].credential_number)]
    assert events[1].data == {"cash": CASH, "chips": {}, "counted_cents": 38_000}
    assert {k: events[4].data[k] for k in ("figure", "expected_cents", "counted_cents",
                                           "variance_cents")} == {
        "figure": "drop", "expected_cents": 0, "counted_cents": 38_000,
        "variance_cents": 38_000}


def test_yesterdays_box_is_removed_and_counted_today(team: Team, table: Any) -> None:
    """The box is removed at the end of the gaming day, so after its boundary."""
    yesterday = today(team["runner"]) - timedelta(days=1)
    row = accepted(team, table, gaming_day=yesterday.isoformat())
    assert (row.gaming_day, row.drop_counted_cents) == (yesterday, 38_000)


def test_a_box_two_days_back_is_409_gaming_day_over(team: Team, table: Any) -> None:
    """A table day long gone is not begun by a removal (nor so by the count after it)."""
    two_back = today(team["runner"]) - timedelta(days=2)
    refused(ConflictError, "gaming_day_over", drop.drop_remove, actor=team["runner"],
            table_id=table.pk, gaming_day=two_back.isoformat())
    refused(ConflictError, "count_out_of_order", drop.drop_count, actor=team["counter"],
            table_id=table.pk, cash=CASH, gaming_day=two_back.isoformat())


@pytest.mark.parametrize("day", ["2024-13-01", "tomorrow", "9999-12-31"])
def test_a_bad_or_future_gaming_day_is_400_invalid_gaming_day(
        team: Team, table: Any, day: str) -> None:
    refused(DomainError, "invalid_gaming_day", drop.drop_remove, actor=team["runner"],
            table_id=table.pk, gaming_day=day)


# --- out of order -----------------------------------------------------------------------

def test_a_count_before_the_box_is_removed_is_409_count_out_of_order(
        team: Team, table: Any) -> None:
    error = refused(ConflictError, "count_out_of_order", drop.drop_count,
                    actor=team["counter"], table_id=table.pk, cash=CASH)
    assert error.status == 409


def test_an_acceptance_before_the_second_signature_is_409_count_out_of_order(
        team: Team, table: Any) -> None:
    counted(team, table)
    refused(ConflictError, "count_out_of_order", drop.drop_accept, actor=team["cashier"],
            table_id=table.pk)


def test_a_box_is_removed_once(team: Team, table: Any) -> None:
    removed(team, table)
    refused(ConflictError, "count_out_of_order", drop.drop_remove, actor=team["runner"],
            table_id=table.pk)


def test_an_accepted_count_is_not_counted_again(team: Team, table: Any) -> None:
    accepted(team, table)
    refused(ConflictError, "count_out_of_order", drop.drop_count, actor=team["counter2"],
            table_id=table.pk, cash=CASH)


def test_the_second_signature_by_the_counter_is_409_signed_already(
        team: Team, table: Any) -> None:
    counted(team, table)
    error = refused(ConflictError, "signed_already", drop.drop_count_sign,
                    actor=team["counter"], table_id=table.pk)
    assert error.status == 409


def test_no_chip_sale_once_the_box_is_removed(team: Team, table: Any) -> None:
    """Its cash would go into no box and never be counted."""
    removed(team, table)
    refused(ConflictError, "drop_removed", tray.chips_sell, actor=team["dealer"],
            table_id=table.pk, amount_cents=2_500)


# --- bad counts -------------------------------------------------------------------------

def test_a_count_with_a_negative_number_of_notes_is_400_negative_count(
        team: Team, table: Any) -> None:
    removed(team, table)
    refused(DomainError, "negative_count", drop.drop_count, actor=team["counter"],
            table_id=table.pk, cash={"10000": 3, "2000": -4})


@pytest.mark.parametrize("cash", [{"300": 1}, {"25": 4}, {"note": 1}, ["10000", 3], "380"])
def test_a_count_of_no_known_note_is_400_invalid_denomination(
        team: Team, table: Any, cash: Any) -> None:
    """No $3 note, no 25-cent note."""
    removed(team, table)
    refused(DomainError, "invalid_denomination", drop.drop_count, actor=team["counter"],
            table_id=table.pk, cash=cash)


def test_a_count_of_a_fraction_of_a_note_is_400_invalid_count(team: Team, table: Any) -> None:
    removed(team, table)
    refused(DomainError, "invalid_count", drop.drop_count, actor=team["counter"],
            table_id=table.pk, cash={"10000": 2.5})


# --- roles ------------------------------------------------------------------------------

def test_a_cashier_cannot_count(team: Team, table: Any) -> None:
    removed(team, table)
    refused(RoleRequired, "role_required", drop.drop_count, actor=team["cashier"],
            table_id=table.pk, cash=CASH)


def test_a_dealer_cannot_remove_the_drop_box(team: Team, table: Any) -> None:
    refused(RoleRequired, "role_required", drop.drop_remove, actor=team["dealer"],
            table_id=table.pk)


def test_the_count_team_cannot_accept_its_own_count(team: Team, table: Any) -> None:
    counted(team, table)
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk)
    refused(RoleRequired, "role_required", drop.drop_accept, actor=team["counter"],
            table_id=table.pk)


# --- the count team took no part at the table -------------------------------------------

def test_a_count_by_the_floorperson_who_signed_the_tables_inventory_is_409_worked_the_table(
        team: Team, table: Any, staff: Callable) -> None:
    """Issue 15: a count team "who took no part at the tables"."""
    floor_counter = staff("floorperson", "count_team")
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces={"2500": 40})
    tray.inventory_sign(actor=floor_counter, table_id=table.pk, slip="opener")
    removed(team, table)
    error = refused(ConflictError, "worked_the_table", drop.drop_count, actor=floor_counter,
                    table_id=table.pk, cash=CASH)
    assert error.status == 409


def test_a_count_by_the_runner_who_carried_the_tables_fill_is_409_worked_the_table(
        team: Team, table: Any, staff: Callable) -> None:
    guard_counter = staff("security", "count_team")
    slip = request(team, table, "fill", FILL)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    tray.slip_carry(actor=guard_counter, table_id=table.pk, slip_id=slip)
    tray.slip_complete(actor=team["dealer"], table_id=table.pk, slip_id=slip)
    removed(team, table)
    refused(ConflictError, "worked_the_table", drop.drop_count, actor=guard_counter,
            table_id=table.pk, cash=CASH)


def test_a_count_by_the_floorperson_who_verified_the_tables_deck_is_409_worked_the_table(
        team: Team, table: Any, staff: Callable) -> None:
    floor_counter = staff("floorperson", "count_team")
    deck = decks.deck_receive(actor=floor_counter, table_id=table.pk, back_colour="red",
                              batch="B-1")
    decks.deck_inspect(actor=team["dealer"], deck_id=deck.pk, defects=[])
    decks.deck_inspection_verify(actor=floor_counter, deck_id=deck.pk, accepted=True)
    removed(team, table)
    refused(ConflictError, "worked_the_table", drop.drop_count, actor=floor_counter,
            table_id=table.pk, cash=CASH)


def test_a_signature_by_a_count_team_member_who_worked_the_table_is_409_worked_the_table(
        team: Team, table: Any, staff: Callable) -> None:
    floor_counter = staff("floorperson", "count_team")
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces={"2500": 40})
    tray.inventory_sign(actor=floor_counter, table_id=table.pk, slip="opener")
    counted(team, table)
    refused(ConflictError, "worked_the_table", drop.drop_count_sign, actor=floor_counter,
            table_id=table.pk)


def test_a_count_team_member_who_worked_another_table_counts_this_one(
        team: Team, table: Any, staff: Callable, open_table: Callable) -> None:
    floor_counter = staff("floorperson", "count_team")
    elsewhere = open_table("lunar-poker-589")
    tray.inventory_record(actor=team["dealer"], table_id=elsewhere.pk, slip="opener",
                          pieces={"2500": 40})
    tray.inventory_sign(actor=floor_counter, table_id=elsewhere.pk, slip="opener")
    removed(team, table)
    row = drop.drop_count(actor=floor_counter, table_id=table.pk, cash=CASH)
    assert row.drop_counted_cents == 38_000


def test_a_refused_count_leaves_the_box_to_be_counted_by_another(
        team: Team, table: Any, staff: Callable) -> None:
    floor_counter = staff("floorperson", "count_team")
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces={"2500": 40})
    tray.inventory_sign(actor=floor_counter, table_id=table.pk, slip="opener")
    removed(team, table)
    with nothing_appended(), pytest.raises(ConflictError):
        drop.drop_count(actor=floor_counter, table_id=table.pk, cash=CASH)
    assert drop.drop_count(actor=team["counter"], table_id=table.pk,
                           cash=CASH).drop_state == "counted"
