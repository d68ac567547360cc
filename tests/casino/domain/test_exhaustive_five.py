"""Exhaustive five-card checks against the counts every poker text gives (the oracles
of issue 3): all 2,598,960 hands, batch and scalar evaluators.

§ 637a.6(a)-(b) high rankings; § 637a.6(c)-(d) low rankings; § 637a.20(k)(3)-(4) 2-7 and
A-5 lowball; § 637a.10(j) eight-or-better.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from casino.domain.hands import fast, high, lowball
from casino.domain.hands.high import Category
from tests.casino.domain._hands import all_hands

HIGH_COUNTS = {
    Category.STRAIGHT_FLUSH: 40, Category.FOUR_OF_A_KIND: 624, Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108, Category.STRAIGHT: 10_200, Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552, Category.ONE_PAIR: 1_098_240, Category.HIGH_CARD: 1_302_540,
}


@pytest.fixture(scope="module")
def hands5() -> np.ndarray:
    return all_hands(5)


@pytest.fixture(scope="module")
def high_values(hands5) -> np.ndarray:
    return fast.high_batch(hands5)


def test_high_category_counts(high_values):
    """§ 637a.6(b)(1)-(9): the nine categories over all five-card hands."""
    cats = Counter((high_values >> high.CATEGORY_SHIFT).tolist())
    assert {Category(c): n for c, n in cats.items()} == HIGH_COUNTS
    assert len(high_values) == 2_598_960


def test_royal_flushes_and_distinct_ranks(high_values):
    """§ 637a.6(b)(1): four royal flushes; 7,462 distinct high hands (637a.6(e) ties)."""
    assert sum(high.is_royal(int(v)) for v in np.unique(high_values)) == 1
    royal = high.high5([48, 44, 40, 36, 32])  # Ac Kc Qc Jc Tc (rank << 2 | suit 0)
    assert high.is_royal(royal)
    assert int((high_values == royal).sum()) == 4
    assert len(np.unique(high_values)) == 7_462


def test_a5_low_distinct_and_eight_or_better(hands5):
    """§ 637a.6(c)-(d), § 637a.20(k)(4): 6,175 distinct A-5 lows; § 637a.10(j),
    § 637a.12(l): 57,344 hands qualify eight-or-better (no pair, nothing above 8)."""
    v = fast.a5_low_batch(hands5)
    assert len(np.unique(v)) == 6_175
    assert int((v >= lowball.A5_EIGHT_MIN).sum()) == 57_344
    assert int((fast.a5_eight_batch(hands5) != fast.NO_LOW).sum()) == 57_344
    # the best is 5-4-3-2-A regardless of suit (637a.20(k)(4)(ii)): 4^5 hands
    assert int((v == v.max()).sum()) == 1_024
    assert lowball.describe_a5(int(v.max())) == "5-4-3-2-A low"


def test_deuce7_distinct_and_best_hand(hands5):
    """§ 637a.20(k)(3): 7,462 distinct 2-7 lows; the best, 7-5-4-3-2 not all one suit,
    is held by exactly 1,020 hands."""
    v = fast.deuce7_low_batch(hands5)
    assert len(np.unique(v)) == 7_462
    assert int((v == v.max()).sum()) == 1_020
    assert lowball.describe_d27(int(v.max())) == "7-5-4-3-2 low"


def test_low_orders_are_inverse_of_high_where_rules_say(hands5, high_values):
    """§ 637a.6(d): 2-7 low is exactly the inverse of the high ranking, except that the
    ace is high only (A-2-3-4-5 is no straight, 637a.20(k)(3)(i))."""
    d27 = fast.deuce7_low_batch(hands5)
    ranks = hands5 >> 2
    wheel = np.all(np.sort(ranks, axis=1) == [0, 1, 2, 3, 12], axis=1)
    order = np.lexsort((d27,))
    # outside wheels, larger high value <=> smaller 2-7 value
    keep = ~wheel[order]
    hv = high_values[order][keep]
    assert np.all(np.diff(hv) <= 0)


@pytest.mark.slow
def test_scalar_high_matches_batch_on_every_hand(hands5, high_values):
    """Scalar :func:`high.best_high` / reference ``_high5_unchecked`` == batch."""
    for row, v in zip(hands5.tolist(), high_values.tolist()):
        assert high.best_high(row) == v
    sample = hands5[::97].tolist()
    assert [high._high5_unchecked(r) for r in sample] == high_values[::97].tolist()


@pytest.mark.slow
def test_scalar_lows_match_batch_on_every_hand(hands5):
    a5 = fast.a5_low_batch(hands5).tolist()
    d27 = fast.deuce7_low_batch(hands5).tolist()
    for row, x, y in zip(hands5.tolist(), a5, d27):
        assert lowball.a5_low(row) == x
        assert lowball.d27_low(row) == y
