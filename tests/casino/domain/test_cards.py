"""Card text, duplicates, the shuffle and the cut (casino.domain.cards)."""

from __future__ import annotations

import pytest

from casino.domain.cards import (CardCountError, CardError, CutTooShallowError,
                                 DuplicateCardError, apply_permutation, check_cards, cut,
                                 format_card,
                                 format_cards, new_deck, parse_card, parse_cards,
                                 shuffle_permutation, shuffled_deck)
from casino.domain.errors import DomainError


def test_parse_format_round_trip_every_card():
    for c in range(52):
        assert parse_card(format_card(c)) == c
    assert len({format_card(c) for c in range(52)}) == 52


def test_ten_written_as_10_and_case_insensitive():
    assert parse_card("10d") == parse_card("Td") == parse_card("tD") == parse_card("10D")
    assert parse_cards("As10dkh") == parse_cards(["AS", "TD", "Kh"])
    assert format_cards(parse_cards("as 10d,2c")) == "AsTd2c"


@pytest.mark.parametrize("bad", ["1s", "Ax", "A", "Asd", "11d", "", "  ", "Zz", "0s"])
def test_malformed_card_refused(bad):
    with pytest.raises(CardError) as exc:
        parse_card(bad)
    assert exc.value.code == "invalid_card"


def test_duplicates_and_counts():
    with pytest.raises(DuplicateCardError) as exc:
        parse_cards("AsKdAS")
    assert exc.value.code == "duplicate_card"
    with pytest.raises(CardCountError) as exc2:
        parse_cards("AsKd", count=(4, 5))
    assert exc2.value.code == "wrong_card_count"
    with pytest.raises(CardError):
        format_card(52)


def test_shuffle_is_a_permutation():
    """§ 637a.5(a): the shuffle randomly intermixes the whole deck (nothing lost or added)."""
    for _ in range(20):
        perm = shuffle_permutation()
        assert sorted(perm) == list(range(52))
    deck, perm = shuffled_deck()
    assert sorted(deck) == new_deck()
    assert apply_permutation(new_deck(), perm) == deck
    with pytest.raises(DomainError) as exc:
        apply_permutation(new_deck(), [0] * 52)
    assert exc.value.code == "invalid_permutation"


def test_cut_moves_cards_above_cover_card_to_bottom():
    """§ 637a.5(b)(2): cover card at least ten in; the cards above go to the bottom."""
    deck = new_deck()
    out = cut(deck, 10)
    assert out == deck[10:] + deck[:10]
    assert sorted(out) == deck
    assert cut(deck, 51)[0] == 51


@pytest.mark.parametrize("depth", [0, 1, 9])
def test_cut_shallower_than_ten_refused(depth):
    """§ 637a.5(b)(2), § 589.5(d): a cut fewer than ten cards deep is refused."""
    with pytest.raises(CutTooShallowError) as exc:
        cut(new_deck(), depth)
    assert exc.value.code == "cut_too_shallow"


def test_cut_past_the_stack_refused():
    with pytest.raises(CutTooShallowError) as exc:
        cut(new_deck(), 52)
    assert exc.value.code == "cut_too_deep"


@pytest.mark.parametrize("bad", [52, -1, "As", True, False, 3.0, None, [0]])
def test_check_cards_refuses_what_is_not_a_card_number_637a_6_a(bad):
    """§ 637a.6(a): thirteen ranks in four suits, so card numbers are 0-51 only; text, a
    bool, a float or a list is not a card number."""
    with pytest.raises(CardError) as exc:
        check_cards([0, bad])
    assert exc.value.code == "invalid_card"


def test_check_cards_accepts_the_whole_deck_637a_6_a():
    """§ 637a.6(a): every one of the 52 cards is accepted, as a list."""
    assert check_cards(iter(range(52))) == list(range(52))
    assert check_cards((51, 0), count=2) == [51, 0]


def test_check_cards_count_and_duplicates_637a_6_a():
    """§ 637a.6(a): one deck, so a card cannot appear twice; the count is checked too."""
    with pytest.raises(DuplicateCardError) as exc:
        check_cards([5, 9, 5])
    assert exc.value.code == "duplicate_card"
    with pytest.raises(CardCountError) as exc2:
        check_cards([1, 2, 3], count=(4, 5))
    assert exc2.value.code == "wrong_card_count"
    for not_a_list in (None, 7, "AsKd"):
        with pytest.raises(CardError) as exc3:
            check_cards(not_a_list)
        assert exc3.value.code == "invalid_card"
