"""A deck's life through the services, with the card inventory report."""

from __future__ import annotations

from typing import Any

import pytest

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import head, read_stream
from tables import selectors
from tables.models import DeckState
from tables.services import decks, rounds

pytestmark = pytest.mark.django_db


@pytest.mark.regulation("589.5(c)(2)")
def test_full_life_from_receipt_to_destruction(crew, open_table, ready_deck) -> None:
    """§ 589.4(a)-(c), § 589.5(a), (d): inspected, verified, spread, washed, shuffled, cut."""
    table = open_table("lunar-poker-589", dealing_method="manual-shoe", shuffler="none")
    deck = ready_deck(table, shuffle="manual")
    assert deck.state == DeckState.READY
    deck = decks.deck_put_in_play(actor=crew["dealer"], deck_id=deck.pk)
    assert deck.state == DeckState.IN_PLAY and deck.limit_basis == "shoe"
    decks.deck_remove(actor=crew["floor"], deck_id=deck.pk, reason="end-of-day")
    deck = decks.deck_destroy(actor=crew["security"], deck_id=deck.pk, note="shredded")
    assert deck.state == DeckState.DESTROYED
    assert [e.type for e in read_stream(deck.stream_id)] == [
        "DeckReceived", "DeckInspected", "DeckInspectionVerified", "DeckSpread", "DeckWashed",
        "DeckShuffled", "DeckCut", "DeckPutInPlay", "DeckRemoved", "DeckDestroyed"]


@pytest.mark.regulation("637a.4(a)")
def test_a_defect_rejects_the_deck(crew, open_table) -> None:
    """§ 637a.4(a): the dealer inspects for defects, the floorperson verifies."""
    table = open_table("holdem")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B-7")
    decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk, defects=["bent ace of spades"])
    with pytest.raises(ConflictError) as err:
        decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    assert err.value.code == "deck_defective"
    deck = decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=False)
    assert (deck.state, deck.removal_reason) == (DeckState.REMOVED, "defect")


@pytest.mark.regulation("579.4(a)")
def test_the_inspecting_dealer_cannot_verify_their_own_inspection(staff, crew, open_table) -> None:
    """§ 589.4(a): the floorperson verifies the dealer's inspection: two people."""
    from tables.services import tables

    both = staff("dealer", "floorperson")
    table = open_table("five-card-hi-lo")
    tables.table_assign_dealer(actor=crew["floor"], table_id=table.pk, dealer=both.username)
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="blue",
                              batch="B-1")
    decks.deck_inspect(actor=both, deck_id=deck.pk)
    with pytest.raises(ConflictError) as err:
        decks.deck_inspection_verify(actor=both, deck_id=deck.pk, accepted=True)
    assert err.value.code == "verifier_is_inspector"
    assert decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk,
                                        accepted=True).state == DeckState.VERIFIED


@pytest.mark.regulation("589.5(d)")
def test_cover_card_nine_deep_is_refused_and_changes_nothing(crew, open_table) -> None:
    """§ 589.5(d): the cover card at least ten cards in from the top."""
    table = open_table("lunar-poker-589", dealing_method="manual-shoe", shuffler="none")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B-2")
    decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk)
    decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    decks.deck_spread(actor=crew["dealer"], deck_id=deck.pk, players=1)
    decks.deck_wash(actor=crew["dealer"], deck_id=deck.pk)
    decks.deck_shuffle(actor=crew["dealer"], deck_id=deck.pk, method="manual")
    before = head()
    with pytest.raises(DomainError) as err:
        decks.deck_cut(actor=crew["dealer"], deck_id=deck.pk, depth=9)
    assert err.value.code == "cut_too_shallow"
    assert head() == before
    assert decks.deck_cut(actor=crew["dealer"], deck_id=deck.pk, depth=10).state == DeckState.READY


def test_an_automated_shuffle_needs_no_cut(crew, open_table, ready_deck) -> None:
    """§ 589.5(c)(1), § 637a.5(b)(1)."""
    deck = ready_deck(open_table("stud-high"), shuffle="automated")
    assert (deck.state, deck.cut_required) == (DeckState.READY, False)
    assert "DeckCut" not in [e.type for e in read_stream(deck.stream_id)]


def test_automated_shuffle_refused_without_a_shuffler(crew, open_table) -> None:
    table = open_table("lunar-poker-671a", dealing_method="manual-shoe", shuffler="none")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B")
    decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk)
    decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    decks.deck_spread(actor=crew["dealer"], deck_id=deck.pk, players=1)
    decks.deck_wash(actor=crew["dealer"], deck_id=deck.pk)
    with pytest.raises(ConflictError) as err:
        decks.deck_shuffle(actor=crew["dealer"], deck_id=deck.pk, method="automated")
    assert err.value.code == "shuffler_unavailable"


