"""The tables' lists on the console's "waiting for me" (tables.console_tasks): each item
appears for the roles its command admits and no other, shows who did the first step of a
two-person step and is not offered to that person, is gone for everyone once done, and
never shows another property's rows; a deck past its time limit is marked overdue; and
each list reads a fixed number of queries however many tables there are.

State is built through the real services (the events appended, the read models
projected); the lists are read as the console reads them, through the registry."""

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
from tables.domain.rules_options import example_options
from tables.models import Deck, DeckState
from tables.services import decks, rules, tables

pytestmark = pytest.mark.django_db

#: 6:10 AM EST on the demo property's clock (America/New_York, UTC-5 in November)
MORNING = datetime(2026, 11, 25, 11, 10, tzinfo=UTC)

#: each provider and the command its items open
COMMAND_OF = {"decks_to_inspect": "deck_inspect",
              "deck_inspections_to_verify": "deck_inspection_verify",
              "deck_counts_to_verify": "deck_count_verify",
              "deck_changes_due": "deck_remove",
              "rules_to_approve": "rules_approve",
              "rules_withdrawals_to_confirm": "rules_withdraw_confirm"}


def waiting(key: str, actor: Actor) -> list[WaitingItem]:
    """The items of provider ``key`` for ``actor``, or [] when the provider is not shown
    to their roles (as the console's home does)."""
    if key not in {p.key for p in providers_for(actor.roles)}:
        return []
    return list(REGISTRY.tasks[key].items(actor))


def shown_to(key: str, actor: Actor) -> bool:
    return key in {p.key for p in providers_for(actor.roles)}


@pytest.fixture
def both(make_staff: Callable) -> Callable[..., Actor]:
    def make(*roles: str, **kw: Any) -> Actor:
        return actor_of(make_staff(*roles, **kw))
    return make


def test_each_list_is_shown_to_exactly_the_roles_its_command_admits() -> None:
    """The provider's roles are the declaration's (the API's and the form's), and each
    item opens that command's form."""
    importlib.import_module("tables.commands")
    for key, name in COMMAND_OF.items():
        assert set(REGISTRY.tasks[key].roles) == set(declared(name).roles), key


def test_a_received_deck_waits_for_its_tables_dealer_then_for_a_floorperson(
        crew, open_table, both) -> None:
    """§ 637a.4(a): the dealer inspects the decks received at the table, a floorperson or
    above verifies the inspection. The dealer is asked at their own table only; the
    person who inspected is shown the verification with their name and no button."""
    with time_machine.travel(MORNING, tick=False):
        table = open_table("holdem")
        # a dealer who is also a floorperson, assigned to this table, inspects
        inspector = both("dealer", "floorperson", username="dana")
        tables.table_assign_dealer(actor=crew["floor"], table_id=table.pk, dealer="dana")
        other_dealer = both("dealer")
        deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk,
                                  back_colour="red", batch="B-7")

        [item] = waiting("decks_to_inspect", inspector)
        assert item.title == f"Red deck (batch B-7) at {table.name}: inspect it"
        assert item.detail == "Received at 6:10 AM EST"
        assert item.url == f"/console/do/deck_inspect/{deck.pk}/"
        assert item.actionable and not item.first_by
        assert waiting("decks_to_inspect", other_dealer) == []  # not their table
        assert not shown_to("decks_to_inspect", crew["floor"])
        assert not shown_to("deck_inspections_to_verify", crew["dealer"])

    with time_machine.travel(MORNING + timedelta(minutes=5), tick=False):
        decks.deck_inspect(actor=inspector, deck_id=deck.pk, defects=[])
    with time_machine.travel(MORNING + timedelta(minutes=9), tick=False):
        assert waiting("decks_to_inspect", inspector) == []
        [theirs] = waiting("deck_inspections_to_verify", inspector)
        [floors] = waiting("deck_inspections_to_verify", crew["floor"])
    assert theirs.first_by == floors.first_by == "dana"
    assert (theirs.actionable, floors.actionable) == (False, True)
    assert floors.title == f"Red deck (batch B-7) at {table.name}: inspection to verify"
    assert floors.detail == "Inspected by dana at 6:15 AM EST, no defects found"
    assert floors.action == "Verify the inspection"
    assert floors.url == f"/console/do/deck_inspection_verify/{deck.pk}/"

    decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    assert waiting("deck_inspections_to_verify", inspector) == []
    assert waiting("deck_inspections_to_verify", crew["floor"]) == []


