"""Badugi rankings: § 637a.21(k) (ace low) and § 637a.20(l) (Badeucey ace high,
Badacey ace low)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from casino.domain.cards import CardCountError, CardError, DuplicateCardError, parse_cards
from casino.domain.hands import badugi, fast
from tests.casino.domain._hands import all_hands


def bv(text: str, ace_low: bool = True) -> int:
    return badugi.badugi_value(parse_cards(text), ace_low=ace_low)


@pytest.fixture(scope="module")
def hands4() -> np.ndarray:
    return all_hands(4)


def test_exhaustive_sizes_and_distinct_ranks(hands4):
    """§ 637a.21(k)(1)-(4) over all 270,725 four-card hands: 17,160 four-card Badugis,
    154,440 three-card, 96,252 two-card, 2,873 one-card; 1,092 distinct ranks."""
    v = fast.badugi_batch(hands4)
    sizes = Counter((v >> 13).tolist())
    assert sizes == {4: 17_160, 3: 154_440, 2: 96_252, 1: 2_873}
    assert len(np.unique(v)) == 1_092
    # ace high (Badeucey) has the same shape counts
    w = fast.badugi_batch(hands4, ace_low=False)
    assert Counter((w >> 13).tolist()) == sizes
    assert len(np.unique(w)) == 1_092


def test_scalar_matches_batch_on_every_hand(hands4):
    lo = fast.badugi_batch(hands4).tolist()
    hi = fast.badugi_batch(hands4, ace_low=False).tolist()
    for row, a, b in zip(hands4.tolist(), lo, hi):
        assert badugi.badugi_value(row) == a
        assert badugi.badugi_value(row, ace_low=False) == b


@pytest.mark.regulation("637a.21(k)(1)", "637a.21(k)(2)", "637a.21(k)(3)", "637a.21(k)(4)")
def test_best_badugi_is_a234_and_bigger_hands_win():
    """§ 637a.21(k)(1): best Badugi A-2-3-4; (2)-(4): four cards beat three beat two
    beat one, whatever the ranks."""
    best = bv("As2d3h4c")
    assert best == max(fast.badugi_batch(all_hands(4)).tolist())
    assert bv("KsQdJhTc") > bv("As2d3h3c") > bv("As2s3h4h") > bv("AsAdAhAc")
    assert badugi.describe_badugi(best) == "Four-card Badugi, 4-3-2-A"
    # A-3 and 3-2 both top out at three; then the ace beats the deuce
    assert badugi.describe_badugi(bv("As2s3h4h")) == "Two-card hand, 3-A"


@pytest.mark.regulation("637a.21(k)(1)")
def test_lower_highest_card_wins_then_next():
    """§ 637a.21(k)(1) with § 637a.6(c), (e): within a size the lower top card wins,
    then the next; suits do not matter, equal ranks tie (637a.21(k)(5))."""
    assert bv("As2d3h8c") > bv("As2d7h9c")     # 8 high beats 9 high
    assert bv("As5d6h7c") > bv("2s3d4h8c")     # 7 high beats 8 high
    assert bv("As2d6h7c") > bv("As3d6h7c")     # 7-6 tie, then 2 beats 3
    assert bv("As2d3h4c") == bv("Ac2h3s4d")


@pytest.mark.regulation("637a.21(k)(2)")
def test_three_card_hand_discards_paired_or_suited_card():
    """§ 637a.21(k)(2): the best three of four when two share a suit or rank."""
    def d(text: str) -> str:
        return badugi.describe_badugi(bv(text))

    assert d("As2s3h4c") == "Three-card hand, 4-3-A"   # 2s shares the spade with As
    assert d("5s2s3h4c") == "Three-card hand, 4-3-2"   # drop the 5s, keep 4-3-2
    assert d("KsKd3h4c") == "Three-card hand, K-4-3"
    assert bv("As2s3h4c") == bv("Ad2d3h4c") and bv("KsKd3h4c") == bv("KdKh3s4c")


@pytest.mark.regulation("637a.20(l)(1)(i)", "637a.20(l)(2)(i)")
def test_badeucey_ace_high_badacey_ace_low():
    """§ 637a.20(l)(1): in Badeucey the best Badugi is 2-3-4-5 (ace high);
    § 637a.20(l)(2): in Badacey it is A-2-3-4; the best four of five cards count."""
    assert bv("2s3d4h5c", ace_low=False) > bv("As2d3h4c", ace_low=False)
    assert bv("As2d3h4c") > bv("2s3d4h5c")
    assert badugi.badugi_value(parse_cards("2s3d4h5cAs"), ace_low=False) == \
        bv("2s3d4h5c", ace_low=False)
    assert badugi.describe_badugi(bv("2s3d4h5c", ace_low=False), ace_low=False) == \
        "Four-card Badugi, 5-4-3-2"
    five = parse_cards("2s3d4h5cAs")
    assert fast.badugi_batch(np.array([five]), ace_low=False)[0] == \
        badugi.badugi_value(five, ace_low=False)


def test_bad_input():
    with pytest.raises(CardCountError):
        badugi.badugi_value(parse_cards("As2d3h"))
    with pytest.raises(DuplicateCardError):
        badugi.badugi_value([0, 0, 5, 9])
    with pytest.raises(CardCountError):
        fast.badugi_batch(np.zeros((3, 3), dtype=np.uint8))


@pytest.mark.parametrize("bad", [52, -1, "As", True])
def test_raw_card_values_are_checked_637a_21_k_1(bad):
    """§ 637a.21(k)(1): a Badugi is made of real cards of different suits and ranks —
    card numbers 0-51 only (52 used to count as a fourteenth rank)."""
    three = parse_cards("Kh 9d 4c")
    for ace_low in (True, False):
        with pytest.raises(CardError) as exc:
            badugi.badugi_value(three + [bad], ace_low=ace_low)
        assert exc.value.code == "invalid_card"
    with pytest.raises(CardError):
        badugi.badugi_best(three + [bad])