@pytest.mark.regulation("589.4(e)", "589.5(c)(2)")
def test_preinspected_preshuffled_deck_skips_to_the_cut(crew, open_table) -> None:
    """§ 589.4(e): (a)-(d) do not apply; § 589.5(c)(2): a preshuffled deck is cut."""
    table = open_table("lunar-poker-589")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="PRE-1", preinspected_preshuffled=True)
    assert (deck.state, deck.cut_required) == (DeckState.SHUFFLED, True)
    with pytest.raises(ConflictError):
        decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk)
    assert decks.deck_cut(actor=crew["dealer"], deck_id=deck.pk, depth=15).state == DeckState.READY


@pytest.mark.regulation("579.4(e)", "579.5(c)(2)")
def test_preshuffled_deck_at_five_card_hi_lo_needs_no_cut(crew, open_table) -> None:
    """§ 579.4(e); § 579.5(c)(2) requires a cut after a manual shuffle only."""
    table = open_table("five-card-hi-lo")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="PRE-2", preinspected_preshuffled=True)
    assert deck.state == DeckState.READY


@pytest.mark.regulation("637a.4(b)")
def test_spread_for_one_player_at_poker_is_refused(crew, open_table) -> None:
    """§ 637a.4(b): spread for the first two players."""
    table = open_table("omaha-hilo8")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B")
    decks.deck_inspect(actor=crew["dealer"], deck_id=deck.pk)
    decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    with pytest.raises(DomainError) as err:
        decks.deck_spread(actor=crew["dealer"], deck_id=deck.pk, players=1)
    assert err.value.code == "wrong_spread"


@pytest.mark.regulation("637a.7(e)(5)")
def test_counting_51_removes_the_deck_and_it_cannot_deal_again(crew, open_table,
                                                               deck_in_play) -> None:
    """§ 637a.7(e)(5): an incorrect count removes the deck from the table."""
    table = open_table("holdem")
    a, b = deck_in_play(table, colour="red"), deck_in_play(table, colour="blue")
    deck = decks.deck_count(actor=crew["dealer"], deck_id=a.pk, cards=51)
    assert (deck.state, deck.removal_reason) == (DeckState.REMOVED, "count-wrong")
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=a.pk)
    assert err.value.code == "deck_not_in_play"
    assert b.state == DeckState.IN_PLAY


@pytest.mark.regulation("671a.5(b)")
def test_counting_shuffler_reporting_a_wrong_count_removes_the_deck(crew, open_table,
                                                                    deck_in_play) -> None:
    """§ 589.5(b), § 671a.5(b), § 579.5(b)."""
    table = open_table("lunar-poker-671a", shuffler="automated-counting")
    deck = deck_in_play(table)
    deck = decks.deck_shuffler_count(actor=crew["dealer"], deck_id=deck.pk, cards=50)
    assert deck.removal_reason == "shuffler-count"


def test_count_is_verified_by_a_floorperson(crew, open_table, deck_in_play) -> None:
    table = open_table("holdem")
    deck = deck_in_play(table)
    with pytest.raises(ConflictError) as err:
        decks.deck_count_verify(actor=crew["floor"], deck_id=deck.pk)
    assert err.value.code == "no_count_to_verify"
    decks.deck_count(actor=crew["dealer"], deck_id=deck.pk, cards=52)
    decks.deck_count_verify(actor=crew["floor"], deck_id=deck.pk)
    assert read_stream(deck.stream_id)[-1].type == "DeckCountVerified"


@pytest.mark.regulation("589.3(a)")
def test_a_banked_table_without_a_shuffler_has_one_deck_in_play(crew, open_table,
                                                                deck_in_play) -> None:
    """§ 589.3(a): one deck unless an automated shuffler is used (§ 589.3(b))."""
    table = open_table("lunar-poker-589", dealing_method="manual-shoe", shuffler="none")
    deck_in_play(table, shuffle="manual")
    with pytest.raises(ConflictError) as err:
        deck_in_play(table, shuffle="manual")
    assert err.value.code == "too_many_decks_in_play"