def test_a_defective_deck_is_offered_for_rejection(crew, open_table) -> None:
    """§ 589.4(a): a defect the dealer found rejects the deck; the form opens with
    "not accepted" filled in."""
    table = open_table("lunar-poker-589", dealing_method="manual-shoe", shuffler="none")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="blue",
                              batch="B-2")
    decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk, defects=["bent ace of spades"])
    [item] = waiting("deck_inspections_to_verify", crew["floor"])
    assert item.detail.endswith("defects found: bent ace of spades")
    assert item.action == "Reject the deck"
    assert item.url == f"/console/do/deck_inspection_verify/{deck.pk}/?accepted=false"


def test_a_count_waits_for_a_second_person(crew, open_table, deck_in_play, both) -> None:
    """§ 637a.7(e)(4): the deck is counted; the count is signed by a floorperson other
    than the person who counted (``verifier_is_counter``)."""
    table = open_table("holdem")
    deck = deck_in_play(table, colour="red")
    counter = both("floorperson", username="fran")
    with time_machine.travel(MORNING, tick=False):
        decks.deck_count(actor=counter, deck_id=deck.pk, cards=52)
        [theirs] = waiting("deck_counts_to_verify", counter)
        [floors] = waiting("deck_counts_to_verify", crew["floor"])
    assert theirs.first_by == floors.first_by == "fran"
    assert (theirs.actionable, floors.actionable) == (False, True)
    assert floors.detail == "fran counted 52 cards at 6:10 AM EST"
    assert floors.url == f"/console/do/deck_count_verify/{deck.pk}/"
    assert not shown_to("deck_counts_to_verify", crew["dealer"])

    decks.deck_count_verify(actor=crew["floor"], deck_id=deck.pk)
    assert waiting("deck_counts_to_verify", counter) == []
    assert waiting("deck_counts_to_verify", crew["floor"]) == []
    # a new count waits again
    decks.deck_count(actor=crew["dealer"], deck_id=deck.pk, cards=52)
    [again] = waiting("deck_counts_to_verify", crew["floor"])
    assert again.first_by == crew["dealer"].username


def test_a_deck_change_is_due_then_overdue_then_gone(crew, open_table, deck_in_play,
                                                     both) -> None:
    """§ 637a.3(c): a poker deck is changed at least every 12 hours. In play at 6:10 AM EST
    it reaches its limit at 6:10 PM EST: listed from the 15-minute warning (5:55 PM),
    overdue from 6:10 PM; the table's dealer and the floorpersons are asked, another
    table's dealer is not. Read from the deadline: no timer need have fired."""
    with time_machine.travel(MORNING, tick=False):
        table = open_table("holdem")
        deck = deck_in_play(table, colour="red")
    assert deck.deadline_at == MORNING + timedelta(hours=12)
    other_dealer = both("dealer")

    with time_machine.travel(MORNING + timedelta(hours=11, minutes=44), tick=False):
        assert waiting("deck_changes_due", crew["floor"]) == []
    with time_machine.travel(MORNING + timedelta(hours=11, minutes=46), tick=False):
        [due] = waiting("deck_changes_due", crew["floor"])
        assert waiting("deck_changes_due", crew["dealer"]) == [due]
        assert waiting("deck_changes_due", other_dealer) == []
    assert not due.overdue
    assert due.title == f"Red deck (batch {deck.batch}) at {table.name}: change due"
    assert due.detail == "Reaches the time limit for a deck at poker at 6:10 PM EST"
    assert due.url == f"/console/do/deck_remove/{deck.pk}/?reason=time-limit"

    with time_machine.travel(MORNING + timedelta(hours=12, minutes=1), tick=False):
        [late] = waiting("deck_changes_due", crew["floor"])
    assert late.overdue and late.title.endswith(": change overdue")
    assert late.detail == "Past the time limit for a deck at poker since 6:10 PM EST"
    assert not shown_to("deck_changes_due", crew["compliance"])

    with time_machine.travel(MORNING + timedelta(hours=12, minutes=2), tick=False):
        decks.deck_remove(actor=crew["dealer"], deck_id=deck.pk, reason="time-limit")
        assert waiting("deck_changes_due", crew["floor"]) == []
        assert waiting("deck_changes_due", crew["dealer"]) == []


