"""High rankings (§ 637a.6(a), (b), (e)) and best five of 5-7 cards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from casino.domain.cards import CardCountError, CardError, DuplicateCardError, parse_cards
from casino.domain.hands import fast, high
from casino.domain.hands.high import Category
from tests.casino.domain._hands import deal


def hv(text: str) -> int:
    return high.best_high(parse_cards(text))


@pytest.mark.regulation("637a.6(a)", "637a.6(b)(6)")
def test_ace_plays_low_only_in_the_wheel():
    """§ 637a.6(a): A-2-3-4-5 is a straight; Q-K-A-2-3 is not (no wrap-around)."""
    assert high.category_of(hv("As2d3h4c5s")) is Category.STRAIGHT
    assert high.describe_high(hv("As2d3h4c5s")) == "Straight, five high"
    assert high.category_of(hv("QsKdAh2c3s")) is Category.HIGH_CARD
    assert high.category_of(hv("As2s3s4s5s")) is Category.STRAIGHT_FLUSH
    # the wheel is the lowest straight, ace-high the highest (637a.6(b)(6))
    assert hv("As2d3h4c5s") < hv("2s3d4h5c6s") < hv("TsJdQhKcAs")


@pytest.mark.regulation("637a.6(b)")
def test_category_order():
    """§ 637a.6(b)(1)-(9) from royal flush down to one pair and high card."""
    hands = ["AsKsQsJsTs", "KsQsJsTs9s", "AsAdAhAc2s", "AsAdAhKcKs", "2s4s6s8sTs",
             "Ts9d8h7c6s", "AsAdAh3c2s", "AsAdKhKc2s", "AsAd4h3c2s", "As3d4h5c7s"]
    values = [hv(h) for h in hands]
    assert values == sorted(values, reverse=True)
    assert high.is_royal(values[0]) and not high.is_royal(values[1])
    assert high.describe_high(values[0]) == "Royal flush"
    assert high.describe_high(values[3]) == "Full house, aces over kings"


@pytest.mark.regulation("637a.6(e)", "637a.6(a)")
def test_ties_broken_by_highest_card_not_in_the_other_hand():
    """§ 637a.6(e): kickers decide; identical ranks tie, suits are equal (637a.6(a))."""
    assert hv("AsAdKh9c2s") > hv("AhAcKs8d7h")
    assert hv("AsKdQh9c7s") == hv("AhKcQs9d7h")
    assert hv("AsAdKhKc3s") > hv("AhAcKsKd2h")


def test_best_five_of_seven():
    """§ 637a.10(i): a five-card hand formed from seven cards; § 637a.11(k): any of the two
    hole cards and five community cards."""
    v, five = high.best_high_five(parse_cards("AhKh2c7d QhJhTh"))
    assert high.is_royal(v)
    assert sorted(five) == sorted(parse_cards("AhKhQhJhTh"))
    # two pair with a third pair: the best kicker is the third pair's rank
    assert hv("AsAdKsKdQsQd2c") == hv("AsAdKsKdQh")
    # six cards
    assert high.category_of(hv("2s3s4s5s9s6d")) is Category.FLUSH
    assert high.category_of(hv("2s3s4s5s9s6s")) is Category.STRAIGHT_FLUSH


def test_scalar_best_high_equals_brute_force():
    for row in deal(11, 3000, 7).tolist():
        brute = max(high._high5_unchecked(f) for f in itertools.combinations(row, 5))
        assert high.best_high(row) == brute
        assert high.best_high(row[:6]) == max(high._high5_unchecked(f)
                                              for f in itertools.combinations(row[:6], 5))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_equals_scalar(k):
    a = deal(k, 20_000, k)
    v = fast.high_batch(a)
    assert v.dtype == np.int64
    assert v.tolist() == [high.best_high(r) for r in a.tolist()]


def test_bad_input():
    with pytest.raises(CardCountError):
        high.best_high(parse_cards("AsKs"))
    with pytest.raises(CardCountError):
        high.best_high(parse_cards("AsKsQsJsTs9s8s7s"))
    with pytest.raises(DuplicateCardError):
        high.best_high([1, 1, 2, 3, 4])
    with pytest.raises(CardCountError):
        high.high5(parse_cards("AsKsQsJs"))
    with pytest.raises(CardCountError):
        fast.high_batch(np.zeros((2, 4), dtype=np.uint8))
    with pytest.raises(Exception):
        fast.high_batch(np.full((2, 5), 52, dtype=np.uint8))


@pytest.mark.parametrize("bad", [52, -1, "As", True])
def test_raw_card_values_are_checked_637a_6_a(bad):
    """§ 637a.6(a): thirteen ranks in four suits — card numbers 0-51 only (52 was an
    IndexError, -1 silently scored as the ace of spades)."""
    four = parse_cards("Kh 9d 8c 4c")
    for call in (lambda: high.high5(four + [bad]), lambda: high.best_high(four + [bad]),
                 lambda: high.best_high_five(parse_cards("2s 3s") + four + [bad])):
        with pytest.raises(CardError) as exc:
            call()
        assert exc.value.code == "invalid_card"
