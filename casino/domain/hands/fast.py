"""Vectorised (numpy) batch evaluators for the rankings of 637a.6 and the games built on it.

Every function takes an ``np.ndarray`` of card ids (0..51, see :mod:`casino.domain.cards`)
shaped ``(N, k)`` and returns one ``int64`` per row; a larger value is a better hand and
equal values tie, exactly as the scalar evaluators in :mod:`.high`, :mod:`.lowball`,
:mod:`.badugi` and :mod:`.omaha` (the tests check they agree value for value).

How it works (ideas in the spirit of perfect-hash evaluators, written for numpy):

* Each card maps to one ``int64`` *key word* whose fields are additive, so the key of a
  hand is the plain sum of its cards' words (and the key of a five-card Omaha hand is the
  sum of a hole-pair key and a board-triple key):

  - bits 0..16: base-5 count of ranks 2..8 (five digits of at most 4 never carry),
  - bits 17..30: base-5 count of ranks 9..A,
  - bits 32..43: three-bit count of each suit,
  - bits 44..: ``1 << rank``; meaningful only when the ranks are distinct (a flush).

* The two base-5 fields index a small dense table (3,180 x 1,548 rank multisets of at most
  seven cards) giving a compact multiset id, and per-ranking value tables are indexed by
  that id. Five-card values come from the scalar reference code (``high._high5_unchecked``
  and the lowball packers); six- and seven-card values are filled by dynamic programming:
  the best five of ``n`` cards is the best over dropping one card of the best five of
  ``n - 1`` (suits aside).
* Flushes are found from the suit-count field; only those rows (a few per cent) look at
  the suited ranks, through a 8,192-entry table over the 13-bit rank mask.

Tables are built in memory on first use (about half a second) and cached for the process;
nothing is written to disk. Rows must hold distinct cards (not checked here, for speed;
:mod:`.games` and the scalar evaluators check duplicates).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import numpy as np

from casino.domain.cards import CardCountError, CardError
from casino.domain.hands import high, lowball

#: Value a low evaluator returns for a hand with no qualifying low (worse than any low).
NO_LOW = -1

_LO_BITS = 17
_HI_SHIFT = 17
_HI_MASK = (1 << 14) - 1
_LO_MASK = (1 << _LO_BITS) - 1
_SUIT_SHIFT = 32
_BITS_SHIFT = 44
_CHUNK = 1 << 16


class _Tables:
    """Everything the batch evaluators look up; built once by :func:`tables`."""

    word: np.ndarray          # (52,) int64 key word per card
    lomap: np.ndarray         # (78125,) int32: base-5 low field -> row
    himap: np.ndarray         # (15625,) int32: base-5 high field -> column
    width: int                # number of columns (high-field multisets)
    compact: np.ndarray       # (rows*width,) int32: multiset -> compact id (-1 invalid)
    high: np.ndarray          # (M,) int64 best non-flush high value
    a5: np.ndarray            # (M,) int64 best A-5 low value (suits never matter)
    d27: np.ndarray           # (M,) int64 best 2-7 low value ignoring flushes
    flush_suit: np.ndarray    # (4096,) int8: suit-count field -> suit with >= 5 cards, -1
    flush_high: np.ndarray    # (8192,) int64: suited rank mask -> best flush/straight flush
    flush_d27: np.ndarray     # (8192,) int64: 5-rank mask -> 2-7 value of that flush
    a5_qualify_min: int       # smallest A-5 value that is eight-or-better


def _digits(size: int) -> list[tuple[int, ...]]:
    """Count vectors over ``size`` ranks, at most four of a rank and seven in all."""
    return [t for t in itertools.product(range(5), repeat=size) if sum(t) <= 7]


@cache
def tables() -> _Tables:
    """Build (once) and return the lookup tables."""
    t = _Tables()
    lo_vecs = np.array(_digits(7), dtype=np.int64)  # counts of ranks 0..6
    hi_vecs = np.array(_digits(6), dtype=np.int64)  # counts of ranks 7..12
    p5_lo = 5 ** np.arange(7, dtype=np.int64)
    p5_hi = 5 ** np.arange(6, dtype=np.int64)
    lomap = np.full(5 ** 7, -1, dtype=np.int32)
    lomap[lo_vecs @ p5_lo] = np.arange(len(lo_vecs), dtype=np.int32)
    himap = np.full(5 ** 6, -1, dtype=np.int32)
    himap[hi_vecs @ p5_hi] = np.arange(len(hi_vecs), dtype=np.int32)
    width = len(hi_vecs)

    # every multiset of 5..7 ranks (at most four of a rank), grouped by size
    lo_n = lo_vecs.sum(1)
    hi_n = hi_vecs.sum(1)
    tot = lo_n[:, None] + hi_n[None, :]
    compact = np.full(len(lo_vecs) * width, -1, dtype=np.int32)
    order: list[np.ndarray] = []
    for n in (5, 6, 7):
        li, hj = np.nonzero(tot == n)
        order.append(li * width + hj)
    flat = np.concatenate(order)
    compact[flat] = np.arange(len(flat), dtype=np.int32)
    size = len(flat)
    counts = np.concatenate([lo_vecs[flat // width], hi_vecs[flat % width]], axis=1)  # (M,13)

    high_v = np.zeros(size, dtype=np.int64)
    a5_v = np.zeros(size, dtype=np.int64)
    d27_v = np.zeros(size, dtype=np.int64)
    n5 = len(order[0])
    for i in range(n5):
        ranks = [r for r in range(13) for _ in range(counts[i, r])]
        # four suits in turn: five cards are never all one suit, so no flush here
        cards = [(r << 2) | (j & 3) for j, r in enumerate(ranks)]
        high_v[i] = high._high5_unchecked(cards)
        a5_v[i] = lowball.a5_value5(ranks)
        d27_v[i] = lowball.d27_value5(ranks, flush=False)

    # six and seven cards: best five = best over removing one card (dynamic programming)
    def key_index(c: np.ndarray) -> np.ndarray:
        return compact[lomap[c[:, :7] @ p5_lo] * width + himap[c[:, 7:] @ p5_hi]]

    start = n5
    for part in order[1:]:
        idx = np.arange(start, start + len(part))
        sub = counts[idx]
        best_h = np.zeros(len(idx), dtype=np.int64)
        best_a = np.zeros(len(idx), dtype=np.int64)
        best_d = np.zeros(len(idx), dtype=np.int64)
        for r in range(13):
            has = sub[:, r] > 0
            child = sub[has].copy()
            child[:, r] -= 1
            ci = key_index(child)
            best_h[has] = np.maximum(best_h[has], high_v[ci])
            best_a[has] = np.maximum(best_a[has], a5_v[ci])
            best_d[has] = np.maximum(best_d[has], d27_v[ci])
        high_v[idx], a5_v[idx], d27_v[idx] = best_h, best_a, best_d
        start += len(part)

    word = np.zeros(52, dtype=np.int64)
    for c in range(52):
        r, s = c >> 2, c & 3
        w = 5 ** r if r < 7 else (5 ** (r - 7)) << _HI_SHIFT
        word[c] = w + (1 << (_SUIT_SHIFT + 3 * s)) + (1 << (_BITS_SHIFT + r))

    flush_suit = np.full(4096, -1, dtype=np.int8)
    for key in range(4096):
        for s in range(4):
            if (key >> (3 * s)) & 7 >= 5:
                flush_suit[key] = s
    flush_high = np.zeros(8192, dtype=np.int64)
    flush_d27 = np.zeros(8192, dtype=np.int64)
    # five suited ranks from the reference code; more by dropping one rank at a time
    for mask in sorted(range(8192), key=lambda m: m.bit_count()):
        n = mask.bit_count()
        if n < 5:
            continue
        if n == 5:
            ranks = [r for r in range(13) if mask >> r & 1]
            flush_high[mask] = high._high5_unchecked([(r << 2) | 3 for r in ranks])
            flush_d27[mask] = lowball.d27_value5(ranks, flush=True)
        else:
            flush_high[mask] = max(flush_high[mask & ~(1 << r)] for r in range(13)
                                   if mask >> r & 1)

    t.word, t.lomap, t.himap, t.width, t.compact = word, lomap, himap, width, compact
    t.high, t.a5, t.d27 = high_v, a5_v, d27_v
    t.flush_suit, t.flush_high, t.flush_d27 = flush_suit, flush_high, flush_d27
    t.a5_qualify_min = lowball.A5_EIGHT_MIN
    return t


def _check(cards: np.ndarray, sizes: tuple[int, ...], what: str) -> np.ndarray:
    a = np.asarray(cards)
    if a.ndim != 2 or a.shape[1] not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise CardCountError(f"{what} needs an (N, {want}) array of cards, got shape {a.shape}")
    if not np.issubdtype(a.dtype, np.integer):
        raise CardError(f"{what}: card ids must be integers 0..51, got {a.dtype}")
    if a.size and (a.min() < 0 or a.max() > 51):
        raise CardError(f"{what}: card ids must be 0..51")
    return a


def _keys(t: _Tables, a: np.ndarray) -> np.ndarray:
    key = t.word[a[:, 0]].copy()
    for j in range(1, a.shape[1]):
        key += t.word[a[:, j]]
    return key


def _multiset(t: _Tables, key: np.ndarray) -> np.ndarray:
    lo = t.lomap[key & _LO_MASK]
    hi = t.himap[(key >> _HI_SHIFT) & _HI_MASK]
    return t.compact[lo.astype(np.intp) * t.width + hi]


def _suited_mask(a: np.ndarray, suit: np.ndarray) -> np.ndarray:
    bits = np.zeros(len(a), dtype=np.intp)
    for j in range(a.shape[1]):
        c = a[:, j]
        bits |= np.where((c & 3) == suit, 1 << (c >> 2), 0)
    return bits


def _chunked(fn: Callable[[np.ndarray], np.ndarray], a: np.ndarray) -> np.ndarray:
    """Apply ``fn`` to row blocks (as ``intp``) so temporaries stay small and cached."""
    if len(a) <= _CHUNK:
        return fn(a.astype(np.intp))
    return np.concatenate([fn(a[i:i + _CHUNK].astype(np.intp))
                           for i in range(0, len(a), _CHUNK)])


# --------------------------------------------------------------------------- high

def high_batch(cards: np.ndarray) -> np.ndarray:
    """Best-five high value (637a.6(a)-(b)) of each row of an ``(N, 5|6|7)`` card array.

    Identical to :func:`casino.domain.hands.high.best_high` row by row.
    """
    a = _check(cards, (5, 6, 7), "high_batch")
    t = tables()
    return _chunked(lambda x: _high_rows(t, x), a)


def _high_rows(t: _Tables, a: np.ndarray) -> np.ndarray:
    key = _keys(t, a)
    val = t.high[_multiset(t, key)]
    fs = t.flush_suit[(key >> _SUIT_SHIFT) & 0xFFF]
    rows = np.flatnonzero(fs >= 0)
    if len(rows):
        if a.shape[1] == 5:
            bits = (key[rows] >> _BITS_SHIFT) & 0x1FFF
        else:
            bits = _suited_mask(a[rows], fs[rows].astype(np.intp))
        val[rows] = np.maximum(val[rows], t.flush_high[bits])
    return val


# --------------------------------------------------------------------------- lowball

def a5_low_batch(cards: np.ndarray) -> np.ndarray:
    """Best-five A-5 low value (637a.6(c)-(d), 637a.20(k)(4)) of ``(N, 5..7)`` rows.

    Larger is better; straights and flushes do not count, so suits are ignored.
    """
    a = _check(cards, (5, 6, 7), "a5_low_batch")
    t = tables()
    return _chunked(lambda x: t.a5[_multiset(t, _keys(t, x))], a)


def a5_eight_batch(cards: np.ndarray) -> np.ndarray:
    """Like :func:`a5_low_batch` but :data:`NO_LOW` where no eight-or-better low exists
    (637a.10(j), 637a.12(l), 637a.19(l)(1))."""
    v = a5_low_batch(cards)
    return np.where(v >= tables().a5_qualify_min, v, NO_LOW)


def deuce7_low_batch(cards: np.ndarray) -> np.ndarray:
    """Best-five 2-7 low value (637a.6(c)-(d), 637a.20(k)(3)) of ``(N, 5..7)`` rows.

    Ace high only; straights and flushes count against the hand. Larger is better.
    """
    a = _check(cards, (5, 6, 7), "deuce7_low_batch")
    t = tables()
    return _chunked(lambda x: _d27_rows(t, x), a)


_COMBOS5 = {k: np.array(list(itertools.combinations(range(k), 5)), dtype=np.intp)
            for k in (5, 6, 7)}


def _d27_rows(t: _Tables, a: np.ndarray) -> np.ndarray:
    key = _keys(t, a)
    val = t.d27[_multiset(t, key)]
    fs = t.flush_suit[(key >> _SUIT_SHIFT) & 0xFFF]
    rows = np.flatnonzero(fs >= 0)
    if len(rows):
        # a flush may be forced into the best five: try every five-card subset
        sub = a[rows]
        best = np.full(len(rows), np.iinfo(np.int64).min, dtype=np.int64)
        for combo in _COMBOS5[a.shape[1]]:
            k5 = _keys(t, sub[:, combo])
            v = t.d27[_multiset(t, k5)]
            flush = t.flush_suit[(k5 >> _SUIT_SHIFT) & 0xFFF] >= 0
            if flush.any():
                # the same ranks as a flush: always a worse 2-7 hand (637a.20(k)(3)(iii))
                v[flush] = t.flush_d27[(k5[flush] >> _BITS_SHIFT) & 0x1FFF]
            best = np.maximum(best, v)
        val[rows] = best
    return val


# --------------------------------------------------------------------------- badugi

_SUBSETS = {k: [s for n in range(1, 5) for s in itertools.combinations(range(k), n)]
            for k in (4, 5)}


def badugi_batch(cards: np.ndarray, ace_low: bool = True) -> np.ndarray:
    """Badugi value (637a.21(k); ace high for Badeucey, 637a.20(l)(1)) of ``(N, 4|5)`` rows.

    With five cards (Badeucey, Badacey) the best Badugi of any four of them counts.
    The value is ``size << 13 | (8191 - rank mask)``, as :func:`.badugi.badugi_value`.
    """
    a = _check(cards, (4, 5), "badugi_batch")
    return _chunked(lambda x: _badugi_rows(x, ace_low), a)


def _badugi_rows(a: np.ndarray, ace_low: bool) -> np.ndarray:
    k = a.shape[1]
    rank = a >> 2
    if ace_low:
        rank = np.where(rank == 12, 0, rank + 1)  # ace is the lowest card (637a.6(c))
    suit = a & 3
    rbit = (1 << rank).astype(np.int32)
    ok = {}
    for i, j in itertools.combinations(range(k), 2):
        ok[i, j] = (rank[:, i] != rank[:, j]) & (suit[:, i] != suit[:, j])
    best = np.zeros(len(a), dtype=np.int64)
    for s in _SUBSETS[k]:
        mask = rbit[:, s[0]].copy()
        for i in s[1:]:
            mask |= rbit[:, i]
        v = (len(s) << 13) | (8191 - mask)
        valid = None
        for p in itertools.combinations(s, 2):
            valid = ok[p] if valid is None else valid & ok[p]
        if valid is not None:
            v = np.where(valid, v, 0)
        np.maximum(best, v, out=best)
    return best


# --------------------------------------------------------------------------- Omaha

_HOLE_PAIRS = {k: np.array(list(itertools.combinations(range(k), 2)), dtype=np.intp)
               for k in (4, 5)}
_BOARD_TRIPLES = np.array(list(itertools.combinations(range(5), 3)), dtype=np.intp)


def omaha_hilo8_batch(hole: np.ndarray, board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Omaha high and eight-or-better low values, exactly two hole cards and three board
    cards (637a.12(k), (l), (m); 637a.19(k), (l)).

    ``hole`` is ``(N, 4|5)``, ``board`` ``(N, 5)``. Returns ``(high, low)``; ``low`` is
    :data:`NO_LOW` where no five-card combination makes an eight-or-better low.
    """
    h = _check(hole, (4, 5), "omaha_hilo8_batch hole")
    b = _check(board, (5,), "omaha_hilo8_batch board")
    if len(h) != len(b):
        raise CardCountError("hole and board arrays must have the same number of rows")
    t = tables()
    step = max(1, _CHUNK // 8)  # each row expands to 60 or 100 five-card hands
    his, los = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for i in range(0, len(h), step):
        hi, lo = _omaha_rows(t, h[i:i + step].astype(np.intp), b[i:i + step].astype(np.intp))
        his.append(hi)
        los.append(lo)
    return np.concatenate(his), np.concatenate(los)


def _omaha_rows(t: _Tables, h: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w = t.word
    pairs = _HOLE_PAIRS[h.shape[1]]
    hk = w[h[:, pairs[:, 0]]] + w[h[:, pairs[:, 1]]]                           # (n, P)
    bk = w[b[:, _BOARD_TRIPLES[:, 0]]] + w[b[:, _BOARD_TRIPLES[:, 1]]] + \
        w[b[:, _BOARD_TRIPLES[:, 2]]]                                          # (n, 10)
    key = (hk[:, :, None] + bk[:, None, :]).reshape(len(h), -1)               # (n, P*10)
    ms = _multiset(t, key)
    hi = t.high[ms]
    flush = t.flush_suit[(key >> _SUIT_SHIFT) & 0xFFF] >= 0
    if flush.any():
        hi[flush] = t.flush_high[(key[flush] >> _BITS_SHIFT) & 0x1FFF]
    lo = t.a5[ms]
    best_lo = lo.max(1)
    best_lo = np.where(best_lo >= t.a5_qualify_min, best_lo, NO_LOW)
    return hi.max(1), best_lo
