"""The chip tray of a table through its gaming day, through the services
(:mod:`finance.services.tray`): the inventory slips (recorded by the dealer, signed by a
floorperson), the chips sold for cash, the fill and credit slips (requested by the floor,
prepared by the cage, carried by the runner, signed at the table, or voided). Each step is
an event naming its person, role and credential; each bad input a specific refusal with
nothing appended. Figures are worked by hand in the docstrings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from casino.actors import Actor, actor_of
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.eventstore.models import Event
from casino.roles import RoleRequired
from casino.services import property_register
from finance.figures import table_day_figures
from finance.models import TableDay, table_day_stream
from finance.services import tray
from tables.demo import deck_ready
from tables.services import rounds

pytestmark = pytest.mark.django_db

# 40 × $25 + 100 × $5 = $1,000 + $500 = $1,500.00
OPENER = {"2500": 40, "500": 100}
# a fill of 20 × $25 = $500.00; a credit of 10 × $5 = $50.00
FILL = {"2500": 20}
CREDIT = {"500": 10}
#: the finance team fixture (tests/finance/conftest.py): role name → actor
Team = dict[str, Actor]


# --- helpers (tests/finance/test_drop_count.py and the others use them too) ------------

@contextmanager
def nothing_appended() -> Iterator[None]:
    """The event log does not grow inside the block."""
    before = Event.objects.count()
    yield
    assert Event.objects.count() == before, "a refused command appended events"


def refused(error: type[Exception], code: str, command: Callable[..., Any], **kw: Any
            ) -> Exception:
    """``command(**kw)`` is refused with ``error`` and ``code``, and appends nothing."""
    with nothing_appended(), pytest.raises(error) as caught:
        command(**kw)
    got = caught.value.code if isinstance(caught.value, DomainError) \
        else caught.value.get_codes()
    assert got == code, caught.value
    return caught.value


def table_events(table: Any, day: Any) -> list[Event]:
    """The events of the table's gaming day, in order."""
    return list(Event.objects.filter(stream_id=table_day_stream(table.pk, day))
                .order_by("position"))


def today(actor: Actor) -> Any:
    return actor.gaming_day()


def open_tray(team: dict[str, Actor], table: Any, **day: Any) -> TableDay:
    """The opener ($1,500.00) recorded by the dealer and signed by the floorperson."""
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces=OPENER, **day)
    return tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip="opener", **day)


def request(team: dict[str, Actor], table: Any, kind: str = "fill",
            pieces: Any = None) -> str:
    """A fill or credit requested by the floorperson: the new slip's id (the one slip
    the table day did not list before; the state's JSON keeps no order on PostgreSQL)."""
    before = TableDay.objects.filter(table=table).values_list("state", flat=True)
    known = {k for state in before for k in state.get("slips", {})}
    row = tray.slip_request(actor=team["floor"], table_id=table.pk, kind=kind,
                            pieces=pieces or (FILL if kind == "fill" else CREDIT))
    (new,) = set(row.state["slips"]) - known
    return new


def complete_slip(team: dict[str, Actor], table: Any, kind: str = "fill",
                  pieces: Any = None) -> TableDay:
    """Requested by the floor, prepared by the cashier, carried by the runner, signed by
    the dealer at the table."""
    slip = request(team, table, kind, pieces)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    tray.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=slip)
    return tray.slip_complete(actor=team["dealer"], table_id=table.pk, slip_id=slip)


@pytest.fixture
def table(open_table: Callable) -> Any:
    return open_table("five-card-hi-lo")


# --- the inventory slips ----------------------------------------------------------------

def test_the_opener_counts_in_the_tray_once_the_floorperson_has_signed(
        team: Team, table: Any) -> None:
    """40 × 2500 + 100 × 500 = 150000 cents; not counted before the signature."""
    row = tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                                pieces=OPENER)
    assert row.opener_cents is None and row.state["inventories"]["opener"]["total_cents"] \
        == 150_000
    row = tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip="opener")
    assert row.opener_cents == 150_000


