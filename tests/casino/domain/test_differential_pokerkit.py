"""Differential tests: our orderings agree with pokerkit's on 100,000 random hands per
ranking (pokerkit is an independent implementation; we compare orderings, not numbers).

§ 637a.6(b) high; § 637a.12(k)-(l) Omaha high and eight-or-better low; § 637a.20(k)(4)
A-5; § 637a.20(k)(3) 2-7; § 637a.21(k) Badugi; § 637a.20(l)(1) Badeucey's ace-high
Badugi.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from functools import cache

import numpy as np
import pytest

from casino.domain.cards import format_card
from casino.domain.hands import fast
from tests.casino.domain._hands import deal

N = 100_000
NONE = -(1 << 40)  # pokerkit found no hand (Omaha eight-or-better without a low)


@cache
def _pk_cards():
    import pokerkit as pk
    return [next(iter(pk.Card.parse(format_card(c)))) for c in range(52)]


def _strength(cls_name: str, rows: list[list[int]], split: int) -> list[int]:
    """pokerkit strength per hand: larger is stronger (``entry.index`` reversed for lows)."""
    import pokerkit as pk
    cls = getattr(pk, cls_name)
    cards = _pk_cards()
    sign = -1 if cls.low else 1
    out = []
    for row in rows:
        hole = [cards[c] for c in row[:split]]
        board = [cards[c] for c in row[split:]]
        hand = cls.from_game_or_none(hole, board)
        out.append(NONE if hand is None else sign * hand.entry.index)
    return out


def pokerkit_strengths(cls_name: str, hands: np.ndarray, split: int | None = None
                       ) -> np.ndarray:
    rows = hands.tolist()
    split = hands.shape[1] if split is None else split
    chunks = [rows[i:i + 5000] for i in range(0, len(rows), 5000)]
    with ProcessPoolExecutor(2) as pool:
        parts = pool.map(_strength, [cls_name] * len(chunks), chunks, [split] * len(chunks))
        return np.array([s for part in parts for s in part], dtype=np.int64)


def assert_same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    # consecutive hands in random order: same comparison result
    assert np.array_equal(np.sign(np.diff(ours)), np.sign(np.diff(theirs)))
    # the whole sort order: sorted by ours, theirs never decreases and ties coincide
    order = np.lexsort((theirs, ours))
    d_ours, d_theirs = np.diff(ours[order]), np.diff(theirs[order])
    assert (d_theirs >= 0).all()
    assert np.array_equal(d_ours > 0, d_theirs > 0)


@pytest.mark.slow
def test_seven_card_high_matches_pokerkit():
    hands = deal(1, N, 7)
    assert_same_order(fast.high_batch(hands), pokerkit_strengths("StandardHighHand", hands))


@pytest.mark.slow
@pytest.mark.parametrize("k", [5, 7])
def test_a5_low_matches_pokerkit(k):
    hands = deal(2 + k, N, k)
    assert_same_order(fast.a5_low_batch(hands), pokerkit_strengths("RegularLowHand", hands))


@pytest.mark.slow
@pytest.mark.parametrize("k", [5, 7])
def test_deuce7_low_matches_pokerkit(k):
    hands = deal(3 + k, N, k)
    assert_same_order(fast.deuce7_low_batch(hands),
                      pokerkit_strengths("StandardLowHand", hands))


@pytest.mark.slow
def test_badugi_matches_pokerkit():
    hands = deal(4, N, 4)
    assert_same_order(fast.badugi_batch(hands), pokerkit_strengths("BadugiHand", hands))
    assert_same_order(fast.badugi_batch(hands, ace_low=False),
                      pokerkit_strengths("StandardBadugiHand", hands))


@pytest.mark.slow
def test_omaha_high_and_low_match_pokerkit():
    hands = deal(5, N, 9)
    hi, lo = fast.omaha_hilo8_batch(hands[:, :4], hands[:, 4:])
    assert_same_order(hi, pokerkit_strengths("OmahaHoldemHand", hands, split=4))
    theirs = pokerkit_strengths("OmahaEightOrBetterLowHand", hands, split=4)
    assert np.array_equal(lo == fast.NO_LOW, theirs == NONE)
    assert_same_order(lo, theirs)
