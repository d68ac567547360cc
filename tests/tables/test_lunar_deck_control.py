"""Deck control at a Lunar Poker table, chapter by chapter (589.3-589.5, 671a.3-671a.5):
each step of the opening waits for the one before, the inspection is verified by another
person, two decks alternate round by round, and a counting shuffler's wrong count removes
the deck."""

from __future__ import annotations

import pytest

from casino.domain.errors import ConflictError, DomainError
from casino.eventstore.store import head, read_stream
from tables.models import DeckState
from tables.services import decks, rounds, tables

pytestmark = pytest.mark.django_db


def _refused(step, code: str) -> None:  # noqa: ANN001
    before = head()
    with pytest.raises((ConflictError, DomainError)) as err:
        step()
    assert err.value.code == code
    assert head() == before  # nothing appended


@pytest.mark.parametrize("game", [
    pytest.param("lunar-poker-589", marks=pytest.mark.regulation(
        "589.4(a)", "589.4(b)", "589.4(c)", "589.4(d)", "589.5(a)")),
    pytest.param("lunar-poker-671a", marks=pytest.mark.regulation(
        "671a.4(a)", "671a.4(b)", "671a.4(c)", "671a.4(d)", "671a.5(a)"))])
def test_each_opening_step_waits_for_the_one_before_for_both_decks(
        game, crew, staff, open_table) -> None:
    """(a) the dealer inspects, the floorperson verifies (another person: a dealer who is
    also a floorperson cannot verify their own inspection); (b) the cards are spread for
    the first player; (c) washed and stacked, then shuffled (§ x.5(a)); (d) with a
    shuffler and two decks, each deck goes through (a)-(c). A step out of order is
    refused with nothing recorded, and a deck is put in play only once shuffled."""
    table = open_table(game)  # automated shoe and automated shuffler: two decks
    d, f = staff("dealer", "floorperson"), crew["floor"]
    tables.table_assign_dealer(actor=f, table_id=table.pk, dealer=d.username)
    for colour in ("red", "blue"):
        deck = decks.deck_receive(actor=f, table_id=table.pk, back_colour=colour, batch="B")
        _refused(lambda: decks.deck_spread(actor=d, deck_id=deck.pk, players=1),
                 "deck_wrong_state")
        decks.deck_inspect(actor=d, deck_id=deck.pk, defects=[])
        _refused(lambda: decks.deck_inspection_verify(actor=d, deck_id=deck.pk,
                                                      accepted=True), "verifier_is_inspector")
        _refused(lambda: decks.deck_spread(actor=d, deck_id=deck.pk, players=1),
                 "deck_wrong_state")
        decks.deck_inspection_verify(actor=f, deck_id=deck.pk, accepted=True)
        _refused(lambda: decks.deck_wash(actor=d, deck_id=deck.pk), "deck_wrong_state")
        _refused(lambda: decks.deck_spread(actor=d, deck_id=deck.pk, players=2),
                 "wrong_spread")
        decks.deck_spread(actor=d, deck_id=deck.pk, players=1)
        _refused(lambda: decks.deck_shuffle(actor=d, deck_id=deck.pk, method="automated"),
                 "deck_wrong_state")
        decks.deck_wash(actor=d, deck_id=deck.pk)
        _refused(lambda: decks.deck_put_in_play(actor=d, deck_id=deck.pk), "deck_wrong_state")
        decks.deck_shuffle(actor=d, deck_id=deck.pk, method="automated")
        deck = decks.deck_put_in_play(actor=d, deck_id=deck.pk)
        assert deck.state == DeckState.IN_PLAY
        assert [e.type for e in read_stream(deck.stream_id)] == [
            "DeckReceived", "DeckInspected", "DeckInspectionVerified", "DeckSpread",
            "DeckWashed", "DeckShuffled", "DeckPutInPlay"]


@pytest.mark.parametrize("game", [
    pytest.param("lunar-poker-589", marks=pytest.mark.regulation("589.3(b)(2)",
                                                                 "589.3(b)(3)")),
    pytest.param("lunar-poker-671a", marks=pytest.mark.regulation("671a.3(b)(2)",
                                                                  "671a.3(b)(3)"))])
def test_two_decks_alternate_every_round_with_a_shuffler(game, crew, open_table,
                                                         deck_in_play) -> None:
    """(b)(2)-(3): with an automated shuffler, one deck is in the shuffler while the
    other plays, and each deck deals every other round: the deck that dealt last is
    refused for the next round."""
    table = open_table(game, dealing_method="manual-shoe", shuffler="automated")
    a, b = deck_in_play(table), deck_in_play(table, colour="blue")
    for number, deck in enumerate((a, b, a), start=1):
        r = rounds.round_open(actor=crew["dealer"], table_id=table.pk, deck_id=deck.pk)
        assert r.number == number
        rounds.round_close(actor=crew["dealer"], round_id=r.pk)
        _refused(lambda deck=deck: rounds.round_open(actor=crew["dealer"], table_id=table.pk,
                                                     deck_id=deck.pk), "wrong_deck")