def test_an_inventory_slip_with_a_negative_count_is_400_negative_count(
        team: Team, table: Any) -> None:
    error = refused(DomainError, "negative_count", tray.inventory_record,
                    actor=team["dealer"], table_id=table.pk, slip="opener",
                    pieces={"2500": 40, "500": -100})
    assert error.status == 400


def test_an_unknown_denomination_is_400_invalid_denomination(team: Team, table: Any) -> None:
    """There is no $3 chip (300 cents)."""
    refused(DomainError, "invalid_denomination", tray.inventory_record, actor=team["dealer"],
            table_id=table.pk, slip="opener", pieces={"300": 10})


def test_the_opener_recorded_twice_is_409_inventory_recorded_already(
        team: Team, table: Any) -> None:
    open_tray(team, table)
    error = refused(ConflictError, "inventory_recorded_already", tray.inventory_record,
                    actor=team["dealer"], table_id=table.pk, slip="opener", pieces=OPENER)
    assert error.status == 409


def test_the_dealer_who_recorded_the_inventory_does_not_sign_it_as_floorperson(
        team: Team, table: Any, staff: Callable) -> None:
    """One person holding both roles records and then tries to sign: a person never signs
    twice for the same item."""
    both = staff("dealer", "floorperson")
    tray.inventory_record(actor=both, table_id=table.pk, slip="opener", pieces=OPENER)
    refused(ConflictError, "signed_already", tray.inventory_sign, actor=both,
            table_id=table.pk, slip="opener")


def test_a_dealer_cannot_sign_an_inventory_slip(team: Team, table: Any) -> None:
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="opener",
                          pieces=OPENER)
    refused(RoleRequired, "role_required", tray.inventory_sign, actor=team["dealer"],
            table_id=table.pk, slip="opener")


def test_a_floorperson_cannot_record_the_inventory(team: Team, table: Any) -> None:
    refused(RoleRequired, "role_required", tray.inventory_record, actor=team["floor"],
            table_id=table.pk, slip="opener", pieces=OPENER)


def test_the_closer_of_the_day_just_ended_is_still_recorded(team: Team, table: Any) -> None:
    """The table closes after the gaming-day boundary: its closer is the day's before."""
    yesterday = today(team["dealer"]) - timedelta(days=1)
    row = tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="closer",
                                pieces=OPENER, gaming_day=yesterday.isoformat())
    assert row.gaming_day == yesterday


def test_an_inventory_two_days_back_is_409_gaming_day_over(team: Team, table: Any) -> None:
    two_back = today(team["dealer"]) - timedelta(days=2)
    refused(ConflictError, "gaming_day_over", tray.inventory_record, actor=team["dealer"],
            table_id=table.pk, slip="opener", pieces=OPENER, gaming_day=two_back.isoformat())


@pytest.mark.parametrize("day", ["2024-13-01", "yesterday", "2024-02-30", "1e9"])
def test_a_gaming_day_that_is_not_a_date_is_400_invalid_gaming_day(
        team: Team, table: Any, day: str) -> None:
    refused(DomainError, "invalid_gaming_day", tray.inventory_record, actor=team["dealer"],
            table_id=table.pk, slip="opener", pieces=OPENER, gaming_day=day)


def test_a_gaming_day_still_to_come_is_400_invalid_gaming_day(team: Team, table: Any) -> None:
    tomorrow = today(team["dealer"]) + timedelta(days=1)
    refused(DomainError, "invalid_gaming_day", tray.inventory_record, actor=team["dealer"],
            table_id=table.pk, slip="opener", pieces=OPENER, gaming_day=tomorrow.isoformat())


def test_another_propertys_table_is_404_table_not_found(
        table: Any, make_staff: Callable) -> None:
    """As tests/tables/test_cross_property.py: another property's dealer finds no such
    table (its existence is not disclosed)."""
    other = property_register(licence_number="PA-OTHER-2", name="Other Casino",
                              system="test")
    dealer = actor_of(make_staff("dealer", property=other))
    error = refused(NotFoundError, "table_not_found", tray.inventory_record, actor=dealer,
                    table_id=table.pk, slip="opener", pieces=OPENER)
    assert error.status == 404


