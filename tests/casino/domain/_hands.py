"""Helpers shared by the hand-evaluation tests: exhaustive and random deals as arrays."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np


@cache
def all_hands(k: int) -> np.ndarray:
    """Every k-card hand from 52 cards (lexicographic), uint8, shape (C(52, k), k)."""
    n = {4: 270_725, 5: 2_598_960}[k]
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), k)),
                       dtype=np.uint8, count=n * k)
    return flat.reshape(n, k)


def deal(seed: int, n: int, k: int) -> np.ndarray:
    """``n`` random hands of ``k`` distinct cards."""
    rng = np.random.default_rng(seed)
    return np.argpartition(rng.random((n, 52)), k, axis=1)[:, :k].astype(np.uint8)


def seven_card_blocks():
    """Yield every 7-card hand exactly once, in blocks: for each first-two-cards pair
    (a < b) the block of all hands whose other five cards are all above b."""
    five = all_hands(5)
    # first row whose lowest card is >= c, for c = 0..52 (the table is lexicographic)
    start = np.searchsorted(five[:, 0], np.arange(53))
    for b in range(1, 47):
        rest = five[start[b + 1]:]
        if not len(rest):
            continue
        for a in range(b):
            block = np.empty((len(rest), 7), dtype=np.uint8)
            block[:, 0] = a
            block[:, 1] = b
            block[:, 2:] = rest
            yield block
