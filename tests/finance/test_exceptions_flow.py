"""An exception from its finding to its sign-off, through the services
(:mod:`finance.services.exceptions`): the gaming day's close records a variance beyond
the tolerance on its table; finance explains it; a second person, finance or compliance,
never the one who explained, signs it off. Each bad input a specific refusal with
nothing appended; the amounts are worked by hand.

The day played is yesterday's (a day is closed once it has ended): the tray opened with
40 × $25 + 100 × $5 = $1,500.00 and closed with 40 × $25 + 80 × $5 = $1,000 + $400 =
$1,400.00, with no fill, credit, chip sale or round: expected closer 150000, counted
140000, a tray variance of −10000 cents ($100.00 short). The drop box was empty, as
expected without chip sales.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.forms.models import model_to_dict

from casino.actors import Actor, actor_of
from casino.domain.errors import ConflictError, DomainError, NotFoundError
from casino.roles import RoleRequired
from casino.services import property_register
from finance.models import FinanceException
from finance.services import drop, exceptions, tray
from finance.services.close import gaming_day_close
from tests.finance.test_tray import (
    OPENER,
    Team,
    nothing_appended,
    refused,
    table_events,
    today,
)

pytestmark = pytest.mark.django_db

CLOSER_SHORT = {"2500": 40, "500": 80}   # 100000 + 40000 = 140000 cents


def yesterday(actor: Actor) -> Any:
    return today(actor) - timedelta(days=1)


def played_yesterday(team: dict[str, Actor], table: Any, *, closer: dict, count: bool
                     ) -> str:
    """Yesterday at ``table``: the opener and ``closer`` signed; the empty drop box
    removed, counted, signed and accepted when ``count``. The day, as text."""
    day = yesterday(team["dealer"]).isoformat()
    for slip, pieces in (("opener", OPENER), ("closer", closer)):
        tray.inventory_record(actor=team["dealer"], table_id=table.pk, slip=slip,
                              pieces=pieces, gaming_day=day)
        tray.inventory_sign(actor=team["floor"], table_id=table.pk, slip=slip, gaming_day=day)
    if count:
        drop.drop_remove(actor=team["runner"], table_id=table.pk, gaming_day=day)
        drop.drop_count(actor=team["counter"], table_id=table.pk, cash={}, gaming_day=day)
        drop.drop_count_sign(actor=team["counter2"], table_id=table.pk, gaming_day=day)
        drop.drop_accept(actor=team["cashier"], table_id=table.pk, gaming_day=day)
    return day


@pytest.fixture
def table(open_table: Any) -> Any:
    return open_table("five-card-hi-lo")


@pytest.fixture
def short(team: dict[str, Actor], table: Any) -> FinanceException:
    """The exception the close of yesterday found: the tray $100.00 short."""
    day = played_yesterday(team, table, closer=CLOSER_SHORT, count=True)
    gaming_day_close(actor=team["finance"], gaming_day=day)
    return FinanceException.objects.get()


def explained(team: dict[str, Actor], short: FinanceException, who: str = "finance"
              ) -> FinanceException:
    return exceptions.variance_explain(actor=team[who], exception_id=short.exception_id,
                                       explanation="a $100 chip paid out twice in round 12")


# --- the exception found ----------------------------------------------------------------

def test_the_close_finds_one_exception_on_the_table_naming_the_amount(
        team: Team, table: Any, short: FinanceException) -> None:
    """Expected closer 150000, counted 140000: variance 140000 − 150000 = −10000."""
    assert (short.table_id, short.figure, short.expected_cents, short.counted_cents,
            short.variance_cents, short.state) == (table.pk, "tray", 150_000, 140_000,
                                                   -10_000, "open")
    assert short.gaming_day == yesterday(team["dealer"])


# --- explained, then signed off ---------------------------------------------------------

def test_finance_explains_the_exception(team: Team, short: FinanceException) -> None:
    row = explained(team, short)
    assert (row.state, row.explained_by, row.explanation) == (
        "explained", team["finance"].username, "a $100 chip paid out twice in round 12")
    assert row.explained_at is not None


def test_compliance_signs_off_the_explained_exception(
        team: Team, short: FinanceException) -> None:
    explained(team, short)
    row = exceptions.variance_sign_off(actor=team["auditor"], exception_id=short.exception_id)
    assert (row.state, row.signed_off_by) == ("signed_off", team["auditor"].username)


def test_a_second_finance_person_signs_off_the_explained_exception(
        team: Team, short: FinanceException) -> None:
    explained(team, short)
    row = exceptions.variance_sign_off(actor=team["finance2"],
                                       exception_id=short.exception_id)
    assert row.state == "signed_off"


def test_a_sign_off_by_the_person_who_explained_is_409_same_person(
        team: Team, short: FinanceException) -> None:
    explained(team, short)
    error = refused(ConflictError, "same_person", exceptions.variance_sign_off,
                    actor=team["finance"], exception_id=short.exception_id)
    assert error.status == 409


def test_the_first_explainer_does_not_sign_off_after_another_explained_again(
        team: Team, short: FinanceException) -> None:
    """A person never signs twice for the same item: explained by finance, again by
    finance2; neither signs it off."""
    explained(team, short)
    explained(team, short, "finance2")
    for who in ("finance", "finance2"):
        refused(ConflictError, "same_person", exceptions.variance_sign_off, actor=team[who],
                exception_id=short.exception_id)


def test_an_exception_not_explained_yet_is_409_exception_unexplained(
        team: Team, short: FinanceException) -> None:
    error = refused(ConflictError, "exception_unexplained", exceptions.variance_sign_off,
                    actor=team["auditor"], exception_id=short.exception_id)
    assert error.status == 409


def test_a_signed_off_exception_is_closed_to_more_explanations_and_sign_offs(
        team: Team, short: FinanceException) -> None:
    explained(team, short)
    exceptions.variance_sign_off(actor=team["auditor"], exception_id=short.exception_id)
    refused(ConflictError, "exception_signed_off", exceptions.variance_sign_off,
            actor=team["finance2"], exception_id=short.exception_id)
    refused(ConflictError, "exception_signed_off", exceptions.variance_explain,
            actor=team["finance2"], exception_id=short.exception_id, explanation="more")


def test_each_step_is_an_event_naming_the_person_the_role_and_the_credential(
        team: Team, table: Any, short: FinanceException) -> None:
    explained(team, short)
    exceptions.variance_sign_off(actor=team["auditor"], exception_id=short.exception_id)
    steps = [e for e in table_events(table, short.gaming_day)
             if e.type in ("VarianceExplained", "VarianceSignedOff")]
    assert [(e.type, e.metadata["actor"], e.metadata["role"],
             e.metadata["credential_number"]) for e in steps] == [
        ("VarianceExplained", team["finance"].username, "finance",
         team["finance"].credential_number),
        ("VarianceSignedOff", team["auditor"].username, "compliance",
         team["auditor"].credential_number)]


# --- roles ------------------------------------------------------------------------------

@pytest.mark.parametrize("who", ["cashier", "auditor", "counter", "floor"])
def test_only_finance_explains(team: Team, short: FinanceException, who: str) -> None:
    refused(RoleRequired, "role_required", exceptions.variance_explain, actor=team[who],
            exception_id=short.exception_id, explanation="it was the wind")


@pytest.mark.parametrize("who", ["cashier", "counter", "floor", "dealer"])
def test_only_finance_or_compliance_signs_off(
        team: Team, short: FinanceException, who: str) -> None:
    explained(team, short)
    refused(RoleRequired, "role_required", exceptions.variance_sign_off, actor=team[who],
            exception_id=short.exception_id)


# --- bad input --------------------------------------------------------------------------

@pytest.mark.parametrize("words", ["", "   ", None, 42, ["short"], "x" * 2001, "a\x00b"])
def test_an_explanation_not_in_words_is_400_invalid_explanation(
        team: Team, short: FinanceException, words: Any) -> None:
    error = refused(DomainError, "invalid_explanation", exceptions.variance_explain,
                    actor=team["finance"], exception_id=short.exception_id, explanation=words)
    assert error.status == 400


@pytest.mark.parametrize("exception_id", ["00000000-0000-0000-0000-000000000000", "x-1", 7])
def test_an_exception_that_does_not_exist_is_404_exception_not_found(
        team: Team, short: FinanceException, exception_id: Any) -> None:
    refused(NotFoundError, "exception_not_found", exceptions.variance_explain,
            actor=team["finance"], exception_id=exception_id, explanation="why")


def test_another_propertys_exception_is_404_exception_not_found(
        short: FinanceException, make_staff: Callable) -> None:
    other = property_register(licence_number="PA-OTHER-2", name="Other Casino",
                              system="test")
    finance = actor_of(make_staff("finance", property=other))
    refused(NotFoundError, "exception_not_found", exceptions.variance_explain, actor=finance,
            exception_id=short.exception_id, explanation="not ours")


# --- a count after the close ------------------------------------------------------------

def test_a_count_accepted_after_the_close_records_its_variance_as_an_adjustment(
        team: Team, table: Any) -> None:
    """Closed with the box not counted (the open item listed); the box then holds one
    $20 note against nothing expected: +2000, an exception marked after_close."""
    day = played_yesterday(team, table, closer=OPENER, count=False)
    gaming_day_close(actor=team["finance"], gaming_day=day, with_open_items=True)
    assert not FinanceException.objects.exists()
    drop.drop_remove(actor=team["runner"], table_id=table.pk, gaming_day=day)
    drop.drop_count(actor=team["counter"], table_id=table.pk, cash={"2000": 1},
                    gaming_day=day)
    drop.drop_count_sign(actor=team["counter2"], table_id=table.pk, gaming_day=day)
    drop.drop_accept(actor=team["cashier"], table_id=table.pk, gaming_day=day)
    found = FinanceException.objects.get()
    assert (found.figure, found.expected_cents, found.counted_cents, found.variance_cents,
            found.after_close) == ("drop", 0, 2_000, 2_000, True)


def test_the_exception_rows_equal_a_rebuild_from_the_events(
        team: Team, short: FinanceException) -> None:
    explained(team, short)
    exceptions.variance_sign_off(actor=team["auditor"], exception_id=short.exception_id)

    def rows() -> list[dict]:
        return [model_to_dict(r, exclude=["id"]) for r in FinanceException.objects.all()]

    before = rows()
    call_command("rebuild_projections", "--no-progress", stdout=open("/dev/null", "w"))
    assert rows() == before


def test_a_refused_sign_off_leaves_the_exception_as_it_was(
        team: Team, short: FinanceException) -> None:
    explained(team, short)
    with nothing_appended(), pytest.raises(ConflictError):
        exceptions.variance_sign_off(actor=team["finance"], exception_id=short.exception_id)
    short.refresh_from_db()
    assert (short.state, short.signed_off_by) == ("explained", "")