@pytest.mark.parametrize("table_id", ["nope", "00000000-0000-0000-0000-000000000000", 7])
def test_a_table_that_does_not_exist_is_404_table_not_found(team: Team, table_id: Any) -> None:
    refused(NotFoundError, "table_not_found", tray.inventory_record, actor=team["dealer"],
            table_id=table_id, slip="opener", pieces=OPENER)


# --- fills and credits ------------------------------------------------------------------

def test_a_fill_counts_in_the_tray_once_signed_at_the_table(team: Team, table: Any) -> None:
    """20 × $25 = 50000 cents: open until the dealer signs, then in the tray."""
    open_tray(team, table)
    slip = request(team, table)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    row = tray.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=slip)
    assert (row.fills_cents, row.open_slips) == (0, 1)
    row = tray.slip_complete(actor=team["dealer"], table_id=table.pk, slip_id=slip)
    assert (row.fills_cents, row.open_slips) == (50_000, 0)


def test_a_fill_completed_before_the_runner_signed_is_409_fill_out_of_order(
        team: Team, table: Any) -> None:
    open_tray(team, table)
    slip = request(team, table)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    error = refused(ConflictError, "fill_out_of_order", tray.slip_complete,
                    actor=team["dealer"], table_id=table.pk, slip_id=slip)
    assert error.status == 409


def test_a_credit_carried_before_the_cage_prepared_it_is_409_fill_out_of_order(
        team: Team, table: Any) -> None:
    slip = request(team, table, "credit")
    refused(ConflictError, "fill_out_of_order", tray.slip_carry, actor=team["runner"],
            table_id=table.pk, slip_id=slip)


def test_the_closer_while_a_slip_is_unsigned_is_409_fill_unsigned(
        team: Team, table: Any) -> None:
    open_tray(team, table)
    slip = request(team, table)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    tray.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=slip)
    error = refused(ConflictError, "fill_unsigned", tray.inventory_record,
                    actor=team["dealer"], table_id=table.pk, slip="closer", pieces=OPENER)
    assert error.status == 409


def test_one_person_preparing_and_carrying_a_slip_is_409_signed_already(
        team: Team, table: Any, staff: Callable) -> None:
    """A cashier who is also security prepares the fill, then would carry it."""
    both = staff("cashier", "security")
    slip = request(team, table)
    tray.slip_prepare(actor=both, table_id=table.pk, slip_id=slip)
    error = refused(ConflictError, "signed_already", tray.slip_carry, actor=both,
                    table_id=table.pk, slip_id=slip)
    assert error.status == 409


def test_the_floorperson_who_requested_a_fill_does_not_sign_for_it(
        team: Team, table: Any) -> None:
    slip = request(team, table)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    tray.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=slip)
    refused(ConflictError, "signed_already", tray.slip_complete, actor=team["floor"],
            table_id=table.pk, slip_id=slip)


def test_a_dealer_cannot_prepare_a_slip(team: Team, table: Any) -> None:
    slip = request(team, table)
    refused(RoleRequired, "role_required", tray.slip_prepare, actor=team["dealer"],
            table_id=table.pk, slip_id=slip)


def test_a_cashier_cannot_carry_a_slip(team: Team, table: Any) -> None:
    slip = request(team, table)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    refused(RoleRequired, "role_required", tray.slip_carry, actor=team["cashier"],
            table_id=table.pk, slip_id=slip)


def test_a_dealer_cannot_request_a_fill(team: Team, table: Any) -> None:
    refused(RoleRequired, "role_required", tray.slip_request, actor=team["dealer"],
            table_id=table.pk, kind="fill", pieces=FILL)


