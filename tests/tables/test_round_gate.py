"""Opening a round enforces deck control and records the rules in effect."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import head, read_stream
from tables.domain.rules_options import example_options
from tables.models import Deck
from tables.services import decks, rounds, rules, tables
from tables.services.timers import deck_timer_fire, timers_sweep

pytestmark = pytest.mark.django_db


def _play(crew, table, deck):  # noqa: ANN001, ANN202
    r = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    rounds.round_close(actor=crew["dealer"], round_id=r.pk)
    return r


def test_round_records_the_rules_version_in_effect_when_it_opened(crew, open_table,
                                                                  deck_in_play) -> None:
    table = open_table("lunar-poker-671a")
    deck = deck_in_play(table)
    first = _play(crew, table, deck)
    rs = rules.rules_draft(actor=crew["compliance"], game="lunar-poker-671a",
                           options={**example_options("lunar-poker-671a"), "instant_paytable": "B"})
    rules.rules_submit(actor=crew["compliance"], rules_id=rs.pk)
    rules.rules_approve(actor=crew["approver"], rules_id=rs.pk)
    second = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert (first.rules_version_number, second.rules_version_number) == (1, 2)
    opened = read_stream(second.stream_id)[0]
    assert opened.data["rules_submission_id"] == str(rs.pk)
    assert opened.data["dealing_method"] == "automated-shoe"


def test_round_at_a_closed_table_is_refused(crew, open_table, deck_in_play) -> None:
    table = open_table("five-card-hi-lo")
    deck = deck_in_play(table)
    tables.table_close(actor=crew["floor"], table_id=table.pk)
    before = head()
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "table_closed"
    assert head() == before


def test_a_table_cannot_open_without_rules_in_effect(crew) -> None:
    t = tables.table_configure(actor=crew["admin"], name="HL-9", game="five-card-hi-lo",
                               positions=6, dealing_method="manual-shoe", shuffler="none")
    with pytest.raises(ConflictError) as err:
        tables.table_open(actor=crew["floor"], table_id=t.pk)
    assert err.value.code == "no_rules_in_effect"


@pytest.mark.regulation("589.3(c)")
def test_deck_past_its_deadline_is_refused_even_before_the_timer_fires(crew, open_table,
                                                                       deck_in_play) -> None:
    """§ 589.3(c): the deck is changed at least every four or eight hours."""
    table = open_table("lunar-poker-589")
    deck = deck_in_play(table)
    Deck.objects.filter(pk=deck.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "deck_change_due"


def test_timer_marks_the_deck_change_due_once(crew, open_table, deck_in_play, settings) -> None:
    """§ 637a.3(c): decks are changed at least every 12 hours."""
    table = open_table("holdem")
    deck = deck_in_play(table)
    deadline = deck.deadline_at.isoformat()
    assert deck_timer_fire(deck_id=str(deck.pk), kind="due", deadline=deadline) == "marked"
    after_first = head()
    assert deck_timer_fire(deck_id=str(deck.pk), kind="due", deadline=deadline) == "already-done"
    assert head() == after_first
    deck.refresh_from_db()
    assert deck.change_due
    other = deck_in_play(table, colour="blue")
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "deck_change_due"
    assert rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=other.pk).number == 1


def test_timer_does_nothing_for_a_deck_that_left_play_or_a_moved_deadline(crew, open_table,
                                                                         deck_in_play) -> None:
    table = open_table("holdem")
    deck = deck_in_play(table)
    assert deck_timer_fire(deck_id=str(deck.pk), kind="due",
                           deadline=timezone.now().isoformat()) == "stale-deadline"
    decks.deck_remove(actor=crew["floor"], deck_id=deck.pk, reason="end-of-day")
    assert deck_timer_fire(deck_id=str(deck.pk), kind="due",
                           deadline=deck.deadline_at.isoformat()) == "not-in-play"


def test_sweep_marks_overdue_and_warns_near_deadline(crew, open_table, deck_in_play) -> None:
    table = open_table("holdem")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    now = timezone.now()
    Deck.objects.filter(pk=a.pk).update(deadline_at=now - timedelta(minutes=1))
    Deck.objects.filter(pk=b.pk).update(deadline_at=now + timedelta(minutes=10))
    assert timers_sweep(now) == {"due": 1, "warning": 1, "rules": 0}
    assert timers_sweep(now) == {"due": 0, "warning": 0, "rules": 0}
    assert [e.type for e in read_stream(b.stream_id)][-1] == "DeckChangeWarning"


@pytest.mark.regulation("589.11(g)")
def test_count_due_after_five_rounds(crew, open_table, deck_in_play) -> None:
    """§ 589.11(g): without a counting shuffler, count the cards after every 5 rounds."""
    table = open_table("lunar-poker-589", dealing_method="manual-shoe", shuffler="none")
    deck = deck_in_play(table, shuffle="manual")
    for _ in range(5):
        _play(crew, table, deck)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "deck_count_due"
    decks.deck_count(actor=crew["dealer"], deck_id=deck.pk, cards=52)
    assert _play(crew, table, deck).number == 6


def test_count_due_counts_rounds_at_the_table_whichever_deck_dealt(crew, open_table,
                                                                  deck_in_play) -> None:
    """§ 637a.7(e)(4)(i): at least once every 5 rounds of play, with two decks alternating."""
    table = open_table("holdem")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    for deck in (a, b, a, b, a):
        _play(crew, table, deck)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=b.pk)
    assert err.value.code == "deck_count_due"
    decks.deck_count(actor=crew["dealer"], deck_id=b.pk, cards=52)
    _play(crew, table, b)
    with pytest.raises(ConflictError):
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=a.pk)


def test_a_deck_dealing_the_round_is_not_counted_or_removed_mid_round(crew, open_table,
                                                                     deck_in_play) -> None:
    table = open_table("five-card-hi-lo")
    deck = deck_in_play(table)
    rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    for step in (lambda: decks.deck_count(actor=crew["dealer"], deck_id=deck.pk, cards=51),
                 lambda: decks.deck_remove(actor=crew["floor"], deck_id=deck.pk,
                                           reason="defect")):
        with pytest.raises(ConflictError) as err:
            step()
        assert err.value.code == "round_in_progress"


@pytest.mark.regulation("589.3(a)", "589.3(b)")
def test_shuffler_failure_at_a_banked_table_leaves_one_deck(crew, open_table,
                                                           deck_in_play) -> None:
    """§ 589.3(a)-(b): two decks only with an automated shuffler; § 589.13(g)."""
    table = open_table("lunar-poker-589", dealing_method="automated-shoe", shuffler="automated")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    _play(crew, table, a)
    tables.table_equipment(actor=crew["floor"], table_id=table.pk, device="shuffler",
                           out_of_order=True, covered_or_signed=True)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=b.pk)
    assert err.value.code == "too_many_decks_in_play"
    decks.deck_remove(actor=crew["floor"], deck_id=a.pk, reason="other", note="shuffler down")
    assert rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=b.pk).number == 2


def test_hand_dealt_banked_table_stops_when_its_shuffler_fails(crew, open_table,
                                                              deck_in_play) -> None:
    """§ 589.9(a)(1): dealing by hand needs an automated shuffler."""
    table = open_table("five-card-hi-lo", dealing_method="hand", shuffler="automated")
    deck = deck_in_play(table)
    tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shuffler",
                           out_of_order=True, covered_or_signed=True)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "hand_dealing_needs_shuffler"


def test_only_a_floorperson_restores_a_device(crew, open_table) -> None:
    table = open_table("lunar-poker-671a")
    tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shoe",
                           out_of_order=True, covered_or_signed=True)
    from casino.roles import RoleRequired

    with pytest.raises(RoleRequired):
        tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shoe",
                               out_of_order=False)
    assert not tables.table_equipment(actor=crew["floor"], table_id=table.pk, device="shoe",
                                      out_of_order=False).shoe_out_of_order


def test_a_deadline_moved_and_moved_back_warns_again(crew, open_table, deck_in_play) -> None:
    """§ 589.3(c): the limit follows the dealing method; each deadline gets its warning."""
    from tables.services.timers import deck_timer_fire

    table = open_table("lunar-poker-589")
    deck = deck_in_play(table)
    shoe_deadline = deck.deadline_at.isoformat()
    # the dealer reports it, a floorperson puts it back (§ 589.13(g): not the reporter)
    for who, out in (("dealer", True), ("floor", False)):
        tables.table_equipment(actor=crew[who], table_id=table.pk, device="shoe",
                               out_of_order=out, covered_or_signed=True)
        deck.refresh_from_db()
        assert deck_timer_fire(deck_id=str(deck.pk), kind="warning",
                               deadline=deck.deadline_at.isoformat()) == "marked"
    deck.refresh_from_db()
    assert deck.deadline_at.isoformat() == shoe_deadline and deck.change_warned
    warnings = [e for e in read_stream(deck.stream_id) if e.type == "DeckChangeWarning"]
    assert len(warnings) == 2


@pytest.mark.regulation("671a.11(h)")
def test_counting_shuffler_removes_the_count_due(crew, open_table, deck_in_play) -> None:
    """§ 637a.7(e)(4)(ii)."""
    table = open_table("lunar-poker-671a", shuffler="automated-counting")
    deck = deck_in_play(table)
    for _ in range(7):
        _play(crew, table, deck)
    assert Deck.objects.get(pk=deck.pk).rounds_since_count == 7


def test_decks_alternate_every_round(crew, open_table, deck_in_play) -> None:
    """§ 637a.3(a): each deck used for every other round; § 589.3(b)(3) likewise."""
    table = open_table("holdem")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    _play(crew, table, a)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=a.pk)
    assert err.value.code == "wrong_deck"
    _play(crew, table, b)
    _play(crew, table, a)


def test_poker_needs_both_decks_in_play(crew, open_table, deck_in_play) -> None:
    """§ 637a.3(a): two decks maintained at each poker table at all times."""
    table = open_table("stud-hilo8")
    a = deck_in_play(table)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=a.pk)
    assert err.value.code == "second_deck_missing"


def test_a_dealer_cannot_open_a_round_at_another_table(crew, staff, open_table,
                                                       deck_in_play) -> None:
    table = open_table("holdem")
    a = deck_in_play(table)
    deck_in_play(table, colour="blue")
    with pytest.raises(DomainError) as err:
        rounds.round_open(actor=staff("dealer"), table_id=table.pk, deck_id=a.pk)
    assert err.value.code == "not_assigned_to_table"


def test_one_round_at_a_time(crew, open_table, deck_in_play) -> None:
    table = open_table("five-card-hi-lo")
    deck = deck_in_play(table)
    rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    with pytest.raises(ConflictError) as err:
        rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert err.value.code == "round_in_progress"
    with pytest.raises(ConflictError):
        tables.table_close(actor=crew["floor"], table_id=table.pk)


def test_shoe_out_of_order_needs_a_sign_and_shortens_the_deck_limit(crew, open_table,
                                                                   deck_in_play) -> None:
    """§ 589.13(g): covered or signed before another method is used; then dealt by hand
    (§ 589.3(c)(1): four hours)."""
    table = open_table("lunar-poker-589")
    deck = deck_in_play(table)
    assert deck.limit_basis == "shoe"
    with pytest.raises(DomainError) as err:
        tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shoe",
                               out_of_order=True)
    assert err.value.code == "out_of_order_sign_required"
    tables.table_equipment(actor=crew["dealer"], table_id=table.pk, device="shoe",
                           out_of_order=True, covered_or_signed=True)
    deck.refresh_from_db()
    assert deck.limit_basis == "hand"
    assert deck.deadline_at - deck.entered_play_at == timedelta(hours=4)
    r = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
    assert r.dealing_method == "hand"


def test_admin_configures_positions_within_the_chapter(crew) -> None:
    """§ 637a.20(b): no more than seven players at Triple Draw."""
    with pytest.raises(DomainError) as err:
        tables.table_configure(actor=crew["admin"], name="TD-1", game="triple-draw-27",
                               positions=8, dealing_method="hand", shuffler="automated")
    assert err.value.code == "too_many_positions"


def test_reconfiguring_an_open_table_is_refused(crew, open_table) -> None:
    table = open_table("holdem")
    with pytest.raises(ConflictError) as err:
        tables.table_reconfigure(actor=crew["admin"], table_id=table.pk, changes={"positions": 8})
    assert err.value.code == "table_open"
    tables.table_close(actor=crew["floor"], table_id=table.pk)
    assert tables.table_reconfigure(actor=crew["admin"], table_id=table.pk,
                                    changes={"positions": 8}).positions == 8


def test_the_table_says_which_deck_deals_next(crew, open_table, deck_in_play,
                                              api_as) -> None:
    """§ 637a.3(a), § 589.3(b)(3): the table's ``next_deck`` is the deck not used last."""
    table = open_table("holdem")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    client = api_as("floorperson")
    _play(crew, table, a)
    body = client.get(f"/api/v1/tables/{table.pk}/").json()
    assert body["last_deck"] == str(a.pk) and body["next_deck"] == str(b.pk)
    _play(crew, table, b)
    assert client.get(f"/api/v1/tables/{table.pk}/").json()["next_deck"] == str(a.pk)
