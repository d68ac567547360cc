"""Property-based checks (hypothesis) over every ranking.

§ 637a.6(a), (c): all suits are equal in rank, so permuting suits changes nothing;
§ 637a.6(e): hands compare as a total preorder (ties split the pot);
§ 637a.10(i), § 637a.11(k): the best five of more cards is never worse than of fewer.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.domain.hands import badugi, fast, high, lowball, omaha

cards_st = st.lists(st.integers(0, 51), min_size=9, max_size=9, unique=True)
suit_perm_st = st.permutations([0, 1, 2, 3])

SCALAR = {
    "high": high.best_high,
    "a5": lowball.a5_low,
    "d27": lowball.d27_low,
}
BATCH = {
    "high": fast.high_batch,
    "a5": fast.a5_low_batch,
    "d27": fast.deuce7_low_batch,
}


def resuit(cards: list[int], perm: list[int]) -> list[int]:
    return [(c & ~3) | perm[c & 3] for c in cards]


@settings(max_examples=300, deadline=None)
@given(cards_st, suit_perm_st)
def test_permuting_suits_changes_nothing(cards, perm):
    other = resuit(cards, perm)
    for k in (5, 6, 7):
        for fn in SCALAR.values():
            assert fn(cards[:k]) == fn(other[:k])
    assert badugi.badugi_value(cards[:4]) == badugi.badugi_value(other[:4])
    assert badugi.badugi_value(cards[:5], ace_low=False) == \
        badugi.badugi_value(other[:5], ace_low=False)
    assert omaha.omaha_hilo8(cards[:4], cards[4:]) == omaha.omaha_hilo8(other[:4], other[4:])


@settings(max_examples=300, deadline=None)
@given(cards_st)
def test_more_cards_never_worse(cards):
    for fn in SCALAR.values():
        assert fn(cards[:5]) <= fn(cards[:6]) <= fn(cards[:7])
    assert badugi.badugi_value(cards[:4]) <= badugi.badugi_value(cards[:5])
    # Omaha: a fifth hole card only adds groupings (637a.19(k))
    assert omaha.omaha_high(cards[:4], cards[4:9]) <= omaha.omaha_high(
        cards[:4] + [c for c in range(52) if c not in cards][:1], cards[4:9])


@settings(max_examples=200, deadline=None)
@given(st.lists(cards_st, min_size=3, max_size=3))
def test_ranking_is_a_total_preorder(deals):
    """Transitive and total: sorting by value agrees with every pairwise comparison
    made on the five-card hands themselves (best-five: value of the chosen five)."""
    for name, fn in SCALAR.items():
        for k in (5, 7):
            vals = [fn(d[:k]) for d in deals]
            for a, b in itertools.permutations(range(3), 2):
                assert (vals[a] <= vals[b]) or (vals[b] <= vals[a])
            for a, b, c in itertools.permutations(range(3), 3):
                if vals[a] <= vals[b] <= vals[c]:
                    assert vals[a] <= vals[c]
    # the value of a best-five equals the value of its five cards
    for d in deals:
        v, five = high.best_high_five(d[:7])
        assert high.high5(list(five)) == v
        lv, lfive = lowball.a5_low_five(d[:7])
        assert lowball.a5_low(list(lfive)) == lv


ten_st = st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True)


@settings(max_examples=100, deadline=None)
@given(st.lists(ten_st, min_size=1, max_size=40))
def test_batch_equals_scalar(deals):
    arr = np.array(deals, dtype=np.uint8)
    for name, batch in BATCH.items():
        for k in (5, 6, 7):
            assert batch(arr[:, :k]).tolist() == [SCALAR[name](d[:k]) for d in deals]
    assert fast.badugi_batch(arr[:, :4]).tolist() == [badugi.badugi_value(d[:4]) for d in deals]
    assert fast.badugi_batch(arr[:, :5], ace_low=False).tolist() == \
        [badugi.badugi_value(d[:5], ace_low=False) for d in deals]
    for k in (4, 5):
        hi, lo = fast.omaha_hilo8_batch(arr[:, :k], arr[:, 5:10])
        for i, d in enumerate(deals):
            sh, sl = omaha.omaha_hilo8(d[:k], d[5:10])
            assert hi[i] == sh and lo[i] == (fast.NO_LOW if sl is None else sl)