def test_a_slip_not_requested_is_404_slip_not_found(team: Team, table: Any) -> None:
    request(team, table)
    refused(NotFoundError, "slip_not_found", tray.slip_prepare, actor=team["cashier"],
            table_id=table.pk, slip_id="no-such-slip")


def test_a_fill_with_a_negative_count_is_400_negative_count(team: Team, table: Any) -> None:
    refused(DomainError, "negative_count", tray.slip_request, actor=team["floor"],
            table_id=table.pk, kind="fill", pieces={"2500": -20})


def test_a_voided_slip_is_accounted_for_and_lets_the_closer_be_recorded(
        team: Team, table: Any) -> None:
    open_tray(team, table)
    slip = request(team, table)
    row = tray.slip_void(actor=team["cashier"], table_id=table.pk, slip_id=slip,
                         reason="  the table did not need it  ")
    assert row.state["slips"][slip]["state"] == "voided"
    assert row.state["slips"][slip]["void_reason"] == "the table did not need it"
    row = tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="closer",
                                pieces=OPENER)
    assert row.fills_cents == 0 and row.open_slips == 0


@pytest.mark.parametrize("reason", ["", "   ", None, 5, "x" * 501, "a\x00b"])
def test_a_void_without_a_reason_in_words_is_400_invalid_reason(
        team: Team, table: Any, reason: Any) -> None:
    slip = request(team, table)
    refused(DomainError, "invalid_reason", tray.slip_void, actor=team["cashier"],
            table_id=table.pk, slip_id=slip, reason=reason)


def test_a_completed_slip_is_not_voided(team: Team, table: Any) -> None:
    slip = request(team, table)
    tray.slip_prepare(actor=team["cashier"], table_id=table.pk, slip_id=slip)
    tray.slip_carry(actor=team["runner"], table_id=table.pk, slip_id=slip)
    tray.slip_complete(actor=team["dealer"], table_id=table.pk, slip_id=slip)
    refused(ConflictError, "fill_out_of_order", tray.slip_void, actor=team["cashier"],
            table_id=table.pk, slip_id=slip, reason="changed our mind")


def test_no_fill_once_the_closer_is_recorded(team: Team, table: Any) -> None:
    open_tray(team, table)
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="closer",
                          pieces=OPENER)
    refused(ConflictError, "table_day_closed", tray.slip_request, actor=team["floor"],
            table_id=table.pk, kind="fill", pieces=FILL)


# --- chips sold for cash ----------------------------------------------------------------

@pytest.mark.parametrize("amount", [0, -500, 12.5, 500.0, True, "500", None, 100_000_001])
def test_a_chip_sale_of_nothing_a_fraction_or_past_a_million_dollars_is_400_invalid_amount(
        team: Team, table: Any, amount: Any) -> None:
    error = refused(DomainError, "invalid_amount", tray.chips_sell, actor=team["dealer"],
                    table_id=table.pk, amount_cents=amount)
    assert error.status == 400 and error.field == "amount_cents"


def test_a_chip_sale_names_the_round_it_was_sold_in(team: Team, table: Any) -> None:
    deck = deck_ready(table, team["dealer"], team["floor"], "red", batch="F")
    rnd = rounds.round_open(actor=team["dealer"], table_id=table.pk, deck_id=deck.pk)
    tray.chips_sell(actor=team["dealer"], table_id=table.pk, amount_cents=2_500,
                    round_id=rnd.pk)
    assert table_events(table, today(team["dealer"]))[-1].data == {
        "amount_cents": 2_500, "round_id": str(rnd.pk)}


@pytest.mark.parametrize("round_id", ["00000000-0000-0000-0000-000000000000", "r-1"])
def test_a_chip_sale_in_a_round_not_of_the_table_is_404_round_not_found(
        team: Team, table: Any, round_id: str) -> None:
    refused(NotFoundError, "round_not_found", tray.chips_sell, actor=team["dealer"],
            table_id=table.pk, amount_cents=2_500, round_id=round_id)


