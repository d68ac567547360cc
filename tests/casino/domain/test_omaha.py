"""Omaha: exactly two hole cards and three board cards (§ 637a.12(k), § 637a.19(k));
eight-or-better low (§ 637a.12(l)-(m), § 637a.19(l))."""

from __future__ import annotations

import numpy as np
import pytest

from casino.domain.cards import CardCountError, CardError, DuplicateCardError, parse_cards
from casino.domain.hands import fast, high, lowball, omaha
from casino.domain.hands.high import Category
from tests.casino.domain._hands import deal


def p(text: str) -> list[int]:
    return parse_cards(text)


@pytest.mark.regulation("637a.12(k)")
def test_exactly_two_hole_cards():
    """§ 637a.12(k): a board flush needs two hole cards of the suit; one is not enough."""
    hole, board = p("AsKd7c2h"), p("QsJsTs9s3s")
    assert high.category_of(omaha.omaha_high(hole, board)) is Category.STRAIGHT
    # hold'em would use the ace and the board for a flush; Omaha may not
    assert high.category_of(high.best_high(p("As QsJsTs9s3s"))) is Category.FLUSH
    # four of a kind in the hole plays only as a pair
    v = omaha.omaha_high(p("AsAdAhAc"), p("2s7d9hJcKs"))
    assert high.category_of(v) is Category.ONE_PAIR


@pytest.mark.regulation("637a.12(k)")
def test_exactly_three_board_cards():
    """§ 637a.12(k): four to a straight on the board with one hole card is no straight."""
    v = omaha.omaha_high(p("9hKd2c2s"), p("5s6d7h8cQs"))
    assert high.category_of(v) is Category.ONE_PAIR
    # the 9 cannot join 5-6-7-8 (four board cards); 3-4 with 5-6-7 can
    v = omaha.omaha_high(p("9h4d2c3s"), p("5s6d7h8cQs"))
    assert high.describe_high(v) == "Straight, seven high"


@pytest.mark.regulation("637a.19(k)")
def test_five_card_omaha_uses_two_of_five():
    """§ 637a.19(k): two of the five hole cards and three community cards."""
    v, five = omaha.omaha_high_five(p("AsKs2d3d9c"), p("QsJs4s8h8c"))
    assert high.category_of(v) is Category.FLUSH
    assert len(set(five) & set(p("AsKs2d3d9c"))) == 2


@pytest.mark.regulation("637a.12(l)", "637a.12(m)")
def test_low_needs_two_low_hole_cards_and_three_low_board_cards():
    """§ 637a.12(l)-(m): an eight-or-better low from two hole and three board cards;
    none when the board has fewer than three cards eight or under."""
    assert omaha.omaha_low8(p("AsKsQdJd"), p("2c3c4h9sTs")) is None
    assert omaha.omaha_low8(p("As2sQdJd"), p("3c4c9h9sTs")) is None
    low = omaha.omaha_low8(p("As2sQdJd"), p("3c4c5h9sTs"))
    assert lowball.describe_a5(low) == "5-4-3-2-A low"
    # a third low hole card does not count: two of A, 2, 3 with 6-7-8 on the board
    low = omaha.omaha_low8(p("As2s3dKd"), p("6c7c8hKsKh"))
    assert lowball.describe_a5(low) == "8-7-6-2-A low"


@pytest.mark.regulation("637a.12(m)")
def test_ace_counts_high_and_low_at_once():
    """§ 637a.12(m): the ace may be high in the high hand and low in the low hand;
    the high and low may use different groupings."""
    high_v, low_v = omaha.omaha_hilo8(p("As2sKd3d"), p("4s5s8sJhQc"))
    assert high.describe_high(high_v) == "Flush, ace high"
    assert lowball.describe_a5(low_v) == "8-5-4-2-A low"


@pytest.mark.parametrize("k", [4, 5])
def test_batch_equals_scalar(k):
    a = deal(300 + k, 4000, k + 5)
    hole, board = a[:, :k], a[:, k:]
    hi, lo = fast.omaha_hilo8_batch(hole, board)
    for i, (h, b) in enumerate(zip(hole.tolist(), board.tolist())):
        sh, sl = omaha.omaha_hilo8(h, b)
        assert hi[i] == sh
        assert lo[i] == (fast.NO_LOW if sl is None else sl)


def test_bad_input():
    with pytest.raises(CardCountError):
        omaha.omaha_high(p("AsKs2d"), p("QsJsTs7h8c"))
    with pytest.raises(CardCountError):
        omaha.omaha_high(p("AsKs2d3d"), p("QsJsTs7h"))
    with pytest.raises(DuplicateCardError):
        omaha.omaha_high(p("AsKs2d3d"), p("AsJsTs7h8c"))
    with pytest.raises(CardCountError):
        fast.omaha_hilo8_batch(np.zeros((2, 3), dtype=np.uint8), np.zeros((2, 5), np.uint8))


@pytest.mark.parametrize("bad", [52, -1, "As", True])
def test_raw_card_values_are_checked_637a_12_k(bad):
    """§ 637a.12(k): two of the four hole cards and three of the five community cards —
    real cards, numbers 0-51 only (52 was an IndexError, -1 scored as a spade ace)."""
    hole, board = p("Ah Kh 7c 2d"), p("Qs Js Ts 9s")
    for call in (lambda: omaha.omaha_high(hole, board + [bad]),
                 lambda: omaha.omaha_high_five(hole[:3] + [bad], board + p("3c")),
                 lambda: omaha.omaha_low8(hole, board + [bad]),
                 lambda: omaha.omaha_hilo8(hole, board + [bad])):
        with pytest.raises(CardError) as exc:
            call()
        assert exc.value.code == "invalid_card"
