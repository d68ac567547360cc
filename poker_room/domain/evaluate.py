"""Showdown values for every game, fast enough for the engine's hot path.

Values are those of :mod:`casino.domain.hands` (larger is better, equal ties): the same
rankings (637a.6), looked up instead of searched. Seven-card tables are built once from the
five-card tables of :mod:`casino.domain.hands.high` and :mod:`casino.domain.hands.lowball`
by dynamic programming (the best five of ``n`` cards is the best over dropping one card of
``n``), so they cannot disagree with the reference rankings; the tests check them too.

* rank multiset key: ``sum(5 ** rank)`` (:data:`high._P5`), unique for up to 4 of a rank;
* suit counts: ``sum(1 << 4 * suit)``; a suit with five or more cards makes a flush;
* flush rank mask: ``sum(1 << rank)`` over the cards of that suit.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from casino.domain.hands import badugi as _badugi
from casino.domain.hands import high as _high
from casino.domain.hands import lowball as _low

P5 = _high._P5
BIT = _high._BIT
SW = tuple(1 << (4 * (c & 3)) for c in range(52))
NO_LOW = -1


class _Tables:
    high: dict[int, int]        # multiset key (5-7 cards) -> best non-flush high value
    flush: list[int]            # rank mask (5-7 ranks) -> best flush value, else -1
    flush_suit: list[int]       # suit-count word -> suit with >= 5 cards, else -1
    plain5: dict[int, int]      # five-card multiset -> high value (no flush)
    flush5: dict[int, int]      # five-rank mask -> flush / straight flush value
    a5: dict[int, int]          # multiset key (5-7 cards) -> best A-5 value
    low8_5: dict[int, int]      # five-card multiset -> A-5 value if eight-or-better else -1
    d27: dict[tuple[int, bool], int]


def _multisets(k: int):
    for ranks in itertools.combinations_with_replacement(range(13), k):
        if max(ranks.count(r) for r in set(ranks)) <= 4:
            yield ranks


def _extend(base: dict[int, int], k: int) -> dict[int, int]:
    """Best value of each k-card multiset: the best of its (k-1)-card sub-multisets."""
    out: dict[int, int] = {}
    for ranks in _multisets(k):
        key = sum(5 ** r for r in ranks)
        out[key] = max(base[key - 5 ** r] for r in set(ranks))
    return out


@cache
def tables() -> _Tables:
    t = _Tables()
    plain5, flush5 = _high._lookup5()
    t.plain5, t.flush5 = plain5, flush5
    six = _extend(plain5, 6)
    seven = _extend(six, 7)
    t.high = {**plain5, **six, **seven}
    flush = [-1] * 8192
    for mask, v in flush5.items():
        flush[mask] = v
    for k in (6, 7):
        for ranks in itertools.combinations(range(13), k):
            mask = sum(1 << r for r in ranks)
            flush[mask] = max(flush[mask & ~(1 << r)] for r in ranks)
    t.flush = flush
    fs = [-1] * (1 << 16)
    for counts in itertools.product(range(8), repeat=4):
        if sum(counts) <= 7:
            word = sum(n << (4 * s) for s, n in enumerate(counts))
            for s, n in enumerate(counts):
                if n >= 5:
                    fs[word] = s
    t.flush_suit = fs
    a5_5 = {}
    for ranks in _multisets(5):
        a5_5[sum(5 ** r for r in ranks)] = _low.a5_value5(ranks)
    a5_6 = _extend(a5_5, 6)
    t.a5 = {**a5_5, **a5_6, **_extend(a5_6, 7)}
    t.low8_5 = {k: (v if _low.qualifies_eight(v) else NO_LOW) for k, v in a5_5.items()}
    t.d27 = {}
    for ranks in _multisets(5):
        key = sum(5 ** r for r in ranks)
        for flush_ in (False, True):
            if flush_ and len(set(ranks)) < 5:
                continue
            t.d27[(key, flush_)] = _low.d27_value5(ranks, flush=flush_)
    return t


def high(cards: Sequence[int]) -> int:
    """Best high value of 5-7 cards (637a.6(b), 637a.10(i)(1), 637a.11(k))."""
    t = tables()
    key = 0
    sw = 0
    for c in cards:
        key += P5[c]
        sw += SW[c]
    v = t.high[key]
    s = t.flush_suit[sw]
    if s >= 0:
        m = 0
        for c in cards:
            if c & 3 == s:
                m += BIT[c]
        f = t.flush[m]
        if f > v:  # noqa: PLR1730 - a compare is faster than max() in this hot loop
            v = f
    return v


def a5(cards: Sequence[int]) -> int:
    """Best A-5 low of 5-7 cards (637a.6(c)-(d)); no qualifier."""
    key = 0
    for c in cards:
        key += P5[c]
    return tables().a5[key]


def a5_eight(cards: Sequence[int]) -> int:
    """Best eight-or-better low of 5-7 cards, or :data:`NO_LOW` (637a.10(j))."""
    v = a5(cards)
    return v if _low.qualifies_eight(v) else NO_LOW


def d27(cards: Sequence[int]) -> int:
    """2-7 value of exactly five cards (637a.20(k)(3))."""
    a, b, c, d, e = cards
    flush = (a & 3) == (b & 3) == (c & 3) == (d & 3) == (e & 3)
    return tables().d27[(P5[a] + P5[b] + P5[c] + P5[d] + P5[e], flush)]


def badugi(cards: Sequence[int], *, ace_low: bool = True) -> int:
    """Badugi value of four (or, Badeucey/Badacey, five) cards (637a.21(k))."""
    return _badugi.badugi_best(cards, ace_low=ace_low)[0]


def _pairs(cards: Sequence[int]):
    return [(P5[a] + P5[b], BIT[a] + BIT[b], (a & 3) if (a & 3) == (b & 3) else -1)
            for a, b in itertools.combinations(cards, 2)]


def _triples(board: Sequence[int]):
    return [(P5[a] + P5[b] + P5[c], BIT[a] + BIT[b] + BIT[c],
             (a & 3) if (a & 3) == (b & 3) == (c & 3) else -2)
            for a, b, c in itertools.combinations(board, 3)]


def omaha(hole: Sequence[int], board: Sequence[int], *, low: bool = False
          ) -> tuple[int, int]:
    """Omaha (two hole cards and three board cards, 637a.12(k), 637a.19(k)) high value and,
    with ``low``, the eight-or-better low value or :data:`NO_LOW` (637a.12(l))."""
    t = tables()
    plain5, flush5, low8 = t.plain5, t.flush5, t.low8_5
    best_h = -1
    best_l = NO_LOW
    trips = _triples(board)
    for pk, pb, ps in _pairs(hole):
        for tk, tb, ts in trips:
            key = pk + tk
            if ps == ts:
                v = flush5[pb + tb]
            else:
                v = plain5[key]
            if v > best_h:  # noqa: PLR1730 - hot loop, see high()
                best_h = v
            if low:
                lv = low8[key]
                if lv > best_l:  # noqa: PLR1730 - hot loop, see high()
                    best_l = lv
    return best_h, best_l


# --------------------------------------------------------------- the cards that decide

def best_five(kind: str, cards: Sequence[int], board: Sequence[int] = ()) -> tuple[int, ...]:
    """The five cards (or Badugi cards) making the hand of one share, for odd chips by
    suit (637a.10(i)(3)(ii)-(iii)). Slow path: only for tied shares with an odd chip."""
    from casino.domain.hands import omaha as _om

    if kind in ("omaha_high", "omaha_low"):
        if kind == "omaha_high":
            return tuple(_om.omaha_high_five(cards, board)[1])
        found = _om.omaha_low8_five(cards, board)
        return tuple(found[1]) if found else ()
    allc = list(cards) + list(board)
    if kind == "high":
        return tuple(_high.best_high_five(allc)[1])
    if kind == "a5":
        return tuple(_low.a5_low_five(allc)[1])
    if kind == "d27":
        return tuple(_low.d27_low_five(allc)[1])
    if kind == "badugi":
        return tuple(_badugi.badugi_best(allc, ace_low=True)[1])
    if kind == "badugi_ace_high":
        return tuple(_badugi.badugi_best(allc, ace_low=False)[1])
    raise ValueError(kind)