@pytest.mark.regulation("589.5(b)")
def test_589_counting_shuffler_reporting_a_wrong_count_removes_the_deck(
        crew, open_table, deck_in_play) -> None:
    """§ 589.5(b): a shuffler that counts the cards after each shuffle reports 51: the
    deck is removed from the table and deals no more; a count of 52 keeps it in play."""
    table = open_table("lunar-poker-589", shuffler="automated-counting")
    right = deck_in_play(table)
    assert decks.deck_shuffler_count(actor=crew["dealer"], deck_id=right.pk,
                                     cards=52).state == DeckState.IN_PLAY
    wrong = deck_in_play(table, colour="blue")
    wrong = decks.deck_shuffler_count(actor=crew["dealer"], deck_id=wrong.pk, cards=51)
    assert (wrong.state, wrong.removal_reason) == (DeckState.REMOVED, "shuffler-count")
    _refused(lambda: rounds.round_open(actor=crew["dealer"], table_id=table.pk,
                                       deck_id=wrong.pk), "deck_not_in_play")


@pytest.mark.parametrize("game", [
    pytest.param("lunar-poker-589", marks=pytest.mark.regulation("589.8(a)", "589.5(c)(2)")),
    pytest.param("lunar-poker-671a", marks=pytest.mark.regulation("671a.8(a)",
                                                                  "671a.5(c)(2)"))])
def test_the_manual_shoe_gets_the_deck_only_once_shuffled_and_cut(
        game, crew, open_table) -> None:
    """§ x.8(a): once the procedures of § x.5 are completed the stacked deck is placed in
    the manual shoe — a deck shuffled by hand is cut first (§ x.5(c)(2)): before the cut
    it can neither be put in play nor open a round; after the cut both are allowed."""
    table = open_table(game, dealing_method="manual-shoe", shuffler="none")
    d, f = crew["dealer"], crew["floor"]
    deck = decks.deck_receive(actor=f, table_id=table.pk, back_colour="red", batch="B")
    decks.deck_inspect(actor=d, deck_id=deck.pk, defects=[])
    decks.deck_inspection_verify(actor=f, deck_id=deck.pk, accepted=True)
    decks.deck_spread(actor=d, deck_id=deck.pk, players=1)
    decks.deck_wash(actor=d, deck_id=deck.pk)
    deck = decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual")
    assert (deck.state, deck.cut_required) == (DeckState.SHUFFLED, True)
    _refused(lambda: decks.deck_put_in_play(actor=d, deck_id=deck.pk), "deck_wrong_state")
    _refused(lambda: rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk),
             "deck_not_in_play")
    decks.deck_cut(actor=d, deck_id=deck.pk, depth=12)
    decks.deck_put_in_play(actor=d, deck_id=deck.pk)
    assert rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk).number == 1


@pytest.mark.parametrize("game", [
    pytest.param("lunar-poker-589", marks=pytest.mark.regulation("589.13(g)")),
    pytest.param("lunar-poker-671a", marks=pytest.mark.regulation("671a.13(g)"))])
def test_a_broken_device_is_covered_or_signed_before_another_method_is_used(
        game, crew, open_table, deck_in_play) -> None:
    """§ x.13(g): a shuffler or automated shoe that cannot be used is covered or signed
    out of order before another method of shuffling or dealing is used at the table.
    Shuffler: a shuffle by hand is refused while it is in service, its report without a
    cover or sign is refused (nothing appended), and once covered or signed the cards are
    shuffled by hand. Shoe: the same report, after which the next round is dealt by hand
    (the round records the method), where the round before it came from the shoe."""
    d = crew["dealer"]
    table = open_table(game, dealing_method="automated-shoe", shuffler="automated")
    deck = decks.deck_receive(actor=crew["floor"], table_id=table.pk, back_colour="red",
                              batch="B")
    decks.deck_inspect(actor=d, deck_id=deck.pk, defects=[])
    decks.deck_inspection_verify(actor=crew["floor"], deck_id=deck.pk, accepted=True)
    decks.deck_spread(actor=d, deck_id=deck.pk, players=1)
    decks.deck_wash(actor=d, deck_id=deck.pk)
    _refused(lambda: decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual"),
             "shuffler_not_out_of_order")
    _refused(lambda: tables.table_equipment(actor=d, table_id=table.pk, device="shuffler",
                                            out_of_order=True), "out_of_order_sign_required")
    tables.table_equipment(actor=d, table_id=table.pk, device="shuffler", out_of_order=True,
                           covered_or_signed=True)
    assert decks.deck_shuffle(actor=d, deck_id=deck.pk, method="manual").cut_required

    table = open_table(game, dealing_method="automated-shoe", shuffler="automated")
    deck = deck_in_play(table)
    first = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk)
    rounds.round_close(actor=d, round_id=first.pk)
    _refused(lambda: tables.table_equipment(actor=d, table_id=table.pk, device="shoe",
                                            out_of_order=True), "out_of_order_sign_required")
    tables.table_equipment(actor=d, table_id=table.pk, device="shoe", out_of_order=True,
                           covered_or_signed=True)
    second = rounds.round_open(actor=d, table_id=table.pk, deck_id=deck.pk)
    methods = [read_stream(r.stream_id)[0].data["dealing_method"] for r in (first, second)]
    assert methods == ["automated-shoe", "hand"]
