"""A table's gaming day as finance decides on it (:mod:`finance.domain.table_day`) and the
reconciliation of its figures (:mod:`finance.domain.reconcile`): pure, no database.

Like the other domain tests (tests/casino/domain, tests/tables/domain) these carry no
marker: tests/conftest.py marks a test ``database`` only when it asks for the database,
so ``pytest -m "not database"`` runs them alone. Every figure is worked by hand in the
test's docstring or comment.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.domain.errors import ConflictError, DomainError, NotFoundError
from finance.domain import table_day as td
from finance.domain.reconcile import (
    BANKED,
    DROP,
    POKER,
    POKER_REVENUE,
    TRAY,
    TableDayFigures,
    exceptions,
    hold_percent,
    preliminary_row,
    preliminary_win_cents,
)

Decided = tuple[str, dict[str, Any]]

# A tray opened with 40 × $25 + 100 × $5 = $1,000 + $500 = $1,500.00
OPENER = {"2500": 40, "500": 100}
# A fill of 20 × $25 = $500.00; a credit of 10 × $5 = $50.00
FILL = {"2500": 20}
CREDIT = {"500": 10}
# A drop box holding 3 × $100 + 4 × $20 = $300 + $80 = $380.00
CASH = {"10000": 3, "2000": 4}


def apply(state: td.TableDayState, decided: Decided, who: str) -> td.TableDayState:
    """The decided event recorded by ``who`` (as the service's append would)."""
    type_, data = decided
    return td.evolve(state, type_, data, {"actor": who})


def refused(error: type[DomainError], code: str, call: Any, *args: Any, **kw: Any
            ) -> DomainError:
    """``call`` raises ``error`` with ``code``; the error, for more checks."""
    with pytest.raises(error) as caught:
        call(*args, **kw)
    assert caught.value.code == code, caught.value
    return caught.value


def opened(state: td.TableDayState | None = None) -> td.TableDayState:
    """The opener recorded by the dealer and signed by the floorperson."""
    s = state or td.TableDayState()
    apply(s, td.inventory_record(s, slip=td.OPENER, pieces=OPENER, who="dealer"), "dealer")
    return apply(s, td.inventory_sign(s, slip=td.OPENER, who="floor"), "floor")


def requested(state: td.TableDayState, kind: str = td.FILL, pieces: Any = None,
              slip_id: str = "s1") -> td.TableDayState:
    return apply(state, td.slip_request(state, slip_id=slip_id, kind=kind,
                                        pieces=pieces or FILL), "floor")


def step(state: td.TableDayState, type_: str, who: str, slip_id: str = "s1"
         ) -> td.TableDayState:
    return apply(state, td.slip_step(state, type_, slip_id=slip_id, who=who), who)


def completed(state: td.TableDayState, kind: str = td.FILL, pieces: Any = None,
              slip_id: str = "s1") -> td.TableDayState:
    """A slip requested by the floor, prepared by the cashier, carried by the runner and
    signed at the table by the dealer."""
    requested(state, kind, pieces, slip_id)
    step(state, "SlipPrepared", "cashier", slip_id)
    step(state, "SlipCarried", "runner", slip_id)
    return step(state, "SlipCompleted", "dealer", slip_id)


def drop_to(state: td.TableDayState, last: str, cash: Any = None) -> td.TableDayState:
    """The drop box taken through its steps up to ``last`` (removed by security, counted
    by counter, signed by counter2, accepted by the cashier)."""
    steps = [("DropBoxRemoved", "security"), ("DropCounted", "counter"),
             ("DropCountSigned", "counter2"), ("DropCountAccepted", "cashier")]
    for type_, who in steps:
        extra = {"cash": cash or CASH} if type_ == "DropCounted" else {}
        apply(state, td.drop_step(state, type_, who=who, **extra), who)
        if type_ == last:
            return state
    raise AssertionError(last)


# --- pieces by denomination -----------------------------------------------------------

def test_pieces_are_listed_by_denomination_in_cents_with_keys_as_text() -> None:
    assert td.denominations({2500: 40, "500": 100}, allowed=td.CHIP_DENOMINATIONS,
                            field="pieces") == {"2500": 40, "500": 100}


def test_one_denomination_written_two_ways_adds_its_pieces() -> None:
    """"025" and "25" are both the 25-cent chip: 3 + 4 = 7 pieces."""
    assert td.denominations({"25": 3, "025": 4}, allowed=td.CHIP_DENOMINATIONS,
                            field="pieces") == {"25": 7}


def test_a_negative_count_is_400_negative_count() -> None:
    error = refused(DomainError, "negative_count", td.denominations, {"2500": 40, "500": -1},
                    allowed=td.CHIP_DENOMINATIONS, field="pieces")
    assert error.status == 400 and error.field == "pieces"


@pytest.mark.parametrize("pieces", [{"300": 1}, {"abc": 1}, {"-2500": 1}, {"2500.0": 1}, {},
                                    [], None, "2500", [["2500", 1]]])
def test_an_unknown_denomination_or_no_listing_is_400_invalid_denomination(pieces: Any) -> None:
    error = refused(DomainError, "invalid_denomination", td.denominations, pieces,
                    allowed=td.CHIP_DENOMINATIONS, field="pieces")
    assert error.status == 400


def test_a_chip_denomination_is_not_currency_in_the_drop_box() -> None:
    """There is no 25-cent note: the cash of a drop box is counted in notes."""
    refused(DomainError, "invalid_denomination", td.denominations, {"25": 4},
            allowed=td.CASH_DENOMINATIONS, field="cash")


@pytest.mark.parametrize("count", [2.5, 4.0, True, "4", None, [4]])
def test_a_count_that_is_not_a_whole_number_is_400_invalid_count(count: Any) -> None:
    refused(DomainError, "invalid_count", td.denominations, {"2500": count},
            allowed=td.CHIP_DENOMINATIONS, field="pieces")


def test_a_count_past_the_most_pieces_is_400_invalid_count() -> None:
    """100,000 pieces of one denomination is the most a slip lists; 100,001 is a typing
    error (and 2**63 would not fit the database)."""
    assert td.denominations({"500000": 100_000}, allowed=td.CHIP_DENOMINATIONS,
                            field="pieces") == {"500000": 100_000}
    for count in (100_001, 2**63):
        refused(DomainError, "invalid_count", td.denominations, {"500000": count},
                allowed=td.CHIP_DENOMINATIONS, field="pieces")


def test_the_most_pieces_counts_one_denomination_written_two_ways_together() -> None:
    """60,000 + 50,000 = 110,000 pieces of the 25-cent chip: past 100,000."""
    refused(DomainError, "invalid_count", td.denominations, {"25": 60_000, "025": 50_000},
            allowed=td.CHIP_DENOMINATIONS, field="pieces")


def test_the_drop_box_total_of_three_hundreds_and_four_twenties_is_380_dollars() -> None:
    """3 × $100 + 4 × $20 = 30000 + 8000 = 38000 cents."""
    assert td.total_cents(CASH) == 38_000


# --- the tray's inventory slips ---------------------------------------------------------

def test_the_opener_records_its_pieces_and_total() -> None:
    """40 × 2500 + 100 × 500 = 100000 + 50000 = 150000 cents."""
    assert td.inventory_record(td.TableDayState(), slip="opener", pieces=OPENER,
                               who="dealer") == ("InventorySlipRecorded", {
                                   "slip": "opener", "pieces": OPENER, "total_cents": 150_000})


def test_an_inventory_counts_only_once_a_floorperson_has_signed_it() -> None:
    s = td.TableDayState()
    apply(s, td.inventory_record(s, slip="opener", pieces=OPENER, who="dealer"), "dealer")
    assert s.inventory_cents("opener") is None
    apply(s, td.inventory_sign(s, slip="opener", who="floor"), "floor")
    assert s.inventory_cents("opener") == 150_000


def test_an_inventory_slip_with_a_negative_count_is_400_negative_count() -> None:
    refused(DomainError, "negative_count", td.inventory_record, td.TableDayState(),
            slip="opener", pieces={"2500": -40}, who="dealer")


def test_an_inventory_slip_is_opener_or_closer() -> None:
    refused(DomainError, "invalid_slip", td.inventory_record, td.TableDayState(),
            slip="middle", pieces=OPENER, who="dealer")


def test_the_opener_recorded_twice_is_409_inventory_recorded_already() -> None:
    s = opened()
    error = refused(ConflictError, "inventory_recorded_already", td.inventory_record, s,
                    slip="opener", pieces=OPENER, who="dealer")
    assert error.status == 409


def test_the_dealer_who_recorded_an_inventory_does_not_sign_it() -> None:
    """A person never signs twice for the same item (issue 15, Roles)."""
    s = td.TableDayState()
    apply(s, td.inventory_record(s, slip="opener", pieces=OPENER, who="pat"), "pat")
    refused(ConflictError, "signed_already", td.inventory_sign, s, slip="opener", who="pat")


def test_a_signed_inventory_is_not_signed_again() -> None:
    refused(ConflictError, "slip_out_of_order", td.inventory_sign, opened(), slip="opener",
            who="floor2")


def test_signing_an_inventory_not_recorded_is_404_slip_not_found() -> None:
    refused(NotFoundError, "slip_not_found", td.inventory_sign, td.TableDayState(),
            slip="closer", who="floor")


def test_the_closer_while_a_fill_is_unsigned_is_409_fill_unsigned() -> None:
    s = requested(opened())
    step(s, "SlipPrepared", "cashier")
    refused(ConflictError, "fill_unsigned", td.inventory_record, s, slip="closer",
            pieces=OPENER, who="dealer")


def test_the_closer_after_the_unsigned_fill_is_voided_is_recorded() -> None:
    s = requested(opened())
    apply(s, td.slip_void(s, slip_id="s1", reason="not needed"), "floor")
    assert td.inventory_record(s, slip="closer", pieces=OPENER, who="dealer")[0] \
        == "InventorySlipRecorded"


# --- fills and credits ------------------------------------------------------------------

def test_a_fill_counts_in_the_tray_once_signed_at_the_table() -> None:
    """Requested, prepared, carried: not yet in the tray; completed: 20 × 2500 = 50000."""
    s = requested(opened())
    step(s, "SlipPrepared", "cashier")
    step(s, "SlipCarried", "runner")
    assert s.slips_cents(td.FILL) == 0 and s.open_slips() == ["s1"]
    step(s, "SlipCompleted", "dealer")
    assert s.slips_cents(td.FILL) == 50_000 and s.open_slips() == []


def test_fills_and_credits_are_totalled_apart() -> None:
    """One fill of $500.00 and one credit of 10 × $5 = $50.00."""
    s = completed(opened())
    completed(s, td.CREDIT, CREDIT, slip_id="s2")
    assert (s.slips_cents(td.FILL), s.slips_cents(td.CREDIT)) == (50_000, 5_000)


def test_a_fill_completed_before_the_runner_signed_is_409_fill_out_of_order() -> None:
    s = requested(opened())
    step(s, "SlipPrepared", "cashier")
    error = refused(ConflictError, "fill_out_of_order", td.slip_step, s, "SlipCompleted",
                    slip_id="s1", who="dealer")
    assert error.status == 409


def test_a_fill_carried_before_the_cage_prepared_it_is_409_fill_out_of_order() -> None:
    refused(ConflictError, "fill_out_of_order", td.slip_step, requested(opened()),
            "SlipCarried", slip_id="s1", who="runner")


def test_the_cashier_who_prepared_a_slip_does_not_carry_it() -> None:
    s = requested(opened())
    step(s, "SlipPrepared", "sam")
    refused(ConflictError, "signed_already", td.slip_step, s, "SlipCarried", slip_id="s1",
            who="sam")


def test_the_runner_does_not_sign_for_the_fill_at_the_table() -> None:
    s = requested(opened())
    step(s, "SlipPrepared", "cashier")
    step(s, "SlipCarried", "sam")
    refused(ConflictError, "signed_already", td.slip_step, s, "SlipCompleted", slip_id="s1",
            who="sam")


def test_the_floorperson_who_requested_a_fill_does_not_receive_it() -> None:
    s = requested(opened())
    step(s, "SlipPrepared", "cashier")
    step(s, "SlipCarried", "runner")
    refused(ConflictError, "signed_already", td.slip_step, s, "SlipCompleted", slip_id="s1",
            who="floor")


def test_a_step_of_a_slip_not_requested_is_404_slip_not_found() -> None:
    refused(NotFoundError, "slip_not_found", td.slip_step, opened(), "SlipPrepared",
            slip_id="nope", who="cashier")


@pytest.mark.parametrize("pieces", [{"2500": 0}, {"2500": 0, "500": 0}])
def test_a_slip_of_no_chips_is_400_invalid_slip(pieces: dict) -> None:
    refused(DomainError, "invalid_slip", td.slip_request, opened(), slip_id="s1",
            kind=td.FILL, pieces=pieces)


def test_a_slip_is_a_fill_or_a_credit() -> None:
    refused(DomainError, "invalid_slip", td.slip_request, opened(), slip_id="s1",
            kind="loan", pieces=FILL)


def test_no_slip_after_the_closer_is_recorded() -> None:
    s = opened()
    apply(s, td.inventory_record(s, slip="closer", pieces=OPENER, who="dealer"), "dealer")
    refused(ConflictError, "table_day_closed", td.slip_request, s, slip_id="s2",
            kind=td.FILL, pieces=FILL)


def test_a_completed_slip_is_not_voided() -> None:
    refused(ConflictError, "fill_out_of_order", td.slip_void, completed(opened()),
            slip_id="s1", reason="changed our mind")


def test_a_voided_slip_is_accounted_for_with_its_reason_and_moves_no_chips() -> None:
    s = requested(opened())
    step(s, "SlipPrepared", "cashier")
    apply(s, td.slip_void(s, slip_id="s1", reason="spoiled"), "cashier")
    assert s.slips["s1"]["state"] == "voided" and s.slips["s1"]["void_reason"] == "spoiled"
    assert s.slips_cents(td.FILL) == 0 and s.open_slips() == []


# --- chips sold for cash ----------------------------------------------------------------

def test_chip_sales_add_up() -> None:
    """$300.00 + $80.00 = 38000 cents in two sales."""
    s = opened()
    apply(s, td.chips_sell(s, amount_cents=30_000), "dealer")
    apply(s, td.chips_sell(s, amount_cents=8_000, round_id="r1"), "dealer")
    assert (s.chip_sales_cents, s.chip_sales) == (38_000, 2)


@pytest.mark.parametrize("amount", [0, -100, 12.5, 100.0, True, "100", None,
                                    td.MAX_SALE_CENTS + 1, 2**63])
def test_a_chip_sale_of_nothing_a_fraction_or_past_the_most_is_400_invalid_amount(
        amount: Any) -> None:
    error = refused(DomainError, "invalid_amount", td.chips_sell, opened(),
                    amount_cents=amount)
    assert error.status == 400 and error.field == "amount_cents"


def test_a_chip_sale_of_the_most_is_taken() -> None:
    assert td.chips_sell(opened(), amount_cents=td.MAX_SALE_CENTS) == (
        "ChipsSold", {"amount_cents": 100_000_000})


def test_no_chip_sale_once_the_drop_box_is_removed() -> None:
    """The cash of a sale goes into the drop box (§ 579.2(c)): with the box gone, it
    would go uncounted."""
    refused(ConflictError, "drop_removed", td.chips_sell,
            drop_to(opened(), "DropBoxRemoved"), amount_cents=500)


def test_no_chip_sale_after_the_closer_is_recorded() -> None:
    s = opened()
    apply(s, td.inventory_record(s, slip="closer", pieces=OPENER, who="dealer"), "dealer")
    refused(ConflictError, "table_day_closed", td.chips_sell, s, amount_cents=500)


# --- the drop box -----------------------------------------------------------------------

def test_the_count_of_three_hundreds_and_four_twenties_is_380_dollars() -> None:
    """3 × 10000 + 4 × 2000 = 38000 cents."""
    s = drop_to(td.TableDayState(), "DropBoxRemoved")
    assert td.drop_step(s, "DropCounted", who="counter", cash=CASH) == (
        "DropCounted", {"cash": CASH, "chips": {}, "counted_cents": 38_000})


def test_a_poker_drop_box_counts_its_rake_chips_with_its_cash() -> None:
    """§ 637a.17(b)(1)(ii): the rake goes into the drop box. $380.00 in notes and
    12 × $1 + 3 × $5 = $27.00 in chips: 38000 + 1200 + 1500 = 40700 cents."""
    s = drop_to(td.TableDayState(), "DropBoxRemoved")
    decided = td.drop_step(s, "DropCounted", who="counter", cash=CASH,
                           chips={"100": 12, "500": 3})
    assert decided[1]["counted_cents"] == 40_700


def test_an_empty_drop_box_counts_nothing() -> None:
    s = drop_to(td.TableDayState(), "DropBoxRemoved")
    assert td.drop_step(s, "DropCounted", who="counter")[1]["counted_cents"] == 0


@pytest.mark.parametrize("cash", [0, "", [], False, "380"])
def test_a_count_that_lists_nothing_by_denomination_is_400_invalid_denomination(
        cash: Any) -> None:
    """An empty box is counted as ``{}`` (or with no cash listed); a 0 or an empty text
    is not a count."""
    s = drop_to(td.TableDayState(), "DropBoxRemoved")
    refused(DomainError, "invalid_denomination", td.drop_step, s, "DropCounted",
            who="counter", cash=cash)


def test_a_count_before_the_box_is_removed_is_409_count_out_of_order() -> None:
    error = refused(ConflictError, "count_out_of_order", td.drop_step, td.TableDayState(),
                    "DropCounted", who="counter", cash=CASH)
    assert error.status == 409


@pytest.mark.parametrize("type_, after", [("DropCountSigned", "DropBoxRemoved"),
                                          ("DropCountAccepted", "DropCounted"),
                                          ("DropBoxRemoved", "DropBoxRemoved"),
                                          ("DropCounted", "DropCountAccepted")])
def test_drop_steps_out_of_order_are_409_count_out_of_order(type_: str, after: str) -> None:
    refused(ConflictError, "count_out_of_order", td.drop_step,
            drop_to(td.TableDayState(), after), type_, who="someone-else", cash=CASH)


def test_the_counter_does_not_sign_their_own_count() -> None:
    refused(ConflictError, "signed_already", td.drop_step,
            drop_to(td.TableDayState(), "DropCounted"), "DropCountSigned", who="counter")


def test_the_guard_who_removed_the_box_does_not_count_it() -> None:
    refused(ConflictError, "signed_already", td.drop_step,
            drop_to(td.TableDayState(), "DropBoxRemoved"), "DropCounted", who="security",
            cash=CASH)


def test_a_count_with_a_negative_number_of_notes_is_400_negative_count() -> None:
    refused(DomainError, "negative_count", td.drop_step,
            drop_to(td.TableDayState(), "DropBoxRemoved"), "DropCounted", who="counter",
            cash={"10000": -3})


def test_the_accepted_count_is_the_drop() -> None:
    s = drop_to(td.TableDayState(), "DropCountAccepted")
    assert s.drop["state"] == "accepted" and s.drop["counted_cents"] == 38_000
    assert s.drop["signers"] == {"security": "removed", "counter": "counted",
                                 "counter2": "signed", "cashier": "accepted"}


# --- exceptions -------------------------------------------------------------------------

def with_variance(state: td.TableDayState | None = None) -> td.TableDayState:
    """A drop $20.00 short: expected 40000, counted 38000, variance −2000."""
    s = state or td.TableDayState()
    return td.evolve(s, "VarianceRecorded", {
        "exception_id": "x1", "figure": "drop", "expected_cents": 40_000,
        "counted_cents": 38_000, "variance_cents": -2_000}, {"actor": "system:close"})


def explain(s: td.TableDayState, who: str) -> td.TableDayState:
    return apply(s, td.variance_explain(s, exception_id="x1", explanation="a $20 note in "
                                        "the tip box", who=who), who)


def test_a_sign_off_by_the_person_who_explained_is_409_same_person() -> None:
    error = refused(ConflictError, "same_person", td.variance_sign_off,
                    explain(with_variance(), "fin1"), exception_id="x1", who="fin1")
    assert error.status == 409


def test_an_earlier_explainer_does_not_sign_off_after_another_explained_again() -> None:
    """fin1 explained, fin2 explained again: fin1 still explained it (a person never
    signs twice for the same item)."""
    s = explain(explain(with_variance(), "fin1"), "fin2")
    refused(ConflictError, "same_person", td.variance_sign_off, s, exception_id="x1",
            who="fin1")


def test_an_exception_not_explained_yet_is_not_signed_off() -> None:
    refused(ConflictError, "exception_unexplained", td.variance_sign_off, with_variance(),
            exception_id="x1", who="auditor")


def test_a_second_person_signs_off_the_explained_exception() -> None:
    s = explain(with_variance(), "fin1")
    apply(s, td.variance_sign_off(s, exception_id="x1", who="auditor"), "auditor")
    v = s.variances["x1"]
    assert (v["state"], v["explained_by"], v["signed_off_by"]) == ("signed_off", "fin1",
                                                                   "auditor")


def test_a_signed_off_exception_is_neither_explained_nor_signed_off_again() -> None:
    s = explain(with_variance(), "fin1")
    apply(s, td.variance_sign_off(s, exception_id="x1", who="auditor"), "auditor")
    refused(ConflictError, "exception_signed_off", td.variance_explain, s, exception_id="x1",
            explanation="more", who="fin2")
    refused(ConflictError, "exception_signed_off", td.variance_sign_off, s,
            exception_id="x1", who="auditor2")


def test_an_exception_of_another_table_day_is_404() -> None:
    refused(NotFoundError, "exception_not_found", td.variance_explain, with_variance(),
            exception_id="x2", explanation="?", who="fin1")


# --- the fold ---------------------------------------------------------------------------

def test_the_fold_of_the_events_is_the_state_built_step_by_step() -> None:
    """``fold`` over the recorded events gives what applying them one by one gave."""
    log: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    s = td.TableDayState()

    def rec(decided: Decided, who: str) -> None:
        log.append((decided[0], decided[1], {"actor": who}))
        apply(s, decided, who)

    rec(td.inventory_record(s, slip="opener", pieces=OPENER, who="dealer"), "dealer")
    rec(td.inventory_sign(s, slip="opener", who="floor"), "floor")
    rec(td.chips_sell(s, amount_cents=38_000), "dealer")
    rec(td.slip_request(s, slip_id="s1", kind="fill", pieces=FILL), "floor")
    rec(td.slip_step(s, "SlipPrepared", slip_id="s1", who="cashier"), "cashier")
    rec(td.slip_void(s, slip_id="s1", reason="spoiled"), "cashier")
    rec(td.drop_step(s, "DropBoxRemoved", who="security"), "security")
    folded = td.fold(log)
    assert folded == s and folded.version == 7


# --- the reconciliation -----------------------------------------------------------------

def banked(**changes: Any) -> TableDayFigures:
    """Opener $1,500.00, fill $500.00, credit $50.00, chips sold $380.00, the house won
    $15.00 in the rounds; closer and drop as counted."""
    figures = {"kind": BANKED, "opener_cents": 150_000, "closer_cents": None,
               "fills_cents": 50_000, "credits_cents": 5_000, "chip_sales_cents": 38_000,
               "banked_win_cents": 1_500}
    return TableDayFigures(**{**figures, **changes})


def test_expected_closer_is_opener_plus_fills_less_credits_less_sales_plus_win() -> None:
    """150000 + 50000 − 5000 − 38000 + 1500 = 158500 cents."""
    assert banked().expected_closer_cents == 158_500


def test_expected_closer_without_rounds_is_opener_plus_fill_less_credit_less_sales() -> None:
    """150000 + 50000 − 5000 − 38000 = 157000 cents."""
    assert banked(banked_win_cents=0).expected_closer_cents == 157_000


def test_the_banked_expected_drop_is_the_chip_sales() -> None:
    assert banked().expected_drop_cents == 38_000


def test_the_win_from_the_counted_figures_gives_back_the_banked_win() -> None:
    """Closer − opener + credits − fills + drop = 158500 − 150000 + 5000 − 50000 + 38000
    = 1500: the house's win in the rounds; hold 1500 / 38000 = 3.947…% → 3.95 %."""
    f = banked(closer_cents=158_500, drop_counted_cents=38_000)
    assert f.win_cents(final=True) == 1_500
    assert hold_percent(f.win_cents(final=True), f.drop_counted_cents) == 3.95
    assert exceptions(f, tolerance_cents=0) == []


def test_the_preliminary_win_before_the_count_is_the_expected_one() -> None:
    """No closer, no count: the expected closer (158500) and drop (38000) give
    158500 − 150000 + 5000 − 50000 + 38000 = 1500."""
    assert banked().win_cents(final=False) == 1_500
    assert banked().win_cents(final=True) is None


def test_without_an_opener_the_preliminary_win_is_the_win_the_events_say() -> None:
    """Issue 22: one rule for a preliminary win (the Master Game Report showed "—"
    where the statistical report showed the rounds' win). No opener: no expected closer
    and no final win, and the preliminary win is the banked win, 1500 (the figure the
    formula gives with the expected closer); with a counted drop of 36000 against 38000
    expected it is 1500 + 36000 − 38000 = −500."""
    f = banked(opener_cents=None)
    assert f.expected_closer_cents is None and f.win_cents(final=True) is None
    assert f.win_cents(final=False) == preliminary_win_cents(f) == 1_500
    assert preliminary_win_cents(f, drop_cents=36_000) == -500


def test_a_preliminary_row_takes_the_accepted_count_as_its_drop() -> None:
    """One rule for both reports (finance.domain.reconcile.preliminary_row). No count:
    the expected drop 38000 and win 1500. Counted 36000, no closer: drop 36000, win
    158500 − 150000 + 5000 − 50000 + 36000 = −500, not final. Counted and closed
    (closer 158500): the final win, 158500 − 150000 + 5000 − 50000 + 36000 = −500."""
    before = preliminary_row(banked())
    assert (before.drop_cents, before.win_cents, before.drop_counted, before.final) == (
        38_000, 1_500, False, False)
    counted = preliminary_row(banked(drop_counted_cents=36_000))
    assert (counted.drop_cents, counted.win_cents, counted.drop_counted,
            counted.closer_signed, counted.final) == (36_000, -500, True, False, False)
    closed = banked(closer_cents=158_500, drop_counted_cents=36_000)
    assert (preliminary_row(closed).final, preliminary_row(closed).win_cents,
            closed.win_cents(final=True)) == (True, -500, -500)


def test_a_drop_twenty_dollars_short_is_one_exception_naming_the_amount() -> None:
    """Counted 36000 against 38000 expected: −2000 (a shortage of $20.00)."""
    f = banked(closer_cents=158_500, drop_counted_cents=36_000)
    found = exceptions(f, tolerance_cents=0)
    assert [v.as_data() for v in found] == [{
        "figure": DROP, "expected_cents": 38_000, "counted_cents": 36_000,
        "variance_cents": -2_000}]


def test_a_tray_over_by_five_dollars_is_a_tray_exception() -> None:
    """Closer 159000 against 158500 expected: +500."""
    found = exceptions(banked(closer_cents=159_000), tolerance_cents=0)
    assert [(v.figure, v.variance_cents) for v in found] == [(TRAY, 500)]


def test_a_variance_within_the_tolerance_is_no_exception_and_one_cent_past_it_is() -> None:
    """Tolerance 100 cents: short 100 → none; short 101 → one."""
    assert exceptions(banked(drop_counted_cents=37_900), tolerance_cents=100) == []
    found = exceptions(banked(drop_counted_cents=37_899), tolerance_cents=100)
    assert [(v.figure, v.variance_cents) for v in found] == [(DROP, -101)]


def poker(**changes: Any) -> TableDayFigures:
    """Opener $1,000.00, chips sold $200.00, rake $30.00, time charges $20.00."""
    figures = {"kind": POKER, "opener_cents": 100_000, "closer_cents": 80_000,
               "fills_cents": 0, "credits_cents": 0, "chip_sales_cents": 20_000,
               "rake_cents": 3_000, "time_charges_cents": 2_000}
    return TableDayFigures(**{**figures, **changes})


def test_the_poker_drop_holds_the_chip_sales_the_rake_and_the_time_charges() -> None:
    """§ 637a.17(b)(1)(ii), (b)(3)(v): 20000 + 3000 + 2000 = 25000; the tray loses only
    the chips sold: 100000 − 20000 = 80000."""
    f = poker()
    assert (f.expected_drop_cents, f.expected_closer_cents) == (25_000, 80_000)


def test_the_poker_win_from_the_count_is_the_rake_and_time_charges() -> None:
    """80000 − 100000 + 0 − 0 + 25000 = 5000 = 3000 + 2000."""
    f = poker(drop_counted_cents=25_000)
    assert f.win_cents(final=True) == 5_000 == f.expected_win_cents
    assert exceptions(f, tolerance_cents=0) == []


def test_negative_poker_revenue_is_always_an_exception() -> None:
    """§ 637a.17: counted 15000: win 80000 − 100000 + 15000 = −5000 < 0, an exception
    whatever the tolerance, beside the drop's own (15000 − 25000 = −10000)."""
    found = exceptions(poker(drop_counted_cents=15_000), tolerance_cents=1_000_000)
    assert [v.as_data() for v in found] == [{
        "figure": POKER_REVENUE, "expected_cents": 5_000, "counted_cents": -5_000,
        "variance_cents": -10_000}]


def test_no_hold_percent_without_a_drop() -> None:
    assert hold_percent(1_500, 0) is None and hold_percent(None, 38_000) is None


cents = st.integers(min_value=0, max_value=10**11)


@given(kind=st.sampled_from([BANKED, POKER]), opener=cents, fills=cents, credits=cents,
       sales=cents, win=st.integers(-10**11, 10**11), rake=cents, time=cents)
def test_the_expected_figures_always_give_back_the_win_the_events_say(
        kind: str, opener: int, fills: int, credits: int, sales: int, win: int, rake: int,
        time: int) -> None:
    """DESIGN §4 "Finance": with the expected closer and drop, closer − opener + credits
    − fills + drop is the banked win (or the rake and time charges at poker), and no
    exception is found."""
    f = TableDayFigures(kind=kind, opener_cents=opener, closer_cents=None, fills_cents=fills,
                        credits_cents=credits, chip_sales_cents=sales, banked_win_cents=win,
                        rake_cents=rake, time_charges_cents=time)
    counted = TableDayFigures(**{**f.__dict__, "closer_cents": f.expected_closer_cents,
                                 "drop_counted_cents": f.expected_drop_cents})
    assert f.win_cents(final=False) == f.expected_win_cents == counted.win_cents(final=True)
    assert exceptions(counted, tolerance_cents=0) == []