def test_a_submission_waits_for_a_second_compliance_officer(crew, both) -> None:
    """601a.2 (the four eyes of tables.services.rules.rules_approve): the officer who
    drafted, edited or submitted a version sees it waiting, with the submitter named, and
    is not offered the approval; another officer is; once approved it is gone."""
    author, editor = crew["compliance"], both("compliance", username="eddie")
    rs = rules.rules_draft(actor=author, game="holdem", options=example_options("holdem"))
    rules.rules_revise(actor=editor, rules_id=rs.pk, notes="house rules of Nov 25")
    assert waiting("rules_to_approve", author) == []  # a draft waits for nobody
    rules.rules_submit(actor=author, rules_id=rs.pk)

    [a] = waiting("rules_to_approve", author)
    [e] = waiting("rules_to_approve", editor)
    [ok] = waiting("rules_to_approve", crew["approver"])
    assert a.first_by == e.first_by == ok.first_by == author.username
    assert (a.actionable, e.actionable, ok.actionable) == (False, False, True)
    assert ok.title == "Hold'em rules, version 1: approval"
    assert ok.detail == f"Submitted by {author.username}"
    assert ok.url == f"/console/do/rules_approve/{rs.pk}/"
    assert not shown_to("rules_to_approve", crew["admin"])  # drafts, never approves

    rules.rules_approve(actor=crew["approver"], rules_id=rs.pk)
    assert waiting("rules_to_approve", author) == []
    assert waiting("rules_to_approve", crew["approver"]) == []


def test_a_withdrawal_waits_for_a_second_officer_until_confirmed_or_cancelled(
        crew, put_rules_in_effect) -> None:
    """A version in effect is withdrawn by two compliance officers (601a.2,
    tables.services.rules.rules_withdraw_confirm): the one who asked is named and not
    offered the confirmation; a cancelled or a confirmed request is gone."""
    asker, second = crew["compliance"], crew["approver"]
    with time_machine.travel(MORNING, tick=False):
        rs = put_rules_in_effect("holdem")
        rules.rules_withdraw(actor=asker, rules_id=rs.pk, reason="wrong rake cap")
        [mine] = waiting("rules_withdrawals_to_confirm", asker)
        [theirs] = waiting("rules_withdrawals_to_confirm", second)
    assert mine.first_by == theirs.first_by == asker.username
    assert (mine.actionable, theirs.actionable) == (False, True)
    assert theirs.title == "Hold'em rules, version 1: withdrawal to confirm"
    assert theirs.detail == f"Asked by {asker.username} at 6:10 AM EST: wrong rake cap"
    assert theirs.url == f"/console/do/rules_withdraw_confirm/{rs.pk}/"
    assert not shown_to("rules_withdrawals_to_confirm", crew["floor"])

    rules.rules_withdraw_cancel(actor=asker, rules_id=rs.pk, reason="the cap is right")
    assert waiting("rules_withdrawals_to_confirm", second) == []
    rules.rules_withdraw(actor=second, rules_id=rs.pk, reason="superseded soon")
    [again] = waiting("rules_withdrawals_to_confirm", asker)
    assert again.first_by == second.username and again.actionable
    rules.rules_withdraw_confirm(actor=asker, rules_id=rs.pk)
    assert waiting("rules_withdrawals_to_confirm", asker) == []
    assert waiting("rules_withdrawals_to_confirm", second) == []