def test_a_cashier_cannot_sell_chips_at_the_table(team: Team, table: Any) -> None:
    refused(RoleRequired, "role_required", tray.chips_sell, actor=team["cashier"],
            table_id=table.pk, amount_cents=2_500)


# --- the figures ------------------------------------------------------------------------

def a_day_at_the_table(team: dict[str, Actor], table: Any) -> None:
    """Opener $1,500.00; a fill of $500.00; a credit of $50.00; chips sold for $300.00
    and $80.00 (= $380.00); a fill requested and voided."""
    open_tray(team, table)
    complete_slip(team, table, "fill", FILL)
    complete_slip(team, table, "credit", CREDIT)
    tray.chips_sell(actor=team["dealer"], table_id=table.pk, amount_cents=30_000)
    tray.chips_sell(actor=team["dealer"], table_id=table.pk, amount_cents=8_000)
    slip = request(team, table)
    tray.slip_void(actor=team["floor"], table_id=table.pk, slip_id=slip, reason="spoiled")


def test_expected_closer_is_opener_plus_fill_less_credit_less_chip_sales(
        team: Team, table: Any) -> None:
    """150000 + 50000 − 5000 − 38000 = 157000 cents (no rounds played: no banked win)."""
    a_day_at_the_table(team, table)
    day = today(team["dealer"])
    _, figures = table_day_figures(table.property, day)[table.pk]
    assert (figures.opener_cents, figures.fills_cents, figures.credits_cents,
            figures.chip_sales_cents) == (150_000, 50_000, 5_000, 38_000)
    assert figures.expected_closer_cents == 157_000


def test_the_closer_of_the_expected_figure_leaves_no_tray_variance(
        team: Team, table: Any) -> None:
    """Closer 60 × $25 + 14 × $5 = 150000 + 7000 = 157000 cents, the expected figure."""
    a_day_at_the_table(team, table)
    tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip="closer",
                          pieces={"2500": 60, "500": 14})
    tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip="closer")
    _, figures = table_day_figures(table.property, today(team["dealer"]))[table.pk]
    assert (figures.closer_cents, figures.tray_variance_cents) == (157_000, 0)


def test_every_step_is_an_event_naming_the_person_the_role_and_the_credential(
        team: Team, table: Any) -> None:
    """Issue 15: "every step an event"; DESIGN §3: metadata carries actor, role,
    credential number, table and gaming day."""
    a_day_at_the_table(team, table)
    events = table_events(table, today(team["dealer"]))
    by = {"dealer": "dealer", "floor": "floorperson", "cashier": "cashier",
          "runner": "security"}
    people = {team[k].username: (role, team[k].credential_number) for k, role in by.items()}
    assert [e.type for e in events] == [
        "InventorySlipRecorded", "InventorySlipSigned",
        "SlipRequested", "SlipPrepared", "SlipCarried", "SlipCompleted",
        "SlipRequested", "SlipPrepared", "SlipCarried", "SlipCompleted",
        "ChipsSold", "ChipsSold", "SlipRequested", "SlipVoided"]
    for e in events:
        role, credential = people[e.metadata["actor"]]
        assert (e.metadata["role"], e.metadata["credential_number"]) == (role, credential), e
        assert e.metadata["table"] == str(table.pk)
        assert e.metadata["gaming_day"] == today(team["dealer"]).isoformat()


def test_the_table_day_rows_equal_a_rebuild_from_the_events(
        team: Team, table: Any, open_table: Callable) -> None:
    """The finance projection dropped and replayed by ``rebuild_projections`` gives the
    same rows (DESIGN §2: read models are projections of the events)."""
    a_day_at_the_table(team, table)
    other = open_table("lunar-poker-589")
    open_tray(team, other)
    before = [model_to_dict(r, exclude=["id"]) for r in TableDay.objects.order_by("table")]
    assert len(before) == 2
    call_command("rebuild_projections", "--no-progress", stdout=open("/dev/null", "w"))
    after = [model_to_dict(r, exclude=["id"]) for r in TableDay.objects.order_by("table")]
    assert after == before
