"""All 133,784,560 seven-card hands (best five of seven, § 637a.10(i), § 637a.11(k))
against the published category counts. § 637a.6(b) categories."""

from __future__ import annotations

import numpy as np
import pytest

from casino.domain.hands import fast, high
from casino.domain.hands.high import Category
from tests.casino.domain._hands import seven_card_blocks

SEVEN_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584, Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184, Category.FLUSH: 4_047_644, Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620, Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800, Category.HIGH_CARD: 23_294_460,
}


@pytest.mark.slow
def test_seven_card_category_counts():
    counts = np.zeros(9, dtype=np.int64)
    total = 0
    for block in seven_card_blocks():
        v = fast.high_batch(block)
        counts += np.bincount(v >> high.CATEGORY_SHIFT, minlength=9)
        total += len(block)
    assert total == 133_784_560
    assert {Category(c): int(n) for c, n in enumerate(counts)} == SEVEN_COUNTS