def test_another_propertys_items_are_never_shown(crew, open_table, both) -> None:
    """Every list reads the viewer's property only (issue 11): the other casino's
    received deck and submitted rules wait for its own staff, not ours."""
    from casino.services import property_register

    other = property_register(licence_number="PA-TEST-2", name="Other Casino", system="test")
    theirs = {r: both(r, property=other) for r in ("admin", "floorperson", "dealer")}
    officer, approver = both("compliance", property=other), both("compliance", property=other)
    t = tables.table_configure(actor=theirs["admin"], name="Far 1", game="holdem",
                               positions=9, dealing_method="hand", shuffler="automated")
    tables.table_assign_dealer(actor=theirs["floorperson"], table_id=t.pk,
                               dealer=theirs["dealer"].username)
    decks.deck_receive(actor=theirs["floorperson"], table_id=t.pk, back_colour="green",
                       batch="X")
    rs = rules.rules_draft(actor=officer, game="holdem", options=example_options("holdem"))
    rules.rules_submit(actor=officer, rules_id=rs.pk)

    # theirs wait for them (so the reads below could find them) ...
    assert len(waiting("decks_to_inspect", theirs["dealer"])) == 1
    assert len(waiting("rules_to_approve", approver)) == 1
    # ... and never for us
    for key in COMMAND_OF:
        for actor in crew.values():
            assert waiting(key, actor) == [], (key, actor.username)


def _table(crew: dict[str, Actor], n: int) -> Any:
    t = tables.table_configure(actor=crew["admin"], name=f"Holdem {n}", game="holdem",
                               positions=9, dealing_method="hand", shuffler="automated")
    tables.table_assign_dealer(actor=crew["floor"], table_id=t.pk,
                               dealer=crew["dealer"].username)
    return tables.table_open(actor=crew["floor"], table_id=t.pk)


def _work_at(crew: dict[str, Actor], table: Any, ready_deck: Callable) -> None:
    """One item of each deck list at ``table``: a deck to inspect, an inspection to
    verify, a deck in play counted (its change comes due later)."""
    f, d = crew["floor"], crew["dealer"]
    decks.deck_receive(actor=f, table_id=table.pk, back_colour="red", batch="R")
    inspected = decks.deck_receive(actor=f, table_id=table.pk, back_colour="blue", batch="B")
    decks.deck_inspect(actor=d, deck_id=inspected.pk)
    playing = decks.deck_put_in_play(actor=d, deck_id=ready_deck(table, colour="gold").pk)
    decks.deck_count(actor=d, deck_id=playing.pk, cards=52)
    rules.rules_submit(actor=crew["compliance"], rules_id=rules.rules_draft(
        actor=crew["compliance"], game="holdem", options=example_options("holdem")).pk)


def test_the_lists_read_a_fixed_number_of_queries(crew, put_rules_in_effect, ready_deck,
                                                  both) -> None:
    """Three tables or thirty, each with one item of every deck list and a submitted
    version: each list reads the same number of queries (no query per table or item;
    the console's benchmark needs it)."""
    viewer = both("floorperson", "compliance")  # the tables' dealer reads decks to inspect
    with time_machine.travel(MORNING, tick=False):
        rs = put_rules_in_effect("holdem")
        rules.rules_withdraw(actor=crew["compliance"], rules_id=rs.pk, reason="test")
        made = [_table(crew, n) for n in range(3)]
        for t in made:
            _work_at(crew, t, ready_deck)

    def read() -> tuple[dict[str, int], dict[str, int]]:
        queries, sizes = {}, {}
        with time_machine.travel(MORNING + timedelta(hours=13), tick=False):
            for key in COMMAND_OF:
                with CaptureQueriesContext(connection) as ctx:
                    sizes[key] = len(REGISTRY.tasks[key].items(
                        crew["dealer"] if key == "decks_to_inspect" else viewer))
                queries[key] = len(ctx.captured_queries)
        return queries, sizes

    few, few_sizes = read()
    with time_machine.travel(MORNING + timedelta(minutes=1), tick=False):
        for n in range(3, 30):
            _work_at(crew, _table(crew, n), ready_deck)
    many, many_sizes = read()
    assert few_sizes == {k: 3 for k in COMMAND_OF} | {"rules_withdrawals_to_confirm": 1}
    assert many_sizes == {k: 30 for k in COMMAND_OF} | {"rules_withdrawals_to_confirm": 1}
    assert many == few
    assert max(few.values()) == 1
    assert Deck.objects.filter(state=DeckState.IN_PLAY).count() == 30