def test_card_inventory_report_lists_each_signed_step(crew, open_table, deck_in_play) -> None:
    table = open_table("badugi")
    a = deck_in_play(table, colour="red")
    deck_in_play(table, colour="blue")
    decks.deck_count(actor=crew["dealer"], deck_id=a.pk, cards=50)
    decks.deck_destroy(actor=crew["security"], deck_id=a.pk)
    day = crew["floor"].gaming_day()
    report = selectors.card_inventory(crew["floor"].property, day)
    assert len(report["received"]) == 2
    assert [d.back_colour for d in report["in_play"]] == ["blue"]
    assert [(s.step, s.details["reason"]) for s in report["removed"]] == [("removed",
                                                                           "count-wrong")]
    assert [(s.step, s.actor) for s in report["destroyed"]] == [("destroyed",
                                                                 crew["security"].username)]
    verified = [s for s in report["signatures"] if s.step == "inspection-verified"]
    assert {s.credential_number for s in verified} == {crew["floor"].credential_number}
    assert selectors.card_inventory(crew["floor"].property, day.replace(year=2001))[
        "received"] == []


def test_a_dealer_acts_only_at_their_own_table(crew, staff, open_table) -> None:
    table = open_table("holdem")
    other_dealer = staff("dealer")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B")
    before = head()
    with pytest.raises(DomainError) as err:
        decks.deck_inspect(actor=other_dealer, deck_id=deck.pk)
    assert (err.value.code, err.value.status) == ("not_assigned_to_table", 403)
    assert head() == before


def test_a_deck_of_another_property_is_not_found(crew, open_table, staff) -> None:
    from casino.actors import Actor
    from casino.services import property_register

    table = open_table("holdem")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B")
    elsewhere = property_register(name="Elsewhere", licence_number="PA-OTHER", system="test")
    stranger: Any = Actor(**{**crew["floor"].__dict__, "property": elsewhere})
    with pytest.raises(DomainError) as err:
        decks.deck_remove(actor=stranger, deck_id=deck.pk, reason="defect")
    assert (err.value.code, err.value.status) == ("deck_not_found", 404)


def test_the_card_inventory_report_command_prints_times_with_their_offset(
        crew, open_table, deck_in_play, capsys) -> None:
    """Issue 22: the management command prints the API's answer (GET decks/inventory/):
    every time in it ISO 8601 with its offset, never a naive local string; it holds no
    money (decks and their signed steps), so no integer named for money either."""
    import json
    import re

    from django.core.management import call_command

    table = open_table("badugi")
    a = deck_in_play(table, colour="red")
    decks.deck_count(actor=crew["dealer"], deck_id=a.pk, cards=50)
    decks.deck_destroy(actor=crew["security"], deck_id=a.pk)
    call_command("card_inventory_report", "--property", crew["floor"].property.licence_number,
                 "--gaming-day", crew["floor"].gaming_day().isoformat())
    printed = json.loads(capsys.readouterr().out)
    timestamp = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
    aware = re.compile(r"(Z|[+-]\d{2}:\d{2})$")
    seen: list[tuple[str, Any]] = []

    def walk(node: Any, key: str = "") -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        else:
            seen.append((key, node))

    walk(printed)
    times = [(k, v) for k, v in seen if isinstance(v, str) and timestamp.match(v)]
    # received, in play (entered play, received, deadline), removed, destroyed, signatures
    assert len(times) >= 5
    assert [(k, v) for k, v in times if not aware.search(v)] == []
    assert [k for k, v in seen if isinstance(v, int) and not isinstance(v, bool)
            and re.search(r"amount|cents|dollars|money", k)] == []


@pytest.mark.regulation("637a.3(a)", "579.3(b)(1)", "589.3(b)(1)", "671a.3(b)(1)")
@pytest.mark.parametrize("game", ["holdem", "five-card-hi-lo", "lunar-poker-589",
                                  "lunar-poker-671a"])
def test_the_two_decks_in_play_have_backs_of_different_colours(
        game, crew, open_table, ready_deck) -> None:
    """The pair's second deck with the same back colour as the deck in play ("Red" and
    "red " are one colour) is refused, nothing appended; a blue one goes in play."""
    table = open_table(game)
    decks.deck_put_in_play(actor=crew["dealer"], deck_id=ready_deck(table, colour="red").pk)
    second = ready_deck(table, colour="Red ")
    before = len(read_stream(second.stream_id))
    with pytest.raises(ConflictError) as err:
        decks.deck_put_in_play(actor=crew["dealer"], deck_id=second.pk)
    assert err.value.code == "same_back_colour"
    assert len(read_stream(second.stream_id)) == before
    blue = ready_deck(table, colour="blue")
    assert decks.deck_put_in_play(actor=crew["dealer"], deck_id=blue.pk).state == DeckState.IN_PLAY
